import { sql, type Transaction } from 'kysely'
import type { FbaOrderEventView, FbaTrackResult } from '../../../generated/content.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { lastMileNumberValid } from '../../../rules/lastMile.ts'
import type { TrackingNumber } from '../../../rules/trackingNumbers.ts'
import type { DB } from '../../db/schema.ts'
import { type DerivationContext, type EffectContext, labelTarget, sharedTexts } from '../../engine/index.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, type Language } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'

/**
 * FBA order tracking (issue #26 "Tracking"). Every operator move of an order records its milestone through the
 * engine (the transitions' `creates: … repeat: true`, schemas/fbaOrder.yaml, into schemas/fbaOrderEvent.yaml);
 * this module gives those events their time (the server's clock), checks the last-mile carrier's number when
 * the cartons arrive, adds the carrier's own events (fbaLastMileEventAdd), and answers an FBA order number in a
 * tracking search (server/domain/tracking/lookup.ts): its state, fulfilment centre, ports, last-mile carrier
 * and milestones, newest first, and nothing of its prices, products, boxes or the seller's addresses.
 */

/** A milestone's time (the server's clock unless the carrier gave one), ACT (it happened), and its writer. */
export async function fbaEventTime({ call, data, at }: DerivationContext): Promise<Record<string, unknown>> {
  return {
    eventDateTime: typeof data.eventDateTime === 'string' ? data.eventDateTime : at.toISOString(),
    eventClassifierCode: 'ACT',
    createdBy: call.session.userId,
  }
}

const refusal = (field: string, message: string) => new ApiError('validation', {}, [{ field, message, params: {} }])

/** The arrive transition's carrier and number (fbaArrival): the number in the carrier's own shape. */
export async function fbaLastMileNumber({ after }: EffectContext): Promise<void> {
  const carrier = after.lastMileCarrier
  const number = after.lastMileTrackingNo
  if (typeof carrier === 'string' && typeof number === 'string' && !lastMileNumberValid(carrier, number))
    throw refusal('lastMileTrackingNo', 'fba.lastMileNumberFormat')
}

/** The DCSA codes of the last-mile carrier's milestones (the moves' are in schemas/fbaOrder.yaml). */
const LAST_MILE_CODES = {
  outForDelivery: { event_type: 'TRANSPORT', transport_event_type_code: 'DEPA' },
  lastMileDelivered: { event_type: 'EQUIPMENT', equipment_event_type_code: 'DROP' },
  signed: { event_type: 'SHIPMENT', shipment_event_type_code: 'CMPL' },
} as const

/** The states an order's cartons are in once they have arrived at the port: when the last mile runs. */
const LAST_MILE_STATES = ['arrived', 'delivered']

interface EventRow {
  id: number
  fba_order: number
  milestone: FbaOrderEventView['milestone']
  event_type: FbaOrderEventView['eventType']
  event_classifier_code: FbaOrderEventView['eventClassifierCode']
  shipment_event_type_code: FbaOrderEventView['shipmentEventTypeCode']
  transport_event_type_code: FbaOrderEventView['transportEventTypeCode']
  equipment_event_type_code: FbaOrderEventView['equipmentEventTypeCode']
  event_date_time: Date | string
  location: string | null
  un_location_code: string | null
  signed_by: string | null
  remark: string | null
}

function eventView(row: EventRow, full: boolean, ports: Map<string, string>): FbaOrderEventView {
  return {
    milestone: row.milestone,
    eventType: row.event_type,
    eventClassifierCode: row.event_classifier_code,
    shipmentEventTypeCode: row.shipment_event_type_code ?? null,
    transportEventTypeCode: row.transport_event_type_code ?? null,
    equipmentEventTypeCode: row.equipment_event_type_code ?? null,
    eventDateTime: new Date(row.event_date_time).toISOString(),
    location: row.location,
    unLocationCode: row.un_location_code,
    locationName: row.un_location_code ? (ports.get(row.un_location_code) ?? null) : null,
    signedBy: row.signed_by,
    ...(full ? { id: row.id, remark: row.remark } : {}),
  }
}

const PORTS = labelTarget(loadManifest().entities.port as ManifestEntity)

async function portNames(trx: Transaction<DB>, language: Language): Promise<Map<string, string>> {
  return PORTS ? sharedTexts(trx, PORTS, language) : new Map()
}

