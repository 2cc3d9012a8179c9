/**
 * Reads the first sheet of one workbook (or its first `maxSheets`, for an import with sheets of items), in a worker thread of its own (./workbook.ts starts it, with memory
 * limits and a deadline, and ends it after one file). SheetJS 0.18.5 is the last release on npm and has two
 * advisories for crafted files: prototype pollution on read (CVE-2023-30533) and a ReDoS (CVE-2024-22363).
 * Here a polluted prototype is this worker's own realm, gone with the worker, and a runaway regular expression
 * is ended by the deadline. Formulas are not evaluated (SheetJS never does; cellFormula: false drops them);
 * VBA, styles and embedded files are not read. Only plain strings, numbers, booleans and nulls go back.
 *
 * Plain JavaScript: a worker does not run through the TypeScript loader of its parent.
 */
import { createRequire } from 'node:module'
import { parentPort, workerData } from 'node:worker_threads'

const require = createRequire(import.meta.url)
const XLSX = require('xlsx')

const { bytes, maxRows, maxColumns, maxSheets = 1 } = workerData

const pad = (n, width) => String(n).padStart(width, '0')

/** A cell as plain data: dates become YYYY-MM-DD text, errors their shown text, the rest its value. */
function plain(cell) {
  if (!cell || cell.t === 'z') return null
  if (cell.t === 'n') {
    if (cell.z && XLSX.SSF.is_date(cell.z)) {
      const date = XLSX.SSF.parse_date_code(cell.v)
      if (date) return `${pad(date.y, 4)}-${pad(date.m, 2)}-${pad(date.d, 2)}`
    }
    return typeof cell.v === 'number' && Number.isFinite(cell.v) ? Number(cell.v) : null
  }
  if (cell.t === 'b') return cell.v === true
  if (cell.t === 'd') return cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : null
  if (cell.t === 'e') return String(cell.w ?? '#ERROR')
  return cell.v === undefined || cell.v === null ? null : String(cell.v)
}

/** One sheet's rows (at most the header, maxRows and one more) and how many rows it spans. */
function rowsOf(sheet) {
  const rows = []
  let rowCount = 0
  if (sheet?.['!ref']) {
    const range = XLSX.utils.decode_range(sheet['!ref'])
    // sheetRows cuts the range it reads; !fullref keeps how far the sheet really goes.
    const full = XLSX.utils.decode_range(sheet['!fullref'] ?? sheet['!ref'])
    rowCount = full.e.r + 1
    const lastColumn = Math.min(range.e.c, maxColumns - 1)
    for (let r = 0; r <= Math.min(range.e.r, maxRows + 1); r++) {
      const row = []
      for (let c = 0; c <= lastColumn; c++) row.push(plain(sheet[XLSX.utils.encode_cell({ r, c })]))
      rows.push(row)
    }
  }
  return { rows, rowCount }
}

try {
  const workbook = XLSX.read(bytes, {
    type: 'buffer',
    sheets: maxSheets === 1 ? 0 : Array.from({ length: maxSheets }, (_, i) => i),
    // The header, the rows allowed, and one more: enough to know there were too many.
    sheetRows: maxRows + 2,
    cellFormula: false,
    cellHTML: false,
    cellNF: true,
    cellStyles: false,
    cellDates: false,
    bookVBA: false,
    bookFiles: false,
    bookDeps: false,
    WTF: false,
  })
  const sheets = workbook.SheetNames.slice(0, maxSheets).map((name) => ({
    name: String(name),
    ...rowsOf(workbook.Sheets[name]),
  }))
  if (!sheets.length) sheets.push({ name: '', rows: [], rowCount: 0 })
  parentPort.postMessage({ ok: true, sheets })
} catch {
  parentPort.postMessage({ ok: false })
}
