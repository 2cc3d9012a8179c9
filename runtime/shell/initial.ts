import type { QueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import type { RouteEntry } from '../../generated/routes.ts'
import { routeAt } from '../App.tsx'
import { chooseTemplate, templateFromPreview } from '../site/home/choice.ts'
import { HOME_TEMPLATES, loadMobileHome, loadMobileShell, PUBLIC_PAGES } from '../site/loaders.ts'
import { FULL_SITE_KEY, switchTarget } from '../site/mobile/switch.ts'
import type { SiteSettings } from '../site/SiteSettings.tsx'

/**
 * The portal's first drawing, complete (issue #18, "speed on a phone"). The server writes into each page
 * the answers its first drawing needs (server/portal/initial.ts); they seed the query cache, so the site's
 * frame, its lanes and news are drawn at their final size at once instead of moving the page as each call
 * answers. The first page's code is loaded beside its texts before React draws anything, so the server's
 * summary stays until the page replaces it whole — no spinner in between, whose arrival and departure
 * moved the body (CLS 0.29 on the mobile home before).
 */

export interface InitialData {
  siteSettings?: SiteSettings
  personalization?: { pageTemplate?: unknown; homeMode?: unknown; themeColor?: unknown }
  language?: string
  specialRoutes?: unknown[]
  homeNews?: { hot?: unknown[]; recommended?: unknown[]; limit?: number }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The page's `#waybill-initial` JSON; null when there is none (a build served without the server) or it is unreadable. */
export function readInitialData(doc: Document = document): InitialData | null {
  const text = doc.getElementById('waybill-initial')?.textContent
  if (!text) return null
  try {
    const data: unknown = JSON.parse(text)
    return isObject(data) ? (data as InitialData) : null
  } catch {
    return null
  }
}

/** Answers that do not depend on the reader's language. */
export function seedQueries(queryClient: QueryClient, data: InitialData | null): void {
  if (!data) return
  if (isObject(data.siteSettings)) queryClient.setQueryData(['siteSettings'], data.siteSettings)
  if (isObject(data.personalization)) queryClient.setQueryData(['personalization'], data.personalization)
  if (Array.isArray(data.specialRoutes)) queryClient.setQueryData(['specialRoutes'], data.specialRoutes)
}

/** The home's news, when the server read it in the language the portal starts in (runtime/site/home/data.ts). */
export function seedNews(
  queryClient: QueryClient,
  data: InitialData | null,
  language: string = i18next.language,
): void {
  const news = data?.homeNews
  if (!news || data?.language !== language || typeof news.limit !== 'number') return
  for (const kind of ['hot', 'recommended'] as const) {
    const list = news[kind]
    if (Array.isArray(list)) queryClient.setQueryData(['homeNews', kind, news.limit, language], list)
  }
}

function fullSiteChosen(): boolean {
  try {
    return sessionStorage.getItem(FULL_SITE_KEY) === '1'
  } catch {
    return false
  }
}

/**
 * A phone on a page of the full site that has a mobile twin goes there before the first drawing (the
 * rule of runtime/site/mobile/switch.ts, which the page keeps applying afterwards).
 */
export function goMobileFirst(data: InitialData | null): void {
  const { pathname, search, hash, hostname } = window.location
  const route = routeAt(pathname)
  if (!route) return
  const target = switchTarget({
    layout: route.layout,
    pathname,
    search,
    width: window.innerWidth,
    hostname,
    settings: data?.siteSettings ?? null,
    fullSiteChosen: fullSiteChosen(),
  })
  if (target) window.history.replaceState(window.history.state, '', `${target}${hash}`)
}

/** The longest the first drawing waits for its code (the server's summary is on screen meanwhile): after that it draws with its spinners. */
const PRELOAD_WAIT_MS = 10_000

/** Loads the first page's layout and screen; never fails (a chunk that does not load is the page's to say). */
export async function preloadFirstPage(route: RouteEntry | undefined, data: InitialData | null): Promise<void> {
  if (route?.access !== 'public') return
  const loads: Promise<unknown>[] = []
  if (route.layout === 'mobile') loads.push(loadMobileShell())
  if (route.component === 'home' || route.name === 'dashboard') {
    loads.push(PUBLIC_PAGES.home())
    if (route.layout === 'mobile') loads.push(loadMobileHome())
    else {
      const template = chooseTemplate({
        preview: templateFromPreview(window.location.search),
        personalized: data?.personalization?.pageTemplate,
        failed: false,
        hostname: window.location.hostname,
      })
      if (template !== undefined) loads.push((HOME_TEMPLATES[template] ?? HOME_TEMPLATES[0])())
    }
  }
  const screen =
    route.component && route.component !== 'home' && Object.hasOwn(PUBLIC_PAGES, route.component)
      ? PUBLIC_PAGES[route.component as keyof typeof PUBLIC_PAGES]
      : undefined
  if (screen) loads.push(screen())
  if (!loads.length) return
  await Promise.race([Promise.allSettled(loads), new Promise((resolve) => window.setTimeout(resolve, PRELOAD_WAIT_MS))])
}
