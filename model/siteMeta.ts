/**
 * What a public page says about itself — its tab title, its description, which copy it shows — in one
 * module without React or the DOM, so the portal (runtime/site/head.ts, the route gate) and the server that
 * writes the same into the HTML it sends (server/portal/, issue #18) cannot drift apart.
 */

export const TITLE_SEPARATOR = ' — '

/** "<page title> — <site name>", or the site name alone on a page titled like the site. */
export function pageTitle(title: string, site: string): string {
  return title && title !== site ? `${title}${TITLE_SEPARATOR}${site}` : site
}

/** Components whose pages describe themselves from their own copy (the lead of the service or about page). */
export const PAGES_WITH_OWN_DESCRIPTION: ReadonlySet<string> = new Set(['servicePage', 'aboutPage'])

/** Components described by a text of their own (`site.description_*`); the others by the site's default. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  home: 'site.metaHome',
  newsList: 'site.description_news',
  tracking: 'site.description_tracking',
  rateSearch: 'site.description_rates',
  rateComparison: 'site.description_rates',
}

/** The text key of a page's meta description ({{site}} filled in); undefined for a page with its own copy. */
export function descriptionKey(component: string | null): string | undefined {
  if (component !== null && PAGES_WITH_OWN_DESCRIPTION.has(component)) return undefined
  return (component !== null && DESCRIPTIONS[component]) || 'site.metaDefault'
}

export type SitePageName = 'services' | 'fcl' | 'lcl' | 'air' | 'fba' | 'sea' | 'insurance' | 'about' | 'philosophy'

/** Which copy each public route shows (route names of screens/site.yaml). */
export const PAGE_OF_ROUTE: Readonly<Record<string, SitePageName>> = {
  productService: 'services',
  service: 'services',
  serviceCenter: 'services',
  serviceDetail: 'services',
  fclProductService: 'fcl',
  siteLclProductService: 'lcl',
  siteAirProductService: 'air',
  airServiceDetail: 'air',
  fbaProductService: 'fba',
  seaServiceDetail: 'sea',
  insureServiceDetail: 'insurance',
  whoWeAre: 'about',
  aboutUs: 'about',
  about: 'about',
  companyPhilosophy: 'philosophy',
}

/** The copy a service or about page shows: its own, else its family's first page. */
export function pageOfRoute(route: { name: string; component: string | null }): SitePageName | undefined {
  if (route.component !== 'servicePage' && route.component !== 'aboutPage') return undefined
  return PAGE_OF_ROUTE[route.name] ?? (route.component === 'servicePage' ? 'services' : 'about')
}

/** The service pages' side menu: each service and the route that shows it. */
export const SERVICE_LINKS: readonly { page: SitePageName; to: string }[] = [
  { page: 'services', to: '/productService' },
  { page: 'fcl', to: '/FclProductService' },
  { page: 'lcl', to: '/LclProductService' },
  { page: 'air', to: '/AirProductService' },
  { page: 'fba', to: '/FbaProductService' },
  { page: 'sea', to: '/SeaServiceDetail' },
  { page: 'insurance', to: '/InsureServiceDetail' },
]

/** The service pages' side menu after the pages: SPEC §1's "schedule query", a screen of its own (a locale key each). */
export const SERVICE_TOOLS: readonly { label: string; to: string }[] = [
  { label: 'route.shippingSchedules', to: '/shippingSchedules' },
]

/** The about pages' side menu. */
export const ABOUT_LINKS: readonly { page: SitePageName; to: string }[] = [
  { page: 'about', to: '/WhoWeAre' },
  { page: 'philosophy', to: '/CompanyPhilosophy' },
]

/** One language's text of an agreement (SPEC §3 serviceAgreementList / privacyAgreementList). */
export interface AgreementText {
  language: string
  title: string
  /** Paragraphs separated by blank lines. */
  content: string
}

/** The entry in the reader's language, else English, else Chinese, else the first there is. */
export function agreementFor(list: readonly AgreementText[] | undefined, language: string): AgreementText | null {
  if (!list?.length) return null
  return (
    list.find((a) => a.language === language) ??
    list.find((a) => a.language === 'en') ??
    list.find((a) => a.language === 'zh') ??
    list[0] ??
    null
  )
}

/** An agreement's paragraphs, as the page shows them. */
export function paragraphs(content: string): string[] {
  return content
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
}

/** Where a news article opens on the public site. */
export const newsHref = (id: number) => `/InformationCenterDetail?id=${id}`

/** A mobile page → the full site's page with the same content (its canonical address). */
export const DESKTOP_OF_MOBILE: Readonly<Record<string, string>> = {
  '/m': '/dashboard',
  '/m/tracking': '/orderTracking',
  '/m/news': '/News',
  '/m/news/detail': '/InformationCenterDetail',
}
