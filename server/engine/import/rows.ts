import type { FieldDef } from '../../../model/definitions.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import type { FieldError } from '../../../rules/messages.ts'
import { LANGUAGES, messageFor } from '../../http/errors.ts'
import { idOrNull } from '../../http/ids.ts'
import type { Manifest } from '../../manifest.ts'
import type { Cell, Sheet } from './workbook.ts'

/**
 * From a sheet's cells to entity bodies, and from the validator's field errors back to cells: pure, no
 * database. The columns an import reads (docs/CONFIGURATION.md "Importing from xls/xlsx"):
 * - one column per writable field, headed by the field's name or its label in any language;
 * - an array field as one column of items separated by `;` (or line breaks), each item's values separated
 *   by `|` in the order of its item fields (`THC|Terminal handling|origin|container|850|CNY`);
 * - an array of (reference code, amount) pairs — a rate's container prices — also as one column per code,
 *   headed by the code or its display text (`22G1`, `20GP`, `40'HQ`).
 */

export interface ImportProblem {
  /** The sheet, for an import with sheets of items (`Boxes`); absent when the first sheet is all it reads. */
  sheet?: string
  /** The row as Excel numbers it (the header is usually 1). */
  row: number
  /** The column letter, or null for the row as a whole (a field the sheet has no column for). */
  column: string | null
  header: string | null
  field: string | null
  key: string
  params: Record<string, unknown>
}

/** A reference list's row a pivot column can name: its code and its display text (45G1, 40'HQ). */
export interface PivotKey {
  code: string
  names: string[]
}

export interface Pivot {
  /** The item field holding the reference code, and the one holding the amount. */
  keyField: string
  valueField: string
  ref: string
}

export type ImportColumn =
  | { kind: 'field'; field: string; def: FieldDef }
  | { kind: 'list'; field: string; def: FieldDef }
  | { kind: 'pivot'; field: string; def: FieldDef; pivot: Pivot; code: string }

/** One data row: its Excel number, the body for the validator, and which column each value came from. */
export interface MappedRow {
  row: number
  body: Record<string, unknown>
  /** `field` or `field[i]` → the column index the value came from. */
  origins: Map<string, number>
  problems: ImportProblem[]
  /** The sheet the row is on, for an import with sheets of items. */
  sheet?: string
  /** `field[i]` → the row of an item sheet the item came from (./itemSheets.ts). */
  items?: Map<string, ItemOrigin>
}

/** Where an item of an array field came from: its own row on the field's sheet, and its columns. */
export interface ItemOrigin {
  sheet: string
  row: number
  /** Item field → column index. */
  origins: Map<string, number>
  headers: Map<number, string>
}

export function columnLetter(index: number): string {
  let n = index + 1
  let out = ''
  while (n > 0) {
    const rest = (n - 1) % 26
    out = String.fromCharCode(65 + rest) + out
    n = Math.floor((n - 1) / 26)
  }
  return out
}

/** Headers compare without case, spaces, apostrophes, punctuation and a required-mark: "Rate No. *" = "rateNo". */
export const normalizeHeader = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s'’"_\-.()（）:：*]/g, '')

/** The fields a caller may import: writable, not files, not the state (transitions move it). */
export function importableFields(
  entity: ManifestEntity,
  locked: ReadonlySet<string> = new Set(),
): [string, FieldDef][] {
  return Object.entries(entity.fields).filter(
    ([name, def]) =>
      !def.readOnly &&
      def.type !== 'file' &&
      !locked.has(name) &&
      name !== entity.states?.field &&
      !['id', 'version', 'createdAt', 'updatedAt', 'createdBy'].includes(name),
  )
}

/** An array of (reference code, amount) pairs, which the sheet may spread over one column per code. */
export function pivotOf(def: FieldDef, entities: Manifest['entities']): Pivot | null {
  if (def.type !== 'array' || !def.items) return null
  const items = Object.entries(def.items)
  if (items.length !== 2) return null
  const key = items.find(([, item]) => item.type === 'ref' && item.ref && entities[item.ref]?.reference)
  const value = items.find(([, item]) => ['money', 'number', 'integer'].includes(item.type))
  if (!key || !value || !key[1].ref) return null
  return { keyField: key[0], valueField: value[0], ref: key[1].ref }
}

const labelTexts = (key: string | undefined) =>
  key ? LANGUAGES.map((language) => messageFor(key, language)).filter((text) => text !== key) : []

