import { useEffect, useSyncExternalStore } from 'react'
import { useLocation, useNavigate } from 'react-router'
import type { RouteEntry } from '../../../generated/routes.ts'
import { DESKTOP_OF_MOBILE } from '../meta.ts'
import { type SiteSettings, useSiteSettings } from '../SiteSettings.tsx'

/**
 * SPEC §1/§9: a visitor narrower than 992 px on the product's own host is sent to the mobile site, and back
 * to the full site once the window is wide again. Pure rules here, the hook below carries them out.
 *
 * "The product's own host" (docs/DECISIONS.md): a host the portal serves the tenant on itself — the
 * tenant's configured `companyDomainName` (comma-separated for several) and the local development hosts
 * (localhost, 127.0.0.1, *.localhost). A site framed or proxied under any other host keeps the full layout.
 */

export const MOBILE_BREAKPOINT = 992

/** Public page → its mobile counterpart; pages without one stay on the full site. */
const TO_MOBILE: Readonly<Record<string, string>> = {
  '/': '/m',
  '/dashboard': '/m',
  '/orderTracking': '/m/tracking',
  '/sopQuery': '/m/tracking',
  '/tracking': '/m/tracking',
  '/News': '/m/news',
  '/informationCenterList': '/m/news',
  '/InformationCenterDetail': '/m/news/detail',
}

const TO_DESKTOP = DESKTOP_OF_MOBILE

/** Set when a phone visitor chose "Full site": they keep it for the browser session. */
export const FULL_SITE_KEY = 'waybill.fullSite'

const DEV_HOST = /^(localhost|127\.0\.0\.1|.+\.localhost)$/i

export function isOwnHost(hostname: string, settings: Pick<SiteSettings, 'companyDomainName'> | null): boolean {
  const host = hostname.toLowerCase()
  if (DEV_HOST.test(host)) return true
  const domains = String(settings?.companyDomainName ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean)
  return domains.includes(host)
}

export interface SwitchInput {
  layout: RouteEntry['layout']
  pathname: string
  search: string
  width: number
  hostname: string
  settings: Pick<SiteSettings, 'companyDomainName'> | null
  fullSiteChosen: boolean
}

/** Where the visitor should be instead, or null to stay. The query (tracking numbers, news id) travels along. */
export function switchTarget({
  layout,
  pathname,
  search,
  width,
  hostname,
  settings,
  fullSiteChosen,
}: SwitchInput): string | null {
  if (layout === 'mobile') {
    const to = width >= MOBILE_BREAKPOINT ? TO_DESKTOP[pathname] : undefined
    return to ? `${to}${search}` : null
  }
  if (layout !== 'site' && pathname !== '/') return null
  if (width >= MOBILE_BREAKPOINT || fullSiteChosen || !isOwnHost(hostname, settings)) return null
  const to = TO_MOBILE[pathname]
  return to ? `${to}${search}` : null
}

export function desktopPathOf(pathname: string): string {
  return TO_DESKTOP[pathname] ?? '/dashboard'
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}

function fullSiteChosen(): boolean {
  try {
    return sessionStorage.getItem(FULL_SITE_KEY) === '1'
  } catch {
    return false
  }
}

export function chooseFullSite(): void {
  try {
    sessionStorage.setItem(FULL_SITE_KEY, '1')
  } catch {
    // Private mode without storage: the visitor simply meets the mobile site again on the next page.
  }
}

/** Carries out `switchTarget` for the route being shown, and again whenever the window is resized. */
export function MobileSwitch({ route }: { route: RouteEntry }): null {
  const width = useSyncExternalStore(subscribe, () => window.innerWidth)
  // Re-render on every navigation, but read the address itself: while a navigation's page is still
  // loading (its texts, say), the page being left stays on screen with the old location, and a resize
  // then must not send the visitor from where they already are.
  useLocation()
  const navigate = useNavigate()
  const settings = useSiteSettings()
  const target = switchTarget({
    layout: route.layout,
    pathname: window.location.pathname,
    search: window.location.search,
    width,
    hostname: window.location.hostname,
    settings,
    fullSiteChosen: fullSiteChosen(),
  })
  useEffect(() => {
    if (target) navigate(target, { replace: true })
  }, [target, navigate])
  return null
}
