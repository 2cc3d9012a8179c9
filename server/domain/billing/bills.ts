import { sql } from 'kysely'
import { currencyDecimals } from '../../../rules/keywords.ts'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { type BillLine, type BillTotal, billTotals, pricedLine } from './figures.ts'

/** An order is billed once it is confirmed (accepted, or booked with the carrier). */
const BILLABLE = ['accepted', 'booked']

interface OrderRow {
  state: string
  customer_company: number | null
  mbl: string | null
  hbl: string | null
  job_no: string | null
  pol: string | null
  pod: string | null
}

interface ChargeRow {
  charge_name: string
  unit: string
  quantity: string
  unit_price: string
  currency: string
}

const refuse = (field: string, message: string): never => {
  throw new ApiError('validation', {}, [{ field, message, params: {} }])
}

/**
 * What the server works out of a bill before it is written (schemas/bill.yaml `effects.beforeWrite`): the order
 * must be the tenant's and confirmed; its customer, MBL, HBL, job number and port (the port of loading for a
 * receivable bill, of discharge for a payable one — where the charges were incurred, ours) are copied; lines not
 * given are the order's charge lines (schemas/orderCharge.yaml); each line gets its tax and amount and the bill its
 * totals per currency, keeping what was already paid.
 */
export async function billFromOrder({
  trx,
  call,
  before,
  data,
  at,
}: DerivationContext): Promise<Record<string, unknown>> {
  const orderId = Number(data.order ?? before?.order)
  const { rows } = await sql<OrderRow>`
    select state, customer_company, mbl, hbl, job_no, pol, pod from booking_order
    where tenant_id = ${call.tenantId} and id = ${orderId}`.execute(trx)
  const order = rows[0]
  if (!order || !BILLABLE.includes(order.state)) return refuse('order', 'bill.orderNotConfirmed')
  let lines = (Array.isArray(data.lines) ? data.lines : []) as BillLine[]
  if (!lines.length) {
    const charges = await sql<ChargeRow>`
      select charge_name, unit, quantity::text as quantity, unit_price::text as unit_price, currency from order_charge
      where tenant_id = ${call.tenantId} and "order" = ${orderId} order by id`.execute(trx)
    lines = charges.rows.map((charge) => ({
      chargeName: charge.charge_name,
      unit: charge.unit,
      quantity: Number(charge.quantity),
      unitPrice: charge.unit_price,
      currency: charge.currency,
      taxRate: 0,
    }))
  }
  if (!lines.length) return refuse('lines', 'bill.noCharges')
  // The lines taken from the order's charges are held to their currency's decimals as typed ones are.
  if (!currencyDecimals({ lines }, { field: 'lines', item: 'unitPrice', currency: 'currency' }))
    return refuse('lines', 'bill.currencyDecimals')
  const priced = lines.map(pricedLine)
  const paid = new Map(((before?.totals ?? []) as BillTotal[]).map((total) => [total.currency, total.paid]))
  const type = data.billingType ?? before?.billingType
  return {
    customerCompany: order.customer_company,
    mbl: order.mbl,
    hbl: order.hbl,
    jobNo: order.job_no,
    port: type === 'payable' ? order.pod : order.pol,
    inputDate: data.inputDate ?? before?.inputDate ?? (await tenantDay(trx, call.tenantId, at)),
    lines: priced,
    totals: billTotals(priced, paid),
  }
}