/** Every header the import understands → its column. Names win over labels, labels over pivot codes. */
export function headerIndex(
  fields: [string, FieldDef][],
  entities: Manifest['entities'],
  pivotKeys: ReadonlyMap<string, PivotKey[]>,
): Map<string, ImportColumn> {
  const index = new Map<string, ImportColumn>()
  const add = (text: string, column: ImportColumn) => {
    const key = normalizeHeader(text)
    if (key && !index.has(key)) index.set(key, column)
  }
  const columns: [string[], ImportColumn][] = []
  for (const [field, def] of fields) {
    const column: ImportColumn = def.type === 'array' ? { kind: 'list', field, def } : { kind: 'field', field, def }
    columns.push([[field, ...labelTexts(def.label)], column])
  }
  for (const [texts, column] of columns) add(texts[0] as string, column)
  for (const [texts, column] of columns) for (const text of texts.slice(1)) add(text, column)
  for (const [field, def] of fields) {
    const pivot = pivotOf(def, entities)
    if (!pivot) continue
    for (const key of pivotKeys.get(field) ?? []) {
      const column: ImportColumn = { kind: 'pivot', field, def, pivot, code: key.code }
      for (const text of [key.code, ...key.names]) add(text, column)
    }
  }
  return index
}

const TRUE = new Set(['true', 'yes', 'y', '1', '是', 'はい', 'sí', 'si'])
const FALSE = new Set(['false', 'no', 'n', '0', '否', 'いいえ'])
const NUMBER = /^-?\d+(\.\d+)?$/

/** A number as the decimal text a money field wants (1650.5 → "1650.5"); exponent forms stay as they are and fail. */
const decimalText = (value: number) => String(value)

/** One cell → the JSON value of a field; what cannot be read stays as it was, for the validator to name. */
export function cellValue(def: FieldDef, cell: Cell, entities: Manifest['entities']): unknown {
  if (cell === null) return undefined
  const text = typeof cell === 'string' ? cell.trim() : cell
  if (text === '') return undefined
  const many = (value: Cell) =>
    typeof value === 'string'
      ? value
          .split(/[,，]/)
          .map((part) => part.trim())
          .filter(Boolean)
      : [value]
  switch (def.type) {
    case 'integer':
    case 'number':
      return typeof text === 'string' && NUMBER.test(text) ? Number(text) : text
    case 'money':
      return typeof text === 'number' ? decimalText(text) : String(text)
    case 'boolean': {
      const word = String(text).toLowerCase()
      return TRUE.has(word) ? true : FALSE.has(word) ? false : text
    }
    case 'enum': {
      const one = (value: Cell) => enumValue(def, value)
      return def.multiple ? many(text).map(one) : one(text)
    }
    case 'ref': {
      const reference = def.ref ? entities[def.ref]?.reference : false
      const one = (value: Cell) =>
        reference
          ? String(value).trim().toUpperCase()
          : typeof value === 'string'
            ? (idOrNull(value.trim()) ?? value)
            : value
      return def.multiple ? many(text).map(one) : one(text)
    }
    default:
      return typeof text === 'string' ? text : String(text)
  }
}

/** An enum cell: its value, or the value whose label (in any language) it is. */
function enumValue(def: FieldDef, cell: Cell): unknown {
  const values = def.values ?? []
  const integers = values.length > 0 && values.every((v) => Number.isInteger(v.value))
  const typed = integers && typeof cell === 'string' && /^-?\d+$/.test(cell) ? Number(cell) : cell
  if (values.some((v) => v.value === typed)) return typed
  const wanted = normalizeHeader(String(cell))
  const byLabel = values.find((v) => labelTexts(v.label).some((text) => normalizeHeader(text) === wanted))
  return byLabel ? byLabel.value : typed
}

/** The `;`-separated items of a list column, each `|`-separated in the item fields' order. */
function listItems(
  def: FieldDef,
  cell: Cell,
  entities: Manifest['entities'],
): { items: Record<string, unknown>[] } | { problem: string; params: Record<string, unknown> } {
  const itemFields = Object.entries(def.items ?? {})
  const items: Record<string, unknown>[] = []
  const parts = String(cell)
    .split(/[;\n；]/)
    .map((part) => part.trim())
    .filter(Boolean)
  for (const [i, part] of parts.entries()) {
    const values = part.split('|').map((value) => value.trim())
    if (values.length > itemFields.length)
      return { problem: 'import.listItemParts', params: { item: i + 1, form: itemFields.map(([n]) => n).join('|') } }
    const item: Record<string, unknown> = {}
    itemFields.forEach(([name, itemDef], k) => {
      const value = cellValue(itemDef, values[k] ?? null, entities)
      if (value !== undefined) item[name] = value
    })
    items.push(item)
  }
  return { items }
}

export interface HeaderMapping {
  /** Index 0-based of the header row in sheet.rows. */
  headerRow: number
  /** Column index → what it holds (columns the import ignores are absent). */
  columns: Map<number, ImportColumn>
  headers: Map<number, string>
  problems: ImportProblem[]
}

