import { minorUnits, significantDecimals } from './currencies.ts'
import { compareDecimal, decimalPlaces, toScaled } from './decimal.ts'

/**
 * Cross-field rules of the entity YAML (`rules:`) and field checks JSON Schema cannot say.
 * Each takes the value being validated and the rule as written in YAML, and answers true when it holds.
 * The generated validators call these by name; so do the server's overlay validators.
 */
type Row = Record<string, unknown>

const present = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)

export interface CompareRule {
  field: string
  op: 'gt' | 'gte' | 'lt' | 'lte' | 'eq' | 'ne'
  other: string
}

/** Numbers and decimal strings compare exactly; dates and other strings compare as text (ISO dates sort). */
export function compare(row: Row, rule: CompareRule): boolean {
  const a = row[rule.field]
  const b = row[rule.other]
  if (!present(a) || !present(b)) return true
  const byNumber = compareDecimal(a, b)
  const order = byNumber ?? (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)
  switch (rule.op) {
    case 'gt':
      return order > 0
    case 'gte':
      return order >= 0
    case 'lt':
      return order < 0
    case 'lte':
      return order <= 0
    case 'eq':
      return order === 0
    case 'ne':
      return order !== 0
  }
}

export function atLeastOne(row: Row, rule: { fields: string[] }): boolean {
  return rule.fields.some((field) => present(row[field]))
}

/** The total equals the exact sum of one column of the sub-table (totals equal container sums). */
export function sumEquals(row: Row, rule: { field: string; of: string; item: string }): boolean {
  const rows = row[rule.of]
  const total = row[rule.field]
  if (!Array.isArray(rows) || rows.length === 0 || !present(total)) return true
  let sum = 0n
  for (const item of rows) {
    const value = toScaled((item as Row)?.[rule.item] ?? 0)
    if (value === undefined) return true // the item's own schema reports the bad number
    sum += value
  }
  return toScaled(total) === sum
}

/** No two rows of a sub-table share the key (the same container cannot be added twice). */
export function uniqueBy(row: Row, rule: { field: string; by: string[] }): boolean {
  const rows = row[rule.field]
  if (!Array.isArray(rows)) return true
  const seen = new Set<string>()
  for (const item of rows) {
    const key = JSON.stringify(
      rule.by.map((k) =>
        String((item as Row)?.[k] ?? '')
          .trim()
          .toUpperCase(),
      ),
    )
    if (rule.by.every((k) => !present((item as Row)?.[k]))) continue
    if (seen.has(key)) return false
    seen.add(key)
  }
  return true
}

/**
 * Each row of `field` whose `item` has a value names a row of the array `of` by its `key` (an FBA order's
 * product line names a box of the order): compared as uniqueBy compares, trimmed and case-blind. A row
 * without the value is left to its own required check; a missing `of` list holds none.
 */
export function itemsIn(row: Row, rule: { field: string; item: string; of: string; key: string }): boolean {
  return itemsNotIn(row, rule).length === 0
}

/**
 * The indexes of the rows of `field` that name no row of `of` (itemsIn's failures), so a refusal shows at each
 * offending row's cell (products[2].boxNo) rather than over the whole list.
 */
export function itemsNotIn(row: Row, rule: { field: string; item: string; of: string; key: string }): number[] {
  const rows = row[rule.field]
  if (!Array.isArray(rows)) return []
  const norm = (v: unknown) =>
    String(v ?? '')
      .trim()
      .toUpperCase()
  const others = row[rule.of]
  const keys = new Set(
    (Array.isArray(others) ? others : [])
      .filter((o) => present((o as Row)?.[rule.key]))
      .map((o) => norm((o as Row)[rule.key])),
  )
  const failing: number[] = []
  rows.forEach((item, index) => {
    if (present((item as Row)?.[rule.item]) && !keys.has(norm((item as Row)[rule.item]))) failing.push(index)
  })
  return failing
}

/**
 * A requiredWhen condition: the other field equals a value, or (`present: true`) holds any value, or
 * (`absent: true`) holds none — an FBA address's street is typed unless a fulfilment centre fills it.
 */
export type RequiredWhenCondition = { field: string; equals?: unknown; present?: true; absent?: true }

/** Whether a requiredWhen rule's condition holds for the row: then its field must be filled (and shows the mark). */
export function requiredWhenHolds(row: Row, rule: { when: RequiredWhenCondition }): boolean {
  if (rule.when.present) return present(row[rule.when.field])
  if (rule.when.absent) return !present(row[rule.when.field])
  return row[rule.when.field] === rule.when.equals
}

