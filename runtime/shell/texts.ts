/**
 * Which texts a page needs. The generator packs each language's locale namespaces into bundles
 * (generator/emit/index.ts TEXT_BUNDLES): `site` (what every public page shows), `tracking` and `news`
 * (the public pages of their own, loaded with them), `screens` (what the workbench's forms and lists
 * show: fields, states, validation…) and `server` (the server's own messages, which it answers
 * translated and the portal therefore never loads up front).
 */

export type TextBundle = 'site' | 'tracking' | 'news' | 'screens' | 'server'

export const TEXT_BUNDLES: readonly TextBundle[] = ['site', 'tracking', 'news', 'screens', 'server']

export interface RouteLayout {
  layout: string
  redirect: string | null
  component?: string | null
  /** Bundles of public pages the screen's own labels name (generated/routes.ts). */
  texts?: readonly TextBundle[]
}

/** Public pages whose texts come in a bundle of their own, by the component that draws them. */
const COMPONENT_TEXTS: Readonly<Record<string, readonly TextBundle[]>> = {
  tracking: ['tracking'],
  sharedTracking: ['tracking'],
  newsList: ['news'],
  newsDetail: ['news'],
}

/**
 * A public site page, full or mobile (and a redirect), needs the site's texts and its own; any other
 * page the screens' too.
 */
export function textsFor(route: RouteLayout): readonly TextBundle[] {
  const own = (route.component && COMPONENT_TEXTS[route.component]) || []
  const base: readonly TextBundle[] =
    route.layout === 'site' || route.layout === 'mobile' || route.redirect ? ['site'] : ['site', 'screens']
  return [...new Set([...base, ...own, ...(route.texts ?? [])])]
}
