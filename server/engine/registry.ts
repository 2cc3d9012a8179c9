import type { AliasableExpression, RawBuilder, SqlBool, Transaction } from 'kysely'
import type { ManifestEntity } from '../../model/resolve.ts'
import type { DB } from '../db/schema.ts'
import type { Manifest } from '../manifest.ts'
import { isEngineEntity } from './storage.ts'
import type { ApiRow, EngineCall } from './types.ts'

/**
 * What domain code adds to the engine (STYLE §7, "extend by registering, not by importing"): each area of
 * server/domain/ registers its effects, derivations, numbering kinds, computed states and columns and
 * visibility rules into one registry at start (server/domain/index.ts), and the engine looks them up by the
 * names the YAML uses. The engine imports no domain module. `checkRegistry` runs when an engine is created:
 * a name the manifest uses that nobody registered stops the server at boot, naming the entity and the key.
 */

export interface EffectContext {
  trx: Transaction<DB>
  call: EngineCall
  manifest: Manifest
  entity: ManifestEntity
  /** The row before the change (null on create) and after it, as the API answers them. */
  before: ApiRow | null
  after: ApiRow
  /** The time the call runs at (numbering, validity), as the engine reads it. */
  at: Date
  /** A transition's remark (the reason of a rejection), as the caller gave it and the audit keeps it. */
  remark?: string
}

/** Work on other records that a create, update or transition causes, in the same transaction. */
export type Effect = (context: EffectContext) => Promise<void>

export interface DerivationContext {
  trx: Transaction<DB>
  call: EngineCall
  manifest: Manifest
  entity: ManifestEntity
  /** The stored row on update, null on create. */
  before: ApiRow | null
  /** The checked record about to be written (every writable field, as the API shapes it). */
  data: Record<string, unknown>
  at: Date
}

/**
 * Values of the record the server works out itself (amounts, totals, the customer a quote is for): field
 * name → value, read-only fields included. Run after the record is checked and before it is written;
 * an ApiError thrown here answers the call like a validation failure would.
 */
export type Derivation = (context: DerivationContext) => Promise<Record<string, unknown>>

/** A numbering kind (`numbering:` of a field): the next number, in the creating transaction; null leaves it empty. */
export type Numbering = (
  trx: Transaction<DB>,
  tenantId: number,
  record: Record<string, unknown>,
  at: Date,
) => Promise<string | null>

/** What a read knows when it asks a domain module for SQL: the table's alias, the call, the transaction and the time. */
export interface ReadContext {
  trx: Transaction<DB>
  call: EngineCall
  entity: ManifestEntity
  /** The table's name or alias in the query: qualify every column with it. */
  table: string
  at: Date
}

/**
 * A computed state: the state a reader sees, as an SQL expression over the row (an approved special rate past
 * its validity reads `expired`). Lists, details and state filters use it instead of the stored column; every
 * value it answers must be a state of the entity's machine. Writes still store and check the stored state.
 */
export type ComputedState = (context: ReadContext) => Promise<RawBuilder<string>>

/** A computed column: a value every read row carries under its name (a joined name, the stored state). */
export type ComputedColumn = (context: ReadContext) => RawBuilder<unknown>

/**
 * A visibility rule: the data-scope conditions of a read, given those the entity's `dataScope` makes
 * (server/engine/scope.ts), or of a write (update, delete, transition: the row the caller may change). The
 * tenant's own condition is always kept; a rule may widen or narrow the rest.
 */
export type VisibilityRule = (context: {
  call: EngineCall
  table: string
  defaults: RawBuilder<SqlBool>[]
  purpose: 'read' | 'write'
}) => RawBuilder<SqlBool>[]