export function requiredWhen(row: Row, rule: { field: string; when: RequiredWhenCondition }): boolean {
  if (!requiredWhenHolds(row, rule)) return true
  return present(row[rule.field])
}

export interface ExcludedWhenRule {
  field: string
  values: unknown[]
  when: { field: string; includesAny: unknown[] }
}

/**
 * The field may not take one of `values` while the other field (one value or a list) holds any of
 * `when.includesAny`: Incoterms 2020's sea-only terms refused for air, rail and truck.
 */
export function excludedWhen(row: Row, rule: ExcludedWhenRule): boolean {
  const value = row[rule.field]
  if (!present(value) || !rule.values.includes(value)) return true
  const other = row[rule.when.field]
  const held = Array.isArray(other) ? other : present(other) ? [other] : []
  return !held.some((item) => rule.when.includesAny.includes(item))
}

/**
 * The field's text begins with the other field's: an IATA ULD number (AKE12345CA) with its type code (AKE).
 * Either one empty is left to `required`.
 */
export function startsWith(row: Row, rule: { field: string; other: string }): boolean {
  const value = row[rule.field]
  const prefix = row[rule.other]
  if (!present(value) || !present(prefix)) return true
  return String(value).startsWith(String(prefix))
}

/** Free-text blocks: at most `maxLines` lines of at most `lineLength` characters (SPEC §5: 35 × 7). */
export function textBlock(value: unknown, limits: { lineLength: number; maxLines: number }): boolean {
  if (typeof value !== 'string') return true
  const lines = value.split(/\r?\n/)
  return lines.length <= limits.maxLines && lines.every((line) => [...line].length <= limits.lineLength)
}

/** At most `decimals` digits after the point. */
export function decimals(value: unknown, places: number): boolean {
  if (typeof value !== 'number' && typeof value !== 'string') return true
  return decimalPlaces(value) <= places
}

/** Bounds of exact decimals written as strings (money): compared exactly, never as floats. */
export function decimalMinimum(value: unknown, limit: number): boolean {
  const order = compareDecimal(value, limit)
  return order === undefined || order >= 0
}
export function decimalExclusiveMinimum(value: unknown, limit: number): boolean {
  const order = compareDecimal(value, limit)
  return order === undefined || order > 0
}
export function decimalMaximum(value: unknown, limit: number): boolean {
  const order = compareDecimal(value, limit)
  return order === undefined || order <= 0
}

/**
 * An amount has no more decimals than its currency's minor units (USD 10.005 and JPY 100.5 are refused), on the
 * record (`field` and `currency`) or on every row of the array `field` (`item` and `currency` of the row).
 * An amount or currency not yet given is left to the required check.
 */
export function currencyDecimals(row: Row, rule: { field: string; item?: string; currency: string }): boolean {
  const fits = (amount: unknown, currency: unknown) =>
    !present(amount) || typeof currency !== 'string' || !currency || toScaled(amount) === undefined
      ? true
      : significantDecimals(amount) <= minorUnits(currency)
  if (!rule.item) return fits(row[rule.field], row[rule.currency])
  const rows = row[rule.field]
  if (!Array.isArray(rows)) return true
  return rows.every((item) => fits((item as Row)?.[rule.item as string], (item as Row)?.[rule.currency]))
}

/**
 * Text PostgreSQL can store and every client can read: no NUL character and no lone UTF-16 surrogate.
 */
export function storableText(value: unknown): boolean {
  if (typeof value !== 'string') return true
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    if (unit === 0) return false
    if (unit >= 0xdc00 && unit <= 0xdfff) return false
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false
      i++
    }
  }
  return true
}

/** String length in Unicode code points, as JSON Schema's minLength and maxLength count it. */
export function ucs2length(value: string): number {
  let length = 0
  for (const _ of value) length++
  return length
}

export const keywords = {
  compare,
  atLeastOne,
  sumEquals,
  uniqueBy,
  itemsIn,
  itemsNotIn,
  requiredWhen,
  excludedWhen,
  startsWith,
  currencyDecimals,
  textBlock,
  storableText,
  decimals,
  decimalMinimum,
  decimalExclusiveMinimum,
  decimalMaximum,
  ucs2length,
}
