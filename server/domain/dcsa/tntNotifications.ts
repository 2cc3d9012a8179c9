import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { queueLogged } from '../webhooks/events.ts'
import { type EventQuery, tntEvents } from './tnt.ts'

/**
 * DCSA Track & Trace 2.2 notifications (issue #29): when tracking events are recorded, each event subscription
 * (POST /v2/event-subscriptions, ./tnt.ts) whose filters the new events meet is sent them — the standard's events,
 * the very JSON GET /v2/events answers for them, made by the same query with the subscription's filters as its
 * own and its owner's scope (a company its shipments', the forwarder's desk the tenant's; sea shipments only) —
 * while its maker still may see them: an active account, of that company, or for the desk holding orderList (as
 * ./tnt.ts's scope asks of the caller); a maker disabled, gone from the company or stripped of it hears nothing more.
 * Written in the recording transaction as a dcsa_notification row (the body as it is sent, for the portal's log
 * and its re-send) and an outbox message of the webhook channel (../webhooks/channel.ts signs the body with the
 * subscription's secret, sends it to its callbackUrl under the SSRF rules, retries, notes each attempt on the row),
 * so nothing is told of an event that rolled back, and never another tenant's (tenant_id, row-level security).
 */

/** What a forwarder's desk must hold to see (and so to be told) the tenant's events (./tnt.ts scopeOf). */
const ORDER_PERMISSION = 'orderList'

/** Events one notification carries at most (the callback's body is an array); more are sent in several. */
export const EVENTS_PER_NOTIFICATION = 100

/** The stored filters (lists as arrays) as the events query takes them (lists comma-separated). */
function queryOf(filters: Record<string, unknown>): EventQuery {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]),
  )
}

/**
 * Queues one notification's outbox message and records it as the notification's newest: when it is made, and
 * again at each re-send (./tntPortal.ts), which sends the same body with the subscription's current secret.
 */
export function queueNotification(
  trx: Transaction<DB>,
  tenantId: number,
  notification: { id: number; subscription: string; callbackUrl: string },
): Promise<number> {
  return queueLogged(
    trx,
    tenantId,
    { table: 'dcsa_notification', id: notification.id },
    { to: notification.callbackUrl, subscription: notification.subscription, notification: notification.id },
  )
}

/** Queues a notification for every subscription the events (just stored, of these shipments) match. */
export async function notifyDcsaSubscriptions(
  trx: Transaction<DB>,
  tenantId: number,
  events: readonly { id: number; shipment: number }[],
): Promise<number> {
  if (!events.length) return 0
  const shipments = [...new Set(events.map((e) => e.shipment))]
  // The forwarder's desk (company null) and the customers whose sea shipments these are: nobody else may see them.
  const { rows: subscriptions } = await sql<{
    id: string
    company: number | null
    callbackUrl: string
    filters: object
  }>`
    select d.id, d.company, d.callback_url as "callbackUrl", d.filters
    from dcsa_event_subscription d
    join app_user maker on maker.tenant_id = d.tenant_id and maker.id = d.created_by and maker.state = 1
    where d.tenant_id = ${tenantId} and (d.company is null or d.company in (
      select s.customer_company from shipment s
      where s.tenant_id = ${tenantId} and s.id = any(${shipments}::int[]) and s.transport_mode = 1))
      -- Its maker may still see what it tells: the desk's holds orderList, a company's is still of that company.
      and case when d.company is null
        then maker.company_user_type = 1 and exists (
          select 1 from user_role ur join role r on r.tenant_id = ur.tenant_id and r.id = ur.role_id
          where ur.tenant_id = d.tenant_id and ur.user_id = maker.id and r.status = 1
            and r.permissions ? ${ORDER_PERMISSION})
        else maker.company_id = d.company end
    order by d.created_at, d.id`.execute(trx)
  if (!subscriptions.length) return 0
  const ids = events.map((e) => e.id)
  let queued = 0
  for (const subscription of subscriptions) {
    const query = queryOf(subscription.filters as Record<string, unknown>)
    const scope = { company: subscription.company }
    for (let after = 0; ; ) {
      const page = await tntEvents(trx, tenantId, scope, query, after, EVENTS_PER_NOTIFICATION, ids)
      if (page.events.length) {
        const { id } = await trx
          .insertInto('dcsa_notification')
          .values({
            tenant_id: tenantId,
            subscription: subscription.id,
            body: JSON.stringify(page.events),
            event_count: page.events.length,
            created_by: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await queueNotification(trx, tenantId, {
          id,
          subscription: subscription.id,
          callbackUrl: subscription.callbackUrl,
        })
        queued += 1
      }
      if (page.last === null) break
      after = page.last
    }
  }
  return queued
}
