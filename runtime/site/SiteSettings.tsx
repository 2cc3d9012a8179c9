import { useQuery } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext } from 'react'
import { quietClient } from '../quietClient.ts'

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
  inquiryAllowed?: boolean
  iconPath?: string
  /** The external IM website (SPEC §2 "IM link"); empty when the tenant has none. */
  imUrl: string
  /** The public site (issue 6, docs/CONFIGURATION.md "Public site"). */
  companyDomainName?: string
  backgroundImageList?: { url: string }[]
  backgroundImagePlay?: boolean
  serviceAgreementList?: Agreement[]
  privacyAgreementList?: Agreement[]
  companyAddress?: string
  companyAddressEn?: string
  configuration?: { homeSpecialRouteCount?: number }
}

/** One language's text of an agreement: paragraphs separated by blank lines. */
export interface Agreement {
  language: string
  title: string
  content: string
}

interface SiteState {
  settings: SiteSettings | null
  /** False while the first answer is awaited. */
  settled: boolean
}

const SiteContext = createContext<SiteState>({ settings: null, settled: false })

export function SiteSettingsProvider({ children }: { children: ReactNode }) {
  const { data, isPending } = useQuery({
    queryKey: ['siteSettings'],
    queryFn: async ({ signal }) => (await quietClient.b2b.siteSettings({}, signal)).content as SiteSettings,
    staleTime: 5 * 60_000,
  })
  return <SiteContext.Provider value={{ settings: data ?? null, settled: !isPending }}>{children}</SiteContext.Provider>
}

export function useSiteSettings(): SiteSettings | null {
  return useContext(SiteContext).settings
}

/** The tenant's home mode: undefined while settings load, null when they could not be read. */
export function useHomeMode(): number | null | undefined {
  const { settings, settled } = useContext(SiteContext)
  if (!settled) return undefined
  return settings ? Number(settings.homeMode ?? 1) : null
}

/** The site name in the reader's language: Chinese readers get the Chinese name, everyone else the English one. */
export function siteName(settings: SiteSettings | null, language: string): string {
  if (!settings) return 'Waybill'
  return language === 'zh' ? settings.websiteName : settings.websiteNameEn || settings.websiteName
}
