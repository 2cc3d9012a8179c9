import { sql } from 'kysely'
import { minorUnits } from '../../../rules/currencies.ts'
import { format, scaled } from '../../../rules/pricing.ts'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import type { BillLine, BillTotal } from './figures.ts'

/**
 * An invoice is issued for a confirmed bill in one of its currencies (schemas/invoice.yaml): the bill's MBL, job
 * number and customer are copied, the amount is the bill's total in that currency and the tax the sum of its lines'
 * tax in it — the invoice says what the bill says, never a figure typed again.
 */
export async function invoiceFromBill({
  trx,
  call,
  data,
  before,
}: DerivationContext): Promise<Record<string, unknown>> {
  const billId = Number(data.bill ?? before?.bill)
  const { rows } = await sql<{
    state: string
    mbl: string | null
    job_no: string | null
    customer_company: number | null
    lines: BillLine[]
    totals: BillTotal[]
  }>`
    select state, mbl, job_no, customer_company, lines, totals from bill
    where tenant_id = ${call.tenantId} and id = ${billId}`.execute(trx)
  const bill = rows[0]
  if (bill?.state !== 'confirmed')
    throw new ApiError('validation', {}, [{ field: 'bill', message: 'invoice.billNotConfirmed', params: {} }])
  const currency = String(data.currency ?? before?.currency)
  const total = (bill.totals ?? []).find((t) => t.currency === currency)
  if (!total)
    throw new ApiError('validation', {}, [{ field: 'currency', message: 'finance.currencyNotOnBill', params: {} }])
  const tax = (bill.lines ?? [])
    .filter((line) => line.currency === currency)
    .reduce((sum, line) => sum + scaled(line.tax ?? '0'), 0n)
  return {
    amount: total.amount,
    tax: format(tax, minorUnits(currency)),
    mbl: bill.mbl,
    jobNo: bill.job_no,
    customerCompany: bill.customer_company,
  }
}
