import type { Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'

/** What the delivery worker knows how to send. */
export type OutboxKind = 'sms' | 'mail'

/**
 * Queues a side effect in the caller's transaction: it is sent if and only if the change commits.
 * Delivery (a worker with retries that sets sent_at) is separate work; this only writes the row.
 */
export async function enqueue(
  trx: Transaction<DB>,
  tenantId: number,
  kind: OutboxKind,
  payload: Record<string, unknown>,
): Promise<number> {
  const row = await trx
    .insertInto('outbox')
    .values({ tenant_id: tenantId, kind, payload: JSON.stringify(payload) })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}
