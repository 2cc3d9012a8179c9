/**
 * Which texts a page needs. The generator packs each language's locale namespaces into three bundles
 * (generator/emit/index.ts TEXT_BUNDLES): `site` (what the public site shows), `screens` (what the
 * workbench's forms and lists show: fields, states, validation…) and `server` (the server's own messages,
 * which it answers translated and the portal therefore never loads up front).
 */

export type TextBundle = 'site' | 'screens' | 'server'

export const TEXT_BUNDLES: readonly TextBundle[] = ['site', 'screens', 'server']

export interface RouteLayout {
  layout: string
  redirect: string | null
}

/** A public site page (and a redirect) needs the site's texts; any other page the screens' too. */
export function textsFor(route: RouteLayout): readonly TextBundle[] {
  return route.layout === 'site' || route.redirect ? ['site'] : ['site', 'screens']
}
