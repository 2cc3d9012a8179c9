import type { EffectContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { recordTrackingEvents } from '../tracking/record.ts'
import { dayStart } from '../tracking/view.ts'

/**
 * What an order needs before the provider confirms it, by its load type (SPEC §7 order/{mode}/comfirm).
 * The accept transition checks these whichever call fires it, so the confirmation paths and the detail
 * screen's Accept are held to the same rules.
 */
export const CONFIRM_NEEDS: Record<string, readonly string[]> = {
  FCL: ['carrier', 'containers', 'etd'],
  LCL: ['etd', 'boxes', 'grossWeight', 'volume'],
  AIR: ['etd', 'boxes', 'grossWeight'],
  RAILWAY: ['etd', 'containers'],
  TRUCK: ['etd'],
}

const empty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)

export function checkConfirmable(order: Record<string, unknown>): void {
  const needs = CONFIRM_NEEDS[String(order.containerLoadType)] ?? []
  const missing = needs.filter((field) => empty(order[field]))
  if (missing.length)
    throw new ApiError(
      'validation',
      {},
      missing.map((field) => ({ field, message: 'rule.confirmNeeds', params: {} })),
    )
}

/**
 * The confirmed order's shipment (schemas/shipment.yaml) with its first tracking event, a booking
 * confirmation (DCSA SHIPMENT CONF of the booking, at the port of loading), so the tracking calls find it
 * by order number. Runs in the accept transition's transaction: a refused check undoes the acceptance.
 */
export async function createShipment(context: EffectContext): Promise<void> {
  const { trx, call, after: order, at } = context
  checkConfirmable(order)
  const existing = await trx
    .selectFrom('shipment')
    .select('id')
    .where('tenant_id', '=', call.tenantId)
    .where('booking_order', '=', order.id as number)
    .executeTakeFirst()
  // Accepted again after a send-back: the order keeps its one shipment.
  if (existing) return
  const shipment = await trx
    .insertInto('shipment')
    .values({
      tenant_id: call.tenantId,
      created_by: call.session.userId,
      booking_order: order.id as number,
      transport_mode: Number(order.transportMode),
      // Container numbers come with the carrier's release; the order number finds it until then.
      containers: JSON.stringify([]),
      carrier: (order.carrier as string | null) ?? null,
      vessel: (order.vessel as string | null) ?? null,
      voyage: (order.voyage as string | null) ?? null,
      pol: order.pol as string,
      pod: order.pod as string,
      // The order's days at midnight UTC; tracking answers them as days while they stand (scheduleTime).
      etd: order.etd ? dayStart(String(order.etd)) : null,
      eta: order.eta ? dayStart(String(order.eta)) : null,
      cancelled: false,
      customer_company: (order.customerCompany as number | null) ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await recordTrackingEvents(
    trx,
    call.tenantId,
    [
      {
        shipment: shipment.id,
        eventType: 'SHIPMENT',
        eventClassifierCode: 'ACT',
        eventDateTime: at,
        shipmentEventTypeCode: 'CONF',
        documentTypeCode: 'BKG',
        unLocationCode: order.pol as string,
      },
    ],
    { userId: call.session.userId, at },
  )
}
