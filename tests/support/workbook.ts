import { createRequire } from 'node:module'
import type { ImportContent } from '../../server/engine/import/run.ts'

/**
 * Files the import and upload tests send: real workbooks, built with the library the server reads them with
 * (server/engine/import/), and the multipart body a browser sends them in; the answer of the engine's import.
 */

export const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx')

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

export type Cell = string | number | boolean | null

/** A workbook of one sheet named `sheet`, the rows as given (the first the header), as xlsx or as xls (biff8). */
export function workbook(rows: Cell[][], sheet: string, bookType: 'xlsx' | 'biff8' = 'xlsx'): Buffer {
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), sheet)
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer
}

/** The FCL rate import's columns as an operator writes them: field names as headers, one container column by ISO code. */
export const FCL_RATE_HEADER: Cell[] = [
  'rateNo',
  'mode',
  'carrier',
  'pol',
  'pod',
  'validFrom',
  'validTo',
  'currency',
  'chargeUnit',
  'transitDays',
  '45G1',
]

/** An FCL rate of FCL_RATE_HEADER's columns: Shanghai → Los Angeles in US dollars a 45' container, 16 days. */
export const fclRate = (rateNo: string, carrier: string, price: Cell, validFrom: string, validTo: string): Cell[] => [
  rateNo,
  'FCL',
  carrier,
  'CNSHA',
  'USLAX',
  validFrom,
  validTo,
  'USD',
  'container',
  16,
  price,
]

/** A rate import's workbook of FCL rates (fclRate's rows), under FCL_RATE_HEADER. */
export const fclRates = (rows: Cell[][]): Buffer => workbook([FCL_RATE_HEADER, ...rows], 'rates')

/** One file in a multipart/form-data body, as the field `file`: the payload and its content-type header. */
export function multipart(name: string, bytes: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----waybill${Math.random().toString(16).slice(2)}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** A refused cell of an import (its row, column, header, field, rule and message), as the server answers it. */
export type ImportProblem = ImportContent['problems'][number]

/** The engine's answer to an import: how many rows were stored, or every problem and none stored. */
export interface ImportEnvelope {
  code: string
  message: string
  content: ImportContent & { fieldErrors?: { key: string; message: string }[] }
}
