import { sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'

/**
 * The outbox as operators follow it (issue #22; /outboxStatus and /outboxFailed): two views of the outbox
 * table the engine reads — each message with its delivery state (schemas/outboxMessage.yaml) and the counts
 * per channel and state (schemas/outboxTally.yaml). Both are the caller's tenant's rows only (the query's
 * condition, and row-level security under it). A message's state is read from the worker's columns
 * (server/jobs/worker.ts): sent, finally failed, tried and due again (retrying), or not tried yet (pending).
 */
const STATE = sql<string>`case when o.sent_at is not null then 'sent' when o.failed_at is not null then 'failed'
  when o.attempts > 0 then 'retrying' else 'pending' end`

export function register(engine: EngineRegistry): void {
  engine.view('outboxMessage', ({ trx, call }) =>
    trx
      .selectFrom('outbox as o')
      .select([
        'o.tenant_id',
        'o.id',
        // The version a retry names: the tries so far, so a retry in between is seen (330002).
        sql<number>`greatest(o.attempts, 1)`.as('version'),
        'o.created_at',
        sql<Date>`coalesce(o.sent_at, o.failed_at, o.created_at)`.as('updated_at'),
        sql<number | null>`null::integer`.as('created_by'),
        'o.kind',
        STATE.as('state'),
        sql<string | null>`left(o.payload ->> 'to', 254)`.as('recipient'),
        // A mail's subject, else the template a text message or WeChat message was sent with.
        sql<string | null>`left(coalesce(o.payload ->> 'subject', o.payload ->> 'template'), 200)`.as('subject'),
        'o.attempts',
        sql<string | null>`o.last_error`.as('last_error'),
        'o.next_attempt_at',
        'o.sent_at',
        'o.failed_at',
      ])
      .where('o.tenant_id', '=', call.tenantId),
  )
  engine.view('outboxTally', ({ trx, call }) =>
    trx
      .selectFrom('outbox as o')
      .select([
        'o.tenant_id',
        // One row per channel: its rank among the tenant's channels is its id.
        sql<number>`(row_number() over (order by o.kind))::int`.as('id'),
        sql<number>`1`.as('version'),
        sql<Date>`min(o.created_at)`.as('created_at'),
        sql<Date>`max(o.created_at)`.as('updated_at'),
        sql<number | null>`null::integer`.as('created_by'),
        'o.kind',
        sql<number>`(count(*) filter (where o.sent_at is null and o.failed_at is null and o.attempts = 0))::int`.as(
          'pending',
        ),
        sql<number>`(count(*) filter (where o.sent_at is null and o.failed_at is null and o.attempts > 0))::int`.as(
          'retrying',
        ),
        sql<number>`(count(*) filter (where o.sent_at is not null))::int`.as('sent'),
        sql<number>`(count(*) filter (where o.sent_at is null and o.failed_at is not null))::int`.as('failed'),
      ])
      .where('o.tenant_id', '=', call.tenantId)
      .groupBy(['o.tenant_id', 'o.kind']),
  )
  // The latest failure first.
  engine.listOrder('outboxMessage', { field: 'updatedAt', order: 'desc' })
}
