import { sql } from 'kysely'
import type { EngineRegistry, VisibilityRule } from '../../engine/index.ts'
import { messageError, messageState } from '../webhooks/events.ts'
import { FILTER_NAMES, ownedBy, subscriptionScope } from './tnt.ts'

/**
 * DCSA Track & Trace event subscriptions in the portal (screens/dcsaTnt.yaml): the list of the caller's
 * subscriptions (schemas/dcsaSubscriptionView.yaml) and the log of their notifications
 * (schemas/dcsaNotification.yaml), both views the engine lists. Whose rows a caller sees is the standard's calls'
 * own rule (./tnt.ts): a customer its company's subscriptions, the forwarder's desk (orderList) the tenant's own,
 * whatever the caller's data scope — not the company wall, which would show an operator every company's.
 */
export function register(engine: EngineRegistry): void {
  const own: VisibilityRule = ({ call, table }) => [
    ownedBy(subscriptionScope(call.session), sql.ref(`${table}.company`)),
  ]

  // The filters as the standard names them, in its order ("eventType: SHIPMENT, TRANSPORT; equipmentReference:
  // CSQU3054383"); and how its notifications fared: how many, how many failed, the newest's state and time.
  engine.view(
    'dcsaSubscriptionView',
    ({ call }) => sql`
      select s.tenant_id, s.seq as id, 1 as version, s.created_at, s.updated_at, s.created_by, s.company,
        s.id::text as subscription_id, s.callback_url,
        (select string_agg(f.key || ': ' || case when jsonb_typeof(f.value) = 'array'
            then (select string_agg(v, ', ') from jsonb_array_elements_text(f.value) v) else f.value #>> '{}' end,
            '; ' order by array_position(${[...FILTER_NAMES]}::text[], f.key))
          from jsonb_each(s.filters) f) as filters,
        n.notifications, n.failed, n.last_state, n.last_notified_at
      from dcsa_event_subscription s
      left join lateral (
        select count(*)::int as notifications, count(*) filter (where o.failed_at is not null)::int as failed,
          (array_agg(${messageState('o')} order by d.id desc))[1] as last_state, max(d.created_at) as last_notified_at
        from dcsa_notification d left join outbox o on o.tenant_id = d.tenant_id and o.id = d.outbox_id
        where d.tenant_id = s.tenant_id and d.subscription = s.id
      ) n on true
      where s.tenant_id = ${call.tenantId}`,
  )
  engine.visibility('dcsaSubscriptionView', own)
  engine.listOrder('dcsaSubscriptionView', { field: 'createdAt', order: 'desc' })

  // Each notification with its subscription, newest first: attempts (re-sends included), the receiver's last
  // answer, and its newest outbox message's state and error.
  engine.view(
    'dcsaNotification',
    ({ call }) => sql`
      select d.tenant_id, d.id, d.version, d.created_at, d.updated_at, d.created_by, s.seq as subscription, s.company,
        s.id::text as subscription_id, s.callback_url, d.event_count, d.attempts, d.last_status, d.last_attempt_at,
        ${messageState('o')} as status, ${messageError('o')} as last_error
      from dcsa_notification d
      join dcsa_event_subscription s on s.tenant_id = d.tenant_id and s.id = d.subscription
      left join outbox o on o.tenant_id = d.tenant_id and o.id = d.outbox_id
      where d.tenant_id = ${call.tenantId}`,
  )
  engine.visibility('dcsaNotification', own)
  engine.listOrder('dcsaNotification', { field: 'id', order: 'desc' })
}
