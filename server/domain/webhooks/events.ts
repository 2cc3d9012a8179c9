import { randomUUID } from 'node:crypto'
import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EffectContext } from '../../engine/index.ts'
import { enqueue } from '../../jobs/outbox.ts'

/**
 * The events an enterprise's webhooks hear (issue #29), written where they happen, in their transaction: one
 * webhook_delivery row and one outbox message per enabled endpoint of the record's own enterprise that chose the
 * event and has a signing secret. None when the change rolls back; never another enterprise's endpoint (the
 * endpoint's company is the record's customer company) nor another tenant's (tenant_id, and row-level security).
 * The body is made from the stored data at each attempt (./channel.ts), signed then with a fresh timestamp.
 */

export type WebhookEvent = 'orderState' | 'trackingEvent' | 'blConfirmed' | 'billIssued'

/** The outbox kind that carries a delivery (./channel.ts). */
export const WEBHOOK_KIND = 'webhook'

/**
 * How a message of this channel fares, as the delivery logs read it (webhook deliveries, DCSA notifications):
 * pending (not tried yet), retrying, sent or failed; none without a message. `outbox` is the outbox's alias.
 */
export function messageState(outbox: string): RawBuilder<string | null> {
  const o = (column: string) => sql.ref(`${outbox}.${column}`)
  return sql`case when ${o('id')} is null then null when ${o('sent_at')} is not null then 'sent'
    when ${o('failed_at')} is not null then 'failed' when ${o('attempts')} > 0 then 'retrying' else 'pending' end`
}

/** Why a message is not sent yet, or was not: the receiver's last refusal or the failure (2,000 characters at most). */
export function messageError(outbox: string): RawBuilder<string | null> {
  const o = (column: string) => sql.ref(`${outbox}.${column}`)
  return sql`case when ${o('sent_at')} is null then left(${o('last_error')}, 2000) end`
}

/** How many endpoints an enterprise may register: bounded, so one event makes a bounded number of messages. */
export const MAX_ENDPOINTS_PER_COMPANY = 10

/**
 * Queues one message of the webhook channel for a logged send — a webhook delivery (`webhook_delivery`) or a DCSA
 * notification (`dcsa_notification`, ../dcsa/tntNotifications.ts) — and records it as that send's newest, when it
 * is made and at each re-send.
 */
export async function queueLogged(
  trx: Transaction<DB>,
  tenantId: number,
  log: { table: 'webhook_delivery' | 'dcsa_notification'; id: number },
  payload: Record<string, unknown>,
): Promise<number> {
  const outboxId = await enqueue(trx, tenantId, WEBHOOK_KIND, payload)
  await sql`
    update ${sql.table(log.table)} set outbox_id = ${outboxId}, updated_at = now(), version = version + 1
    where tenant_id = ${tenantId} and id = ${log.id}`.execute(trx)
  return outboxId
}

/** Queues one delivery's message and records it as the delivery's newest. */
export function queueDelivery(
  trx: Transaction<DB>,
  tenantId: number,
  delivery: { id: number; endpoint: number; url: string },
): Promise<number> {
  return queueLogged(
    trx,
    tenantId,
    { table: 'webhook_delivery', id: delivery.id },
    { to: delivery.url, delivery: delivery.id, endpoint: delivery.endpoint },
  )
}

