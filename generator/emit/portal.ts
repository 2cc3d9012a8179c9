import type { EntityDef } from '../../model/definitions.ts'
import {
  answerEntities,
  type Manifest,
  type ManifestEndpoint,
  type ManifestEntity,
  type ManifestScreen,
} from '../../model/resolve.ts'

/**
 * What the portal reads of the manifest (issue #19 point 8: the first workbench list under 300 KB):
 *
 * - `portal-manifest/manifest.<screen>.json`, one part per built list, detail and form screen: the screen,
 *   its entity, the input entities of its transitions and the entities all these refer to, the endpoints
 *   the screen binds and its entity's transition endpoint; a detail screen adds the lists that link to it (its "back"). The route
 *   gate loads a generic screen's part before drawing it (runtime/routing/ManifestGate.tsx), so a list
 *   page downloads ≈5 KB of manifest rather than all of it.
 * - `portal-manifest.json`, every screen, entity and endpoint, for the hand-written screens that look
 *   things up across the manifest (the overlay editor, the booking and inquiry flows).
 * - `entity-schemas.json`, the JSON Schemas, which only forms need, loaded with them.
 *
 * All three, and generated/validators.js, hold only the entities something is sent as (portalEntityNames):
 * the portal never checks or draws an answer by its entity, so an entity only a `response:` names would be
 * weight on every page (the login page went from 239 to 328 KB gzipped when the answers got their YAML).
 *
 * Entities leave out their JSON Schemas, examples, descriptions and storage, endpoints their summaries,
 * search parameters and response shapes; areas, permissions and roles are not the portal's to read (its
 * menus come from the route table).
 */

export type PortalEntity = Omit<ManifestEntity, 'schema' | 'examples' | 'description' | 'storage'>
export type PortalEndpoint = Omit<ManifestEndpoint, 'summary' | 'search' | 'response'>
export interface PortalManifestPart {
  screens: ManifestScreen[]
  entities: Record<string, PortalEntity>
  endpoints: PortalEndpoint[]
}

/** The folder of the per-screen parts, below generated/. */
export const PORTAL_PARTS_DIR = 'portal-manifest'
export const portalPartPath = (screen: string) => `${PORTAL_PARTS_DIR}/manifest.${screen}.json`

const GENERIC_KINDS: ReadonlySet<string> = new Set(['list', 'detail', 'form', 'chart'])

/**
 * Screens that get a part of their own: the built generic ones, and the built hand-written ones that name
 * the `forms:` they draw (login, register: their body entities), which the route gate loads it for.
 */
export const hasPortalPart = (screen: Pick<ManifestScreen, 'status' | 'kind' | 'forms'>): boolean =>
  screen.status === 'built' && (GENERIC_KINDS.has(screen.kind ?? '') || (screen.forms?.length ?? 0) > 0)

function portalEntity(entity: ManifestEntity): PortalEntity {
  const { schema: _schema, examples: _examples, description: _description, storage: _storage, ...kept } = entity
  return kept
}

function portalEndpoint(endpoint: ManifestEndpoint): PortalEndpoint {
  const { summary: _summary, search: _search, response: _response, ...kept } = endpoint
  return kept
}

const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

/** The routes a list's column opens: its `link` and every route of its `linkBy`. */
function linkedRoutes(screen: ManifestScreen): string[] {
  return (screen.columns ?? []).flatMap((column) => [
    ...asList(column.link),
    ...Object.values(column.linkBy?.routes ?? {}).flatMap(asList),
  ])
}

/** The entities an entity's fields refer to (`type: ref`, `ref: <entity>`). */
function referencedEntities(entity: ManifestEntity | undefined): string[] {
  return Object.values(entity?.fields ?? {}).flatMap((field) => {
    const ref = (field as { ref?: unknown }).ref
    return typeof ref === 'string' ? [ref] : []
  })
}

/** The entities an entity's transitions take as input (`input: <request entity>`). */
function transitionInputs(entity: ManifestEntity | undefined): string[] {
  return Object.values(entity?.states?.transitions ?? {}).flatMap((transition) =>
    transition.input ? [transition.input] : [],
  )
}

/**
 * The entities a request is checked or a form drawn by: every endpoint's stored or body entity, every
 * screen's entity, every transition's input, and the entities their fields nest or refer to. The server
 * validates only these too (server/http/validation.ts is called with a body's entity).
 */
export function requestEntities(manifest: Manifest): Set<string> {
  const found = new Set<string>()
  const visit = (name: string | undefined) => {
    const entity = name ? manifest.entities[name] : undefined
    if (!name || !entity || found.has(name)) return
    found.add(name)
    for (const input of transitionInputs(entity)) visit(input)
    const walk = (fields: EntityDef['fields']) => {
      for (const field of Object.values(fields)) {
        visit(field.entity)
        visit(field.ref)
        if (field.items) walk(field.items)
      }
    }
    walk(entity.fields)
  }
  for (const endpoint of manifest.endpoints) visit(endpoint.entity)
  for (const screen of manifest.screens) visit(screen.entity)
  return found
}

