import type { Client, Envelope, ListContent, ListRequest, Row } from '../../generated/client.ts'
import type { ManifestEndpoint, ManifestEntity, ManifestScreen } from '../../model/resolve.ts'
import { holdsAny } from '../routing/access.ts'
import { WHOLE_MANIFEST } from '../routing/manifestPart.ts'
import { codeBesideLabel } from './list/format.ts'

/**
 * An entity as the portal knows it: its fields, states and labels. Its JSON Schema is left out of the
 * manifest workbench pages load; forms add it (runtime/forms/schemas.ts).
 */
export type PortalEntity = Omit<ManifestEntity, 'schema' | 'examples' | 'description' | 'storage'>

/** What the portal reads of the manifest (generator/emit/portal.ts writes it, whole and in parts). */
export interface PortalManifest {
  screens: ManifestScreen[]
  entities: Record<string, PortalEntity>
  endpoints: Omit<ManifestEndpoint, 'summary' | 'search' | 'response'>[]
}

/**
 * The manifest as far as this page has loaded it: the route gate loads a generic screen's part (its
 * screen, entities and endpoints: `generated/portal-manifest/manifest.<screen>.json`) or, for the
 * hand-written screens that look across the manifest, all of it (`portal-manifest.json`) before the
 * screen draws (runtime/routing/ManifestGate.tsx). The look-ups below read it synchronously.
 */
export const manifest: PortalManifest = { screens: [], entities: {}, endpoints: [] }

const parts = import.meta.glob<PortalManifest>('../../generated/portal-manifest/manifest.*.json', {
  import: 'default',
})
const partLoader = (part: string) => parts[`../../generated/portal-manifest/manifest.${part}.json`]

/** Whether a screen has a part of its own (a built list, detail or form screen). */
export const hasManifestPart = (screen: string): boolean => partLoader(screen) !== undefined

function merge(part: PortalManifest) {
  const screens = new Set(manifest.screens.map((screen) => screen.name))
  for (const screen of part.screens) if (!screens.has(screen.name)) manifest.screens.push(screen)
  Object.assign(manifest.entities, part.entities)
  const endpoints = new Set(manifest.endpoints.map((endpoint) => endpoint.id))
  for (const endpoint of part.endpoints) if (!endpoints.has(endpoint.id)) manifest.endpoints.push(endpoint)
}

const loading = new Map<string, Promise<void>>()

/**
 * Loads a screen's part of the manifest, or the whole manifest (WHOLE_MANIFEST, or a screen without a
 * part), once per page load; the same promise every time, so React's `use` can wait for it.
 */
export function loadManifest(part: string): Promise<void> {
  const key = hasManifestPart(part) ? part : WHOLE_MANIFEST
  let promise = loading.get(key) ?? (key === WHOLE_MANIFEST ? undefined : loading.get(WHOLE_MANIFEST))
  if (!promise) {
    const load = partLoader(key) ?? (() => import('../../generated/portal-manifest.json').then((m) => m.default))
    promise = load().then((data) => merge(data as unknown as PortalManifest))
    loading.set(key, promise)
    // A part that failed to load (the network) is tried again by the next page that needs it.
    promise.catch(() => loading.delete(key))
  }
  return promise
}

export function screenDef(name: string): ManifestScreen | undefined {
  return manifest.screens.find((screen) => screen.name === name)
}

export function entityDef(name: string | undefined): PortalEntity | undefined {
  return name ? manifest.entities[name] : undefined
}

/** Whether a ref to this entity shows its code beside its label (codeBesideLabel): ports do, container types not. */
export const codeBeside = (name: string): boolean => codeBesideLabel(entityDef(name))

export type EndpointKind = keyof NonNullable<ManifestScreen['endpoints']>
type Binding = { method: string; path: string }

const samePlace = (a: Binding) => (b: Binding) => a.method === b.method && a.path === b.path

/**
 * The manifest endpoint behind a screen's binding (`endpoints: { list: { method, path } }`), found by
 * method and path: the id may be `<screen>.<kind>` or a hand-written endpoint's name.
 */
export function screenEndpoint(
  screen: Pick<ManifestScreen, 'endpoints'>,
  kind: EndpointKind,
): ManifestEndpoint | undefined {
  const binding = screen.endpoints?.[kind]
  return binding ? manifest.endpoints.find(samePlace(binding)) : undefined
}

