import { sql, type Transaction } from 'kysely'
import { lockKey } from '../../auth/limits.ts'
import type { DB } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { now } from '../../tenancy/clock.ts'

/**
 * Tracking lookups are counted from tracking_lookup rows (migration 0009), so every replica sees the same
 * numbers, like the login limits of server/auth/limits.ts:
 * - every caller: at most SEARCHES_PER_MINUTE searches a minute from one address (else 300001, "please
 *   try again in one minute");
 * - visitors: the tenant's visitor query allowance (SPEC §6), `configuration.visitorQueryLimit` in the
 *   site settings — N numbers per visitor address in any 24 hours, or "unlimited" (else 429 with the
 *   reason). Absent, it is DEFAULT_VISITOR_LIMIT.
 */
export const SEARCHES_PER_MINUTE = 20
export const DEFAULT_VISITOR_LIMIT = 20

/** The visitor allowance of a tenant's settings: a number of lookups a day, or null for unlimited. */
export function visitorLimit(settings: Record<string, unknown>): number | null {
  const configured = (settings.configuration as Record<string, unknown> | undefined)?.visitorQueryLimit
  if (configured === 'unlimited') return null
  if (typeof configured === 'number' && Number.isInteger(configured) && configured >= 0) return configured
  return DEFAULT_VISITOR_LIMIT
}

export interface Allowance {
  /** null: unlimited (or a signed-in caller, who spends no allowance). */
  limit: number | null
  remaining: number | null
}

/**
 * Checks the limits for a search of `count` numbers and records it; throws when it must not run. Runs
 * under a lock on the address so two concurrent searches cannot both pass a count that allows one. The
 * windows are measured on the server's clock (`at`, which the row records too), not the database's.
 */
export async function spendLookup(
  trx: Transaction<DB>,
  tenantId: number,
  ip: string,
  userId: number | null,
  count: number,
  limit: number | null,
  at: Date = now(),
): Promise<Allowance> {
  await lockKey(trx, `tracking:${tenantId}:${ip}`)
  const visitorLimit = userId === null ? limit : null
  // The count and, when the search may run, its record: one statement after the lock (issue #29, fewer round
  // trips). Its snapshot is taken after the lock was granted, so it sees every search recorded before this one.
  const { rows } = await sql<{ lastMinute: number; visitorNumbers: number }>`
    with counted as (
      select count(*) filter (where at > ${at}::timestamptz - interval '1 minute')::int as "lastMinute",
        coalesce(sum(numbers) filter (where user_id is null), 0)::int as "visitorNumbers"
      from tracking_lookup
      where tenant_id = ${tenantId} and ip = ${ip} and at > ${at}::timestamptz - interval '24 hours'
    ), spent as (
      insert into tracking_lookup (tenant_id, ip, user_id, numbers, at)
      select ${tenantId}, ${ip}, ${userId}::int, ${count}::int, ${at}::timestamptz from counted
      where "lastMinute" < ${SEARCHES_PER_MINUTE}
        and (${visitorLimit}::int is null or "visitorNumbers" + ${count}::int <= ${visitorLimit}::int)
    )
    select * from counted`.execute(trx)
  const row = rows[0] as { lastMinute: number; visitorNumbers: number }
  if (row.lastMinute >= SEARCHES_PER_MINUTE) throw new ApiError('300001')
  if (visitorLimit !== null && row.visitorNumbers + count > visitorLimit) {
    throw new ApiError('429', {}, [
      { field: 'numbers', message: 'tracking.allowanceUsed', params: { limit: visitorLimit } },
    ])
  }
  return {
    limit: visitorLimit,
    remaining: visitorLimit === null ? null : visitorLimit - row.visitorNumbers - count,
  }
}
