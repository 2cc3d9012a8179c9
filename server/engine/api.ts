import type { Transaction } from 'kysely'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import type { DB } from '../db/schema.ts'
import type { Manifest } from '../manifest.ts'
import {
  createEngine,
  type DetailContent,
  type DetailOptions,
  type Engine,
  type EngineKind,
  type EngineOptions,
  type ExportSource,
  type ListContent,
} from './core.ts'
import type { ApiRow, EngineCall } from './types.ts'

/**
 * The engine as a typed data API, what react-admin's data provider is to its screens: one named function
 * per kind, each taking the caller's tenant transaction, the endpoint (the manifest's, or its id or
 * `METHOD /path`) and the input as the endpoint's route would receive it. Hand-written handlers call these
 * instead of writing a query of their own, so checks, search, data scope, numbering, audit and the
 * registered effects are the engine's. A hand-written endpoint that list screens of an engine entity bind
 * (the special-rate lists) is served by `list` with those screens' search.
 */
export interface EngineApi {
  /** The endpoints the engine's own routes serve. */
  readonly endpoints: readonly ManifestEndpoint[]
  /** The generic call the routes make (./index.ts); a handler calls the named functions below. */
  handle: Engine['handle']
  /** The part and schema an engine route checks its input with, before its handler (./core.ts). */
  routeInput: Engine['routeInput']
  /** The call an engine route makes with the input its schema checked. */
  handleChecked: Engine['handleChecked']
  list(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<ListContent>
  detail(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<DetailContent>
  /** The row alone, its history neither read nor answered: what a write answers of the row it wrote. */
  detail(
    trx: Transaction<DB>,
    endpoint: EndpointRef,
    call: EngineCall,
    input: unknown,
    options: { history: false },
  ): Promise<ApiRow>
  create(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<ApiRow>
  update(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<ApiRow>
  delete(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<{ id: number }>
  transition(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<ApiRow>
  /**
   * The .xlsx export of a list, ready to stream (./export/sheet.ts): the bound screen's columns, headers and
   * labels in the call's language, the rows counted (refused above EXPORT_LIMIT) and read a page at a time.
   */
  export(trx: Transaction<DB>, endpoint: EndpointRef, call: EngineCall, input: unknown): Promise<ExportSource>
  /** Asks the entity's gate (an enterprise without the FBA service: 360005) for a call the engine does not serve. */
  gate: Engine['gate']
}

/**
 * An endpoint of the manifest, by itself, by its id (`orderList.list`, `listSpaApply`) or by `METHOD /path`;
 * or an engine entity itself (`{ entity: 'spaApplication' }`), for a hand-written endpoint no screen binds:
 * then no endpoint's filter, search or permissions apply (the handler's own endpoint was checked), while
 * data scope, the registered visibility and each transition's permission still do.
 */
export type EndpointRef = ManifestEndpoint | string | { entity: string }

export function createEngineApi(manifest: Manifest, options: EngineOptions): EngineApi {
  const engine = createEngine(manifest, options)
  const endpointOf = (ref: Exclude<EndpointRef, { entity: string }> | ManifestEndpoint): ManifestEndpoint => {
    if (typeof ref !== 'string') return ref
    const found = manifest.endpoints.find((e) => e.id === ref || `${e.method} ${e.path}` === ref)
    if (!found) throw new Error(`No endpoint ${ref} in the manifest`)
    return found
  }
  const call =
    <T>(kind: EngineKind) =>
    (trx: Transaction<DB>, endpoint: EndpointRef, who: EngineCall, input: unknown, options?: DetailOptions) =>
      (typeof endpoint === 'object' && !('path' in endpoint)
        ? engine.handleEntity(trx, endpoint.entity, kind, who, input, options)
        : engine.handle(trx, endpointOf(endpoint), who, input, kind, options)) as Promise<T>
  return {
    endpoints: engine.endpoints,
    handle: engine.handle,
    routeInput: engine.routeInput,
    handleChecked: engine.handleChecked,
    list: call<ListContent>('list'),
    detail: call<DetailContent>('detail'),
    create: call<ApiRow>('create'),
    update: call<ApiRow>('update'),
    delete: call<{ id: number }>('delete'),
    transition: call<ApiRow>('transition'),
    export: call<ExportSource>('export'),
    gate: engine.gate,
  }
}
