import { type AliasedRawBuilder, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import type { ManifestEntity } from '../../model/resolve.ts'
import type { DB } from '../db/schema.ts'
import type { Language } from '../http/errors.ts'
import { idOrNull } from '../http/ids.ts'
import type { Manifest } from '../manifest.ts'
import { builtOnce, snakeCase } from './columns.ts'

/**
 * The display text of a row's references: `labels: { <refField>: <text> }` beside the ids and codes, so
 * a list shows "Shanghai" and not "CNSHA", a company's name and not its id.
 *
 * - A reference list (`reference: true`, shared) is looked up by `code`; a tenant entity (company, user,
 *   role, or an engine table) by `id`, inside the caller's tenant transaction and with `tenant_id = …`
 *   besides row-level security, so a label never crosses tenants.
 * - The text is the referenced entity's `display` field, in the caller's language where it has one. A
 *   reference list (ports, airports, carriers, countries, currencies) is named by one fallback chain
 *   (nameChain): the name in the caller's language where the list has that column (nameZh, nameJa,
 *   nameEs), else the English name, else the code — UN/LOCODE and IATA publish roman-script names only,
 *   so ports and airports have English and the Chinese names we seed, countries have all four languages
 *   (docs/DECISIONS.md "Names of reference lists"). A Chinese `display` with a `nameEn` beside it
 *   (company: name / nameEn) → the display in 'zh', nameEn elsewhere.
 * - One query per referenced tenant table per page (every id of the page, `where … in`), never per row;
 *   shared reference lists are read once per process (sharedTexts).
 * - A multiple ref answers an array of texts, in the order of its values (a value not found keeps itself).
 *   A single ref whose row is gone, or whose value is empty, has no label.
 * - A ref inside the rows of a list field (an order's containers: containerType) answers under
 *   `<list>.<item>` (`containers.containerType`) an array with one text per row, in the rows' order, so a
 *   detail's container table reads 40'HQ and not 45G1; a row whose value has no label keeps its value
 *   ('' when it has none).
 */

export type Labels = Record<string, string | string[]>
export type LabelledRow = Record<string, unknown> & { labels?: Labels }

export interface LabelTarget {
  /** The referenced entity (its name), its table and whether rows are shared or per tenant. */
  entity: string
  table: string
  tenant: boolean
  /** `code` for reference lists, `id` for entities. */
  key: 'code' | 'id'
  /** The label in a language: an SQL expression over the table's columns. */
  text: (language: Language) => RawBuilder<string | null>
}

export interface LabelField {
  /** The field (API name) of the row that holds the reference, or the list field whose rows hold it. */
  field: string
  /** For a ref inside a list field's rows: the item field that holds it (labelled as `<field>.<item>`). */
  item?: string
  multiple: boolean
  target: LabelTarget
}

const targets = new WeakMap<ManifestEntity, LabelTarget | null>()

/** The name field of each language, where an entity has it. */
export const NAME_FIELDS: Record<Language, string> = { zh: 'nameZh', en: 'nameEn', ja: 'nameJa', es: 'nameEs' }

/**
 * The fields a name is read from in a language, the first that has a value winning: the language's own
 * name where the entity has that field, then the English one. (A reference list's code comes after them.)
 */
export function nameChain(language: Language, has: (field: string) => boolean): string[] {
  return [...new Set([NAME_FIELDS[language] ?? NAME_FIELDS.en, NAME_FIELDS.en])].filter(has)
}

/** How to read the labels of an entity's rows, or null when it has no table (a view shape such as operationAccount). */
export function labelTarget(entity: ManifestEntity): LabelTarget | null {
  const cached = targets.get(entity)
  if (cached !== undefined) return cached
  let target: LabelTarget | null = null
  if (entity.stored) {
    const key = entity.reference ? 'code' : 'id'
    const column = (field: string) => sql.ref(snakeCase(field))
    const has = (field: string) => entity.fields[field] !== undefined
    const display = entity.display && has(entity.display) ? entity.display : key
    let text: LabelTarget['text']
    if (has('nameEn') && has('nameZh')) {
      // The caller's language → English → the code (reference lists); an empty name counts as none.
      text = (language) =>
        sql<string | null>`coalesce(${sql.join([
          ...nameChain(language, has).map((field) => sql`nullif(${column(field)}, '')`),
          ...(key === 'code' ? [sql`${column('code')}::text`] : []),
        ])})`
    } else if (has('nameEn') && display !== 'nameEn') {
      text = (language) =>
        language === 'zh'
          ? sql<string | null>`coalesce(${column(display)}, ${column('nameEn')})`
          : sql<string | null>`coalesce(nullif(${column('nameEn')}, ''), ${column(display)})`
    } else {
      text = () => sql<string | null>`${column(display)}::text`
    }
    target = { entity: entity.entity, table: entity.table, tenant: entity.scope === 'tenant', key, text }
  }
  targets.set(entity, target)
  return target
}

/**
 * The ref fields of an entity whose targets have labels (`fields` narrows them, e.g. to a view's columns),
 * and the single refs inside its list fields' rows (containers' containerType).
 */
export function labelFields(
  entity: Pick<ManifestEntity, 'fields'>,
  entities: Manifest['entities'],
  fields?: readonly string[],
): LabelField[] {
  const out: LabelField[] = []
  const targetOf = (ref: string | undefined) => {
    const referenced = ref ? entities[ref] : undefined
    return referenced ? labelTarget(referenced) : null
  }
  for (const [name, field] of Object.entries(entity.fields)) {
    if (fields && !fields.includes(name)) continue
    if (field.type === 'array') {
      for (const [item, itemField] of Object.entries(field.items ?? {})) {
        const target = itemField.type === 'ref' && !itemField.multiple ? targetOf(itemField.ref) : null
        if (target) out.push({ field: name, item, multiple: false, target })
      }
      continue
    }
    if (field.type !== 'ref') continue
    const target = targetOf(field.ref)
    if (target) out.push({ field: name, multiple: field.multiple === true, target })
  }
  return out
}

/** The key a label field answers under: the field, or `<list>.<item>` for a ref inside a list's rows. */
export const labelKey = (field: Pick<LabelField, 'field' | 'item'>): string =>
  field.item ? `${field.field}.${field.item}` : field.field

type DynamicDB = Record<string, Record<string, unknown>>

const valuesOf = (value: unknown, multiple: boolean): unknown[] =>
  value === null || value === undefined ? [] : multiple && Array.isArray(value) ? value : [value]

/** The rows of a list field (an order's containers), each an object; anything else has none. */
const rowsOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.map((row) => (row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : {}))
    : []

/** The values a label field names in one row: its own, or those of its item in the list's rows. */
const keysIn = (row: Record<string, unknown>, { field, item, multiple }: LabelField): unknown[] =>
  item ? rowsOf(row[field]).map((r) => r[item]) : valuesOf(row[field], multiple)

/** Whether a value can be the key of a target: a code (text) or an id (a positive 32-bit integer). */
function keyOf(target: LabelTarget, value: unknown): string | number | undefined {
  if (target.key === 'code') return typeof value === 'string' && value !== '' ? value : undefined
  return idOrNull(value) ?? undefined
}

/**
 * The texts of a shared reference list (ports, carriers, currencies…), read whole once per process and
 * language: they are loaded at start (server/db/seed/reference-tables.ts) and the application role cannot
 * change them, so a list page's port and carrier names cost no query.
 */
const shared = new WeakMap<LabelTarget, Map<Language, Promise<Map<string, string>>>>()

export function sharedTexts(
  trx: Transaction<DB>,
  target: LabelTarget,
  language: Language,
): Promise<Map<string, string>> {
  const byLanguage = shared.get(target) ?? new Map<Language, Promise<Map<string, string>>>()
  shared.set(target, byLanguage)
  let texts = byLanguage.get(language)
  if (!texts) {
    texts = (trx as unknown as Kysely<DynamicDB>)
      .selectFrom(target.table)
      .select([sql<string>`${sql.ref(target.key)}`.as('key'), target.text(language).as('text')])
      .execute()
      .then((rows) => {
        const map = new Map<string, string>()
        for (const row of rows) if (row.text !== null && row.text !== '') map.set(String(row.key), String(row.text))
        return map
      })
    byLanguage.set(language, texts)
    texts.catch(() => byLanguage.delete(language))
  }
  return texts
}

/**
 * Sets `labels` on every row (an empty object when none of its refs has a value). Runs in the caller's
 * tenant transaction: tenant rows are read with the tenant named, reference lists are shared.
 */
export async function attachLabels<T extends LabelledRow>(
  trx: Transaction<DB>,
  fields: readonly LabelField[],
  rows: T[],
  call: { tenantId: number; language?: Language },
  /** Texts the rows' own query read already (inlineLabels). */
  prefetched?: ReadonlyMap<LabelTarget, Map<string, string>>,
): Promise<T[]> {
  const language: Language = call.language ?? 'zh'
  // One lookup per referenced table: pol and pod (both ports) share a query.
  const wanted = new Map<LabelTarget, Set<string | number>>()
  for (const labelField of fields) {
    const { target } = labelField
    const keys = wanted.get(target) ?? new Set()
    for (const row of rows)
      for (const value of keysIn(row, labelField)) {
        const key = keyOf(target, value)
        if (key !== undefined) keys.add(key)
      }
    if (keys.size) wanted.set(target, keys)
  }
  const found = new Map<LabelTarget, Map<string, string>>()
  for (const [target, keys] of wanted) {
    const known = prefetched?.get(target)
    if (known) {
      found.set(target, known)
      continue
    }
    if (!target.tenant) {
      found.set(target, await sharedTexts(trx, target, language))
      continue
    }
    let query = (trx as unknown as Kysely<DynamicDB>)
      .selectFrom(target.table)
      .select([sql<string | number>`${sql.ref(target.key)}`.as('key'), target.text(language).as('text')])
      .where(sql.ref(target.key), 'in', [...keys])
    if (target.tenant) query = query.where(sql.ref('tenant_id'), '=', call.tenantId)
    const texts = new Map<string, string>()
    for (const row of await query.execute())
      if (row.text !== null && row.text !== undefined && row.text !== '') texts.set(String(row.key), String(row.text))
    found.set(target, texts)
  }
  for (const row of rows) {
    const labels: Labels = {}
    for (const { field, item, multiple, target } of fields) {
      const texts = found.get(target)
      const value = row[field]
      if (item) {
        const list = rowsOf(value)
        if (list.some((r) => keyOf(target, r[item]) !== undefined))
          labels[labelKey({ field, item })] = list.map((r) => {
            const key = keyOf(target, r[item])
            return (key === undefined ? undefined : texts?.get(String(key))) ?? String(r[item] ?? '')
          })
        continue
      }
      if (multiple && Array.isArray(value)) {
        if (value.length) labels[field] = value.map((v) => texts?.get(String(keyOf(target, v))) ?? String(v))
        continue
      }
      const key = keyOf(target, value)
      const text = key === undefined ? undefined : texts?.get(String(key))
      if (text !== undefined) labels[field] = text
    }
    row.labels = labels
  }
  return rows
}

/**
 * The labels of single-valued refs to tenant rows (a company, a user), read by the rows' own query: a
 * subquery column each (`label:<field>`), so a list page or a detail makes no query per referenced table.
 * A target that a multiple ref, or a ref in a list's rows, also names is left to attachLabels. `collect`
 * gathers what the rows carry, for attachLabels' `prefetched`.
 */
export function inlineLabels(
  fields: readonly LabelField[],
  columnOf: (field: string) => string | undefined,
  table: string,
  call: { tenantId: number; language?: Language },
) {
  const language: Language = call.language ?? 'zh'
  const { inline, select } = inlinedOf(fields, columnOf, table, language)
  return {
    select,
    collect(rows: readonly Record<string, unknown>[]): Map<LabelTarget, Map<string, string>> {
      const texts = new Map<LabelTarget, Map<string, string>>()
      for (const { field, target } of inline) {
        const map = texts.get(target) ?? new Map<string, string>()
        texts.set(target, map)
        for (const row of rows) {
          const key = keyOf(target, row[field])
          const text = row[inlineAlias(field)]
          if (key !== undefined && typeof text === 'string' && text !== '') map.set(String(key), text)
        }
      }
      return texts
    },
  }
}

const inlineAlias = (field: string) => `label:${field}`

type Inlined = { inline: LabelField[]; select: AliasedRawBuilder<string | null, string>[] }
const inlined = new WeakMap<readonly LabelField[], Map<string, Inlined>>()

/**
 * Which labels a row's query reads and their subqueries, built once per fields, table and language (the
 * builders are immutable, so every call shares them). The label's tenant is the row's own — whose tenant
 * every read names — so the subqueries carry no value of the call.
 */
function inlinedOf(
  fields: readonly LabelField[],
  columnOf: (field: string) => string | undefined,
  table: string,
  language: Language,
): Inlined {
  return builtOnce(inlined, fields, `${table} ${language}`, (): Inlined => {
    const multiple = new Set(fields.filter((f) => f.multiple || f.item).map((f) => f.target))
    const inline = fields.filter(
      (f) => f.target.tenant && !f.multiple && !f.item && !multiple.has(f.target) && columnOf(f.field),
    )
    return {
      inline,
      select: inline.map(({ field, target }) =>
        sql<string | null>`(select ${target.text(language)} from ${sql.table(target.table)} label
          where ${sql.ref(`label.${target.key}`)} = ${sql.ref(`${table}.${columnOf(field)}`)}
            and label.tenant_id = ${sql.ref(`${table}.tenant_id`)})`.as(inlineAlias(field)),
      ),
    }
  })
}
