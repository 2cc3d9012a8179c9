import type { ValidateFunction } from 'ajv'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { SearchDef } from '../../model/definitions.ts'
import { fieldSchema, type JsonSchema } from '../../model/jsonschema.ts'
import type { ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { shiftDay, withinDays } from '../../rules/dateSpan.ts'
import { type FieldError, toFieldErrors } from '../../rules/messages.ts'
import { conditionHolds } from '../../rules/uiRules.ts'
import { ApiError } from '../http/errors.ts'
import type { Manifest } from '../manifest.ts'
import { type Column, columnsOf } from './columns.ts'

/**
 * List requests: `{ searchParams, pageNum, pageSize, sort? }`, checked against a schema derived from the
 * endpoint's declared search parameters, and turned into parameterised conditions. Only declared keys are
 * accepted; user text only ever reaches SQL as a bound parameter.
 *
 * Operators (SearchDef.op):
 * - eq, gte, lte: one key, `params[0]` or the field's name;
 * - like: contains, case-insensitive; `%`, `_` and `\` in the text match themselves;
 * - in: a list of values (one value alone is a list of one); every value of an enum field is no filter;
 * - between: two keys (`params` or `<field>Begin` / `<field>End`), both ends included, either may be left out;
 * - dateRange: two date keys, a range of calendar days with both days included whole (a time part, such
 *   as the 00:00:00 `appendTime` lists add, is ignored).
 * Dates are 'YYYY-MM-DD' or a date and time. For between, gte and lte on a datetime field a bare date means
 * 00:00:00; times without an offset, and the days of a dateRange, are UTC.
 * Values may arrive as text (the portal keeps filters in the address): whole numbers and true/false are
 * read as such for integer, number and boolean fields before the check.
 */

export const MAX_PAGE_SIZE = 200
const DEFAULT_PAGE_SIZE = 10
const MAX_IN_VALUES = 200

export interface SearchParam {
  key: string
  def: SearchDef
  column: Column
  /** For between and dateRange: which end of the range the key gives. */
  end?: 'begin' | 'end'
  /** like on a ref to a tenant entity: the referenced rows' display column it matches (inviterName). */
  label?: { table: string; column: string }
}

export interface ListPlan {
  params: Map<string, SearchParam>
  /** The screens' search defaults (`default:`, SPEC §3 fbaStatus [0, 1]), applied when the key is not sent. */
  defaults: Map<string, unknown>
  sortable: Map<string, Column>
  defaultPageSize: number
  /** The request's JSON Schema: the list route's body schema (server/http/routeSchema.ts), compiled once. */
  schema: JsonSchema
  validate: ValidateFunction
}

export interface ListRequest {
  searchParams: Record<string, unknown>
  pageNum: number
  pageSize: number
  sort?: { field: string; order: 'asc' | 'desc' }
  /** Exports: the columns the user sees, in their order (their own column settings). */
  columns?: string[]
  /** Exports: the browser's name for this export, to ask its progress by (./export/progress.ts). */
  progressId?: string
}

const ajv = createAjv()

/** The browser's name for an export it follows (./export/progress.ts). */
export const EXPORT_PROGRESS_ID = { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' }

const positiveInteger = { type: 'integer', minimum: 1, maximum: 2_147_483_647 }
const dateText = { type: 'string', minLength: 10, maxLength: 40 }

/** Builds what a list (or export) endpoint accepts; a search declaration the engine cannot serve fails at boot. */
export function planList(manifest: Manifest, endpoint: ManifestEndpoint, entity: ManifestEntity): ListPlan {
  const columns = columnsOf(entity, manifest.entities)
  const column = (name: string) => {
    const c = columns.find((col) => col.name === name)
    if (!c) throw new Error(`${endpoint.method} ${endpoint.path}: "${name}" is not a field of ${entity.entity}`)
    return c
  }
  const params = new Map<string, SearchParam>()
  const defaults = new Map<string, unknown>()
  const properties: Record<string, JsonSchema> = {}
  const declare = (key: string, param: SearchParam, schema: JsonSchema) => {
    if (endpoint.method === 'GET' && (LIST_QUERY_KEYS as readonly string[]).includes(key))
      throw new Error(`${endpoint.method} ${endpoint.path}: the search key "${key}" is a word of a list's query string`)
    if (params.has(key)) {
      throw new Error(
        `${endpoint.method} ${endpoint.path}: two search parameters use the key "${key}"; give one of them \`params\``,
      )
    }
    params.set(key, param)
    properties[key] = schema
  }
  for (const def of endpoint.search ?? []) {
    const c = column(def.field)
    if (def.default !== undefined && !['between', 'dateRange'].includes(def.op))
      defaults.set(def.params?.[0] ?? def.field, def.default)
    // A field of several values (enum or ref, `multiple`) is searched by eq: the list holds the value.
    const holds = c.kind === 'jsonb' && c.field?.multiple === true && def.op === 'eq'
    if (c.kind === 'jsonb' && !holds)
      throw new Error(`${endpoint.method} ${endpoint.path}: cannot search the list ${def.field}`)
    const value = valueSchema(c, manifest)
    switch (def.op) {
      case 'eq':
      case 'gte':
      case 'lte':
        declare(def.params?.[0] ?? def.field, { key: def.params?.[0] ?? def.field, def, column: c }, value)
        break
      case 'like':
        declare(
          def.params?.[0] ?? def.field,
          { key: def.params?.[0] ?? def.field, def, column: c, ...labelOf(c, manifest) },
          {
            type: 'string',
            maxLength: 255,
          },
        )
        break
      case 'in':
        declare(
          def.params?.[0] ?? def.field,
          { key: def.params?.[0] ?? def.field, def, column: c },
          { type: 'array', items: value, maxItems: MAX_IN_VALUES },
        )
        break
      case 'between':
      case 'dateRange': {
        if (def.op === 'dateRange' && c.kind !== 'date' && c.kind !== 'timestamptz')
          throw new Error(`${endpoint.method} ${endpoint.path}: dateRange on ${def.field}, which is not a date`)
        const [begin = `${def.field}Begin`, end = `${def.field}End`] = def.params ?? []
        const schema = def.op === 'dateRange' ? dateText : value
        declare(begin, { key: begin, def, column: c, end: 'begin' }, schema)
        declare(end, { key: end, def, column: c, end: 'end' }, schema)
        break
      }
    }
  }

  const sortable = new Map<string, Column>()
  for (const screen of manifest.screens) {
    if (!endpoint.screens.includes(screen.name)) continue
    for (const col of screen.columns ?? []) if (col.sortable) sortable.set(col.field, column(col.field))
  }
  const bound = manifest.screens.find((s) => endpoint.screens.includes(s.name) && s.paging?.pageSize)
  const shown = [
    ...new Set(
      manifest.screens
        .filter((s) => endpoint.screens.includes(s.name))
        .flatMap((s) => (s.columns ?? []).map((c) => c.field)),
    ),
  ]
  const schema: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      searchParams: { type: 'object', additionalProperties: false, properties },
      pageNum: positiveInteger,
      pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
      ...(endpoint.kind === 'export' && shown.length
        ? { columns: { type: 'array', uniqueItems: true, maxItems: shown.length, items: { enum: shown } } }
        : {}),
      ...(endpoint.kind === 'export' ? { progressId: EXPORT_PROGRESS_ID } : {}),
      ...(sortable.size
        ? {
            sort: {
              type: 'object',
              additionalProperties: false,
              required: ['field'],
              properties: { field: { enum: [...sortable.keys()] }, order: { enum: ['asc', 'desc'] } },
            },
          }
        : {}),
    },
  }
  return {
    params,
    defaults,
    sortable,
    defaultPageSize: bound?.paging?.pageSize ?? DEFAULT_PAGE_SIZE,
    schema,
    validate: ajv.compile(schema),
  }
}

