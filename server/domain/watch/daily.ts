import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { now } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import { evaluateAllWatches } from './evaluate.ts'

/** An arbitrary constant: the advisory lock key of the daily watch look (one process at a time runs it). */
const LOCK_KEY = 220_024

/**
 * The daily look at every price watch in progress (issue #22): rates whose validity starts or ends move the
 * best price without any rate being written. Safe with several server processes: a transaction-level
 * advisory lock lets one process look at a time, and the conditional update of each watch's last alert
 * (./evaluate.ts) tells a change once however often the look runs. Answers how many alerts it sent.
 */
export async function evaluateWatchesDaily(owner: Kysely<DB>, api: Kysely<DB>, at: Date = now()): Promise<number> {
  const { rows: tenants } = await sql<{ id: number }>`select id from tenant order by id`.execute(owner)
  let alerts = 0
  for (const tenant of tenants)
    alerts += await withTenant(api, tenant.id, async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_xact_lock(${LOCK_KEY}, ${tenant.id}) as locked`.execute(trx)
      return rows[0]?.locked ? evaluateAllWatches(trx, tenant.id, at) : 0
    })
  return alerts
}

/**
 * Runs the daily look at start and then every hour (a look finding nothing new sends nothing, so running it
 * hourly rather than at each tenant's midnight costs a few queries and never a duplicate). Answers a stop.
 */
export function startDailyWatches(owner: Kysely<DB>, api: Kysely<DB>, everyMs = 60 * 60 * 1000): () => void {
  const run = () =>
    evaluateWatchesDaily(owner, api).catch((error: unknown) => console.error('price watch daily look:', error))
  void run()
  const timer = setInterval(run, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
