import type { ColumnDef } from '../../../model/definitions.ts'
import type { ManifestEndpoint, ManifestScreen } from '../../../model/resolve.ts'
import { conditionHolds } from '../../../rules/uiRules.ts'
import { canOpen, safeRedirect } from '../../routing/access.ts'
import type { PortalEntity } from '../manifest.ts'

export type ActionDef = NonNullable<NonNullable<ManifestScreen['actions']>['row']>[number]
export type RowData = Record<string, unknown> & { id?: number; version?: number }

export interface ActionContext {
  screen: Pick<ManifestScreen, 'name' | 'permissions'>
  entity: Pick<PortalEntity, 'states'> | undefined
  permissions: ReadonlySet<string>
  /** The screen's endpoint of a kind (create, update, delete…) with its permissions. */
  endpoint: (kind: NonNullable<ActionDef['endpoint']>) => Pick<ManifestEndpoint, 'permissions'> | undefined
  /** A hand-written endpoint a row action calls (`call:`), by name, with its permissions. */
  call?: (name: string) => Pick<ManifestEndpoint, 'permissions'> | undefined
  /** Route name → its access rule. */
  route: (name: string) => { access: 'public' | 'open' | 'permission'; permissions: readonly string[] } | undefined
}

/** The route the chat action opens (screens/chat.yaml). */
const CHAT_ROUTE = 'imChat'

const holdsAny = (needed: readonly string[], held: ReadonlySet<string>) =>
  needed.length === 0 || needed.some((permission) => held.has(permission))

/** One name or a list of them, as a list (a permission, or a link's alternative routes). */
export const asList = (value: string | readonly string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : [...value]

/**
 * Whether an action shows: its own permission, the transition's permission and source states (for the
 * row's current state), the route's access, or the endpoint's permissions. The server checks again.
 */
export function actionAllowed(action: ActionDef, context: ActionContext, row?: RowData): boolean {
  const { permissions, entity } = context
  if (!holdsAny(asList(action.permission), permissions)) return false
  // A row action for some rows only (enable on the disabled ones): the YAML's condition on the row.
  if (action.when && row && !conditionHolds(action.when, row)) return false
  if (action.call && !holdsAny(context.call?.(action.call)?.permissions ?? [], permissions)) return false
  // A download is offered only when its endpoint is known (in the screen's manifest part) and its permission held.
  if (action.download) {
    const endpoint = context.call?.(action.download)
    if (!endpoint || !holdsAny(endpoint.permissions, permissions)) return false
  }
  if (action.transition) {
    const transition = entity?.states?.transitions[action.transition]
    if (!transition || !permissions.has(transition.permission)) return false
    if (row) {
      const state = row[entity?.states?.field ?? 'state']
      if (!transition.from.includes(String(state))) return false
    }
  }
  // The chat about the record: a customer's (imOpen needs imChat), with the reference the record holds.
  if (action.chat) {
    const route = context.route(CHAT_ROUTE)
    if (!permissions.has('imChat') || !route || !canOpen(route, permissions)) return false
    if (row && !row[action.chat.contextRef]) return false
  }
  if (action.route) {
    const route = context.route(action.route)
    if (!route || !canOpen(route, permissions)) return false
  }
  // A state machine may allow delete only in some states (schemas/*.yaml states.deletableIn).
  const deletable = entity?.states?.deletableIn
  if (
    action.endpoint === 'delete' &&
    row &&
    deletable &&
    !deletable.includes(String(row[entity?.states?.field ?? 'state']))
  )
    return false
  if (action.endpoint) {
    const endpoint = context.endpoint(action.endpoint)
    if (!endpoint || !holdsAny(endpoint.permissions, permissions)) return false
  }
  return true
}

/** Where a route action goes: the route's path, with the record's id in the action's `param` (default `id`). */
export function routeTarget(path: string, action: Pick<ActionDef, 'param' | 'routeParams'>, id?: unknown): string {
  const filled = routePath(path, action.routeParams)
  if (id === undefined || id === null) return filled
  return `${filled}?${new URLSearchParams({ [action.param ?? 'id']: String(id) })}`
}

/** A route's path with its `:name` parameters filled from the YAML's `routeParams` (/cargoFeedSubmission/edit). */
export function routePath(path: string, params: Readonly<Record<string, string>> | undefined): string {
  return path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (whole, name: string) =>
    params?.[name] !== undefined ? encodeURIComponent(params[name]) : whole,
  )
}

/**
 * Where a row action with `opens:` leads after its call: the row's field when it is an address of this site
 * (a letter's link, /orderDetails?id=12); nothing for an empty field or one that would leave the site.
 */
export function openedAddress(action: Pick<ActionDef, 'opens'>, row: RowData): string | null {
  const value = action.opens ? row[action.opens] : undefined
  return typeof value === 'string' ? safeRedirect(value, '') || null : null
}

/**
 * The routes a cell may open, in order: by the row's value (`linkBy`), else the column's `link`; none
 * without either. The cell opens the first the user may open (a list shared by customers and operators).
 */
export function cellRoutes(column: Pick<ColumnDef, 'link' | 'linkBy'>, row: Record<string, unknown>): string[] {
  const value = column.linkBy ? row[column.linkBy.field] : undefined
  const byValue = value !== undefined && value !== null ? column.linkBy?.routes[String(value)] : undefined
  return asList(byValue ?? column.link)
}

/** The confirm text key of an action: its own, else its transition's. */
export function confirmKey(action: ActionDef, entity: Pick<PortalEntity, 'states'> | undefined): string | null {
  if (action.confirm) return action.confirm
  if (action.transition) return entity?.states?.transitions[action.transition]?.confirm ?? null
  return null
}

/**
 * What a detail's toolbar call sends beside what its dialog asked: the record's id in the body field the action's
 * `param` names (a tracking link made from an order: `{ order }`), else the record's id and version.
 */
export function recordSent(action: Pick<ActionDef, 'param' | 'values'>, record: RowData): Record<string, unknown> {
  const identity = action.param ? { [action.param]: record.id } : { id: record.id, version: record.version }
  return { ...action.values, ...identity }
}

/**
 * The text a call's answer `reveals:` once: the answer's field when it is text; with `revealAs: address` an in-app
 * path (/sharedTracking/<token>) as the full address on this site's host, the tenant's, to send to someone.
 */
export function revealedText(
  action: Pick<ActionDef, 'reveals' | 'revealAs'>,
  content: unknown,
  origin: string,
): string | undefined {
  if (!action.reveals || typeof content !== 'object' || content === null) return undefined
  const value = Object.entries(content).find(([field]) => field === action.reveals)?.[1]
  if (typeof value !== 'string') return undefined
  // Only a path of this site becomes an address on it: anything else is shown as the server sent it.
  if (action.revealAs === 'address' && value.startsWith('/') && !value.startsWith('//'))
    return new URL(value, origin).href
  return value
}