/** The schema of one value of a field, as a filter: the field's own type, without "required". */
function valueSchema(column: Column, manifest: Manifest): JsonSchema {
  if (column.kind === 'date' || column.kind === 'timestamptz') return dateText
  if (column.system || !column.field) return positiveInteger
  const { default: _default, required: _required, multiple: _multiple, label: _label, ...field } = column.field
  const schema = fieldSchema(field, manifest.entities)
  // A filter may be a part of a value: no minimum length; the field's own limits still bound it.
  delete schema.minLength
  return schema
}

/** Validates a list request and fills in the defaults. Empty filters ('' / null / []) count as absent. */
/** The filters a `clearWhen` drops, each judged on the searchParams as sent (SPEC §4, the application list). */
function withoutCleared(plan: ListPlan, searchParams: Record<string, unknown>): Record<string, unknown> {
  const out = { ...searchParams }
  for (const [key, param] of plan.params)
    if (param.def.clearWhen && key in searchParams && conditionHolds(param.def.clearWhen, searchParams)) delete out[key]
  return out
}

export function parseListRequest(plan: ListPlan, body: unknown): ListRequest {
  const input = body === undefined || body === null ? {} : body
  if (typeof input !== 'object' || Array.isArray(input)) throw new ApiError('validation')
  const request = { ...(input as Record<string, unknown>) }
  const raw = request.searchParams
  if (raw !== undefined && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const searchParams: Record<string, unknown> = {}
    for (const [key, sent] of Object.entries(raw)) {
      const param = plan.params.get(key)
      const column = param?.column
      // One value for `in` is a list of one (a filter kept in the address arrives as text).
      const value =
        param?.def.op === 'in' && sent !== null && !Array.isArray(sent) && typeof sent !== 'object' ? [sent] : sent
      const v = Array.isArray(value)
        ? value.map((item) => fromText(column, item)).filter((item) => item !== '' && item !== null)
        : fromText(column, value)
      if (v === '' || v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue
      searchParams[key] = v
    }
    request.searchParams = searchParams
  } else if (raw === null) delete request.searchParams
  // A search default holds while the key is not sent (an empty value is not sent); it is checked as if sent.
  if (plan.defaults?.size) {
    const searchParams = { ...((request.searchParams ?? {}) as Record<string, unknown>) }
    for (const [key, value] of plan.defaults) if (!(key in searchParams)) searchParams[key] = value
    request.searchParams = searchParams
  }
  if (request.sort === null) delete request.sort
  if (!plan.validate(request)) throw new ApiError('validation', {}, toFieldErrors(plan.validate.errors))
  const searchParams = withoutCleared(plan, (request.searchParams ?? {}) as Record<string, unknown>)
  const badDates: FieldError[] = []
  for (const [key, value] of Object.entries(searchParams)) {
    const param = plan.params.get(key) as SearchParam
    if (param.column.kind !== 'date' && param.column.kind !== 'timestamptz') continue
    if (!parseDate(value as string))
      badDates.push({ field: `searchParams.${key}`, message: 'validation.format_date', params: {} })
  }
  if (badDates.length) throw new ApiError('validation', {}, badDates)
  boundDateRanges(plan, searchParams)
  const sort = request.sort as { field: string; order?: 'asc' | 'desc' } | undefined
  return {
    searchParams,
    pageNum: (request.pageNum as number | undefined) ?? 1,
    pageSize: (request.pageSize as number | undefined) ?? plan.defaultPageSize,
    ...(sort ? { sort: { field: sort.field, order: sort.order ?? 'asc' } } : {}),
    ...(Array.isArray(request.columns) && request.columns.length ? { columns: request.columns as string[] } : {}),
    ...(typeof request.progressId === 'string' ? { progressId: request.progressId } : {}),
  }
}

/**
 * A dateRange with `maxDays` (the sailing schedules' departure window): a range longer than that is refused at
 * its end key with the limit named; one end alone is closed that many days from it (both ends included), so the
 * list never reads more than the window. The portal's search form holds the range to the same rule first.
 */
function boundDateRanges(plan: ListPlan, searchParams: Record<string, unknown>): void {
  for (const [key, param] of plan.params) {
    const limit = param.def.maxDays
    if (param.def.op !== 'dateRange' || param.end !== 'begin' || !limit) continue
    const endKey = [...plan.params.values()].find((p) => p.def === param.def && p.end === 'end')?.key as string
    const begin = searchParams[key] as string | undefined
    const end = searchParams[endKey] as string | undefined
    if (!withinDays(begin, end, limit))
      throw new ApiError('validation', {}, [
        { field: `searchParams.${endKey}`, message: 'validation.dateSpan', params: { limit } },
      ])
    if (begin !== undefined && end === undefined) searchParams[endKey] = shiftDay(begin, limit - 1)
    if (end !== undefined && begin === undefined) searchParams[key] = shiftDay(end, 1 - limit)
  }
}

/** The keys of a list request sent in a query string that are not search parameters. */
export const LIST_QUERY_KEYS = ['pageNum', 'pageSize', 'sort', 'order', 'columns', 'progressId'] as const

/**
 * A list request sent as a query string (a GET list, SPEC §7's order lists): the search parameters are keys of
 * their own beside pageNum, pageSize, sort (a field) and order (asc or desc); a key repeated is a list (`in`).
 * Folded into the body's shape, it is checked by the same plan: an undeclared key is refused as in a body.
 */
export function listFromQuery(query: unknown): unknown {
  if (!query || typeof query !== 'object' || Array.isArray(query)) return query
  const { pageNum, pageSize, sort, order, columns, progressId, ...searchParams } = query as Record<string, unknown>
  const whole = (value: unknown) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value)
  return {
    searchParams,
    ...(pageNum !== undefined ? { pageNum: whole(pageNum) } : {}),
    ...(pageSize !== undefined ? { pageSize: whole(pageSize) } : {}),
    ...(sort !== undefined && sort !== '' ? { sort: { field: sort, ...(order ? { order } : {}) } } : {}),
    ...(columns !== undefined ? { columns: Array.isArray(columns) ? columns : [columns] } : {}),
    ...(progressId !== undefined ? { progressId } : {}),
  }
}

