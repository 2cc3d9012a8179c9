import { sql, type Transaction } from 'kysely'
import { afterCommit } from '../db/afterCommit.ts'
import type { DB } from '../db/schema.ts'

import type { ChannelKind } from './channels.ts'

/** What the delivery worker knows how to send: the kinds of ./channels.ts (payload shapes documented there). */
export type OutboxKind = ChannelKind

/** Who in this process hears that a commit wrote the outbox (the worker, which then scans at once). */
const listeners = new Set<() => void>()

/** Calls `listener` after each commit that enqueued something, in this process; answers the unsubscribe. */
export function onOutboxCommitted(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function tellListeners(): void {
  for (const listener of listeners) listener()
}

/**
 * Queues a side effect in the caller's transaction: it is sent if and only if the change commits, at once or
 * `delayMs` later.
 * The worker (./worker.ts) delivers it through the channel registered for `kind` (./channels.ts).
 */
export async function enqueue(
  trx: Transaction<DB>,
  tenantId: number,
  kind: OutboxKind,
  payload: Record<string, unknown>,
  options: { delayMs?: number } = {},
): Promise<number> {
  // A message for later (a scheduled push): due that long after now on the database's clock, which the worker reads.
  const delay = Math.max(0, Math.round(options.delayMs ?? 0))
  const row = await trx
    .insertInto('outbox')
    .values({
      tenant_id: tenantId,
      kind,
      payload: JSON.stringify(payload),
      next_attempt_at: sql`now() + ${`${delay} milliseconds`}::interval`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  // A worker in this process sends it right after the commit instead of at its next scan (another process's
  // worker finds it by polling, OUTBOX_POLL_MS).
  if (delay === 0) afterCommit(trx, tellListeners)
  return row.id
}