/**
 * A view: the rows of a `stored: false` entity, or of one kept in a core table (roles), as a query over tables
 * the engine does not own (the accounts of app_user, the enterprises of company), so its list, detail and export
 * are the engine's — search, data scope, labels, paging, history — and only its writes are hand-written. The
 * query answers one column per field of the entity (snake_case), the system columns `id`, `version`,
 * `created_at`, `updated_at` and `created_by` (none where it is registered without a creator: ViewOptions) and
 * `tenant_id`; the engine names it by the entity's table.
 */
export type ViewSource = (context: { trx: Transaction<DB>; call: EngineCall }) => AliasableExpression<unknown>

/**
 * A view's own order when the reader sorts by nothing, where one field cannot say it (`listOrder`): columns its
 * query answers — a field's or one of its own, such as a rank — each ascending or descending, then `id desc`.
 * The roles: the preset ones first in the order the seed made them, then the tenant's own, newest first.
 */
export interface ViewOrderKey {
  /** A column of the view's query (snake_case). */
  column: string
  order: 'asc' | 'desc'
}

/** How the engine reads a view besides its rows (`view(entity, source, options)`). */
export interface ViewOptions {
  /** Its own order when the reader sorts by nothing (ViewOrderKey). */
  order?: ViewOrderKey[]
  /**
   * false: its table keeps no creator (roles, operation accounts), so its query answers no `created_by` and the
   * engine neither selects nor labels one: its rows carry no `createdBy`. True unless it says so.
   */
  creator?: boolean
}

/**
 * A gate: whether the caller's organisation may use an entity at all, asked before every call the engine's
 * routes serve for it (list, detail, create, update, delete, export, import, transition), after the
 * permission check; it throws the ApiError that says why not (an enterprise whose FBA service is off: 360005).
 * Hand-written handlers that call the data API ask their own gates.
 */
export type Gate = (context: { trx: Transaction<DB>; call: EngineCall }) => Promise<void>

/** The order of an entity's lists when the reader sorts by nothing: a field, then `id desc` as always. */
/**
 * The one writer of an entity's imported rows (tracking events: recordTrackingEvents, which also moves the
 * shipments' schedules and tells their subscribers). `write` receives every checked row of the file at once, in
 * the import's transaction, instead of the engine inserting them one by one; an ApiError it throws answers the
 * call. `references`: ref fields to a tenant entity the sheet names by a number of the entity's own (a shipment by
 * its B/L, order or air waybill number) rather than its id — each text's id, none when no row or several match;
 * a text without one is reported at its cell (import.unknownReference).
 */
export interface ImportWriter {
  references?: Record<
    string,
    (context: { trx: Transaction<DB>; call: EngineCall; texts: string[] }) => Promise<Map<string, number>>
  >
  write(context: {
    trx: Transaction<DB>
    call: EngineCall
    entity: ManifestEntity
    rows: Record<string, unknown>[]
  }): Promise<void>
}

/**
 * What a caller is answered of an entity's rows: every row the engine answers (list, detail, create, update,
 * transition) passes through it after its labels, in the caller's transaction. A customer's quote carries only
 * the charge lines the site's display modes show (server/domain/quotes/display.ts); an operator's, all of it.
 */
export type AnswerShape = (context: { trx: Transaction<DB>; call: EngineCall; rows: ApiRow[] }) => Promise<ApiRow[]>

export interface ListOrder {
  field: string
  order: 'asc' | 'desc'
}

export interface EngineRegistry {
  effect(name: string, effect: Effect): void
  derivation(name: string, derivation: Derivation): void
  numbering(kind: string, numbering: Numbering): void
  computedState(entity: string, state: ComputedState): void
  computedColumn(entity: string, name: string, column: ComputedColumn): void
  visibility(entity: string, rule: VisibilityRule): void
  listOrder(entity: string, order: ListOrder): void
  view(entity: string, source: ViewSource, options?: ViewOptions): void
  importWriter(entity: string, writer: ImportWriter): void
  answer(entity: string, shape: AnswerShape): void
  gate(entity: string, gate: Gate): void
}

