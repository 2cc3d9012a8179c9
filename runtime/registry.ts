import { type ComponentType, type LazyExoticComponent, lazy } from 'react'
import type { RouteEntry } from '../generated/routes.ts'
import type { COMPONENTS, SCREEN_KINDS } from '../model/registries.ts'
import { PUBLIC_PAGES } from './site/loaders.ts'

/**
 * The code a screen YAML names (STYLE §1): `kind:` picks a generic screen, `component:` a hand-written
 * one. Every name of model/registries.ts has an entry (a unit test holds the lists equal); names not
 * built yet show the placeholder. Everything loads lazily, so a page downloads only the screens it shows.
 */

export type ScreenProps = { route: RouteEntry }
export type ScreenComponent = LazyExoticComponent<ComponentType<ScreenProps>>
export type ScreenKind = (typeof SCREEN_KINDS)[number]
export type ComponentName = (typeof COMPONENTS)[number]

const placeholder: ScreenComponent = lazy(() => import('./shell/PlannedScreen.tsx'))

export const SCREEN_KIND_REGISTRY: Record<ScreenKind, ScreenComponent> = {
  list: lazy(() => import('./screens/list/ListScreen.tsx')),
  form: lazy(() => import('./screens/form/FormScreen.tsx')),
  detail: lazy(() => import('./screens/detail/DetailScreen.tsx')),
  // Apache ECharts loads with this chunk only: no other page carries it.
  chart: lazy(() => import('./screens/chart/ChartScreen.tsx')),
  custom: placeholder,
}

export const COMPONENT_REGISTRY: Record<ComponentName, ScreenComponent> = {
  login: lazy(() => import('./screens/auth/Login.tsx')),
  register: lazy(() => import('./screens/auth/Register.tsx')),
  resetPassword: lazy(() => import('./screens/auth/ResetPassword.tsx')),
  agreement: lazy(() => import('./site/pages/Agreement.tsx')),
  home: lazy(PUBLIC_PAGES.home),
  tracking: lazy(PUBLIC_PAGES.tracking),
  sharedTracking: lazy(PUBLIC_PAGES.sharedTracking),
  newsList: lazy(PUBLIC_PAGES.newsList),
  newsDetail: lazy(PUBLIC_PAGES.newsDetail),
  servicePage: lazy(PUBLIC_PAGES.servicePage),
  aboutPage: lazy(PUBLIC_PAGES.aboutPage),
  notFound: lazy(() => import('./site/pages/NotFound.tsx')),
  rateSearch: lazy(PUBLIC_PAGES.rateSearch),
  rateComparison: lazy(() => import('./flows/rates/RateComparison.tsx')),
  specialRateApplication: lazy(() => import('./flows/rates/SpecialRateApplication.tsx')),
  specialRateDetail: lazy(() => import('./flows/rates/SpaDetail.tsx')),
  quoteEditor: lazy(() => import('./flows/quotes/QuoteEditor.tsx')),
  quoteComparison: lazy(() => import('./flows/quotes/QuoteComparison.tsx')),
  palletInquiry: lazy(() => import('./flows/inquiry/PalletInquiry.tsx')),
  inquiryHome: lazy(() => import('./flows/inquiry/InquiryHome.tsx')),
  bookingOrder: lazy(() => import('./flows/booking/BookingOrder.tsx')),
  blEditor: lazy(() => import('./flows/bl-editor/BlEditor.tsx')),
  imChat: lazy(() => import('./flows/chat/ImChat.tsx')),
  roleTree: placeholder,
  overlayEditor: lazy(() => import('./screens/overlay/OverlayEditor.tsx')),
  placeholder,
}

/**
 * Routes whose YAML does not name a component yet but whose page exists. (To go once screens/*.yaml
 * say `component: home` and so on.)
 */
export const ROUTE_COMPONENTS: Readonly<Record<string, ComponentName>> = {
  dashboard: 'home',
  notFound: 'notFound',
}

function isComponentName(name: string): name is ComponentName {
  return Object.hasOwn(COMPONENT_REGISTRY, name)
}

/** The component that draws a route: its `component:`, else its built `kind:`, else the placeholder. */
export function screenFor(route: Pick<RouteEntry, 'name' | 'component' | 'kind' | 'status'>): ScreenComponent {
  if (route.component && isComponentName(route.component)) return COMPONENT_REGISTRY[route.component]
  const bound = ROUTE_COMPONENTS[route.name]
  if (bound) return COMPONENT_REGISTRY[bound]
  if (route.kind && route.status === 'built') return SCREEN_KIND_REGISTRY[route.kind]
  return placeholder
}
