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
