import type { Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { nextFixedNo } from '../orders/numbering.ts'

/** The letters of a line of business in a job number: E export, I import by sea; AE, AI by air; R rail, T truck. */
const LOB_CODES: Record<string, string> = {
  seaExport: 'E',
  seaImport: 'I',
  airExport: 'AE',
  airImport: 'AI',
  railway: 'R',
  truck: 'T',
}

/**
 * A job file's number (`numbering: jobNo`, schemas/operatingOrder.yaml) when the operator gives none, as a
 * forwarder's desk writes them: the port of loading's location (SHA of CNSHA), the line of business, the month
 * and a four-digit sequence restarting monthly — SHAE26120001. The rule is fixed, drawn from the tenant's
 * order-number counters (one per prefix and month) like inquiry and quote numbers.
 */
export function nextJobNo(
  trx: Transaction<DB>,
  tenantId: number,
  record: Record<string, unknown>,
  at: Date,
): Promise<string> {
  const port = typeof record.pol === 'string' ? record.pol.slice(2).replace(/[^A-Za-z0-9]/g, '') : ''
  const prefix = `${port}${LOB_CODES[String(record.lob)] ?? ''}`.toUpperCase()
  return nextFixedNo(trx, tenantId, { prefix, datePattern: 'YYMM', sequenceLength: 4, reset: 'monthly' }, at)
}