/** A filter value sent as text, read as the column's type when it plainly is one; anything else is left to the check. */
function fromText(column: Column | undefined, value: unknown): unknown {
  if (typeof value !== 'string') return value
  const text = value.trim()
  if (!column || text === '') return text
  if (column.kind === 'integer' && /^-?\d{1,10}$/.test(text)) return Number(text)
  if (column.kind === 'number' && /^-?\d{1,10}(\.\d+)?$/.test(text)) return Number(text)
  if (column.kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

interface ParsedDate {
  /** YYYY-MM-DD */
  day: string
  /** The instant, ISO; a bare date is 00:00:00 UTC. */
  instant: string
  dateOnly: boolean
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** A strict calendar check: 2025-02-30 is refused, as the database would refuse it. */
export function parseDate(text: string): ParsedDate | undefined {
  const m = DATE_RE.exec(text)
  if (!m) return undefined
  const [, y, mo, d, h, mi, s = '00', frac = '0', zone = 'Z'] = m
  const day = `${y}-${mo}-${d}`
  const check = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== day) return undefined
  if (h === undefined) return { day, instant: `${day}T00:00:00.000Z`, dateOnly: true }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined
  const instant = new Date(`${day}T${h}:${mi}:${s}.${frac.padEnd(3, '0').slice(0, 3)}${zone}`)
  if (Number.isNaN(instant.getTime())) return undefined
  return { day, instant: instant.toISOString(), dateOnly: false }
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString()

/**
 * A like filter on a reference to a tenant entity (the inviter, a user) matches the text of what it
 * refers to, the entity's display field (the user's real name), not its id.
 */
function labelOf(column: Column, manifest: Manifest): { label?: SearchParam['label'] } {
  const target =
    column.field?.type === 'ref' && !column.field.multiple ? manifest.entities[column.field.ref ?? ''] : undefined
  if (!target || target.reference || target.scope === 'global' || !target.display) return {}
  const display = columnsOf(target, manifest.entities).find((c) => c.name === target.display)
  return display ? { label: { table: target.table, column: display.column } } : {}
}

/** `%`, `_` and the escape character itself match literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** The conditions of the search parameters sent, each one bound parameter per value. */
export function searchConditions(
  plan: ListPlan,
  searchParams: Record<string, unknown>,
  table: string,
  /** Columns read as an expression instead (a computed state, server/engine/registry.ts). */
  refs?: ReadonlyMap<string, RawBuilder<unknown>>,
): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = []
  for (const [key, value] of Object.entries(searchParams)) {
    const param = plan.params.get(key)
    if (!param) continue
    const { def, column } = param
    const ref = refs?.get(column.column) ?? sql.ref(`${table}.${column.column}`)
    switch (def.op) {
      case 'eq':
        conditions.push(
          column.kind === 'jsonb'
            ? sql<SqlBool>`${ref} @> ${JSON.stringify([value])}::jsonb`
            : sql<SqlBool>`${ref} = ${bound(column, value)}`,
        )
        break
      case 'like': {
        const pattern = `%${escapeLike(value as string)}%`
        if (param.label) {
          // Row-level security keeps the referenced rows to the tenant's.
          const { table: target, column: shown } = param.label
          conditions.push(
            sql<SqlBool>`${ref} in (select r.id from ${sql.table(target)} r where ${sql.ref(`r.${shown}`)} ilike ${pattern} escape '\\')`,
          )
          break
        }
        const text = column.kind === 'text' ? ref : sql`${ref}::text`
        conditions.push(sql<SqlBool>`${text} ilike ${pattern} escape '\\'`)
        break
      }
      case 'in': {
        // Every value of an enum is no filter (SPEC §4: both fbaStatus values selected, the filter is cleared):
        // a row that has none of them yet is not left out.
        const values = value as unknown[]
        const every = column.field?.type === 'enum' && column.field.values?.every((v) => values.includes(v.value))
        if (!every) conditions.push(sql<SqlBool>`${ref} in (${sql.join(values.map((v) => bound(column, v)))})`)
        break
      }
      case 'gte':
        conditions.push(sql<SqlBool>`${ref} >= ${bound(column, value)}`)
        break
      case 'lte':
        conditions.push(sql<SqlBool>`${ref} <= ${bound(column, value)}`)
        break
      case 'between':
        conditions.push(
          param.end === 'begin'
            ? sql<SqlBool>`${ref} >= ${bound(column, value)}`
            : sql<SqlBool>`${ref} <= ${bound(column, value)}`,
        )
        break
      case 'dateRange': {
        const { day } = parseDate(value as string) as ParsedDate
        const timestamp = column.kind === 'timestamptz'
        if (param.end === 'begin') conditions.push(sql<SqlBool>`${ref} >= ${timestamp ? `${day}T00:00:00.000Z` : day}`)
        else if (timestamp) conditions.push(sql<SqlBool>`${ref} < ${nextDay(day)}`)
        else conditions.push(sql<SqlBool>`${ref} <= ${day}`)
        break
      }
    }
  }
  return conditions
}

/** A filter value as the column compares it: dates by their day, instants in UTC. */
function bound(column: Column, value: unknown): unknown {
  if (column.kind === 'date') return (parseDate(value as string) as ParsedDate).day
  if (column.kind === 'timestamptz') return (parseDate(value as string) as ParsedDate).instant
  return value
}
