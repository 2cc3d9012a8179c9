import type { RouteEntry } from '../../generated/routes.ts'

/** All of the manifest, as manifestPartOf and loadManifest (runtime/screens/manifest.ts) name it. */
export const WHOLE_MANIFEST = '*'

/**
 * The hand-written screens that look things up in the manifest (entities by name, other screens'
 * endpoints, every screen): they wait for all of it. A unit test (runtime-manifest-parts) fails when a
 * component's code imports runtime/screens/manifest.ts and is not named here.
 */
export const READS_WHOLE_MANIFEST: readonly string[] = [
  // The generic form (runtime/screens/form/FormScreen.tsx) with its state machine and transitions.
  'blEditor',
  'bookingOrder',
  // The chat's sides, states, contexts and message bound (runtime/flows/chat/model.ts).
  'imChat',
  'overlayEditor',
  'palletInquiry',
  'quoteComparison',
  'quoteEditor',
  // Its state machine through runtime/screens/useStateMachine.ts.
  'specialRateDetail',
]

/**
 * What of the manifest a route's screen needs before it draws: a screen with a part of its own (a generic
 * screen, a hand-written one that names its `forms:`) that part (its name), the screens above all of it
 * (WHOLE_MANIFEST), every other page none (null: the public site never loads it).
 */
export function manifestPartOf(
  route: Pick<RouteEntry, 'name' | 'status' | 'kind' | 'component' | 'part'>,
): string | null {
  if (route.status !== 'built') return null
  if (route.component && READS_WHOLE_MANIFEST.includes(route.component)) return WHOLE_MANIFEST
  return route.part ? route.name : null
}
