import { type AliasedRawBuilder, sql } from 'kysely'
import type { FieldDef } from '../../model/definitions.ts'
import type { ManifestEntity } from '../../model/resolve.ts'
import type { Manifest } from '../manifest.ts'

/**
 * How an entity's fields live in its table: one column per field, snake_case, plus the system columns.
 * Storage (DDL), queries (select and filters) and the row conversion all read this one model, so a field
 * type is mapped in exactly one place.
 */

/** The tables migrations own. Entities stored in them are served by hand-written code, never by the engine. */
export const CORE_TABLES: ReadonlySet<string> = new Set([
  'tenant',
  'tenant_domain',
  'app_user',
  'role',
  'user_role',
  'audit_log',
])

/**
 * How a value travels between the API and the column:
 * - number: `numeric`, answered as a JSON number (measures such as weight and volume);
 * - money: `numeric(p, s)`, answered as a decimal string with all its places ("1234.560"), never a float;
 * - date: answered 'YYYY-MM-DD'; timestamptz: answered as an ISO instant;
 * - jsonb: lists and nested records, sent to the database as JSON text.
 */
export type ColumnKind = 'text' | 'integer' | 'number' | 'money' | 'boolean' | 'date' | 'timestamptz' | 'jsonb'

export interface Column {
  /** The API name (camelCase). */
  name: string
  /** The column name (snake_case). */
  column: string
  kind: ColumnKind
  /** The SQL type of the column, for DDL. */
  sqlType: string
  /** id, version, createdAt, updatedAt, createdBy: kept by the engine, never written by a caller. */
  system: boolean
  field?: FieldDef
}

export const snakeCase = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

/** Money is exact: up to 10 integer digits (SPEC §5) and the field's decimals (3 unless it says otherwise). */
const MONEY_DIGITS = 10
const DEFAULT_MONEY_DECIMALS = 3

const SYSTEM_COLUMNS: Column[] = [
  { name: 'id', column: 'id', kind: 'integer', sqlType: 'integer', system: true },
  { name: 'version', column: 'version', kind: 'integer', sqlType: 'integer', system: true },
  { name: 'createdAt', column: 'created_at', kind: 'timestamptz', sqlType: 'timestamptz', system: true },
  { name: 'updatedAt', column: 'updated_at', kind: 'timestamptz', sqlType: 'timestamptz', system: true },
  { name: 'createdBy', column: 'created_by', kind: 'integer', sqlType: 'integer', system: true },
]

function fieldKind(field: FieldDef, entities: Manifest['entities']): { kind: ColumnKind; sqlType: string } {
  if (field.multiple || field.type === 'array') return { kind: 'jsonb', sqlType: 'jsonb' }
  switch (field.type) {
    case 'integer':
      return { kind: 'integer', sqlType: 'integer' }
    case 'number':
      return { kind: 'number', sqlType: 'numeric' }
    case 'money': {
      const places = Number.isInteger(field.decimals) ? (field.decimals as number) : DEFAULT_MONEY_DECIMALS
      return { kind: 'money', sqlType: `numeric(${MONEY_DIGITS + places}, ${places})` }
    }
    case 'boolean':
      return { kind: 'boolean', sqlType: 'boolean' }
    case 'date':
      return { kind: 'date', sqlType: 'date' }
    case 'datetime':
      return { kind: 'timestamptz', sqlType: 'timestamptz' }
    case 'enum': {
      const values = field.values ?? []
      const integers = values.length > 0 && values.every((v) => Number.isInteger(v.value))
      return integers ? { kind: 'integer', sqlType: 'integer' } : { kind: 'text', sqlType: 'text' }
    }
    case 'ref':
      // Reference lists (ports, carriers…) are keyed by their code; entities by their id.
      return field.ref && entities[field.ref]?.reference
        ? { kind: 'text', sqlType: 'text' }
        : { kind: 'integer', sqlType: 'integer' }
    default:
      return { kind: 'text', sqlType: 'text' }
  }
}

const cache = new WeakMap<ManifestEntity, Column[]>()

/** The columns of an entity: system columns first, then its fields in declaration order. */
export function columnsOf(entity: ManifestEntity, entities: Manifest['entities']): Column[] {
  let columns = cache.get(entity)
  if (columns) return columns
  columns = SYSTEM_COLUMNS.map((c) => ({ ...c }))
  for (const [name, field] of Object.entries(entity.fields)) {
    const system = columns.find((c) => c.name === name)
    if (system) {
      // A field that names a system column (createdBy) documents it; the engine still keeps its value.
      system.field = field
      continue
    }
    columns.push({ name, column: snakeCase(name), system: false, field, ...fieldKind(field, entities) })
  }
  cache.set(entity, columns)
  return columns
}

/** An identifier quoted as Kysely's `sql.ref` quotes it. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * What `build` makes for an owner (a manifest object: columns, fields) and a key, made once and kept while the owner
 * lives: the engine's query fragments that depend on the manifest alone.
 */
export function builtOnce<O extends object, T>(
  cache: WeakMap<O, Map<string, T>>,
  owner: O,
  key: string,
  build: () => T,
): T {
  let byKey = cache.get(owner)
  if (!byKey) {
    byKey = new Map()
    cache.set(owner, byKey)
  }
  let built = byKey.get(key)
  if (built === undefined) {
    built = build()
    byKey.set(key, built)
  }
  return built
}

const selections = new WeakMap<readonly Column[], Map<string, AliasedRawBuilder<unknown, string>[]>>()

/**
 * The select list that answers rows in the API shape: camelCase names, dates and money as text. Built once per
 * columns and table as one raw fragment, its last column aliased by Kysely: a list of fifty columns was a node
 * tree of two hundred built, frozen and compiled again on every call, a sixth of the order list's server time
 * (issue #29, docs/PERFORMANCE.md). The text holds no value: names only, from the manifest.
 */
export function selection(columns: readonly Column[], table?: string): AliasedRawBuilder<unknown, string>[] {
  return builtOnce(selections, columns, table ?? '', () => {
    const expression = (c: Column) => {
      const ref = table ? `${quoted(table)}.${quoted(c.column)}` : quoted(c.column)
      if (c.kind === 'number' || c.kind === 'money') return `${ref}::text`
      if (c.kind === 'date') return `to_char(${ref}, 'YYYY-MM-DD')`
      return ref
    }
    const last = columns.at(-1)
    if (!last) return []
    const others = columns.slice(0, -1).map((c) => `${expression(c)} as ${quoted(c.name)}`)
    return [sql.raw([...others, expression(last)].join(', ')).as(last.name)]
  })
}

/** A row as selected by `selection` → the API shape (numbers as numbers, instants as ISO strings). */
export function toApiRow(columns: Column[], row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of columns) {
    const value = row[c.name]
    if (value === null || value === undefined) out[c.name] = null
    else if (c.kind === 'number') out[c.name] = Number(value)
    else if (c.kind === 'timestamptz') out[c.name] = new Date(value as string | Date).toISOString()
    else out[c.name] = value
  }
  return out
}

/** A value from the API → the parameter sent for its column. */
export function toDbValue(column: Column, value: unknown): unknown {
  if (value === undefined || value === null) return null
  if (column.kind === 'jsonb') return JSON.stringify(value)
  return value
}
