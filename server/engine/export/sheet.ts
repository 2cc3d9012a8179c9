import { once } from 'node:events'
import type { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { ColumnDef } from '../../../model/definitions.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { amountsText } from '../../../rules/currencies.ts'
import { type Language, messageFor } from '../../http/errors.ts'
import type { Column } from '../columns.ts'
import type { ApiRow } from '../types.ts'

/**
 * A list's export as an .xlsx sheet (issue #24): the columns the user sees, in their order, headed in their
 * language; numbers as numbers, money as a number in its currency's format, dates as dates, enum values,
 * states, booleans and references as their labels. Written through exceljs' streaming writer, a page of rows
 * at a time, so the memory an export takes does not grow with its rows.
 */

/** How a column's values go into their cells. */
type CellKind = 'text' | 'number' | 'money' | 'date' | 'datetime' | 'label'

export interface ExportColumn {
  field: string
  header: string
  kind: CellKind
  /** money: the row's field holding its currency code (the column's `currency:`, else the entity's `currency`). */
  currency?: string
  width: number
}

/** One written cell: a value exceljs writes in its own type, and the number format it is shown with. */
export interface ExportCell {
  value: string | number | boolean | Date | null
  numFmt?: string
}

/** The columns of an export: the screen's, less those the tenant hides, in the user's order if sent. */
export function exportColumns(
  entity: ManifestEntity,
  columns: readonly Column[],
  screenColumns: readonly ColumnDef[] | undefined,
  language: Language,
  shown: { hidden?: readonly string[]; columns?: readonly string[] } = {},
): ExportColumn[] {
  const defs: ColumnDef[] = screenColumns?.length
    ? [...screenColumns]
    : columns.filter((c) => !c.system).map((c) => ({ field: c.name }))
  return defs
    .filter((c) => !shown.hidden?.includes(c.field))
    .filter((c) => !shown.columns || shown.columns.includes(c.field))
    .sort((a, b) => (shown.columns ? shown.columns.indexOf(a.field) - shown.columns.indexOf(b.field) : 0))
    .map((c) => {
      const key = c.label ?? entity.fields[c.field]?.label ?? `field.${c.field}`
      const text = messageFor(key, language)
      const column = columns.find((col) => col.name === c.field)
      const kind = cellKind(entity, c, column)
      const currency = c.currency ?? (entity.fields.currency ? 'currency' : undefined)
      return {
        field: c.field,
        header: text === key ? c.field : text,
        kind,
        ...(kind === 'money' && currency ? { currency } : {}),
        width: Math.max(10, Math.min(60, Math.round((c.width ?? 120) / 7))),
      }
    })
}

function cellKind(entity: ManifestEntity, def: ColumnDef, column: Column | undefined): CellKind {
  const field = entity.fields[def.field]
  if (def.format === 'state' || def.field === entity.states?.field) return 'label'
  if (def.format === 'enum' || field?.values?.length || field?.type === 'ref' || column?.kind === 'boolean')
    return 'label'
  if (def.format === 'date' || column?.kind === 'date') return 'date'
  if (def.format === 'datetime' || column?.kind === 'timestamptz') return 'datetime'
  if (column?.kind === 'money' || field?.type === 'money') return 'money'
  if (column?.kind === 'integer' || column?.kind === 'number') return 'number'
  return 'text'
}

/** What a cell of a row holds, in the caller's language; datetimes as wall time in the tenant's zone. */
export function cellOf(
  column: ExportColumn,
  row: ApiRow,
  entity: ManifestEntity,
  language: Language,
  timeZone: string,
): ExportCell {
  const value = row[column.field]
  const labels = (row.labels ?? {}) as Record<string, unknown>
  const label = labels[column.field]
  if (label !== undefined && label !== null && label !== '')
    return { value: Array.isArray(label) ? label.map(String).join(', ') : String(label) }
  if (value === null || value === undefined || value === '') return { value: null }
  switch (column.kind) {
    case 'label':
      return { value: labelOf(column.field, value, entity, language) }
    case 'number': {
      const number = Number(value)
      return Number.isFinite(number) ? { value: number } : { value: String(value) }
    }
    case 'money': {
      const number = Number(value)
      if (!Number.isFinite(number)) return { value: String(value) }
      const places = String(value).split('.')[1]?.length ?? 0
      const code = column.currency ? row[column.currency] : undefined
      return { value: number, numFmt: moneyFormat(places, typeof code === 'string' ? code : undefined) }
    }
    case 'date': {
      const day = String(value).slice(0, 10)
      const at = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null
      return at ? { value: at, numFmt: 'yyyy-mm-dd' } : { value: String(value) }
    }
    case 'datetime': {
      const at = value instanceof Date ? value : new Date(String(value))
      return Number.isNaN(at.getTime())
        ? { value: String(value) }
        : { value: wallTime(at, timeZone), numFmt: 'yyyy-mm-dd hh:mm' }
    }
    default:
      return { value: typeof value === 'object' ? objectText(value) : String(value) }
  }
}

/**
 * A structured value as a reader writes it: amounts per currency (a bill's totals) as `USD 3,700.00; CNY 2,520.00`
 * — one cell holds one number in one currency, so several stay text (docs/DECISIONS.md); anything else as JSON.
 */
function objectText(value: object): string {
  return amountsText(value) ?? JSON.stringify(value)
}

/** An enum value, a state or a boolean as the label the list shows. */
function labelOf(field: string, value: unknown, entity: ManifestEntity, language: Language): string {
  // Several values (a webhook's events): each as its label.
  if (Array.isArray(value)) return value.map((one) => labelOf(field, one, entity, language)).join(', ')
  if (field === entity.states?.field) {
    const state = entity.states?.values[String(value)]
    if (state) return messageFor(state.label, language)
  }
  const option = entity.fields[field]?.values?.find((v) => String(v.value) === String(value))
  if (option) return messageFor(option.label, language)
  if (typeof value === 'boolean') return messageFor(value ? 'ui.yes' : 'ui.no', language)
  return String(value)
}

/** `#,##0.00 "USD"`: the amount's own places, the currency's code after it. */
export function moneyFormat(places: number, currency: string | undefined): string {
  const digits = places > 0 ? `.${'0'.repeat(Math.min(places, 10))}` : ''
  const code = currency && /^[A-Z]{3}$/.test(currency) ? ` "${currency}"` : ''
  return `#,##0${digits}${code}`
}

/** The instant as the tenant's clock read it, stored as a zone-less spreadsheet date. */
function wallTime(at: Date, timeZone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
  return new Date(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`)
}

/** A sheet's name as Excel takes it: at most 31 characters, none of []:*?/\\ . */
export function sheetTitle(text: string): string {
  return (
    text
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet1'
  )
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * Streams the workbook to `out`: the header row, then each page `pages` yields, committed row by row. Between
 * pages it waits while `out` is full, so a slow reader holds back the reading instead of filling the memory.
 */
export async function writeSheet(
  out: Writable,
  sheetName: string,
  columns: readonly ExportColumn[],
  pages: AsyncIterable<ExportCell[][]>,
  onRows: (written: number) => void = () => {},
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
  const sheet = workbook.addWorksheet(sheetTitle(sheetName), {
    views: [{ state: 'frozen', ySplit: 1 }],
  })
  sheet.columns = columns.map((c) => ({ key: c.field, width: c.width }))
  const header = sheet.addRow(columns.map((c) => c.header))
  header.font = { bold: true }
  header.commit()
  let written = 0
  for await (const page of pages) {
    for (const cells of page) {
      const row = sheet.addRow(cells.map((c) => c.value))
      cells.forEach((cell, index) => {
        if (cell.numFmt) row.getCell(index + 1).numFmt = cell.numFmt
      })
      row.commit()
    }
    written += page.length
    onRows(written)
    // A full socket holds the next page back; a closed one (the user gave up) ends the export.
    if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')])
    if (out.destroyed) throw new Error('The export was closed before its end')
  }
  sheet.commit()
  await workbook.commit()
  return written
}
