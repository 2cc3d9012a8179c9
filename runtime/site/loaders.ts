/**
 * The code of the pages a visitor lands on, loaded once: the registry draws them (runtime/registry.ts), the
 * first drawing fetches the first page's code beside its texts (runtime/shell/initial.ts) and the home page
 * picks its template (./Home.tsx). One set of loaders, so the entry chunk carries each import once — the
 * home page's budget is 160 KB (issue #19, point 8).
 */
export const PUBLIC_PAGES = {
  home: () => import('./Home.tsx'),
  rateSearch: () => import('../flows/rates/RateSearch.tsx'),
  tracking: () => import('./tracking/TrackingPage.tsx'),
  sharedTracking: () => import('./tracking/SharedTrackingPage.tsx'),
  newsList: () => import('./news/NewsList.tsx'),
  newsDetail: () => import('./news/NewsDetail.tsx'),
  servicePage: () => import('./pages/ServicePage.tsx'),
  aboutPage: () => import('./pages/AboutPage.tsx'),
} as const

/** The six white-label home templates (SPEC §2), each a chunk of its own, by number. */
export const HOME_TEMPLATES = [
  () => import('./home/Template0.tsx'),
  () => import('./home/Template1.tsx'),
  () => import('./home/Template2.tsx'),
  () => import('./home/Template3.tsx'),
  () => import('./home/Template4.tsx'),
  () => import('./home/Template5.tsx'),
] as const

export const loadMobileHome = () => import('./mobile/MobileHome.tsx')
export const loadMobileShell = () => import('./mobile/MobileShell.tsx')
