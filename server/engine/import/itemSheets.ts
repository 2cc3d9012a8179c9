import type { FieldDef, ImportSheets } from '../../../model/definitions.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { IMPORT_LIMITS } from '../../../rules/fileLimits.ts'
import { itemsIn, uniqueBy } from '../../../rules/keywords.ts'
import type { FieldError } from '../../../rules/messages.ts'
import { LANGUAGES, messageFor } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import {
  columnLetter,
  type HeaderMapping,
  headerIndex,
  type ImportProblem,
  type MappedRow,
  mapHeader,
  mapRows,
  normalizeHeader,
} from './rows.ts'
import type { NamedSheet } from './workbook.ts'

/**
 * An import whose array fields come on sheets of their own (the binding's `sheets:`, docs/CONFIGURATION.md
 * "Importing from xls/xlsx"): the records on the first sheet, one row each, and for each item field a sheet
 * named by the field — its name or its label in any language — with one row per item: a column for the key
 * (a field of the record, the same text as on the first sheet) and one per item field, headed like any column.
 * Each item row becomes an item of its record's array, remembering its sheet, row and columns, so whatever the
 * validator or the store says of `boxes[2].weight` is named as that cell (Boxes!D4). Pure: no database.
 */

/** The item fields a sheet carries: the writable ones (a chargeable weight is the server's). */
export function itemFields(def: FieldDef): [string, FieldDef][] {
  return Object.entries(def.items ?? {}).filter(([, item]) => !item.readOnly && item.type !== 'file')
}

const labelTexts = (key: string | undefined) =>
  key ? LANGUAGES.map((language) => messageFor(key, language)).filter((text) => text !== key) : []

/** The sheet of an item field: the one its name or a label of it in any language names. */
export function findItemSheet(sheets: NamedSheet[], field: string, def: FieldDef): NamedSheet | undefined {
  const names = new Set([field, ...labelTexts(def.label)].map(normalizeHeader))
  return sheets.slice(1).find((sheet) => names.has(normalizeHeader(sheet.name)))
}

/** A sheet's name as a cell reference takes it: quoted when it holds more than letters, digits and _. */
export const sheetRef = (name: string) => (/^[\p{L}\p{N}_]+$/u.test(name) ? name : `'${name.replaceAll("'", "''")}'`)

const text = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value.trim() : String(value)

/**
 * Puts each item sheet's rows into the records of the first sheet by their key. Answers the problems of the
 * sheets themselves (an unknown column, a key that names no record, a record named twice); the items' values
 * are the validator's to judge, as the form's are.
 */
export function attachItemSheets(
  rows: MappedRow[],
  first: { sheet: NamedSheet; header: HeaderMapping },
  sheets: NamedSheet[],
  spec: ImportSheets,
  entity: ManifestEntity,
  entities: Manifest['entities'],
): ImportProblem[] {
  const problems: ImportProblem[] = []
  const keyDef = entity.fields[spec.key] as FieldDef
  const keyColumn = [...first.header.columns].find(([, column]) => column.field === spec.key)?.[0]
  const byKey = new Map<string, MappedRow>()
  for (const row of rows) {
    row.sheet = first.sheet.name
    row.items = new Map()
    const key = text(row.body[spec.key])
    const at = {
      sheet: first.sheet.name,
      row: row.row,
      column: keyColumn === undefined ? null : columnLetter(keyColumn),
      header: keyColumn === undefined ? null : (first.header.headers.get(keyColumn) ?? null),
      field: spec.key,
    }
    if (!key) problems.push({ ...at, key: 'import.keyRequired', params: {} })
    else if (byKey.has(key))
      problems.push({ ...at, key: 'import.duplicateKey', params: { value: key, row: byKey.get(key)?.row } })
    else byKey.set(key, row)
  }

  for (const field of spec.items) {
    const def = entity.fields[field] as FieldDef
    const sheet = findItemSheet(sheets, field, def)
    if (!sheet) continue
    const fields: [string, FieldDef][] = [[spec.key, keyDef], ...itemFields(def)]
    const header = mapHeader(sheet, headerIndex(fields, entities, new Map()))
    problems.push(...header.problems.map((p) => ({ ...p, sheet: sheet.name })))
    if (header.headerRow < 0) continue
    const below = sheet.rowCount - header.headerRow - 1
    if (below > IMPORT_LIMITS.maxRows) {
      problems.push({
        sheet: sheet.name,
        row: header.headerRow + 1,
        column: null,
        header: null,
        field,
        key: 'import.tooManyRows',
        params: { limit: IMPORT_LIMITS.maxRows, rows: below },
      })
      continue
    }
    const keyAt = [...header.columns].find(([, column]) => column.field === spec.key)?.[0]
    for (const itemRow of mapRows(sheet, header, entities)) {
      problems.push(...itemRow.problems.map((p) => ({ ...p, sheet: sheet.name })))
      const key = text(itemRow.body[spec.key])
      const at = {
        sheet: sheet.name,
        row: itemRow.row,
        column: keyAt === undefined ? null : columnLetter(keyAt),
        header: keyAt === undefined ? null : (header.headers.get(keyAt) ?? null),
        field: spec.key,
      }
      const record = key ? byKey.get(key) : undefined
      if (!key) {
        problems.push({ ...at, key: 'import.keyRequired', params: {} })
        continue
      }
      if (!record) {
        problems.push({ ...at, key: 'import.keyUnknown', params: { value: key } })
        continue
      }
      const { [spec.key]: _key, ...item } = itemRow.body
      const list = (record.body[field] as unknown[] | undefined) ?? []
      record.items?.set(`${field}[${list.length}]`, {
        sheet: sheet.name,
        row: itemRow.row,
        origins: itemRow.origins,
        headers: header.headers,
      })
      record.body[field] = [...list, item]
    }
  }
  return problems
}

type Row = Record<string, unknown>

/**
 * A rule over a whole item list (uniqueItems, itemsIn) says only that the list is wrong; on sheets of items it is
 * said of each offending item, at its cell: the box number repeated, the product's box that is not a box. The
 * rules are the YAML's and judged by the same functions the validator runs; anything else is kept as it is.
 */
export function itemRuleErrors(
  entity: ManifestEntity,
  body: Row,
  error: Pick<FieldError, 'field' | 'message' | 'params'>,
): Pick<FieldError, 'field' | 'message' | 'params'>[] {
  const items = body[error.field]
  if (!Array.isArray(items)) return [error]
  const out: Pick<FieldError, 'field' | 'message' | 'params'>[] = []
  for (const rule of entity.rules ?? []) {
    if (rule.kind !== 'itemsIn' && rule.kind !== 'uniqueItems') continue
    if (rule.field !== error.field || rule.message !== error.message) continue
    items.forEach((item, i) => {
      const offends =
        rule.kind === 'itemsIn'
          ? !itemsIn({ ...body, [rule.field]: [item] }, rule)
          : items.slice(0, i).some((earlier) => !uniqueBy({ [rule.field]: [earlier, item] }, rule))
      const at = rule.kind === 'itemsIn' ? rule.item : rule.by[0]
      if (offends && at) out.push({ field: `${rule.field}[${i}].${at}`, message: error.message, params: error.params })
    })
  }
  return out.length ? out : [error]
}
