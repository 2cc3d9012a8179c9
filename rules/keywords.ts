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

export function requiredWhen(row: Row, rule: { field: string; when: { field: string; equals: unknown } }): boolean {
  if (row[rule.when.field] !== rule.when.equals) return true
  return present(row[rule.field])
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

/** String length in Unicode code points, as JSON Schema's minLength and maxLength count it. */
export function ucs2length(value: string): number {
  let length = 0
  for (const _ of value) length++
  return length
}

export const keywords = { compare, atLeastOne, sumEquals, uniqueBy, requiredWhen, textBlock, decimals, ucs2length }
