import type { RouteEntry } from '../../generated/routes.ts'

/** All of the manifest, as manifestPartOf and loadManifest (runtime/screens/manifest.ts) name it. */
export const WHOLE_MANIFEST = '*'

/**
 * The hand-written screens that look things up across the manifest (other screens' endpoints, entities
 * by name, every screen): they wait for all of it. A unit test (runtime-manifest-parts) holds this list
 * equal to the components whose code imports runtime/screens/manifest.ts.
 */
export const READS_WHOLE_MANIFEST: readonly string[] = [
  'bookingOrder',
  'overlayEditor',
  'palletInquiry',
  'quoteComparison',
  'quoteEditor',
]

/**
 * What of the manifest a route's screen needs before it draws: a generic screen its own part (its name),
 * the screens above all of it (WHOLE_MANIFEST), every other page none (null: the public site never loads it).
 */
export function manifestPartOf(route: Pick<RouteEntry, 'name' | 'status' | 'kind' | 'component'>): string | null {
  if (route.status !== 'built') return null
  if (route.component) return READS_WHOLE_MANIFEST.includes(route.component) ? WHOLE_MANIFEST : null
  return route.kind === 'list' || route.kind === 'detail' || route.kind === 'form' ? route.name : null
}