/** The registry as the engine reads it. */
export interface Registry extends EngineRegistry {
  readonly effects: ReadonlyMap<string, Effect>
  readonly derivations: ReadonlyMap<string, Derivation>
  readonly numberings: ReadonlyMap<string, Numbering>
  readonly computedStates: ReadonlyMap<string, ComputedState>
  readonly computedColumns: ReadonlyMap<string, ReadonlyMap<string, ComputedColumn>>
  readonly visibilities: ReadonlyMap<string, VisibilityRule>
  readonly listOrders: ReadonlyMap<string, ListOrder>
  readonly views: ReadonlyMap<string, ViewSource>
  readonly viewOrders: ReadonlyMap<string, readonly ViewOrderKey[]>
  /** The views registered with `creator: false`. */
  readonly viewsWithoutCreator: ReadonlySet<string>
  readonly importWriters: ReadonlyMap<string, ImportWriter>
  readonly answers: ReadonlyMap<string, AnswerShape>
  readonly gates: ReadonlyMap<string, Gate>
}

export function createRegistry(): Registry {
  const effects = new Map<string, Effect>()
  const derivations = new Map<string, Derivation>()
  const numberings = new Map<string, Numbering>()
  const computedStates = new Map<string, ComputedState>()
  const computedColumns = new Map<string, Map<string, ComputedColumn>>()
  const visibilities = new Map<string, VisibilityRule>()
  const listOrders = new Map<string, ListOrder>()
  const views = new Map<string, ViewSource>()
  const viewOrders = new Map<string, readonly ViewOrderKey[]>()
  const viewsWithoutCreator = new Set<string>()
  const importWriters = new Map<string, ImportWriter>()
  const answers = new Map<string, AnswerShape>()
  const gates = new Map<string, Gate>()
  const once = <T>(map: Map<string, T>, what: string, name: string, value: T) => {
    if (map.has(name)) throw new Error(`Engine registry: ${what} "${name}" is registered twice`)
    map.set(name, value)
  }
  return {
    effects,
    derivations,
    numberings,
    computedStates,
    computedColumns,
    visibilities,
    listOrders,
    views,
    viewOrders,
    viewsWithoutCreator,
    importWriters,
    answers,
    gates,
    effect: (name, effect) => once(effects, 'effect', name, effect),
    derivation: (name, derivation) => once(derivations, 'derivation', name, derivation),
    numbering: (kind, numbering) => once(numberings, 'numbering kind', kind, numbering),
    computedState: (entity, state) => once(computedStates, 'computed state of', entity, state),
    computedColumn: (entity, name, column) => {
      const columns = computedColumns.get(entity) ?? new Map<string, ComputedColumn>()
      once(columns, `computed column of ${entity},`, name, column)
      computedColumns.set(entity, columns)
    },
    visibility: (entity, rule) => once(visibilities, 'visibility rule of', entity, rule),
    listOrder: (entity, order) => once(listOrders, 'list order of', entity, order),
    view: (entity, source, options) => {
      once(views, 'view of', entity, source)
      if (options?.order?.length) viewOrders.set(entity, options.order)
      if (options?.creator === false) viewsWithoutCreator.add(entity)
    },
    importWriter: (entity, writer) => once(importWriters, 'import writer of', entity, writer),
    answer: (entity, shape) => once(answers, 'answer shape of', entity, shape),
    gate: (entity, gate) => once(gates, 'gate of', entity, gate),
  }
}

/**
 * Every effect, derivation and numbering kind the manifest names is registered, a computed state belongs to
 * an entity with a state machine and a computed column does not shadow a stored field; else the server does
 * not start.
 */
