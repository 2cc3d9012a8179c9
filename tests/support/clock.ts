import { type Kysely, sql } from 'kysely'
import { addDays, type Day, dayIn, timeZoneOf } from '../../rules/calendar.ts'
import type { DB } from '../../server/db/schema.ts'
import { now } from '../../server/tenancy/clock.ts'

/**
 * Time in tests is the server's time (server/tenancy/clock.ts), never the machine's: with WAYBILL_NOW set the
 * server lives on another day than `new Date()`, and with TZ set the machine's local day is another again.
 * API tests share the server's clock in-process; an end-to-end server is started with the same WAYBILL_NOW,
 * so its clock is the tests' within the seconds between the two starts.
 */
export { now }

/** A tenant's "today" as the server sees it; seeded tenants name no zone, so Asia/Shanghai. */
export function today(settings?: Record<string, unknown> | null): Day {
  return dayIn(now(), timeZoneOf(settings))
}

/** A day some days from the tenant's today (negative: before it). */
export function inDays(days: number, settings?: Record<string, unknown> | null): Day {
  return addDays(today(settings), days)
}

/**
 * Lets time pass for the outbox's rows of a kind that wait to be sent: each falls due `ms` sooner. The worker
 * asks the database's clock whether a row is due (server/jobs/outbox.ts), which a test cannot move, so a wait
 * of minutes is passed here instead of slept; a worker round (OutboxWorker.runOnce) then sends what is due.
 */
export async function passOutboxTime(db: Kysely<DB>, kind: string, ms: number): Promise<void> {
  await sql`update outbox set next_attempt_at = next_attempt_at - ${`${ms} milliseconds`}::interval
    where kind = ${kind} and sent_at is null and failed_at is null`.execute(db)
}
