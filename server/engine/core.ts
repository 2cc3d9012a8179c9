import type { ValidateFunction } from 'ajv'
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { CreatesDef, EditDeadlineDef } from '../../model/definitions.ts'
import type { JsonSchema } from '../../model/jsonschema.ts'
import type { ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { dayIn, timeZoneOf } from '../../rules/calendar.ts'
import { derivedFields, hasDerived } from '../../rules/derived.ts'
import { editClosed } from '../../rules/editDeadline.ts'
import { type FieldError, toFieldErrors } from '../../rules/messages.ts'
import type { DB } from '../db/schema.ts'
import { ApiError, isErrorCode, messageFor } from '../http/errors.ts'
import { checkAccess } from '../http/guard.ts'
import { parseId } from '../http/ids.ts'
import { checkedBy } from '../http/routeSchema.ts'
import { validateBody } from '../http/validation.ts'
import type { Manifest } from '../manifest.ts'
import {
  checkOverlayRules,
  lockedFields,
  overlayDefaults,
  withoutHiddenColumns,
  withoutHiddenFields,
} from '../overlays/enforce.ts'
import { now, tenantSettings, tenantTimeZone } from '../tenancy/clock.ts'
import { type AuditEntry, changes, type HistoryEntry, historyColumn, historyOf, writeAudit } from './audit.ts'
import { type Column, columnsOf, selection, snakeCase, toApiRow, toDbValue } from './columns.ts'
import { runDerivations, runEffects } from './effects.ts'
import { cellOf, type ExportCell, type ExportColumn, exportColumns, sheetTitle } from './export/sheet.ts'
import { runImport } from './import/run.ts'
import type { NamedSheet, Sheet } from './import/workbook.ts'
import { attachLabels, inlineLabels, type LabelField, type LabelTarget, labelFields } from './labels.ts'
import { checkRegistry, type Registry } from './registry.ts'
import { scopeConditions, scopeValues } from './scope.ts'
import {
  type ListPlan,
  type ListRequest,
  listFromQuery,
  parseListRequest,
  planList,
  searchConditions,
} from './search.ts'
import { isEngineEntity } from './storage.ts'
import { talliedQuery, talliedTotal, tallyColumn } from './tally.ts'
import type { ApiRow, EngineCall } from './types.ts'
import { TRANSITION_INPUT_SCHEMA, transitionInput, withoutRuleIgnored } from './uiRules.ts'

/**
 * The generic engine's core: list, detail, create, update, delete, export and transition for any stored
 * entity of the manifest, inside a transaction the caller opened for one tenant (server/tenancy/scope.ts,
 * row-level security). It knows no HTTP: the routes in ./index.ts wrap it, and tests drive it directly.
 */

export type { ApiRow, EngineCall } from './types.ts'

/** Label texts a row's own query read (./labels.ts, inlineLabels). */
type Prefetched = ReadonlyMap<LabelTarget, Map<string, string>>

export interface ListContent {
  list: ApiRow[]
  total: number
  pageNum: number
  pageSize: number
}

export type DetailContent = ApiRow & { history: HistoryEntry[] }

/**
 * What a hand-written caller may ask of a detail besides its id: `history: false` answers the row without its
 * history, and reads none (a write answering the row it wrote: roles, operation accounts).
 */
export interface DetailOptions {
  history?: boolean
}

/** How a create or update body is checked; the generated validators unless a caller says otherwise. */
export type BodyValidator = (entity: ManifestEntity, body: unknown) => Record<string, unknown>

export interface EngineOptions {
  /**
   * What the domain modules registered (./registry.ts: effects, derivations, numbering kinds, computed states
   * and columns, visibility rules): every name the manifest uses must be in it. server/domain/index.ts
   * builds the application's.
   */
  registry: Registry
  validate?: BodyValidator
  /** The time numbering reads (date parts, reset periods); now unless a test says otherwise. */
  clock?: () => Date
  /** The most rows one export may hold (EXPORT_LIMIT unless a test says otherwise). */
  exportLimit?: number
}

export const ENGINE_KINDS = ['list', 'detail', 'create', 'update', 'delete', 'export', 'import', 'transition'] as const
export type EngineKind = (typeof ENGINE_KINDS)[number]

/** Export answers at most this many rows: a report, not a database dump (above: refused, never cut). */
export const EXPORT_LIMIT = 100_000
/** The rows an export reads at a time, each page in a transaction of its own. */
export const EXPORT_PAGE = 1_000

/**
 * An export, ready to stream (./export/sheet.ts): its columns and row count are known, its rows are read a
 * page at a time, each page in a short transaction of the caller's tenant (./index.ts), so neither the
 * database nor the memory is held for the whole download.
 */
export interface ExportSource {
  /** The file's name: the screen's and the tenant's day (`myOrders-2026-12-31.xlsx`). */
  fileName: string
  /** The sheet's name: the screen's title in the caller's language. */
  title: string
  columns: ExportColumn[]
  total: number
  page(trx: Transaction<DB>, offset: number, limit: number): Promise<ExportCell[][]>
}

type DynamicDB = Record<string, Record<string, unknown>>
const dynamic = (trx: Transaction<DB>) => trx as unknown as Kysely<DynamicDB>
/** The column a list's first page carries its total in (never a field's name: fields are camelCase). */
const TOTAL = 'total:'

const ajv = createAjv()
const id = { type: 'integer', minimum: 1, maximum: 2_147_483_647 }
const compile = (schema: JsonSchema) => ajv.compile(schema)
const ID_QUERY: JsonSchema = { type: 'object', additionalProperties: false, required: ['id'], properties: { id } }
const DELETE_QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id, version: id },
}
const idQuery = compile(ID_QUERY)
const deleteBody = compile(DELETE_QUERY)
const versionedIds = compile({ type: 'object', required: ['id', 'version'], properties: { id, version: id } })

function check<T>(validate: ValidateFunction, input: unknown): T {
  if (!validate(input)) throw new ApiError('validation', {}, toFieldErrors(validate.errors))
  return input as T
}

/** GET query strings carry ids as text: read by the one id parser, with its bounds (server/http/ids.ts). */
function coerceIds(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const out: Record<string, unknown> = { ...input }
  for (const key of ['id', 'version']) if (typeof out[key] === 'string') out[key] = parseId(out[key], key)
  return out
}

interface EndpointPlan {
  endpoint: ManifestEndpoint
  /** What the plan serves: the endpoint's kind, or `list` for a hand-written endpoint a list screen binds. */
  kind: EngineKind
  entity: ManifestEntity
  columns: Column[]
  /** The ref fields whose display text the answers carry in `labels` (./labels.ts). */
  labels: LabelField[]
  list?: ListPlan
  transition?: { schema: JsonSchema; validate: ValidateFunction }
  /** The binding's fixed condition (`filter:`): column → allowed values. */
  filter: [string, (string | number | boolean)[]][]
}

/** What an engine route's schema declares for its input, and checks with the engine's compiled validator. */
export interface RouteInput {
  part: 'querystring' | 'body'
  schema: JsonSchema
}