export function checkRegistry(manifest: Manifest, registry: Registry): void {
  const problems: string[] = []
  const need = (map: ReadonlyMap<string, unknown>, what: string, name: string, where: string) => {
    if (!map.has(name))
      problems.push(
        `${where} names the ${what} "${name}", which no domain module registers (server/domain/*/register.ts)`,
      )
  }
  for (const [name, entity] of Object.entries(manifest.entities)) {
    const where = `entity ${name}`
    for (const derivation of entity.effects?.beforeWrite ?? [])
      need(registry.derivations, 'derivation', derivation, `${where} effects.beforeWrite`)
    for (const key of ['afterCreate', 'afterUpdate'] as const)
      for (const effect of entity.effects?.[key] ?? [])
        need(registry.effects, 'effect', effect, `${where} effects.${key}`)
    for (const [transition, rule] of Object.entries(entity.states?.transitions ?? {}))
      for (const effect of rule.effects ?? [])
        need(registry.effects, 'effect', effect, `${where} transition ${transition} effects`)
    for (const [field, def] of Object.entries(entity.fields))
      if (def.numbering) need(registry.numberings, 'numbering kind', def.numbering, `${where} field ${field} numbering`)
  }
  // What is registered for an entity the manifest does not have is never used (a test's smaller manifest).
  for (const entity of registry.computedStates.keys())
    if (manifest.entities[entity] && !manifest.entities[entity]?.states)
      problems.push(`a computed state is registered for ${entity}, which has no state machine`)
  for (const [entity, columns] of registry.computedColumns) {
    const found = manifest.entities[entity]
    for (const name of columns.keys())
      if (found?.fields[name] || ['id', 'version', 'createdAt', 'updatedAt', 'createdBy'].includes(name))
        problems.push(`the computed column ${entity}.${name} has the name of a stored field`)
  }
  for (const [entity, order] of registry.listOrders) {
    const found = manifest.entities[entity]
    if (found && !found.fields[order.field] && !['id', 'createdAt', 'updatedAt'].includes(order.field))
      problems.push(`the list order of ${entity} names ${order.field}, which is not a field of it`)
  }
  for (const entity of registry.views.keys()) {
    const found = manifest.entities[entity]
    if (found && isEngineEntity(found))
      problems.push(
        `a view is registered for ${entity}, which is stored in a table of the engine's own: a view serves a stored: false entity or one kept in a core table`,
      )
    if (registry.viewOrders.has(entity) && registry.listOrders.has(entity))
      problems.push(`${entity} has a list order and its view an order of its own: register one`)
  }
  // A view without a creator has no created_by to order, search, show or scope by: said at start, not at a call.
  for (const entity of registry.viewsWithoutCreator) {
    const found = manifest.entities[entity]
    if (!found) continue
    const uses = [
      registry.listOrders.get(entity)?.field === 'createdBy' && 'its list order',
      found.dataScope?.owner === 'createdBy' && 'its dataScope owner',
      ...manifest.screens
        .filter((s) => s.entity === entity)
        .flatMap((s) => [
          s.search?.some((f) => f.field === 'createdBy') && `screen ${s.name}'s search`,
          s.columns?.some((c) => c.field === 'createdBy') && `screen ${s.name}'s columns`,
        ]),
    ].filter((use): use is string => typeof use === 'string')
    for (const use of uses)
      problems.push(`${entity}'s view keeps no creator ({ creator: false }), but ${use} names createdBy`)
  }
  // A screen that lists or shows a view shape through engine calls needs its view; the engine only reads it.
  for (const endpoint of manifest.endpoints) {
    const found = manifest.entities[endpoint.entity]
    if (!found || isEngineEntity(found) || endpoint.kind === 'custom') continue
    const where = `${endpoint.method} ${endpoint.path}`
    if (!['list', 'detail', 'export'].includes(endpoint.kind))
      problems.push(
        `${where} would ${endpoint.kind} ${endpoint.entity}, a view the engine only reads: declare a hand-written endpoint`,
      )
    else if (!registry.views.has(endpoint.entity))
      problems.push(
        `${where} reads ${endpoint.entity}, which the engine does not store, and no domain module registers its view`,
      )
  }
  if (problems.length) throw new Error(`The engine cannot start:\n- ${problems.join('\n- ')}`)
}
