import type { FieldDef } from '../../../model/definitions.ts'
import type { ManifestEntity, ManifestScreen } from '../../../model/resolve.ts'
import { amountsText } from '../../../rules/currencies.ts'
import { groupDigits } from '../../../rules/decimal.ts'
import { formatWhen, isDateOnly } from '../../dates.ts'

export type ColumnDef = NonNullable<ManifestScreen['columns']>[number]
export type BadgeColor = 'brand' | 'danger' | 'important' | 'informative' | 'severe' | 'subtle' | 'success' | 'warning'

/**
 * What a cell shows: plain text (with a hint, e.g. the code behind a port's name), or a coloured badge
 * (states); labels are locale keys to translate, several (a field of several values) shown one after another.
 */
export type CellView =
  | { kind: 'text'; text: string; hint?: string }
  | { kind: 'label'; key: string }
  | { kind: 'labels'; keys: string[] }
  | { kind: 'badge'; key: string; color: BadgeColor }

const BADGE_COLORS = new Set<string>([
  'brand',
  'danger',
  'important',
  'informative',
  'severe',
  'subtle',
  'success',
  'warning',
])
/** A referenced record as the list shows it: its code or name when the server sends an object. */
function displayOf(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'object') return String(value)
  const record = value as Record<string, unknown>
  for (const key of ['label', 'name', 'nameEn', 'code', 'id']) {
    if (record[key] !== undefined && record[key] !== null) return String(record[key])
  }
  return ''
}

/** The display text of a ref field as the server sends it (`row.labels`), and the code it stands for. */
export interface RefLabel {
  text: string
  /** Reference lists (ports, carriers…): the code, shown beside or under the name. */
  code?: string
}

const joined = (value: unknown): string =>
  Array.isArray(value)
    ? value.map((v) => String(v)).join(', ')
    : value === null || value === undefined
      ? ''
      : String(value)

/**
 * The label of a row's ref field: `row.labels[field]` (an array for multiple refs), with the raw value as
 * its code when the referenced entity's labels read with their code beside them (`withCode(entity name)`,
 * codeBesideLabel). None without a label.
 */
export function refLabel(
  row: Record<string, unknown>,
  field: string,
  entity: Pick<ManifestEntity, 'fields'> | undefined,
  withCode: (entity: string) => boolean,
): RefLabel | undefined {
  const labels = row.labels
  if (!labels || typeof labels !== 'object') return undefined
  const label = (labels as Record<string, unknown>)[field]
  const text = typeof label === 'string' ? label : Array.isArray(label) ? joined(label) : ''
  if (!text) return undefined
  const def = entity?.fields[field]
  const code = def?.type === 'ref' && def.ref && withCode(def.ref) ? joined(row[field]) : ''
  return code && code !== text ? { text, code } : { text }
}

/**
 * Whether the labels of a referenced entity read with their code beside them: a reference list named in
 * the reader's language (ports, carriers, countries, currencies: nameEn / nameZh) does, "Shanghai (CNSHA)",
 * since names alone can be ambiguous; a list whose label is itself what people write (containerType:
 * 40'HQ, SPEC §3) reads by that label alone, not "40'HQ (45G1)". Entities (companies, users) have no code.
 */
export function codeBesideLabel(referenced: Pick<ManifestEntity, 'reference' | 'fields'> | undefined): boolean {
  return referenced?.reference === true && referenced.fields.nameEn !== undefined
}

/**
 * The labels of one row of a list field (an order's containers) as that row's own `labels`: the engine
 * answers a ref inside a list's rows under `<list>.<item>`, one text per row (server/engine/labels.ts), so
 * row `index` of `containers` gets `{ containerType: labels['containers.containerType'][index] }`.
 */
export function rowLabels(labels: unknown, field: string, index: number): Record<string, string> {
  const out: Record<string, string> = {}
  if (!labels || typeof labels !== 'object') return out
  const prefix = `${field}.`
  for (const [key, texts] of Object.entries(labels as Record<string, unknown>)) {
    if (!key.startsWith(prefix) || !Array.isArray(texts)) continue
    const text = texts[index]
    if (typeof text === 'string' && text !== '') out[key.slice(prefix.length)] = text
  }
  return out
}

