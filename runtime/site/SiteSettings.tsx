import { useQuery } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext } from 'react'
import { useTranslation } from 'react-i18next'
import { call } from '../api.ts'
import type { Language } from '../i18n.ts'

/** The tenant's site settings (SPEC §3) as the public site needs them. */
export interface SiteSettings {
  tenantId: number
  tenantCode: string
  websiteName: string
  websiteNameEn: string
  themeColor: string
  servicePhone: string
  mail: string
  pageTemplate: number
  homeMode: number
  copyright: string
  copyrightEn: string
  icp: string
  logoList: { url: string }[]
  transportationSupport: number[]
}

const SiteContext = createContext<SiteSettings | null>(null)

export function SiteSettingsProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  const { data } = useQuery({
    queryKey: ['siteSettings'],
    queryFn: async ({ signal }) =>
      (
        await call<SiteSettings>('GET', '/b2b/public/api/site/settings', {
          language: i18n.language as Language,
          signal,
        })
      ).content,
    staleTime: 5 * 60_000,
  })
  return <SiteContext.Provider value={data ?? null}>{children}</SiteContext.Provider>
}

export function useSiteSettings() {
  return useContext(SiteContext)
}

/** The site name in the reader's language: Chinese readers get the Chinese name, everyone else the English one. */
export function siteName(settings: SiteSettings | null, language: string): string {
  if (!settings) return 'Waybill'
  return language === 'zh' ? settings.websiteName : settings.websiteNameEn || settings.websiteName
}