/** The header: the sheet's first row with anything in it. Unknown and repeated headers are problems. */
export function mapHeader(sheet: Sheet, index: ReadonlyMap<string, ImportColumn>): HeaderMapping {
  const headerRow = sheet.rows.findIndex((row) => row.some((cell) => cell !== null && String(cell).trim() !== ''))
  const columns = new Map<number, ImportColumn>()
  const headers = new Map<number, string>()
  const problems: ImportProblem[] = []
  if (headerRow < 0) return { headerRow: -1, columns, headers, problems }
  const seen = new Map<string, number>()
  for (const [j, cell] of (sheet.rows[headerRow] ?? []).entries()) {
    if (cell === null || String(cell).trim() === '') continue
    const header = String(cell).trim()
    headers.set(j, header)
    const at = { row: headerRow + 1, column: columnLetter(j), header }
    const column = index.get(normalizeHeader(header))
    if (!column) {
      problems.push({ ...at, field: null, key: 'import.unknownColumn', params: { header } })
      continue
    }
    const target = column.kind === 'pivot' ? `${column.field}:${column.code}` : column.field
    const first = seen.get(target)
    if (first !== undefined) {
      problems.push({
        ...at,
        field: column.field,
        key: 'import.duplicateColumn',
        params: { header, other: columnLetter(first) },
      })
      continue
    }
    seen.set(target, j)
    columns.set(j, column)
  }
  return { headerRow, columns, headers, problems }
}

const blank = (row: readonly Cell[]) => row.every((cell) => cell === null || String(cell).trim() === '')

/** The data rows below the header as bodies; blank rows are skipped. */
export function mapRows(sheet: Sheet, header: HeaderMapping, entities: Manifest['entities']): MappedRow[] {
  const out: MappedRow[] = []
  for (let r = header.headerRow + 1; r < sheet.rows.length; r++) {
    const cells = sheet.rows[r] ?? []
    if (blank(cells)) continue
    const mapped: MappedRow = { row: r + 1, body: {}, origins: new Map(), problems: [] }
    for (const [j, column] of header.columns) {
      const cell = cells[j] ?? null
      if (column.kind === 'field') {
        const value = cellValue(column.def, cell, entities)
        if (value !== undefined) mapped.body[column.field] = value
        mapped.origins.set(column.field, j)
      } else if (column.kind === 'list') {
        mapped.origins.set(column.field, j)
        if (cell === null || String(cell).trim() === '') continue
        const read = listItems(column.def, cell, entities)
        if ('problem' in read) {
          mapped.problems.push({
            row: r + 1,
            column: columnLetter(j),
            header: header.headers.get(j) ?? null,
            field: column.field,
            key: read.problem,
            params: read.params,
          })
          continue
        }
        const list = (mapped.body[column.field] as unknown[] | undefined) ?? []
        mapped.body[column.field] = [...list, ...read.items]
      } else {
        const valueDef = column.def.items?.[column.pivot.valueField] as FieldDef
        const value = cellValue(valueDef, cell, entities)
        if (value === undefined) continue
        const list = (mapped.body[column.field] as unknown[] | undefined) ?? []
        mapped.origins.set(`${column.field}[${list.length}]`, j)
        mapped.body[column.field] = [
          ...list,
          { [column.pivot.keyField]: column.code, [column.pivot.valueField]: value },
        ]
      }
    }
    out.push(mapped)
  }
  return out
}

/** Where a validator's field error sits in the sheet: the cell of its column in the row, or the row itself. */
export function locate(
  mapped: MappedRow,
  error: Pick<FieldError, 'field' | 'message' | 'params'>,
  header: HeaderMapping,
): ImportProblem {
  const match = /^([A-Za-z0-9]+)(?:\[(\d+)\])?(?:\.([A-Za-z0-9]+))?/.exec(error.field)
  const top = match?.[1] ?? ''
  const item = match?.[2]
  const origin = item !== undefined ? mapped.items?.get(`${top}[${item}]`) : undefined
  if (origin) {
    // An item from a sheet of its own: its cell there (the row alone when the error is the item's as a whole).
    const k = match?.[3] === undefined ? undefined : origin.origins.get(match[3])
    return {
      sheet: origin.sheet,
      row: origin.row,
      column: k === undefined ? null : columnLetter(k),
      header: k === undefined ? null : (origin.headers.get(k) ?? null),
      field: error.field || null,
      key: error.message,
      params: error.params,
    }
  }
  const j = (item !== undefined ? mapped.origins.get(`${top}[${item}]`) : undefined) ?? mapped.origins.get(top)
  const params = { ...error.params, ...(item !== undefined ? { item: Number(item) + 1 } : {}) }
  return {
    ...(mapped.sheet !== undefined ? { sheet: mapped.sheet } : {}),
    row: mapped.row,
    column: j === undefined ? null : columnLetter(j),
    // A field with no column: the handler names it by its label in the caller's language.
    header: j === undefined ? null : (header.headers.get(j) ?? null),
    field: error.field || null,
    key: error.message,
    params,
  }
}
