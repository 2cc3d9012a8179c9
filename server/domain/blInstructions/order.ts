import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The order a B/L instruction belongs to (schemas/blInstruction.yaml `effects.beforeWrite`): on create, a
 * confirmed FCL order — accepted or booked — that the caller sees (an enterprise user their company's, an
 * operator the tenant's); the instruction takes the order's customer. On update the order never changes.
 * Anything else answers as a validation failure of the order field, so another tenant's or company's order
 * reads exactly like one that does not exist.
 */

/** SPEC §6: company user type 1 is the provider side. */
const PROVIDER = 1
const CONFIRMED = ['accepted', 'booked']

const refused = (message: string) => new ApiError('validation', {}, [{ field: 'order', message, params: {} }])

export async function blInstructionOrder(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, call, data, before } = context
  if (before) {
    if (data.order !== before.order) throw refused('bl.orderFixed')
    return {}
  }
  const { rows } = await sql<{ customer_company: number | null; container_load_type: string; state: string }>`
    select customer_company, container_load_type, state from booking_order
    where tenant_id = ${call.tenantId} and id = ${data.order}`.execute(trx)
  const order = rows[0]
  const session = call.session
  const sees =
    !!order &&
    (session.companyUserType === PROVIDER ||
      (session.companyId !== null && order.customer_company === session.companyId))
  if (!order || !sees || order.container_load_type !== 'FCL' || !CONFIRMED.includes(order.state))
    throw refused('bl.orderNotFclConfirmed')
  return { customerCompany: order.customer_company }
}