/** Every entity but those only an answer is shaped like (sorted): what the portal and the validators carry. */
export function portalEntityNames(manifest: Manifest): string[] {
  const requests = requestEntities(manifest)
  const answerOnly = new Set(
    answerEntities(manifest.endpoints, manifest.entities as Record<string, EntityDef>).filter(
      (name) => !requests.has(name),
    ),
  )
  return Object.keys(manifest.entities)
    .filter((name) => !answerOnly.has(name))
    .sort()
}

/** The part of the manifest one generic screen reads (see the file's comment for what and why). */
export function portalPart(manifest: Manifest, screen: ManifestScreen): PortalManifestPart {
  const screens = [
    screen,
    ...(screen.kind === 'detail'
      ? manifest.screens.filter(
          (other) => other !== screen && other.kind === 'list' && linkedRoutes(other).includes(screen.name),
        )
      : []),
  ]
  // The screens' entities, the request shapes their transitions ask for (a reason, a price: the detail's
  // dialog draws them), and what those refer to.
  const actions = screens.flatMap((s) => [...(s.actions?.toolbar ?? []), ...(s.actions?.row ?? [])])
  const own = [
    ...screens.flatMap(({ entity, forms }) => [
      ...(entity ? [entity, ...transitionInputs(manifest.entities[entity])] : []),
      // The forms a hand-drawn screen names (the sign-in pages' bodies).
      ...(forms ?? []),
    ]),
    // What a row action that calls a hand-written endpoint asks for first (`input:`, its dialog's form).
    ...actions.flatMap((action) => (action.input ? [action.input] : [])),
    // What a list's download sends (its query's fields, filled from the list's search).
    ...actions.flatMap((action) => {
      const query = manifest.endpoints.find((e) => e.kind === 'custom' && e.id === action.download)?.entity
      return query ? [query] : []
    }),
    // A detail's documents panel: the upload's form (the document type).
    ...(screen.attachments ? [screen.attachments.form] : []),
    // What an import asks besides the file (an operator's customer): its dialog's form.
    ...screens.flatMap((s) => Object.values(s.endpoints ?? {}).flatMap((b) => (b?.input ? [b.input] : []))),
  ]
  const entityNames = new Set(own)
  for (const name of own) for (const ref of referencedEntities(manifest.entities[name])) entityNames.add(ref)
  const samePlace = (endpoint: ManifestEndpoint) => (binding: { method: string; path: string }) =>
    binding.method === endpoint.method && binding.path === endpoint.path
  const endpoints = manifest.endpoints.filter(
    (endpoint) =>
      screens.some((s) => Object.values(s.endpoints ?? {}).some(samePlace(endpoint))) ||
      (endpoint.kind === 'transition' && screens.some((s) => s.entity === endpoint.entity)) ||
      (endpoint.kind === 'custom' &&
        actions.some((action) => action.call === endpoint.id || action.download === endpoint.id)) ||
      (endpoint.kind === 'custom' && [screen.attachments?.list, screen.attachments?.upload].includes(endpoint.id)) ||
      // The call a server notice asks (`notice: { call }`).
      (endpoint.kind === 'custom' &&
        screens.some((s) => s.notice !== undefined && 'call' in s.notice && s.notice.call === endpoint.id)) ||
      // A chart's call and its export (`chart: { call, export }`, issue #28).
      (endpoint.kind === 'custom' &&
        screens.some((s) => s.chart?.call === endpoint.id || s.chart?.export === endpoint.id)) ||
      // The call a new record's prefill asks (`form.prefillCall`).
      (endpoint.kind === 'custom' && screens.some((s) => s.form?.prefillCall === endpoint.id)),
  )
  const entities: Record<string, PortalEntity> = {}
  for (const name of [...entityNames].sort()) {
    const entity = manifest.entities[name]
    if (entity) entities[name] = portalEntity(entity)
  }
  return { screens, entities, endpoints: endpoints.map(portalEndpoint) }
}

/** The whole manifest as the portal reads it. */
export function portalManifest(manifest: Manifest): PortalManifestPart {
  return {
    screens: manifest.screens,
    entities: Object.fromEntries(
      portalEntityNames(manifest).map((name) => [name, portalEntity(manifest.entities[name] as ManifestEntity)]),
    ),
    endpoints: manifest.endpoints.map(portalEndpoint),
  }
}

/** A file below generated/ (the shape of index.ts's OutputFile, not imported: no import cycle). */
interface OutputFile {
  path: string
  content: string
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`

export function emitPortalManifest(manifest: Manifest): OutputFile[] {
  const schemas = Object.fromEntries(
    portalEntityNames(manifest).map((name) => [name, (manifest.entities[name] as ManifestEntity).schema]),
  )
  return [
    { path: 'portal-manifest.json', content: json(portalManifest(manifest)) },
    ...manifest.screens
      .filter(hasPortalPart)
      .map((screen) => ({ path: portalPartPath(screen.name), content: json(portalPart(manifest, screen)) })),
    { path: 'entity-schemas.json', content: json(schemas) },
  ]
}
