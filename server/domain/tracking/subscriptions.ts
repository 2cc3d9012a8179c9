import { type Selectable, type SqlBool, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { type DerivationContext, scopeConditions } from '../../engine/index.ts'
import { ApiError, type Language, messageFor } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'
import { tenantTimeZone } from '../../tenancy/clock.ts'
import { CHANNELS, type Channel, notifyEvent } from '../letters/events.ts'

/**
 * Shipment subscriptions (schemas/shipmentSubscription.yaml, issue #22): which subscriptions an event
 * concerns and telling their subscribers, once per (subscription, event), through the letters machinery
 * (letters/events.ts `shipmentEvent`). Called by ./record.ts in the transaction that writes the events.
 */

type StoredTrackingEvent = Selectable<DB['tracking_event']>
type EventType = StoredTrackingEvent['event_type']

export interface SubscriptionRow {
  id: number
  order: number
  container_no: string | null
  event_types: EventType[]
  event_codes: string[]
  channels: Channel[]
  created_by: number
}

/** The event's own DCSA code (the one of its type), or null. */
export function codeOf(
  event: Pick<
    StoredTrackingEvent,
    'event_type' | 'shipment_event_type_code' | 'transport_event_type_code' | 'equipment_event_type_code'
  >,
): string | null {
  if (event.event_type === 'SHIPMENT') return event.shipment_event_type_code
  if (event.event_type === 'TRANSPORT') return event.transport_event_type_code
  return event.equipment_event_type_code
}

const CODE_FIELDS: Record<EventType, string> = {
  SHIPMENT: 'shipmentEventTypeCode',
  TRANSPORT: 'transportEventTypeCode',
  EQUIPMENT: 'equipmentEventTypeCode',
}

let codeTypes: Map<string, EventType> | undefined
/** Each DCSA event type code and the type it belongs to, as schemas/trackingEvent.yaml lists them. */
export function typeOfCode(code: string): EventType | undefined {
  if (!codeTypes) {
    const fields = loadManifest().entities.trackingEvent?.fields ?? {}
    codeTypes = new Map()
    for (const [type, field] of Object.entries(CODE_FIELDS) as [EventType, string][])
      for (const value of fields[field]?.values ?? []) codeTypes.set(String(value.value), type)
  }
  return codeTypes.get(code)
}

/**
 * Whether a subscription follows an event: one of its types; with codes, a type some of them belong to is
 * narrowed to those codes (a type none belongs to is followed whole); with a container, only that
 * container's equipment events and the events of no container (the vessel's, the documents').
 */
export function follows(subscription: SubscriptionRow, event: StoredTrackingEvent): boolean {
  if (!subscription.event_types.includes(event.event_type)) return false
  const narrowing = subscription.event_codes.filter((code) => typeOfCode(code) === event.event_type)
  if (narrowing.length && !narrowing.includes(codeOf(event) ?? '')) return false
  if (subscription.container_no && event.equipment_reference && event.equipment_reference !== subscription.container_no)
    return false
  return true
}

/** Pairs per claiming statement: three parameters each, well inside PostgreSQL's 65,535. */
const CLAIM_CHUNK = 5000

interface OrderRow {
  id: number
  order_no: string | null
  transport_mode: number | null
  container_load_type: string | null
}

/**
 * Tells each active subscription of the events' orders about each event it follows, once: the pair is
 * claimed in shipment_notice (migration 0025) first, and only a pair this call claimed is told. Returns the
 * pairs told.
 */
export async function notifySubscribers(
  trx: Transaction<DB>,
  tenantId: number,
  events: readonly StoredTrackingEvent[],
  actor: number | null,
): Promise<{ subscription: number; event: number }[]> {
  if (!events.length) return []
  const shipmentIds = [...new Set(events.map((e) => e.shipment))]
  const shipments = await trx
    .selectFrom('shipment')
    .select(['id', 'booking_order'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', shipmentIds)
    .where('booking_order', 'is not', null)
    .execute()
  const orderOf = new Map(shipments.map((s) => [s.id, s.booking_order as number]))
  const orderIds = [...new Set(orderOf.values())]
  if (!orderIds.length) return []
  const { rows: subscriptions } = await sql<SubscriptionRow>`
    select id, "order", container_no, event_types, coalesce(event_codes, '[]'::jsonb) as event_codes, channels, created_by
    from shipment_subscription
    where tenant_id = ${tenantId} and status = 'active' and "order" = any(${orderIds}::int[]) and created_by is not null
    order by id`.execute(trx)
  if (!subscriptions.length) return []

  const pairs: { subscription: SubscriptionRow; event: StoredTrackingEvent }[] = []
  for (const event of events)
    for (const subscription of subscriptions)
      if (subscription.order === orderOf.get(event.shipment) && follows(subscription, event))
        pairs.push({ subscription, event })
  if (!pairs.length) return []

  // Claim the pairs: a retry, another writer or a second import of the same event finds them taken.
  const claimed: { subscription: number; event: number }[] = []
  for (let start = 0; start < pairs.length; start += CLAIM_CHUNK)
    claimed.push(
      ...(await trx
        .insertInto('shipment_notice')
        .values(
          pairs
            .slice(start, start + CLAIM_CHUNK)
            .map((p) => ({ tenant_id: tenantId, subscription: p.subscription.id, event: p.event.id })),
        )
        .onConflict((oc) => oc.doNothing())
        .returning(['subscription', 'event'])
        .execute()),
    )
  const taken = new Set(claimed.map((c) => `${c.subscription}:${c.event}`))
  const told = pairs.filter((p) => taken.has(`${p.subscription.id}:${p.event.id}`))
  if (!told.length) return []

  const { rows: orders } = await sql<OrderRow>`
    select id, order_no, transport_mode, container_load_type from booking_order
    where tenant_id = ${tenantId} and id = any(${[...new Set(told.map((p) => p.subscription.order))]}::int[])`.execute(
    trx,
  )
  const orderById = new Map(orders.map((o) => [o.id, o]))
  const timeZone = await tenantTimeZone(trx, tenantId)
  for (const { subscription, event } of told) {
    const order = orderById.get(subscription.order)
    if (!order) continue
    const chosen = Object.fromEntries(CHANNELS.map((c) => [c, subscription.channels.includes(c)])) as Record<
      Channel,
      boolean
    >
    await notifyEvent(trx, 'shipmentEvent', {
      tenantId,
      record: {
        id: order.id,
        orderNo: order.order_no,
        transportMode: order.transport_mode,
        containerLoadType: order.container_load_type,
        subscriber: subscription.created_by,
      },
      ...(actor === null ? {} : { actor }),
      channels: chosen,
      ...(event.corrects_event === null ? {} : { text: 'shipmentEventCorrection' }),
      params: (language) => eventTexts(event, language, timeZone),
    })
  }
  return told.map((p) => ({ subscription: p.subscription.id, event: p.event.id }))
}

/** The event, its place, time and container, as a letter names them in the reader's language. */
function eventTexts(event: StoredTrackingEvent, language: Language, timeZone: string): Record<string, unknown> {
  const code = codeOf(event)
  const codeKey =
    event.event_type === 'SHIPMENT'
      ? `tracking.shipmentEvent_${code}`
      : event.event_type === 'TRANSPORT'
        ? `tracking.transportEvent_${code}`
        : `tracking.equipmentEvent_${code}`
  const what = code ? messageFor(codeKey, language) : messageFor(`tracking.eventType_${event.event_type}`, language)
  const classifier =
    event.event_classifier_code === 'ACT'
      ? ''
      : ` (${messageFor(`tracking.classifier_${event.event_classifier_code}`, language)})`
  return {
    event: `${what}${classifier}`,
    place: event.un_location_code ?? '—',
    time: localTime(new Date(event.event_date_time), timeZone),
    container: event.equipment_reference ? ` ${event.equipment_reference}` : '',
  }
}

/** 2027-01-01 08:30 on the tenant's clock. */
function localTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at)
}

const refusal = (field: string, message: string) => new ApiError('validation', {}, [{ field, message, params: {} }])

/**
 * `beforeWrite: [subscriptionOrder]`: the order is one the subscriber may see (the order entity's data scope:
 * their company's, or their own), the container one of the order's shipment when it already lists any, and
 * each code of a type chosen. Anything else is refused under its field, as a missing order would be.
 */
export async function subscriptionOrder(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, call, data, manifest } = context
  const orderEntity = manifest.entities.order
  if (!orderEntity) throw new Error('shipmentSubscription: the manifest has no order entity')
  const order = Number(data.order)
  let query = trx
    .selectFrom(sql.table('booking_order').as('booking_order'))
    .select(sql<number>`booking_order.id`.as('id'))
    .where(sql<SqlBool>`booking_order.tenant_id = ${call.tenantId}`)
    .where(sql<SqlBool>`booking_order.id = ${order}`)
  for (const condition of scopeConditions(orderEntity, call.session, 'booking_order')) query = query.where(condition)
  if (!(await query.executeTakeFirst())) throw refusal('order', 'subscription.orderNotYours')

  const container = typeof data.containerNo === 'string' && data.containerNo ? data.containerNo : null
  if (container) {
    const { rows } = await sql<{ numbers: string[] }>`
      select coalesce(array_agg(c ->> 'containerNo'), '{}') as numbers
      from shipment s, jsonb_array_elements(coalesce(s.containers, '[]'::jsonb)) c
      where s.tenant_id = ${call.tenantId} and s.booking_order = ${order}`.execute(trx)
    const numbers = rows[0]?.numbers ?? []
    if (numbers.length && !numbers.includes(container)) throw refusal('containerNo', 'subscription.containerNotOnOrder')
  }

  const types = Array.isArray(data.eventTypes) ? data.eventTypes.map(String) : []
  const codes = Array.isArray(data.eventCodes) ? data.eventCodes.map(String) : []
  if (codes.some((code) => !types.includes(typeOfCode(code) ?? '')))
    throw refusal('eventCodes', 'subscription.codeOutsideTypes')
  return {}
}