/** A hand-written endpoint by its name (a row action's `call:`). */
export function namedEndpoint(name: string | undefined): ManifestEndpoint | undefined {
  return name ? manifest.endpoints.find((endpoint) => endpoint.kind === 'custom' && endpoint.id === name) : undefined
}

/** May a user holding `permissions` make this call? One that names none is any signed-in user's. */
export function mayCall(
  endpoint: Pick<ManifestEndpoint, 'permissions'> | undefined,
  permissions: ReadonlySet<string>,
): boolean {
  return endpoint !== undefined && holdsAny(endpoint.permissions, permissions)
}

/** The transition endpoint of an entity's state machine. */
export function transitionEndpoint(entity: string | undefined): ManifestEndpoint | undefined {
  return manifest.endpoints.find((endpoint) => endpoint.kind === 'transition' && endpoint.entity === entity)
}

export type EndpointCall = (input: unknown, signal?: AbortSignal) => Promise<Envelope<unknown>>

/**
 * The call that fires an action's transition on a record: the endpoint the action names (`call:`, SPEC §7's
 * withdraw, reapplyOrder, onlineOrders/reEdit, which fire one transition and take the record's id, version and
 * remark), else the entity's transition endpoint with the transition's name and what its dialog asked.
 */
export function transitionCall(
  client: Client,
  entity: string | undefined,
  action: { transition?: string; call?: string },
):
  | ((record: { id?: unknown; version?: unknown }, input?: Record<string, unknown>) => Promise<Envelope<unknown>>)
  | null {
  if (action.call) {
    const call = clientCall(client, namedEndpoint(action.call))
    if (!call) return null
    return (record, input) =>
      call({
        id: record.id,
        version: record.version,
        ...(typeof input?.remark === 'string' && input.remark ? { remark: input.remark } : {}),
      })
  }
  const call = clientCall(client, transitionEndpoint(entity))
  if (!call || !action.transition) return null
  return (record, input) =>
    call({ id: record.id, version: record.version, transition: action.transition, ...(input ? { input } : {}) })
}

/**
 * The generated client's function for a place on the server: the generic screens call through the
 * client like every other screen, looking the function up by the id of the endpoint at that place (a
 * screen's part of the manifest carries every endpoint its bindings and its entity's transitions name).
 */
export function clientCall(client: Client, binding: Binding | undefined): EndpointCall | null {
  if (!binding) return null
  const id = manifest.endpoints.find(samePlace(binding))?.id
  if (!id) return null
  const groups = client as unknown as Record<string, Record<string, unknown>>
  const [group, name] = id.split('.')
  const fn =
    name !== undefined && group !== undefined
      ? groups[group]?.[name]
      : Object.values(groups).find((functions) => typeof functions[id] === 'function')?.[id]
  return typeof fn === 'function' ? (fn as EndpointCall) : null
}

/** A row of any stored entity as the engine answers it: its fields, its system fields and labels. */
export type EngineRow = Row<Record<string, unknown>>

/** What the engine's calls of a kind take and answer whatever the entity: the generic screens' view of them. */
export interface EngineCalls {
  list: (input: ListRequest, signal?: AbortSignal) => Promise<Envelope<ListContent<EngineRow>>>
  detail: (input: { id: number | string }, signal?: AbortSignal) => Promise<Envelope<EngineRow>>
}

/** Every call of the kind in the generated client, whichever screen it belongs to. */
type CallsOfKind<K extends string> = {
  [G in keyof Client]: Client[G] extends Record<K, infer F> ? F : never
}[keyof Client]
// The look-up below trusts these: a generated list or detail call that stops fitting fails to compile here.
const engineCallsFit: [CallsOfKind<'list'>, CallsOfKind<'detail'>] extends [EngineCalls['list'], EngineCalls['detail']]
  ? true
  : never = true
void engineCallsFit

/** The generated client's call of a kind for a screen's binding, typed as every call of that kind answers. */
export function engineCall<K extends keyof EngineCalls>(
  client: Client,
  binding: Binding | undefined,
  _kind: K,
): EngineCalls[K] | null {
  return clientCall(client, binding) as EngineCalls[K] | null
}
