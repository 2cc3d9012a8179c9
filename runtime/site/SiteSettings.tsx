import { useQuery } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext } from 'react'
import type { AgreementText, SiteSettingsView } from '../../generated/content.ts'
import { quietClient } from '../quietClient.ts'

/** The tenant's site settings (SPEC §3) as GET site/settings answers them (schemas/siteSettingsView.yaml). */
export type SiteSettings = SiteSettingsView

/** One language's text of an agreement: paragraphs separated by blank lines. */
export type Agreement = AgreementText

interface SiteState {
  settings: SiteSettings | null
  /** False while the first answer is awaited. */
  settled: boolean
}

const SiteContext = createContext<SiteState>({ settings: null, settled: false })

export function SiteSettingsProvider({ children }: { children: ReactNode }) {
  const { data, isPending } = useQuery({
    queryKey: ['siteSettings'],
    queryFn: async ({ signal }) => (await quietClient.b2b.siteSettings({}, signal)).content,
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
  return (language === 'zh' ? settings.websiteName : settings.websiteNameEn || settings.websiteName) ?? ''
}

/** The logo a tenant without one shows (square). */
export const DEFAULT_LOGO = '/logo.svg'

/**
 * The width a header draws the logo at for a height: an uploaded logo is 105×45 (/operationSet checks it from
 * the bytes), the shipped one square. Known before the image loads, so nothing beside it moves.
 */
export function logoWidth(url: string | null | undefined, height: number): number {
  return url && url !== DEFAULT_LOGO ? Math.round((height * 105) / 45) : height
}