export const fbaTrackingHandlers = {
  /**
   * A last-mile carrier's event on the order { id }: only once its cartons have arrived and its carrier is
   * recorded, at a time not after the server's clock. Another tenant's order is not there to be found (404).
   */
  async fbaLastMileEventAdd(ctx) {
    const session = ctx.request.session
    if (!session) throw new ApiError('401')
    const input = ctx.input
    const at = now()
    if (new Date(input.eventDateTime).getTime() > at.getTime()) throw refusal('eventDateTime', 'fba.eventInFuture')
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const { rows } = await sql<{ state: string; last_mile_carrier: string | null }>`
        select state, last_mile_carrier from fba_order
        where tenant_id = ${tenantId} and id = ${input.id} for update`.execute(trx)
      const order = rows[0]
      if (!order) throw new ApiError('404')
      if (!LAST_MILE_STATES.includes(order.state)) throw refusal('milestone', 'fba.lastMileNotArrived')
      if (!order.last_mile_carrier) throw refusal('milestone', 'fba.lastMileNoCarrier')
      const codes: Record<string, string> = LAST_MILE_CODES[input.milestone]
      const { rows: added } = await sql<EventRow>`
        insert into fba_order_event (tenant_id, fba_order, milestone, event_type, event_classifier_code,
          shipment_event_type_code, transport_event_type_code, equipment_event_type_code, event_date_time,
          location, signed_by, remark, created_by)
        values (${tenantId}, ${input.id}, ${input.milestone}, ${codes.event_type}, 'ACT',
          ${codes.shipment_event_type_code ?? null}, ${codes.transport_event_type_code ?? null},
          ${codes.equipment_event_type_code ?? null}, ${input.eventDateTime}::timestamptz,
          ${input.location?.trim() || null}, ${input.milestone === 'signed' ? (input.signedBy?.trim() ?? null) : null},
          ${input.remark?.trim() || null}, ${session.userId})
        returning *`.execute(trx)
      return eventView(added[0] as EventRow, true, new Map())
    })
  },
} satisfies Handlers

/** Who asks (server/domain/tracking/lookup.ts audienceOf, which calls this module): the same shape, not imported. */
type Audience = { view: 'public' } | { view: 'full'; company: number | null }

interface OrderRow {
  id: number
  order_no: string
  state: FbaTrackResult['state']
  warehouse_code: string
  fc_city: string | null
  company: number | null
  departure_port: string | null
  arrival_port: string | null
  last_mile_carrier: FbaTrackResult['lastMileCarrier']
  last_mile_tracking_no: string | null
}

/**
 * The FBA orders each number names (its orderNo) that the audience may see, with their milestones newest
 * first: a visitor any of the tenant's, an enterprise user only their company's, as sea shipments. In the
 * caller's tenant transaction, so another tenant's orders are not there to be found.
 */
export async function trackFbaOrders(
  trx: Transaction<DB>,
  tenantId: number,
  numbers: TrackingNumber[],
  audience: Audience,
  language: Language,
): Promise<FbaTrackResult[][]> {
  const references = numbers.filter((n) => n.kind === 'reference').map((n) => n.number)
  if (!references.length) return numbers.map(() => [])
  const company = audience.view === 'full' ? audience.company : null
  const { rows: orders } = await sql<OrderRow>`
    select o.id, o.order_no, o.state, o.warehouse_code, fc.city as fc_city, o.company, o.departure_port,
      o.arrival_port, o.last_mile_carrier, o.last_mile_tracking_no
    from fba_order o left join ref_amazon_fc fc on fc.code = o.warehouse_code
    where o.tenant_id = ${tenantId} and o.order_no in (${sql.join(references)})
      ${company !== null ? sql`and o.company = ${company}` : sql``}`.execute(trx)
  if (!orders.length) return numbers.map(() => [])
  const { rows: events } = await sql<EventRow>`
    select * from fba_order_event
    where tenant_id = ${tenantId} and fba_order in (${sql.join(orders.map((o) => o.id))})
    order by event_date_time desc, id desc`.execute(trx)
  const ports = await portNames(trx, language)
  const full = audience.view === 'full'
  const answer = (o: OrderRow): FbaTrackResult => ({
    view: audience.view,
    orderNo: o.order_no,
    state: o.state,
    warehouseCode: o.warehouse_code,
    fcCity: o.fc_city,
    departurePort: o.departure_port,
    departurePortName: o.departure_port ? (ports.get(o.departure_port) ?? null) : null,
    arrivalPort: o.arrival_port,
    arrivalPortName: o.arrival_port ? (ports.get(o.arrival_port) ?? null) : null,
    lastMileCarrier: o.last_mile_carrier,
    lastMileTrackingNo: o.last_mile_tracking_no,
    events: events.filter((e) => e.fba_order === o.id).map((e) => eventView(e, full, ports)),
  })
  return numbers.map((n) => orders.filter((o) => n.kind === 'reference' && o.order_no === n.number).map(answer))
}