/** How a labelled ref reads as one line of text: `Shanghai (CNSHA)` for reference lists, else the name. */
export function refText(label: RefLabel): string {
  return label.code ? `${label.text} (${label.code})` : label.text
}

/** The format a column takes from its field's schema type when the screen names none. */
const TYPE_FORMATS: Record<string, ColumnDef['format']> = {
  money: 'money',
  date: 'date',
  datetime: 'datetime',
  boolean: 'boolean',
}

/**
 * Whether a column holds amounts or counts: they line up on the right, as figures do on a statement. A column of
 * several amounts (a bill's totals) is text, and a ref or enum never counts, whatever its values look like.
 */
export function isFigureColumn(column: ColumnDef, entity: Pick<ManifestEntity, 'fields'> | undefined): boolean {
  const field = entity?.fields[column.field]
  if (column.format) return column.format === 'money' || column.format === 'number'
  return !field?.multiple && (field?.type === 'money' || field?.type === 'number' || field?.type === 'integer')
}

/**
 * How one value of a list column reads, in the reader's `language`. A ref with a label (`refLabel`)
 * reads as that text, the code as its hint. Money stays exactly the string the server sent (no float
 * round trip), its digits grouped; dates read as dates in the language, on their own calendar day, and moments as date and
 * time (runtime/dates.ts); states become their badge.
 */
export function cellView(
  value: unknown,
  column: ColumnDef,
  entity: Pick<ManifestEntity, 'fields' | 'states'> | undefined,
  label?: RefLabel,
  language = 'en',
): CellView {
  const field = entity?.fields[column.field]
  if (value === null || value === undefined || value === '') return { kind: 'text', text: '' }
  if (label)
    return label.code ? { kind: 'text', text: label.text, hint: label.code } : { kind: 'text', text: label.text }
  const format = column.format ?? (field?.type ? TYPE_FORMATS[field.type] : undefined)
  if (Array.isArray(value)) return severalView(value, format, field)
  switch (format) {
    case 'state': {
      const state = entity?.states?.values[String(value)]
      if (!state) return { kind: 'text', text: String(value) }
      const color = state.color && BADGE_COLORS.has(state.color) ? (state.color as BadgeColor) : 'informative'
      return { kind: 'badge', key: state.label, color }
    }
    case 'enum': {
      const key = optionLabel(field, value)
      return key ? { kind: 'label', key } : { kind: 'text', text: String(value) }
    }
    case 'boolean':
      return { kind: 'label', key: value === true || value === 'true' || value === 1 ? 'ui.yes' : 'ui.no' }
    case 'date':
      return { kind: 'text', text: formatWhen(value, language, { type: 'date' }) }
    case 'datetime':
      return { kind: 'text', text: formatWhen(value, language, { type: field?.type === 'date' ? 'date' : 'datetime' }) }
    case 'money':
      return { kind: 'text', text: groupDigits(String(value)) }
    default:
      // A day in a field of no declared format (a string the server sends as YYYY-MM-DD) is a date still.
      return {
        kind: 'text',
        text: isDateOnly(value) ? formatWhen(value, language, { type: 'date' }) : displayOf(value),
      }
  }
}

/**
 * A field of several values: each enum value as its label (a webhook's events), amounts per currency as one line
 * (a bill's totals: `JPY 48350; USD 3700.00`), anything else as its values' texts.
 */
function severalView(values: unknown[], format: ColumnDef['format'], field: FieldDef | undefined): CellView {
  if (values.length === 0) return { kind: 'text', text: '' }
  if (format === 'enum' || field?.values?.length)
    return {
      kind: 'labels',
      keys: values.map((value) => optionLabel(field, value) ?? String(value)),
    }
  return { kind: 'text', text: amountsText(values) ?? values.map(displayOf).filter(Boolean).join(', ') }
}

/** The label key of an enum field's value, if the field names it. */
function optionLabel(field: FieldDef | undefined, value: unknown): string | undefined {
  return field?.values?.find((v) => String(v.value) === String(value))?.label
}