export interface Engine {
  /** The endpoints this engine serves (kinds above, entities with a table of the engine's own). */
  readonly endpoints: readonly ManifestEndpoint[]
  /**
   * Runs one call of an endpoint: access, input, query, audit. With `kind`, the call must be of that kind;
   * a hand-written (custom) endpoint that list screens of an engine entity bind is then served as a list
   * (or export) of that entity, with the screens' search (./api.ts). `options`: a detail's (DetailOptions).
   */
  handle(
    trx: Transaction<DB>,
    endpoint: ManifestEndpoint,
    call: EngineCall,
    input: unknown,
    kind?: EngineKind,
    options?: DetailOptions,
  ): Promise<unknown>
  /**
   * One call of a kind on an engine entity itself, for a hand-written endpoint no screen binds (a detail
   * answered with more than the row): no endpoint's filter, search or permissions — the handler's own
   * endpoint was checked; data scope, visibility and each transition's permission still hold.
   */
  handleEntity(
    trx: Transaction<DB>,
    entity: string,
    kind: EngineKind,
    call: EngineCall,
    input: unknown,
    options?: DetailOptions,
  ): Promise<unknown>
  /** The entity's registered gate (./registry.ts), for a hand-written call on it (an upload to its file field). */
  gate(trx: Transaction<DB>, entity: string, call: EngineCall): Promise<void>
  /**
   * The schema of an engine route's input (server/http/routeSchema.ts): checked and read (ids as numbers, a
   * list request with its defaults) before the handler by the validator compiled here, so the route's call
   * is not checked again. None for a create or update: their record is checked whole in the transaction.
   */
  routeInput(endpoint: ManifestEndpoint): RouteInput | undefined
  /** A call of an engine route whose input its schema (routeInput) checked and read. */
  handleChecked(trx: Transaction<DB>, endpoint: ManifestEndpoint, call: EngineCall, input: unknown): Promise<unknown>
}

/**
 * How each kind that has one reads and checks its input: the route's schema check (Engine.routeInput), and
 * the engine's own when a handler calls it. A create's, update's or import's input is checked in the kind.
 */
const READERS: Partial<Record<EngineKind, (plan: EndpointPlan, input: unknown) => unknown>> = {
  list: (plan, input) => parseListRequest(plan.list as ListPlan, input),
  export: (plan, input) => parseListRequest(plan.list as ListPlan, input),
  detail: (_plan, input) => check(idQuery, coerceIds(input ?? {})),
  delete: (_plan, input) => check(deleteBody, coerceIds(input ?? {})),
  transition: (plan, input) => check(plan.transition?.validate as ValidateFunction, input),
}

/** The schema each reader checks with: the one its validator was compiled from. */
const readerSchema = (plan: EndpointPlan, kind: EngineKind): JsonSchema | undefined => {
  if (kind === 'list' || kind === 'export') return plan.list?.schema
  if (kind === 'detail') return ID_QUERY
  if (kind === 'delete') return DELETE_QUERY
  if (kind === 'transition') return plan.transition?.schema
  return undefined
}

const read = (kind: EngineKind, plan: EndpointPlan, input: unknown): unknown => {
  const reader = READERS[kind]
  return reader ? reader(plan, input) : input
}

/** True for the endpoints the engine answers; the rest are hand-written (custom) or views of core tables. */
export function servedByEngine(manifest: Manifest, endpoint: ManifestEndpoint, registry?: Registry): boolean {
  const entity = manifest.entities[endpoint.entity]
  if (!entity || !(ENGINE_KINDS as readonly string[]).includes(endpoint.kind)) return false
  if (isEngineEntity(entity)) return true
  // A view (registry.view) is read by the engine: its list, detail and export; its writes are hand-written.
  return !!registry?.views.has(entity.entity) && (VIEW_KINDS as readonly string[]).includes(endpoint.kind)
}

/** What the engine does with a view entity (./registry.ts `view`): it reads, never writes. */
const VIEW_KINDS = ['list', 'detail', 'export'] as const