/** Records `type` for the endpoints of `company` that listen to it; answers how many deliveries were queued. */
export async function recordWebhookEvent(
  trx: Transaction<DB>,
  tenantId: number,
  event: { company: number | null | undefined; type: WebhookEvent; data: Record<string, unknown>; at: Date },
): Promise<number> {
  if (!event.company) return 0
  const { rows: endpoints } = await sql<{ id: number; url: string }>`
    select e.id, e.url from webhook_endpoint e
    join webhook_secret s on s.tenant_id = e.tenant_id and s.endpoint = e.id
    where e.tenant_id = ${tenantId} and e.company = ${event.company} and e.enabled
      and e.events @> ${JSON.stringify([event.type])}::jsonb
    order by e.id
    limit ${MAX_ENDPOINTS_PER_COMPANY}`.execute(trx)
  // One id for the event, whichever of the enterprise's endpoints it is sent to: receivers may drop a repeat by it.
  const eventId = randomUUID()
  for (const endpoint of endpoints) {
    const { rows } = await sql<{ id: number }>`
      insert into webhook_delivery (tenant_id, endpoint, company, event_id, event_type, occurred_at, data)
      values (${tenantId}, ${endpoint.id}, ${event.company}, ${eventId}, ${event.type}, ${event.at},
        ${JSON.stringify(event.data)}::jsonb)
      returning id`.execute(trx)
    await queueDelivery(trx, tenantId, { id: (rows[0] as { id: number }).id, endpoint: endpoint.id, url: endpoint.url })
  }
  return endpoints.length
}

/** Which event a transition's `webhook` effect (YAML `effects: [webhook]`) makes, by entity. */
const TRANSITION_EVENTS: Record<string, { type: WebhookEvent; company: string }> = {
  order: { type: 'orderState', company: 'customerCompany' },
  blInstruction: { type: 'blConfirmed', company: 'customerCompany' },
  bill: { type: 'billIssued', company: 'customerCompany' },
}

/**
 * The engine effect `webhook`: named on a transition in YAML, it tells the record's enterprise (its `data` the
 * record as the API answers it after the change, with the state it left in `previousState` for an order).
 */
export async function webhookEffect({ trx, call, entity, before, after, at }: EffectContext): Promise<void> {
  const event = TRANSITION_EVENTS[entity.entity]
  if (!event)
    throw new Error(`the webhook effect knows no event of ${entity.entity} (server/domain/webhooks/events.ts)`)
  const field = entity.states?.field ?? 'state'
  const data = event.type === 'orderState' ? { ...after, previousState: before?.[field] ?? null } : { ...after }
  await recordWebhookEvent(trx, call.tenantId, {
    company: Number(after[event.company]) || null,
    type: event.type,
    data,
    at,
  })
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

/**
 * Tracking events as they are recorded (../tracking/record.ts, in its transaction): each tells the webhooks of
 * its shipment's customer enterprise, `data` the event as the tracking API answers it (camelCase, without the
 * tenant), with the shipment's order so a receiver can match it.
 */
export async function webhookTrackingEvents(
  trx: Transaction<DB>,
  tenantId: number,
  events: readonly ({ id: number; shipment: number } & Record<string, unknown>)[],
  at: Date,
): Promise<void> {
  if (!events.length) return
  const shipmentIds = [...new Set(events.map((e) => e.shipment))]
  const { rows } = await sql<{ id: number; company: number | null; order: number | null }>`
    select id, customer_company as company, booking_order as "order" from shipment
    where tenant_id = ${tenantId} and id = any(${shipmentIds}::int[])`.execute(trx)
  const shipments = new Map(rows.map((row) => [row.id, row]))
  // Nobody listening (the usual case, and every bulk import of a tenant without webhooks): one query, no more.
  const companies = [...new Set(rows.map((row) => row.company).filter((c): c is number => c !== null))]
  if (!companies.length) return
  const { rows: listening } = await sql<{ company: number }>`
    select distinct company from webhook_endpoint
    where tenant_id = ${tenantId} and company = any(${companies}::int[]) and enabled
      and events @> ${JSON.stringify(['trackingEvent'])}::jsonb`.execute(trx)
  if (!listening.length) return
  const heard = new Set(listening.map((row) => row.company))
  for (const event of events) {
    const shipment = shipments.get(event.shipment)
    if (!shipment?.company || !heard.has(shipment.company)) continue
    const data: Record<string, unknown> = { bookingOrder: shipment.order }
    for (const [key, value] of Object.entries(event))
      if (key !== 'tenant_id' && key !== 'created_by' && value !== null) data[camel(key)] = value
    await recordWebhookEvent(trx, tenantId, { company: shipment.company, type: 'trackingEvent', data, at })
  }
}
