import { type Kysely, sql } from 'kysely'
import { addDays } from '../../../rules/calendar.ts'
import type { DB } from '../../db/schema.ts'
import { now, tenantDay } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'

/** An arbitrary constant: the advisory lock key of the actor prune (one process at a time prunes a tenant). */
const LOCK_KEY = 280_034

/** Days of actor rows kept, today included: 2 keeps today and yesterday (a late beacon of yesterday still counts once). */
export const DEFAULT_ACTOR_DAYS = 2

/** ANALYTICS_ACTOR_DAYS (docs/CONFIGURATION.md): a whole number of days, at least 2; otherwise the default. */
export function actorDaysFrom(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.ANALYTICS_ACTOR_DAYS)
  return Number.isInteger(days) && days >= DEFAULT_ACTOR_DAYS ? days : DEFAULT_ACTOR_DAYS
}

/**
 * Deletes the actor rows of closed days (issue #28): who was counted under a roll-up row or a day's total is
 * needed only while an event can still arrive for that day — today, and yesterday for a late one. The counts
 * (`analytics_daily.actors`, `analytics_daily_total.actors`) stay, so no chart changes. Days are each tenant's own.
 * Safe with several processes: a transaction-level advisory lock per tenant lets one prune it at a time (the
 * delete is idempotent anyway). Answers how many actor rows went.
 */
export async function pruneAnalyticsActors(
  owner: Kysely<DB>,
  api: Kysely<DB>,
  at: Date = now(),
  keepDays: number = actorDaysFrom(),
): Promise<number> {
  const { rows: tenants } = await sql<{ id: number }>`select id from tenant order by id`.execute(owner)
  let pruned = 0
  for (const tenant of tenants)
    pruned += await withTenant(api, tenant.id, async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`
        select pg_try_advisory_xact_lock(${LOCK_KEY}, ${tenant.id}) as locked`.execute(trx)
      if (!rows[0]?.locked) return 0
      const before = addDays(await tenantDay(trx, tenant.id, at), 1 - keepDays)
      const rowActors = await sql`
        delete from analytics_daily_actor where tenant_id = ${tenant.id} and day < ${before}::date`.execute(trx)
      const totalActors = await sql`
        delete from analytics_daily_total_actor where tenant_id = ${tenant.id} and day < ${before}::date`.execute(trx)
      return Number(rowActors.numAffectedRows ?? 0) + Number(totalActors.numAffectedRows ?? 0)
    })
  return pruned
}

/** Prunes at start and then every hour (a prune finding nothing deletes nothing). Answers a stop. */
export function startActorPrune(owner: Kysely<DB>, api: Kysely<DB>, everyMs = 60 * 60 * 1000): () => void {
  const run = () =>
    pruneAnalyticsActors(owner, api).catch((error: unknown) => console.error('analytics actor prune:', error))
  void run()
  const timer = setInterval(run, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