export function createEngine(manifest: Manifest, options: EngineOptions): Engine {
  const registry = options.registry
  checkRegistry(manifest, registry)
  const validate: BodyValidator = options.validate ?? ((entity, body) => validateBody(entity, body))
  const clock = options.clock ?? now
  const plans = new Map<ManifestEndpoint, EndpointPlan>()
  const endpoints = manifest.endpoints.filter((e) => servedByEngine(manifest, e, registry))
  const viewOf = (entity: ManifestEntity) => registry.views.get(entity.entity)
  /** What a read selects from: the entity's table, or its registered view under the table's name. */
  const source = (trx: Transaction<DB>, plan: EndpointPlan, call: EngineCall): string => {
    const view = viewOf(plan.entity)
    if (!view) return plan.entity.table
    // An aliased subquery where the dynamic builder takes a table name: the same `from` either way.
    return sql`(${view({ trx, call })})`.as(plan.entity.table) as unknown as string
  }
  const makePlan = (endpoint: ManifestEndpoint, entity: ManifestEntity, kind: EngineKind): EndpointPlan => {
    const where = `${endpoint.method} ${endpoint.path}`
    if (viewOf(entity) && !(VIEW_KINDS as readonly string[]).includes(kind))
      throw new Error(`${where}: ${entity.entity} is a view; the engine only reads it (its writes are hand-written)`)
    if (entity.scope === 'global' && !['list', 'detail', 'export'].includes(kind))
      throw new Error(`${where}: ${entity.entity} is a shared reference list; the engine only reads it`)
    // What it selects and answers: every column, but the creator of a view registered without one (roles) — and
    // so no label of it either, a label being read for a column the row carries (./labels.ts).
    const all = columnsOf(entity, manifest.entities)
    const columns = registry.viewsWithoutCreator.has(entity.entity) ? all.filter((c) => c.name !== 'createdBy') : all
    const plan: EndpointPlan = {
      endpoint,
      kind,
      entity,
      columns,
      labels: labelFields(entity, manifest.entities),
      filter: Object.entries(endpoint.filter ?? {}).map(([field, values]) => {
        const column = columns.find((c) => c.name === field)
        if (!column) throw new Error(`${where}: filter on ${field}, which ${entity.entity} does not have`)
        return [column.column, values]
      }),
    }
    if (kind === 'list' || kind === 'export') plan.list = planList(manifest, endpoint, entity)
    if (kind === 'transition') {
      if (!entity.states) throw new Error(`${where}: ${entity.entity} has no state machine`)
      const schema: JsonSchema = {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'version', 'transition'],
        properties: {
          id,
          version: id,
          transition: { enum: callableTransitions(entity) },
          remark: { type: 'string', maxLength: 500 },
          input: TRANSITION_INPUT_SCHEMA,
        },
      }
      plan.transition = { schema, validate: compile(schema) }
    }
    return plan
  }
  for (const endpoint of endpoints)
    plans.set(
      endpoint,
      makePlan(endpoint, manifest.entities[endpoint.entity] as ManifestEntity, endpoint.kind as EngineKind),
    )
  // Hand-written endpoints that list screens of an engine entity bind: the engine's list, with their search.
  const customPlans = new Map<ManifestEndpoint, EndpointPlan>()
  for (const endpoint of manifest.endpoints) {
    if (endpoint.kind !== 'custom' || !endpoint.screens.length) continue
    const bound = manifest.screens.filter((s) => endpoint.screens.includes(s.name))
    const entity = manifest.entities[bound[0]?.entity ?? '']
    const listed = (s: (typeof bound)[number]) =>
      s.kind === 'list' &&
      s.entity === entity?.entity &&
      s.endpoints?.list?.path === endpoint.path &&
      s.endpoints?.list?.method === endpoint.method
    if (!entity || !(isEngineEntity(entity) || viewOf(entity)) || !bound.every(listed)) continue
    const search = bound.flatMap((s) => s.search ?? [])
    const unique = search.filter((def, i) => search.findIndex((d) => JSON.stringify(d) === JSON.stringify(def)) === i)
    customPlans.set(endpoint, makePlan({ ...endpoint, search: unique }, entity, 'list'))
  }

  const planOf = (endpoint: ManifestEndpoint, kind?: EngineKind): EndpointPlan => {
    const same = (p: EndpointPlan) => p.endpoint.method === endpoint.method && p.endpoint.path === endpoint.path
    const plan =
      plans.get(endpoint) ??
      customPlans.get(endpoint) ??
      [...plans.values()].find(same) ??
      [...customPlans.values()].find(same)
    if (!plan) throw new Error(`${endpoint.method} ${endpoint.path} is not served by the engine`)
    if (kind && plan.kind !== kind && !(kind === 'export' && plan.kind === 'list'))
      throw new Error(`${endpoint.method} ${endpoint.path} is a ${plan.kind} endpoint, not a ${kind}`)
    return plan
  }

  /**
   * Tenant (again, besides row-level security) and data scope: whatever a caller may see of a table, or — for
   * `write` — change in it (a rule may share rows for reading only: colleagues' public FBA addresses).
   */
  const visible = (plan: EndpointPlan, call: EngineCall, purpose: 'read' | 'write' = 'read'): RawBuilder<SqlBool>[] => {
    const table = plan.entity.table
    const tenant =
      plan.entity.scope === 'tenant' ? [sql<SqlBool>`${sql.ref(`${table}.tenant_id`)} = ${call.tenantId}`] : []
    const fixed = plan.filter.map(
      ([column, values]) => sql<SqlBool>`${sql.ref(`${table}.${column}`)} in (${sql.join(values)})`,
    )
    const scoped = scopeConditions(plan.entity, call.session, table)
    const rule = registry.visibilities.get(plan.entity.entity)
    return [...tenant, ...(rule ? rule({ call, table, defaults: scoped, purpose }) : scoped), ...fixed]
  }

  /**
   * What the domain registered for reads of the entity (./registry.ts): the computed state, replacing the
   * stored one in the select list and in state filters, and the computed columns.
   */
  const readExtras = async (trx: Transaction<DB>, plan: EndpointPlan, call: EngineCall): Promise<ReadExtras> => {
    const computedState = registry.computedStates.get(plan.entity.entity)
    const computed = registry.computedColumns.get(plan.entity.entity)
    if (!computedState && !computed) return NO_EXTRAS
    const table = plan.entity.table
    const context = { trx, call, entity: plan.entity, table, at: clock() }
    const stateField = plan.entity.states?.field
    const state = computedState && stateField ? await computedState(context) : undefined
    const stateColumn = state && stateField ? columnOf(plan, stateField) : undefined
    const columns = stateColumn ? plan.columns.filter((c) => c !== stateColumn) : plan.columns
    const select = [
      ...selection(columns, table),
      ...(state && stateColumn ? [sql`${state}`.as(stateColumn.name)] : []),
      ...[...(computed ?? [])].map(([name, column]) => sql`${column(context)}`.as(name)),
    ]
    return {
      select,
      refs: state && stateColumn ? new Map([[stateColumn.column, state]]) : undefined,
      computed: [...(computed?.keys() ?? [])],
    }
  }
  const selectionOf = (plan: EndpointPlan, extras: ReadExtras) =>
    extras.select ?? selection(plan.columns, plan.entity.table)
  const rowOf = (plan: EndpointPlan, extras: ReadExtras, row: Record<string, unknown>): ApiRow => {
    const out = toApiRow(plan.columns, row)
    for (const name of extras.computed)
      out[name] = row[name] instanceof Date ? (row[name] as Date).toISOString() : (row[name] ?? null)
    return out
  }

  /**
   * One row by id as the caller may see it; with `labelled`, the labels its own query can read too, and with
   * `history` its history (a tenant record's, for the detail), so a detail is one query.
   */
  const readRow = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    rowId: number,
    lock = false,
    labelled = false,
    history = false,
  ): Promise<{ row: ApiRow; prefetched?: Prefetched; history?: HistoryEntry[] } | undefined> => {
    const table = plan.entity.table
    const inline = labelled ? inlineLabels(plan.labels, columnName(plan), table, call) : undefined
    const extras = await readExtras(trx, plan, call)
    const past = history ? [historyColumn(call.tenantId, plan.entity.entity, rowId).as('history:')] : []
    let query = dynamic(trx)
      .selectFrom(source(trx, plan, call))
      .select([...selectionOf(plan, extras), ...(inline?.select ?? []), ...past])
      .where(sql<SqlBool>`${sql.ref(`${table}.id`)} = ${rowId}`)
    for (const condition of visible(plan, call, lock ? 'write' : 'read')) query = query.where(condition)
    const row = await (lock && !viewOf(plan.entity) ? query.forUpdate() : query).executeTakeFirst()
    if (!row) return undefined
    return {
      row: rowOf(plan, extras, row),
      prefetched: inline?.collect([row]),
      ...(history ? { history: historyOf(row['history:']) } : {}),
    }
  }

  const mustFind = async (trx: Transaction<DB>, plan: EndpointPlan, call: EngineCall, rowId: number) => {
    const row = (await readRow(trx, plan, call, rowId, true))?.row
    if (!row) throw new ApiError('404')
    return row
  }

  /** An update of one row at one version; 0 rows means someone changed it since (the row is locked and visible). */
  const updateRow = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    rowId: number,
    version: number,
    values: Record<string, unknown>,
  ): Promise<ApiRow> => {
    const table = plan.entity.table
    let query = dynamic(trx)
      .updateTable(table)
      .set({ ...values, version: sql`version + 1`, updated_at: clock() })
      .where(sql<SqlBool>`${sql.ref(`${table}.id`)} = ${rowId}`)
      .where(sql<SqlBool>`${sql.ref(`${table}.version`)} = ${version}`)
    for (const condition of visible(plan, call, 'write')) query = query.where(condition)
    const row = await databaseErrors(query.returning(selection(plan.columns, table)).executeTakeFirst())
    if (!row) throw new ApiError('330002')
    return toApiRow(plan.columns, row)
  }

  const audit = (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    recordId: number,
    change: Pick<AuditEntry, 'action' | 'before' | 'after' | 'transition' | 'remark'>,
  ) =>
    writeAudit(trx, {
      tenantId: call.tenantId,
      userId: call.session.userId,
      entity: plan.entity.entity,
      recordId,
      ...change,
    })

  /** Fields a caller may write: not system, not read-only (the state field is read-only: transitions move it). */
  const writable = (plan: EndpointPlan) => plan.columns.filter((c) => !c.system && !c.field?.readOnly)

  /**
   * What a caller may send back but never sets: system and read-only fields, the detail's history, the
   * labels, and what the tenant's overlay hides or locks on the screens behind the endpoint.
   */
  const strip = (plan: EndpointPlan, call: EngineCall, body: unknown, keep: string[], stored?: ApiRow): unknown => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body
    const ignored = new Set(plan.columns.filter((c) => c.system || c.field?.readOnly).map((c) => c.name))
    ignored.add('history')
    ignored.add('labels')
    for (const name of lockedFields(call.overlay)) ignored.add(name)
    const kept = Object.fromEntries(Object.entries(body).filter(([key]) => keep.includes(key) || !ignored.has(key)))
    // And what the YAML's UI rules hide or disable for the record written (./uiRules.ts).
    return withoutReadOnlyItems(
      plan,
      // A value for a field a feature the tenant lacks keeps away is refused, as on hand-written endpoints
      // (server/http/endpoints.ts) — not dropped, which would also hide a broken value from the validator.
      withoutRuleIgnored(manifest, plan.endpoint, kept, stored, {
        settings: call.settings,
        refuseFeatureOff: call.settings !== undefined,
      }) as ApiRow,
    )
  }

  /** Sub-table rows without their read-only columns (a charge line's amount, which the server works out). */
  const withoutReadOnlyItems = (plan: EndpointPlan, record: Record<string, unknown>): Record<string, unknown> => {
    const out = { ...record }
    for (const column of plan.columns) {
      const items = column.field?.items
      const rows = out[column.name]
      const hidden = items ? Object.keys(items).filter((name) => items[name]?.readOnly) : []
      if (!hidden.length || !Array.isArray(rows)) continue
      out[column.name] = rows.map((row) =>
        row && typeof row === 'object'
          ? Object.fromEntries(Object.entries(row).filter(([name]) => !hidden.includes(name)))
          : row,
      )
    }
    return out
  }

  /**
   * The states a list is narrowed to when nothing but the tenant and its states narrows it: the row tally
   * can then answer its total (./tally.ts). null: every state; undefined: the rows must be counted.
   */
  const talliedStates = (plan: EndpointPlan, call: EngineCall, request: ListRequest): string[] | null | undefined => {
    const column = tallyColumn(plan.entity)
    // A view has no tally of its own: its rows are counted.
    if (viewOf(plan.entity) || plan.entity.scope !== 'tenant' || visible(plan, call).length > 1 + plan.filter.length)
      return
    // A computed state is not the stored one the tally counts: a list narrowed by state counts its rows.
    const computed = registry.computedStates.has(plan.entity.entity)
    let states: string[] | null = null
    const narrow = (values: readonly unknown[]) => {
      const texts = values.map(String)
      states = states ? states.filter((s) => texts.includes(s)) : texts
    }
    for (const [fixed, values] of plan.filter) {
      if (fixed !== column || computed) return
      narrow(values)
    }
    for (const [key, value] of Object.entries(request.searchParams)) {
      const param = (plan.list as ListPlan).params.get(key)
      if (!param || param.column.column !== column || !['eq', 'in'].includes(param.def.op) || computed) return
      narrow(Array.isArray(value) ? value : [value])
    }
    return states
  }

  /**
   * A tabbed list's counts (SPEC §4's order tabs): how many rows of each of the tabs' values, and in all, the
   * caller sees under the request's other filters (the tab's own is not one). From the row tally when nothing but
   * the tenant narrows the list (an operator's unfiltered list), else counted by state in one grouped query.
   */
  const tabCounts = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    request: ListRequest,
  ): Promise<Record<string, number>> => {
    const tabs = plan.endpoint.tabs as NonNullable<ManifestEndpoint['tabs']>
    const listPlan = plan.list as ListPlan
    const others = Object.fromEntries(
      Object.entries(request.searchParams).filter(
        ([key]) => listPlan.params.get(key)?.column.column !== snakeCase(tabs.field),
      ),
    )
    const column = snakeCase(tabs.field)
    const byState = new Map<string, number>()
    if (talliedStates(plan, call, { ...request, searchParams: others }) === null) {
      const { rows } = await sql<{ state: string; n: number }>`select state, n::int as n from row_tally
        where tenant_id = ${call.tenantId} and table_name = ${plan.entity.table}`.execute(trx)
      for (const r of rows) byState.set(r.state, r.n)
    } else {
      const table = plan.entity.table
      const extras = await readExtras(trx, plan, call)
      const conditions = [...visible(plan, call), ...searchConditions(listPlan, others, table, extras.refs)]
      let count = dynamic(trx)
        .selectFrom(source(trx, plan, call))
        .select([sql<string>`${sql.ref(`${table}.${column}`)}`.as('state'), sql<number>`count(*)::int`.as('n')])
        .groupBy(sql.ref(`${table}.${column}`))
      for (const condition of conditions) count = count.where(condition)
      for (const r of (await count.execute()) as { state: string; n: number }[]) byState.set(String(r.state), r.n)
    }
    const counts: Record<string, number> = { all: [...byState.values()].reduce((a, b) => a + b, 0) }
    for (const value of tabs.values) counts[value] = byState.get(value) ?? 0
    return counts
  }

  /**
   * The rows a list request selects (filters, data scope, stable order), one page of them, and how many in
   * all. The page's ids come first, from the list index alone where the filters allow (ids, tenant, state,
   * data scope: server/engine/storage.ts), then their rows; a page nearer the end than the start is read
   * backwards from the end, so the last page of 200,000 orders costs what the first does.
   */
  const search = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    request: ListRequest,
    limit: number,
    offset: number,
    /** Counted already (an export's later pages): not counted again. */
    knownTotal?: number,
  ): Promise<{ list: ApiRow[]; total: number; prefetched?: Prefetched }> => {
    const listPlan = plan.list as ListPlan
    const table = plan.entity.table
    const extras = await readExtras(trx, plan, call)
    const conditions = [...visible(plan, call), ...searchConditions(listPlan, request.searchParams, table, extras.refs)]
    const states = talliedStates(plan, call, request)
    const counting = () => {
      let count = dynamic(trx)
        .selectFrom(source(trx, plan, call))
        .select(sql<number>`count(*)::int`.as('total'))
      for (const condition of conditions) count = count.where(condition)
      return count
    }
    // The first page is read forwards whatever the total, so its total comes with its rows, in the same statement
    // and snapshot (one round trip fewer on the call every list opens with, issue #29): an empty first page is a
    // total of none.
    const first = knownTotal === undefined && offset === 0
    let total: number
    if (knownTotal !== undefined) total = knownTotal
    // Until its rows say, a first page stands as a full one: read forwards, `limit` rows from the start.
    else if (first) total = limit
    else if (states === undefined) total = Number((await counting().executeTakeFirst())?.total ?? 0)
    else total = await talliedTotal(trx, call.tenantId, table, states)
    if (offset >= total) return { list: [], total }

    const backwards = offset > total - offset - limit
    // The reader's sort, else the order the entity's module registered (newest letter first) or its view's own
    // (preset roles first), else id.
    const fallback = registry.listOrders.get(plan.entity.entity)
    const sortBy = request.sort ?? fallback
    const sort = request.sort ? listPlan.sortable.get(request.sort.field) : fallback && columnOf(plan, fallback.field)
    const sortKeys: { column: string; order?: 'asc' | 'desc' }[] = sort
      ? [{ column: sort.column, order: sortBy?.order }]
      : [...(registry.viewOrders.get(plan.entity.entity) ?? [])]
    const order = (reverse: boolean) => {
      const keys: RawBuilder<unknown>[] = []
      for (const key of sortKeys) {
        // Empty values last either way; read backwards, they come first.
        const descending = (key.order === 'desc') !== reverse
        const direction = `${descending ? 'desc' : 'asc'} nulls ${reverse ? 'first' : 'last'}`
        keys.push(sql`${extras.refs?.get(key.column) ?? sql.ref(`${table}.${key.column}`)} ${sql.raw(direction)}`)
      }
      keys.push(sql`${sql.ref(`${table}.id`)} ${sql.raw(reverse ? 'asc' : 'desc')}`)
      return sql.join(keys)
    }
    let ids = dynamic(trx)
      .selectFrom(source(trx, plan, call))
      .select(sql.ref(`${table}.id`).as('id'))
      .orderBy(order(backwards))
      // The page's size as a literal (a validated integer): PostgreSQL plans a `limit $1` for a tenth of the rows,
      // so the prepared statement's generic plan never looked as cheap as a custom one, and every call was planned
      // again — 0.45 ms of the order list's 0.8 ms in the database (issue #29, docs/PERFORMANCE.md). With the size
      // known, PostgreSQL keeps the generic plan. The sizes are few: the page sizes and a last page's remainder.
      .limit(sql.lit(Math.trunc(backwards ? Math.min(limit, total - offset) : limit)))
      .offset(backwards ? Math.max(0, total - offset - limit) : offset)
    for (const condition of conditions) ids = ids.where(condition)
    const inline = inlineLabels(plan.labels, columnName(plan), table, call)
    const counted = first
      ? [sql<number>`(${states === undefined ? counting() : talliedQuery(call.tenantId, table, states)})`.as(TOTAL)]
      : []
    let rows = dynamic(trx)
      .selectFrom(source(trx, plan, call))
      .select([...selectionOf(plan, extras), ...inline.select, ...counted])
      .where(sql.ref(`${table}.id`), 'in', ids)
      .orderBy(order(false))
    for (const condition of visible(plan, call)) rows = rows.where(condition)
    const list = await rows.execute()
    if (first) total = Number(list[0]?.[TOTAL] ?? 0)
    return { list: list.map((row) => rowOf(plan, extras, row)), total, prefetched: inline.collect(list) }
  }

  /** The answer's rows with their `labels`, read in the caller's tenant transaction (never before an audit). */
  const labelled = async <T extends ApiRow>(
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    rows: T[],
    prefetched?: Prefetched,
  ): Promise<T[]> => {
    const answered = await attachLabels(trx, plan.labels, rows, call, prefetched)
    // What the caller is answered of them, where a domain module registered it (registry.answer).
    const shape = registry.answers.get(plan.entity.entity)
    return shape ? ((await shape({ trx, call, rows: answered })) as T[]) : answered
  }
  const labelledRow = async <T extends ApiRow>(
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    row: T,
    prefetched?: Prefetched,
  ) => (await labelled(trx, plan, call, [row], prefetched))[0] as T

  /** A new record as create stores it: the overlay's defaults, what the caller may set, validated. */
  const checkNew = (plan: EndpointPlan, call: EngineCall, input: unknown): Record<string, unknown> => {
    const data = validate(plan.entity, {
      ...overlayDefaults(call.overlay),
      ...(strip(plan, call, input, []) as object),
    })
    checkOverlayRules(call.overlay, data, plan.entity)
    return data
  }

  /** Stores a checked record: tenant, author, version 1, the initial state, the data-scope owner; audited. */
  const insertRow = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    data: Record<string, unknown>,
    remark?: string,
    /** Read-only fields the call sets (an import's parameters: the customer an operator imports for). */
    fixed: Record<string, unknown> = {},
  ): Promise<ApiRow> => {
    // Written from the server's clock, not the column's default now(): a record created "today" is dated
    // on the day the tenant and the rules see, whatever the database's own clock says.
    const at = clock()
    const values: Record<string, unknown> = {
      tenant_id: call.tenantId,
      created_by: call.session.userId,
      version: 1,
      created_at: at,
      updated_at: at,
    }
    for (const column of writable(plan)) {
      // A field the caller left out stores its `default:` (a number rule's document: order), as the form offers it.
      const value = data[column.name] ?? column.field?.default
      if (value !== undefined) values[column.column] = toDbValue(column, value)
    }
    // The derivations see the fixed fields too (whose order an operator's import books: its source's checks).
    Object.assign(values, await derivedValues(trx, plan, call, null, { ...data, ...fixed }))
    if (plan.entity.states) values[columnOf(plan, plan.entity.states.field).column] = plan.entity.states.initial
    Object.assign(values, scopeValues(plan.entity, call.session, plan.columns))
    for (const [field, value] of Object.entries(fixed)) values[columnOf(plan, field).column] = value
    for (const column of plan.columns) {
      const kind = column.field?.numbering
      const numbering = kind && registry.numberings.get(kind)
      // A number the caller gave (a writable numbered field, the job file's) is kept; else the kind's next.
      if (numbering && isEmptyValue(data[column.name]))
        values[column.column] = await numbering(trx, call.tenantId, data, at)
    }
    const table = plan.entity.table
    const inserted = await databaseErrors(
      dynamic(trx).insertInto(table).values(values).returning(selection(plan.columns, table)).executeTakeFirstOrThrow(),
    )
    const row = toApiRow(plan.columns, inserted)
    await audit(trx, plan, call, row.id as number, {
      action: 'create',
      before: null,
      after: row,
      ...(remark ? { remark } : {}),
    })
    await runEffects(registry, plan.entity.effects?.afterCreate, effectContext(trx, plan, call, null, row))
    return row
  }

  /** The columns of the record's derivations (`effects.beforeWrite`), read-only fields included. */
  const derivedValues = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    before: ApiRow | null,
    data: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const names = plan.entity.effects?.beforeWrite
    const fieldsDerived = hasDerived(plan.entity.fields)
    if (!names?.length && !fieldsDerived) return {}
    const derived = await runDerivations(registry, names, {
      trx,
      call,
      manifest,
      entity: plan.entity,
      before,
      data,
      at: clock(),
    })
    // The fields the YAML derives (derive:, rules/derived.ts), last: from the record as it will be written and
    // the tenant's settings, whatever the caller sent — the same rule the form shows while the user types.
    if (fieldsDerived)
      Object.assign(
        derived,
        derivedFields(
          plan.entity.fields,
          { ...data, ...derived },
          { settings: await tenantSettings(trx, call.tenantId) },
        ),
      )
    const values: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(derived)) {
      const column = columnOf(plan, name)
      if (column && !column.system) values[column.column] = toDbValue(column, value)
    }
    return values
  }

  const effectContext = (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    before: ApiRow | null,
    after: ApiRow,
  ) => ({ trx, call, manifest, entity: plan.entity, before, after, at: clock() })

  /**
   * An import's parameters (the binding's `input:`), set on every row. The data scope's company among them is
   * whose records the rows become: only an operator names one (a customer's own binding asks for none, and
   * their rows are their company's), and it must be an enterprise of the tenant, else nothing is imported.
   */
  const importTarget = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const company = plan.entity.dataScope?.company
    if (company === undefined || params[company] === undefined) return params
    const { rows } = await sql<{ id: number }>`
      select id from company where tenant_id = ${call.tenantId} and id = ${params[company]} and company_type = 2`.execute(
      trx,
    )
    if (call.session.companyUserType !== 1 || !rows.length)
      throw new ApiError('validation', {}, [{ field: company, message: 'import.customerNotEnterprise', params: {} }])
    return params
  }

  const kinds: Record<
    EngineKind,
    (
      trx: Transaction<DB>,
      plan: EndpointPlan,
      call: EngineCall,
      input: unknown,
      options?: DetailOptions,
    ) => Promise<unknown>
  > = {
    async list(trx, plan, call, input): Promise<ListContent> {
      const request = input as ListRequest
      const offset = (request.pageNum - 1) * request.pageSize
      const { list, total, prefetched } = await search(trx, plan, call, request, request.pageSize, offset)
      // The rows as the caller is answered them (registry.answer), not only labelled.
      const answered = await labelled(trx, plan, call, list, prefetched)
      return {
        list: withoutHiddenColumns(call.overlay, answered),
        total,
        pageNum: request.pageNum,
        pageSize: request.pageSize,
        ...(plan.endpoint.tabs ? { tabs: await tabCounts(trx, plan, call, request) } : {}),
      }
    },

    async detail(trx, plan, call, input, options): Promise<DetailContent | ApiRow> {
      const { id: rowId } = input as { id: number }
      const withHistory = options?.history !== false
      const found = await readRow(trx, plan, call, rowId, false, true, withHistory && plan.entity.scope === 'tenant')
      if (!found) throw new ApiError('404')
      const row = await labelledRow(trx, plan, call, found.row, found.prefetched)
      return withoutHiddenFields(call.overlay, withHistory ? { ...row, history: found.history ?? [] } : row)
    },

    async create(trx, plan, call, input): Promise<ApiRow> {
      const row = await insertRow(trx, plan, call, checkNew(plan, call, input))
      return labelledRow(trx, plan, call, row)
    },

    /** input: the sheet the route read from the upload (./import/workbook.ts); rows as create stores them. */
    async import(trx, plan, call, input) {
      const {
        sheet,
        sheets,
        params = {},
      } = input as { sheet: Sheet; sheets?: NamedSheet[]; params?: Record<string, unknown> }
      const spec = plan.endpoint.sheets
      const fixed = await importTarget(trx, plan, call, params)
      return runImport(
        trx,
        manifest,
        plan.entity,
        { tenantId: call.tenantId, language: call.language, locked: lockedFields(call.overlay) },
        sheet,
        {
          check: (body) => checkNew(plan, call, body),
          resolve: Object.fromEntries(
            Object.entries(registry.importWriters.get(plan.entity.entity)?.references ?? {}).map(([field, fn]) => [
              field,
              (texts: string[]) => fn({ trx, call, texts }),
            ]),
          ),
          insert: async (rows, refuse) => {
            const writer = registry.importWriters.get(plan.entity.entity)
            if (writer) return writer.write({ trx, call, entity: plan.entity, rows })
            for (const [index, data] of rows.entries()) {
              try {
                await insertRow(trx, plan, call, data, 'import', fixed)
              } catch (error) {
                if (!(error instanceof ApiError) || error.code !== 'validation') throw error
                refuse(index, error)
              }
            }
          },
        },
        spec && sheets ? { sheets, spec } : undefined,
      )
    },

    async update(trx, plan, call, input): Promise<ApiRow> {
      const ids = check<{ id: number; version: number }>(versionedIds, coerceIds(input))
      const before = await mustFind(trx, plan, call, ids.id)
      if (before.version !== ids.version) throw new ApiError('330002')
      const editable = writable(plan)
      const current = Object.fromEntries(
        editable.filter((c) => before[c.name] !== null).map((c) => [c.name, before[c.name]]),
      )
      // The body may carry only what changed: the record is checked whole, as the form shows it.
      const data = validate(plan.entity, {
        ...withoutReadOnlyItems(plan, current),
        ...(strip(plan, call, input, ['id', 'version'], before) as object),
      })
      checkOverlayRules(call.overlay, data, plan.entity)
      // A record in a state the YAML lets no one edit in (under review): refused once the body is known good.
      const editableIn = plan.entity.states?.editableIn
      if (editableIn && !editableIn.includes(before[plan.entity.states?.field as string] as string))
        throw new ApiError('320001')
      // Past the entity's edit deadline (the ETD limit of the tenant's settings), on the server's clock.
      if (plan.entity.editDeadline) await refuseClosed(trx, plan.entity.editDeadline, call.tenantId, before)
      const values: Record<string, unknown> = {}
      for (const column of editable) {
        const next = data[column.name] ?? null
        if (JSON.stringify(next) !== JSON.stringify(before[column.name] ?? null))
          values[column.column] = toDbValue(column, next)
      }
      // A change the state machine answers with a transition of its own (`onUpdate: true`): written with it.
      const fired = Object.keys(values).length ? firedOnUpdate(plan.entity, call, before) : undefined
      if (fired) values[columnOf(plan, plan.entity.states?.field as string).column] = fired.rule.to
      Object.assign(values, await derivedValues(trx, plan, call, before, data))
      const after = await updateRow(trx, plan, call, ids.id, ids.version, values)
      await audit(trx, plan, call, ids.id, {
        action: 'update',
        ...(fired ? { transition: fired.name } : {}),
        ...changes(before, after),
      })
      const context = effectContext(trx, plan, call, before, after)
      await runEffects(registry, plan.entity.effects?.afterUpdate, context)
      if (fired) await runEffects(registry, fired.rule.effects, context)
      return labelledRow(trx, plan, call, after)
    },

    async delete(trx, plan, call, input): Promise<{ id: number }> {
      const ids = input as { id: number; version?: number }
      const before = await mustFind(trx, plan, call, ids.id)
      if (ids.version !== undefined && before.version !== ids.version) throw new ApiError('330002')
      const deletable = plan.entity.states?.deletableIn
      if (deletable && !deletable.includes(before[plan.entity.states?.field as string] as string))
        throw new ApiError('320001')
      const table = plan.entity.table
      let query = dynamic(trx)
        .deleteFrom(table)
        .where(sql<SqlBool>`${sql.ref(`${table}.id`)} = ${ids.id}`)
      for (const condition of visible(plan, call, 'write')) query = query.where(condition)
      await databaseErrors(query.execute())
      await audit(trx, plan, call, ids.id, { action: 'delete', before, after: null })
      return { id: ids.id }
    },

    async export(trx, plan, call, input): Promise<ExportSource> {
      const request = input as ListRequest
      const language = call.language ?? 'zh'
      const { total } = await search(trx, plan, call, request, 0, Number.MAX_SAFE_INTEGER)
      const max = options.exportLimit ?? EXPORT_LIMIT
      if (total > max)
        throw new ApiError('validation', {}, [
          { field: 'searchParams', message: 'validation.exportTooLarge', params: { total, max } },
        ])
      const screen = manifest.screens.find((s) => plan.endpoint.screens.includes(s.name) && s.columns?.length)
      const columns = exportColumns(plan.entity, plan.columns, screen?.columns, language, {
        hidden: call.overlay?.document.columns?.hidden,
        columns: request.columns,
      })
      const timeZone = await tenantTimeZone(trx, call.tenantId)
      return {
        fileName: `${screen?.name ?? plan.entity.entity}-${dayIn(clock(), timeZone)}.xlsx`,
        title: sheetTitle(screen?.title ? messageFor(screen.title, language) : plan.entity.entity),
        columns,
        total,
        async page(pageTrx, offset, limit) {
          const { list, prefetched } = await search(pageTrx, plan, call, request, limit, offset, total)
          await labelled(pageTrx, plan, call, list, prefetched)
          return list.map((row) => columns.map((c) => cellOf(c, row, plan.entity, language, timeZone)))
        },
      }
    },

    async transition(trx, plan, call, input): Promise<ApiRow> {
      const body = input as { id: number; version: number; transition: string; remark?: string; input?: unknown }
      const states = plan.entity.states as NonNullable<ManifestEntity['states']>
      const transition = states.transitions[body.transition] as NonNullable<
        ManifestEntity['states']
      >['transitions'][string]
      if (!call.session.permissions.has(transition.permission)) throw new ApiError('220000')
      const before = await mustFind(trx, plan, call, body.id)
      if (before.version !== body.version) throw new ApiError('330002')
      const state = columnOf(plan, states.field)
      const current = before[state.name] as string
      if (!transition.from.includes(current)) {
        // A state the YAML gives its own refusal (a confirmed bill confirmed again: 360003), else 320001.
        const code = transition.refusedIn?.[current]
        throw new ApiError(code && isErrorCode(code) ? code : '320001')
      }
      // What it requires filled (a draft saved with gaps is submitted whole), each missing one under its field.
      const missing = (transition.requires ?? []).filter((name) => isEmptyValue(before[name]))
      if (missing.length)
        throw new ApiError(
          'validation',
          {},
          missing.map((field) => ({ field, message: 'validation.required', params: {} })),
        )
      // What the transition asks for (`input:`, ./uiRules.ts) is written with the state.
      const given = transitionInput(manifest, transition, body.input)
      const values: Record<string, unknown> = { [state.column]: transition.to }
      for (const [name, value] of Object.entries(given.values))
        values[columnOf(plan, name).column] = toDbValue(columnOf(plan, name), value)
      // What the YAML has the transition write itself (`sets:`, a quote's review outcome), never the caller.
      for (const [name, value] of Object.entries(transition.sets ?? {}))
        values[columnOf(plan, name).column] = toDbValue(columnOf(plan, name), value)
      const moved = await updateRow(trx, plan, call, body.id, body.version, values)
      const remark = given.remark ?? body.remark
      await runEffects(registry, transition.effects, {
        ...effectContext(trx, plan, call, before, moved),
        ...(remark ? { remark } : {}),
      })
      // The record of another entity the transition opens (`creates:`), through the engine, in this transaction:
      // after the effects, whose refusals (what a confirmation needs) come first.
      const after = transition.creates ? await createLinked(trx, plan, call, transition.creates, moved) : moved
      await audit(trx, plan, call, body.id, {
        action: 'transition',
        transition: body.transition,
        ...(remark ? { remark } : {}),
        ...changes(before, after),
      })
      return labelledRow(trx, plan, call, after)
    },
  }

  const entityPlans = new Map<string, EndpointPlan>()
  const entityPlanOf = (name: string, kind: EngineKind): EndpointPlan => {
    const key = `${name} ${kind}`
    const known = entityPlans.get(key)
    if (known) return known
    const entity = manifest.entities[name]
    if (!entity || !(isEngineEntity(entity) || viewOf(entity)))
      throw new Error(`${name} is not an entity the engine stores or views`)
    const endpoint: ManifestEndpoint = {
      id: `${name}.${kind}`,
      kind: kind as ManifestEndpoint['kind'],
      entity: name,
      method: 'POST',
      path: `/${name}/${kind}`,
      permissions: [],
      public: false,
      screens: [],
      ...(kind === 'list' || kind === 'export' ? { search: [] } : {}),
    }
    const plan = makePlan(endpoint, entity, kind)
    entityPlans.set(key, plan)
    return plan
  }

  /**
   * A transition's `creates:` (an order's job file on confirmation): the target's record from the source row,
   * created as the engine's create would — checked, derived, numbered, audited, its afterCreate effects run —
   * unless the source already has one (its `link` field names the source) and the target is not `repeat:`. A refusal names the source's field
   * the value came from and undoes the whole transition. Answers the source row with `writeBack` applied.
   */
  const createLinked = async (
    trx: Transaction<DB>,
    plan: EndpointPlan,
    call: EngineCall,
    creates: CreatesDef,
    source: ApiRow,
  ): Promise<ApiRow> => {
    const target = entityPlanOf(creates.entity, 'create')
    const link = columnOf(target, creates.link)
    const existing = await dynamic(trx)
      .selectFrom(target.entity.table)
      .select('id')
      .where(sql<SqlBool>`tenant_id = ${call.tenantId} and ${sql.ref(link.column)} = ${source.id}`)
      .executeTakeFirst()
    // A `repeat:` target (a milestone of each move) is created every time; any other, once.
    if (existing && !creates.repeat) return source
    // The caller's session and language; the overlay is the source screen's, none of the target's.
    const inner: EngineCall = { tenantId: call.tenantId, session: call.session, language: call.language }
    let created: ApiRow
    try {
      created = await insertRow(
        trx,
        target,
        inner,
        checkNew(target, inner, createsBody(creates, target.entity, source)),
      )
    } catch (error) {
      if (!(error instanceof ApiError) || !error.fieldErrors) throw error
      throw new ApiError(
        error.code,
        error.params,
        error.fieldErrors.map((e) => sourceField(creates, e)),
      )
    }
    const values: Record<string, unknown> = {}
    for (const [field, from] of Object.entries(creates.writeBack ?? {})) {
      const column = columnOf(plan, field)
      if (JSON.stringify(created[from] ?? null) !== JSON.stringify(source[field] ?? null))
        values[column.column] = toDbValue(column, created[from] ?? null)
    }
    if (!Object.keys(values).length) return source
    const table = plan.entity.table
    const row = await dynamic(trx)
      .updateTable(table)
      .set(values)
      .where(
        sql<SqlBool>`${sql.ref(`${table}.id`)} = ${source.id} and ${sql.ref(`${table}.tenant_id`)} = ${call.tenantId}`,
      )
      .returning(selection(plan.columns, table))
      .executeTakeFirstOrThrow()
    return toApiRow(plan.columns, row)
  }

  return {
    endpoints,
    async handle(trx, endpoint, call, input, kind, options) {
      const plan = planOf(endpoint, kind)
      checkAccess(plan.endpoint, call.session)
      await registry.gates.get(plan.entity.entity)?.({ trx, call })
      const k = kind ?? plan.kind
      return kinds[k](trx, plan, call, read(k, plan, input), options)
    },
    async gate(trx, entity, call) {
      await registry.gates.get(entity)?.({ trx, call })
    },
    async handleEntity(trx, entity, kind, call, input, options) {
      const plan = entityPlanOf(entity, kind)
      return kinds[kind](trx, plan, call, read(kind, plan, input), options)
    },
    routeInput(endpoint) {
      const plan = planOf(endpoint)
      const schema = readerSchema(plan, plan.kind)
      const reader = READERS[plan.kind]
      if (!schema || !reader) return undefined
      const part = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'querystring' : 'body'
      // A list in the query string (SPEC §7's GET order lists) is the body's list request written flat.
      const folded = part === 'querystring' && (plan.kind === 'list' || plan.kind === 'export')
      return {
        part,
        schema: checkedBy(folded ? { ...schema } : schema, (input) =>
          reader(plan, folded ? listFromQuery(input) : input),
        ),
      }
    },
    async handleChecked(trx, endpoint, call, input) {
      const plan = planOf(endpoint)
      checkAccess(plan.endpoint, call.session)
      await registry.gates.get(plan.entity.entity)?.({ trx, call })
      return kinds[plan.kind](trx, plan, call, input)
    },
  }
}

