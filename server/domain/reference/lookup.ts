import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { ManifestEntity } from '../../../model/resolve.ts'
import type { DB } from '../../db/schema.ts'
import { labelTarget, snakeCase } from '../../engine/index.ts'
import type { Session } from '../../http/context.ts'
import type { Language } from '../../http/errors.ts'
import { idOrNull } from '../../http/ids.ts'
import type { Manifest } from '../../manifest.ts'

/**
 * Look-ups for select fields: the rows of a reference list (ports, carriers…, shared) or of a tenant
 * entity (company, role) whose code starts with, or whose name contains, a keyword — or the rows of
 * given codes, for the label of a value a form already holds.
 *
 * The query stays on what an index can serve where it matters: `codes` is `code in (…)` (the unique
 * index on code), and a keyword matches the code as a prefix (`code like 'KW%'`) and the names as
 * `ilike '%kw%'`. Reference lists hold hundreds of rows, so the name match is a scan of a table that fits
 * in a page or two; see docs/DECISIONS.md for the figures and why there is no trigram index.
 */

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 50

export interface LookupQuery {
  keyword?: string
  /** Comma-separated codes (reference lists) or ids (entities). */
  codes?: string
  limit?: string
  mode?: string
  carrier?: string
}

export interface LookupOption {
  /** What a field stores: the code of a reference list row, the id (as text) of an entity row. */
  value: string
  code?: string
  name: string
  /** `CNSHA — Shanghai` for reference lists, the name for entities. */
  label: string
}

export interface LookupCall {
  tenantId: number
  session: Session | null
  language: Language
  /** The tenant's site settings, for a look-up a feature flag governs (booking agents). */
  settings?: Readonly<Record<string, unknown>>
}

/** What a look-up of one entity needs besides the manifest: extra conditions for the caller. */
export interface LookupPlan {
  entity: ManifestEntity
  /** Conditions that narrow the rows (a company wall, enabled roles…); the tenant is named separately. */
  where?: (call: LookupCall, query: LookupQuery) => RawBuilder<SqlBool>[]
}

type DynamicDB = Record<string, Record<string, unknown>>

/** `%`, `_` and `\` in a keyword match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** The columns a keyword is looked for in: the names in every language and the display field. */
function nameColumns(entity: ManifestEntity): string[] {
  const names = ['nameEn', 'nameZh', 'nameJa', 'nameEs', 'name', 'label', 'descriptionEn', 'descriptionZh', 'city']
  if (entity.display) names.unshift(entity.display)
  return [...new Set(names)]
    .filter((name) => entity.fields[name]?.type === 'string' && name !== 'code')
    .map((name) => snakeCase(name))
}

export function parseLimit(limit: string | undefined): number {
  const n = limit === undefined ? DEFAULT_LIMIT : Number(limit)
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_LIMIT) : DEFAULT_LIMIT
}

/**
 * The options of a look-up. Exact code first, then codes that start with the keyword, then names that
 * start with it, then the rest; within a rank by code (lists) or by name (entities).
 */
export async function lookup(
  trx: Transaction<DB>,
  plan: LookupPlan,
  call: LookupCall,
  query: LookupQuery,
): Promise<LookupOption[]> {
  const { entity } = plan
  const target = labelTarget(entity)
  if (!target) throw new Error(`${entity.entity} has no table to look up`)
  const isList = target.key === 'code'
  const key = sql.ref(target.key)
  const name = target.text(call.language)
  const limit = parseLimit(query.limit)
  const conditions: RawBuilder<SqlBool>[] = [...(plan.where?.(call, query) ?? [])]
  if (target.tenant) conditions.push(sql<SqlBool>`${sql.ref('tenant_id')} = ${call.tenantId}`)

  const codes = (query.codes ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
  const keyword = (query.keyword ?? '').trim()
  let rank: RawBuilder<number> = sql<number>`0`
  if (codes.length) {
    const keys = isList ? codes : codes.map(idOrNull).filter((id): id is number => id !== null)
    if (!keys.length) return []
    conditions.push(sql<SqlBool>`${key} in (${sql.join(keys)})`)
  } else if (keyword) {
    const contains = `%${escapeLike(keyword)}%`
    const starts = `${escapeLike(keyword)}%`
    const names = nameColumns(entity)
    const nameMatch = names.length
      ? sql.join(
          names.map((column) => sql`${sql.ref(column)} ilike ${contains}`),
          sql` or `,
        )
      : sql`false`
    const nameStarts = names.length
      ? sql.join(
          names.map((column) => sql`${sql.ref(column)} ilike ${starts}`),
          sql` or `,
        )
      : sql`false`
    if (isList) {
      const code = keyword.toUpperCase()
      const codeStarts = `${escapeLike(code)}%`
      conditions.push(sql<SqlBool>`(${key} like ${codeStarts} or ${nameMatch})`)
      rank = sql<number>`case when ${key} = ${code} then 0 when ${key} like ${codeStarts} then 1 when ${nameStarts} then 2 else 3 end`
    } else {
      conditions.push(sql<SqlBool>`(${nameMatch})`)
      rank = sql<number>`case when ${nameStarts} then 0 else 1 end`
    }
  }

  let select = (trx as unknown as Kysely<DynamicDB>)
    .selectFrom(target.table)
    .select([sql<string | number>`${key}`.as('key'), name.as('name'), rank.as('ord')])
  for (const condition of conditions) select = select.where(condition)
  const rows = await select
    .orderBy(sql`ord`)
    .orderBy(isList ? key : sql`name`)
    .orderBy(key)
    .limit(codes.length ? Math.min(codes.length, MAX_LIMIT) : limit)
    .execute()
  return rows.map((row) => {
    const value = String(row.key)
    const text = row.name === null || row.name === undefined || row.name === '' ? value : String(row.name)
    return isList
      ? { value, code: value, name: text, label: text === value ? value : `${value} — ${text}` }
      : { value, name: text, label: text }
  })
}

/** The entity of a look-up, from the manifest (its table, display and names). */
export function lookupEntity(manifest: Manifest, name: string): ManifestEntity {
  const entity = manifest.entities[name]
  if (!entity) throw new Error(`the manifest has no entity ${name}: run npm run generate`)
  return entity
}
