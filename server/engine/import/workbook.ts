import { Worker } from 'node:worker_threads'
import { IMPORT_LIMITS } from '../../../rules/fileLimits.ts'

/**
 * What an import reads: the first sheet of an xls or xlsx workbook, as rows of plain cells. Whether the
 * bytes are a workbook is decided from the bytes — an OLE2 compound file (xls) or a ZIP holding
 * xl/workbook.xml (xlsx) — whatever the file's name says; the parsing runs in a worker (./sheetWorker.js).
 */

export type Cell = string | number | boolean | null

export interface Sheet {
  /** Rows from the sheet's first row (index 0 is Excel's row 1), at most the header and maxRows + 1. */
  rows: Cell[][]
  /** How many rows the sheet spans, read or not. */
  rowCount: number
}

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const ZIP = [0x50, 0x4b, 0x03, 0x04]

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b)

/**
 * 'xls', 'xlsx' or null. A ZIP's central directory (at its end) names every member uncompressed, so an
 * xlsx always carries the text xl/workbook.xml; a docx or a plain ZIP does not.
 */
export function spreadsheetKind(bytes: Uint8Array): 'xls' | 'xlsx' | null {
  if (startsWith(bytes, OLE2)) return 'xls'
  if (startsWith(bytes, ZIP) && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes('xl/workbook.xml'))
    return 'xlsx'
  return null
}

/** How long one file may take to read, and how much memory its worker may use. */
export const READ_DEADLINE_MS = 20_000
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 384, maxYoungGenerationSizeMb: 48, stackSizeMb: 4 }

const isCell = (value: unknown): value is Cell =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value)

/** A sheet with the name its workbook gives it (an import with sheets of items finds them by name). */
export interface NamedSheet extends Sheet {
  name: string
}

type Limits = { maxRows: number; maxColumns: number; maxSheets?: number }

/**
 * At most this many workbooks are read at once, each in its own worker with the memory limits above: imports
 * that arrive together wait their turn instead of multiplying the memory the server needs.
 */
export const MAX_READERS = 2
let reading = 0
const queue: (() => void)[] = []

async function readerTurn(): Promise<() => void> {
  if (reading >= MAX_READERS) await new Promise<void>((ready) => queue.push(ready))
  else reading++
  return () => {
    const next = queue.shift()
    if (next) next()
    else reading--
  }
}

/**
 * Reads the first sheet in a fresh worker. Resolves null when the workbook cannot be read (damaged, not
 * what its signature says, too big for the worker's memory, or over the deadline).
 */
export async function readFirstSheet(bytes: Uint8Array, limits: Limits = IMPORT_LIMITS): Promise<Sheet | null> {
  const sheets = await readSheets(bytes, { ...limits, maxSheets: 1 })
  const first = sheets?.[0]
  return first ? { rows: first.rows, rowCount: first.rowCount } : null
}

/** Reads the workbook's first `maxSheets` sheets (each bounded as the first is) in a fresh worker. */
export async function readSheets(bytes: Uint8Array, limits: Limits = IMPORT_LIMITS): Promise<NamedSheet[] | null> {
  const done = await readerTurn()
  try {
    return await readInWorker(bytes, limits)
  } finally {
    done()
  }
}

function readInWorker(bytes: Uint8Array, limits: Limits): Promise<NamedSheet[] | null> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./sheetWorker.js', import.meta.url), {
      workerData: { bytes, maxRows: limits.maxRows, maxColumns: limits.maxColumns, maxSheets: limits.maxSheets ?? 1 },
      resourceLimits: RESOURCE_LIMITS,
      // Nothing of the parent's: no loader flags, no environment.
      execArgv: [],
      env: {},
      stdout: true,
      stderr: true,
    })
    let settled = false
    const finish = (sheets: NamedSheet[] | null) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      void worker.terminate()
      resolve(sheets)
    }
    const deadline = setTimeout(() => finish(null), READ_DEADLINE_MS)
    worker.once('message', (message: unknown) => finish(copyOut(message, limits)))
    worker.once('error', () => finish(null))
    worker.once('exit', () => finish(null))
  })
}

/** The worker's answer, checked and rebuilt from plain values only (nothing of its objects is kept). */
function copyOut(message: unknown, limits: Limits): NamedSheet[] | null {
  if (!message || typeof message !== 'object') return null
  const { ok, sheets } = message as { ok?: unknown; sheets?: unknown }
  if (ok !== true || !Array.isArray(sheets) || !sheets.length || sheets.length > (limits.maxSheets ?? 1)) return null
  const out: NamedSheet[] = []
  for (const sheet of sheets) {
    const copied = copySheet(sheet, limits)
    if (!copied) return null
    out.push(copied)
  }
  return out
}

function copySheet(message: unknown, limits: Limits): NamedSheet | null {
  if (!message || typeof message !== 'object') return null
  const { name, rows, rowCount } = message as { name?: unknown; rows?: unknown; rowCount?: unknown }
  if (typeof name !== 'string' || !Array.isArray(rows) || !Number.isInteger(rowCount)) return null
  if (rows.length > limits.maxRows + 2) return null
  const out: Cell[][] = []
  for (const row of rows) {
    if (!Array.isArray(row) || row.length > limits.maxColumns) return null
    const cells: Cell[] = []
    for (const cell of row) {
      if (!isCell(cell)) return null
      cells.push(cell)
    }
    out.push(cells)
  }
  return { name: name.slice(0, 31), rows: out, rowCount: rowCount as number }
}