/** What a read adds from the registry: its select list, the computed state's expression, computed columns. */
interface ReadExtras {
  select?: ReturnType<typeof selection>
  /** column → the SQL expression that replaces it in filters and sorting (the computed state). */
  refs?: ReadonlyMap<string, RawBuilder<unknown>>
  computed: string[]
}
const NO_EXTRAS: ReadExtras = { computed: [] }

/** Nothing filled: null, empty text, an empty list. */
const isEmptyValue = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)

/** The transitions a call may fire: not those the engine fires itself on an update (`onUpdate: true`). */
const callableTransitions = (entity: ManifestEntity): string[] =>
  Object.entries(entity.states?.transitions ?? {})
    .filter(([, rule]) => !rule.onUpdate)
    .map(([name]) => name)

type TransitionRule = NonNullable<ManifestEntity['states']>['transitions'][string]

/**
 * The transition an update fires (`onUpdate: true`): the first whose `from` holds the stored state and whose
 * permission the caller has (an approved job file changed goes back to pending approval).
 */
function firedOnUpdate(
  entity: ManifestEntity,
  call: EngineCall,
  before: ApiRow,
): { name: string; rule: TransitionRule } | undefined {
  const states = entity.states
  if (!states) return undefined
  for (const [name, rule] of Object.entries(states.transitions))
    if (
      rule.onUpdate &&
      rule.from.includes(before[states.field] as string) &&
      call.session.permissions.has(rule.permission)
    )
      return { name, rule }
  return undefined
}

