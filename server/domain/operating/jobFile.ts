import { sql } from 'kysely'
import type { DerivationContext, EffectContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/** The order states a job file may be opened for: confirmed, booked (SPEC §4). */
const CONFIRMED = ['accepted', 'booked']

const refused = (field: string, message: string) => new ApiError('validation', {}, [{ field, message, params: {} }])

/**
 * The operating order's customer is its order's (so the customer's company sees it, dataScope.company), and
 * only a confirmed order gets a job file; the order never changes once the job is opened.
 */
export async function operatingOrderFromOrder(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, call, data, before } = context
  const orderId = Number(data.order)
  if (before && Number(before.order) !== orderId) throw refused('order', 'operating.orderFixed')
  const { rows } = await sql<{ state: string; customer_company: number | null }>`
    select state, customer_company from booking_order where tenant_id = ${call.tenantId} and id = ${orderId}`.execute(
    trx,
  )
  const order = rows[0]
  if (!order) throw refused('order', 'operating.orderNotFound')
  if (!before && !CONFIRMED.includes(order.state)) throw refused('order', 'operating.orderNotConfirmed')
  return { customerCompany: order.customer_company }
}

const usagesOf = (value: unknown) => (Array.isArray(value) ? value : [])

/**
 * A change of an operating order's usages, whichever call made it (the edit form or cargo/job/updateUsages),
 * is kept as a job_usage_history row in the same transaction: the rows are only ever added, never changed.
 */
export async function jobUsageHistory(context: EffectContext): Promise<void> {
  const { trx, call, before, after } = context
  const previous = usagesOf(before?.usages)
  const usages = usagesOf(after.usages)
  if (JSON.stringify(previous) === JSON.stringify(usages)) return
  await sql`
    insert into job_usage_history (tenant_id, created_by, job, usages, previous, customer_company)
    values (${call.tenantId}, ${call.session.userId}, ${Number(after.id)}, ${JSON.stringify(usages)}::jsonb,
      ${JSON.stringify(previous)}::jsonb, ${(after.customerCompany as number | null) ?? null})`.execute(trx)
}
