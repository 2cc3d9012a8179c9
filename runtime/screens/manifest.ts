import { type Client, type Envelope, endpoints } from '../../generated/client.ts'
import manifestJson from '../../generated/portal-manifest.json'
import type { Manifest, ManifestEndpoint, ManifestEntity, ManifestScreen } from '../../model/resolve.ts'
import { codeBesideLabel } from './list/format.ts'

/**
 * An entity as the portal knows it: its fields, states and labels. Its JSON Schema is left out of the
 * manifest every workbench page loads; forms add it (runtime/forms/schemas.ts).
 */
export type PortalEntity = Omit<ManifestEntity, 'schema' | 'examples' | 'description' | 'storage'>

export type PortalManifest = Omit<Manifest, 'entities' | 'endpoints'> & {
  entities: Record<string, PortalEntity>
  endpoints: Omit<ManifestEndpoint, 'summary' | 'search' | 'response'>[]
}

/** The generated portal manifest (generator/emit: emitPortalManifest), for the generic screens (loaded with them, never by the public site). */
export const manifest = manifestJson as unknown as PortalManifest

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

/** The transition endpoint of an entity's state machine. */
export function transitionEndpoint(entity: string | undefined): ManifestEndpoint | undefined {
  return manifest.endpoints.find((endpoint) => endpoint.kind === 'transition' && endpoint.entity === entity)
}

export type EndpointCall = (input: unknown, signal?: AbortSignal) => Promise<Envelope<unknown>>

/**
 * The generated client's function for a place on the server: the generic screens call through the
 * client like every other screen, looking the function up by the endpoint id client.ts lists for it.
 */
export function clientCall(client: Client, binding: Binding | undefined): EndpointCall | null {
  if (!binding) return null
  const id = Object.entries(endpoints).find(([, endpoint]) => samePlace(binding)(endpoint))?.[0]
  if (!id) return null
  const groups = client as unknown as Record<string, Record<string, unknown>>
  const [group, name] = id.split('.')
  const fn =
    name !== undefined && group !== undefined
      ? groups[group]?.[name]
      : Object.values(groups).find((functions) => typeof functions[id] === 'function')?.[id]
  return typeof fn === 'function' ? (fn as EndpointCall) : null
}