/**
 * The new record of a transition's `creates:` from the source row: the link to the source, each mapped field
 * (a source field, a fixed value, a source value looked up); a list's rows keep only the target items' fields.
 */
function createsBody(creates: CreatesDef, target: ManifestEntity, source: ApiRow): Record<string, unknown> {
  const body: Record<string, unknown> = { [creates.link]: source.id }
  for (const [field, from] of Object.entries(creates.fields)) {
    let value: unknown
    if (typeof from === 'string') value = source[from]
    else if ('value' in from) value = from.value
    else value = from.map[String(source[from.from])]
    const items = target.fields[field]?.items
    if (items && Array.isArray(value))
      value = value.map((row) =>
        row && typeof row === 'object' ? Object.fromEntries(Object.entries(row).filter(([key]) => key in items)) : row,
      )
    if (value !== undefined && value !== null) body[field] = value
  }
  return body
}

/** A refusal of the created record named by the source's field its value came from (etd → the order's etd). */
function sourceField(creates: CreatesDef, error: FieldError): FieldError {
  const head = /^[^.[]*/.exec(error.field)?.[0] ?? ''
  const from = creates.fields[head]
  const name = typeof from === 'string' ? from : from && 'from' in from ? from.from : undefined
  return name ? { ...error, field: name + error.field.slice(head.length) } : error
}

/** The column of a field by its API name, for label subqueries. */
const columnName = (plan: EndpointPlan) => (field: string) => plan.columns.find((c) => c.name === field)?.column

function columnOf(plan: EndpointPlan, name: string): Column {
  return plan.columns.find((c) => c.name === name) as Column
}

/**
 * A duplicate (unique index) is the caller's business: 400003. Values the database refuses as data
 * (a date such as 2025-02-30) are a validation failure. Anything else stays unexpected: 200000, logged,
 * never shown.
 */
async function databaseErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === '23505') throw new ApiError('400003')
    if (typeof code === 'string' && code.startsWith('22')) throw new ApiError('validation')
    throw error
  }
}

/**
 * Refuses the update of a record past its entity's `editDeadline` (rules/editDeadline.ts, the same function
 * the form asks): 320003 with the rule's message in the caller's language.
 */
async function refuseClosed(
  trx: Transaction<DB>,
  rule: EditDeadlineDef,
  tenantId: number,
  record: Record<string, unknown>,
): Promise<void> {
  const { rows } = await sql<{ settings: Record<string, unknown> | null }>`
    select settings from tenant where id = ${tenantId}`.execute(trx)
  const settings = rows[0]?.settings ?? {}
  if (editClosed(rule, record, settings, now(), timeZoneOf(settings))) throw new ApiError('320003')
}
