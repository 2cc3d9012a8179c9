import { sql } from 'kysely'
import { DEFAULT_TIME_ZONE } from '../../../rules/calendar.ts'
import type { EngineRegistry } from '../../engine/index.ts'
import { now } from '../../tenancy/clock.ts'
import { nextDocumentNo } from '../orders/numbering.ts'
import { billFromOrder } from './bills.ts'
import { invoiceFromBill } from './invoices.ts'
import { billPaid, paymentAgainstBill } from './payments.ts'

/** The open amount of a bill's total in its currency's minor units, for the rows of the ageing view. */
const OPEN = sql`(t.value ->> 'open')::numeric`

/**
 * Bills and their settlement (schemas/bill.yaml, billPayment.yaml, billAgeing.yaml): bill numbers, what is worked
 * out of the order, payments held to the open amount, and the ageing view the finance screens list.
 */
export function register(engine: EngineRegistry): void {
  /** The tenant's bill numbers: its bill rule (/OrderNoManagement), else BILL + the tenant's day + a daily sequence. */
  engine.numbering('billingNo', (trx, tenantId, _record, at) => nextDocumentNo(trx, tenantId, 'bill', 'BILL', at))
  engine.derivation('billFromOrder', billFromOrder)
  /** Invoice numbers: the tenant's invoice rule, else INV + the tenant's day + a daily sequence (INV2612310001). */
  engine.numbering('invoiceNo', (trx, tenantId, _record, at) => nextDocumentNo(trx, tenantId, 'invoice', 'INV', at))
  engine.derivation('invoiceFromBill', invoiceFromBill)
  engine.derivation('paymentAgainstBill', paymentAgainstBill)
  engine.effect('billPaid', billPaid)
  /**
   * One row per customer, billing type and currency of the confirmed bills: totals, paid, open and the open
   * amount by age — the tenant's today less the bill's input date, 0–30, 31–60, 61–90, over 90 days — rounded to
   * the currency's minor units (ref_currency). Its id is its rank in that order.
   */
  engine.view('billAgeing', ({ trx, call }) => {
    // The tenant's day on the server's clock (never the database's or the machine's), in its time zone.
    const today = sql`(${now()}::timestamptz at time zone coalesce(
      (select settings ->> 'timeZone' from tenant where id = ${call.tenantId}), ${DEFAULT_TIME_ZONE}))::date`
    const age = sql`(${today} - b.input_date)`
    const bucket = (low: number, high: number | null) =>
      sql`round(sum(case when ${age} >= ${low} ${high === null ? sql`` : sql`and ${age} <= ${high}`} then ${OPEN} else 0 end), min(c.minor_units))`
    return trx
      .selectFrom(sql`bill`.as('b'))
      .innerJoin(sql`lateral jsonb_array_elements(b.totals)`.as('t'), (join) => join.onTrue())
      .innerJoin(sql`ref_currency`.as('c'), (join) => join.on(sql`c.code`, '=', sql`t.value ->> 'currency'`))
      .select([
        sql<number>`b.tenant_id`.as('tenant_id'),
        sql<number>`(row_number() over (order by b.customer_company, b.billing_type, t.value ->> 'currency'))::int`.as(
          'id',
        ),
        sql<number>`1`.as('version'),
        sql<Date>`min(b.created_at)`.as('created_at'),
        sql<Date>`max(b.updated_at)`.as('updated_at'),
        sql<number | null>`null::integer`.as('created_by'),
        sql<number | null>`b.customer_company`.as('customer_company'),
        sql<string>`b.billing_type`.as('billing_type'),
        sql<string>`t.value ->> 'currency'`.as('currency'),
        sql<number>`count(*)::int`.as('bills'),
        sql<string>`round(sum((t.value ->> 'amount')::numeric), min(c.minor_units))`.as('total'),
        sql<string>`round(sum((t.value ->> 'paid')::numeric), min(c.minor_units))`.as('paid'),
        sql<string>`round(sum(${OPEN}), min(c.minor_units))`.as('open'),
        bucket(0, 30).as('days0to30'),
        bucket(31, 60).as('days31to60'),
        bucket(61, 90).as('days61to90'),
        bucket(91, null).as('days_over90'),
      ])
      .where(sql`b.tenant_id`, '=', call.tenantId)
      .where(sql`b.state`, '=', 'confirmed')
      .groupBy([sql`b.tenant_id`, sql`b.customer_company`, sql`b.billing_type`, sql`t.value ->> 'currency'`]) as never
  })
}
