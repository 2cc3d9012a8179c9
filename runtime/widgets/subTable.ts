/**
 * The pure half of the sub-table (an array of objects drawn as an editable table, SubTable.tsx): pages
 * of rows and where the validation errors are, so each page's button can carry a badge.
 */

export const SUB_TABLE_PAGE_SIZE = 10

export function pageCountOf(rows: number, pageSize = SUB_TABLE_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(rows / pageSize))
}

/** The indexes of the rows on a (1-based) page. */
export function rowsOnPage(rows: number, page: number, pageSize = SUB_TABLE_PAGE_SIZE): number[] {
  const start = (page - 1) * pageSize
  return Array.from({ length: Math.max(0, Math.min(pageSize, rows - start)) }, (_, i) => start + i)
}

type ErrorNode = { __errors?: unknown[]; [key: string]: unknown }

/** How many messages an rjsf error schema node holds, its children included. */
export function errorCount(node: unknown): number {
  if (!node || typeof node !== 'object') return 0
  let count = 0
  for (const [key, value] of Object.entries(node as ErrorNode)) {
    if (key === '__errors') count += Array.isArray(value) ? value.length : 0
    else count += errorCount(value)
  }
  return count
}

/** Messages per page (1-based index into the result: [0] is page 1) from the array's error schema. */
export function errorsByPage(errorSchema: unknown, rows: number, pageSize = SUB_TABLE_PAGE_SIZE): number[] {
  const pages = new Array<number>(pageCountOf(rows, pageSize)).fill(0)
  if (!errorSchema || typeof errorSchema !== 'object') return pages
  for (const [key, value] of Object.entries(errorSchema as ErrorNode)) {
    if (!/^\d+$/.test(key)) continue
    const index = Number(key)
    if (index >= rows) continue
    const page = Math.floor(index / pageSize)
    pages[page] = (pages[page] ?? 0) + errorCount(value)
  }
  return pages
}

/** The page to show: the one asked for, kept inside the pages there are. */
export function clampPage(page: number, rows: number, pageSize = SUB_TABLE_PAGE_SIZE): number {
  return Math.min(Math.max(1, page), pageCountOf(rows, pageSize))
}

/** The row-number column and the remove-button column of a sub-table, in px. */
export const ROW_NUMBER_WIDTH = 48
export const ROW_ACTIONS_WIDTH = 72
/** A column whose widget needs no more than a short text box. */
const PLAIN_WIDTH = 120

/**
 * The least width (px) a sub-table column needs for its widget to show a whole value inside its cell:
 * a look-up's "45G1 — 40'HQ" or "CNSHA — Shanghai" with its clear and open buttons, a date with its
 * picker, a gross weight's digits with the spinner. Read by widget name (the cell's `ui:widget`).
 */
export const COLUMN_WIDTHS: Readonly<Record<string, number>> = {
  portSelect: 210,
  airportSelect: 210,
  carrierSelect: 210,
  countrySelect: 190,
  containerTypeSelect: 190,
  currencySelect: 170,
  ReferenceWidget: 210,
  select: 140,
  date: 160,
  datetime: 210,
  money: 120,
  number: 96,
  checkbox: 64,
  text: 150,
  textBlock: 260,
}

export function columnWidth(widget: string | undefined): number {
  return (widget !== undefined && COLUMN_WIDTHS[widget]) || PLAIN_WIDTH
}

/**
 * The sub-table's columns (the row number, one per item field, the actions when rows can be removed)
 * and the least width of the whole table: below it the table scrolls sideways inside the form rather
 * than squeezing a cell narrower than its input, which then spills into the next one.
 */
export function subTableWidths(
  widgets: readonly (string | undefined)[],
  editable: boolean,
): { columns: number[]; table: number } {
  const columns = widgets.map(columnWidth)
  const table = ROW_NUMBER_WIDTH + columns.reduce((sum, width) => sum + width, 0) + (editable ? ROW_ACTIONS_WIDTH : 0)
  return { columns, table }
}
