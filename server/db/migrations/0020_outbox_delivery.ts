import { type Kysely, sql } from 'kysely'

/**
 * The outbox delivered (issue #22): a worker (server/jobs/worker.ts) leases due rows with
 * `for update skip locked`, so several server processes on one PostgreSQL send each message once; a lease
 * that is not settled (the process died) runs out and the row is due again. A failed try is retried after
 * `attempts` and `last_error` exist since 0002.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table outbox
      add column next_attempt_at timestamptz not null default now(),
      add column leased_until timestamptz,
      add column failed_at timestamptz
  `.execute(db)
  await sql`drop index if exists outbox_pending`.execute(db)
  // The worker's scan: due, neither sent nor failed, in the order they were written.
  await sql`create index outbox_due on outbox (tenant_id, next_attempt_at, id) where sent_at is null and failed_at is null`.execute(
    db,
  )
}
