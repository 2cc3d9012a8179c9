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
  const row = await trx
    .selectFrom('tracking_lookup')
    .select([
      sql<number>`count(*) filter (where at > ${at}::timestamptz - interval '1 minute')::int`.as('lastMinute'),
      sql<number>`coalesce(sum(numbers) filter (where user_id is null), 0)::int`.as('visitorNumbers'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('ip', '=', ip)
    .where('at', '>', sql<Date>`${at}::timestamptz - interval '24 hours'`)
    .executeTakeFirstOrThrow()
  if (row.lastMinute >= SEARCHES_PER_MINUTE) throw new ApiError('300001')
  const visitorLimit = userId === null ? limit : null
  if (visitorLimit !== null && row.visitorNumbers + count > visitorLimit) {
    throw new ApiError('429', {}, [
      { field: 'numbers', message: 'tracking.allowanceUsed', params: { limit: visitorLimit } },
    ])
  }
  await trx
    .insertInto('tracking_lookup')
    .values({ tenant_id: tenantId, ip, user_id: userId, numbers: count, at })
    .execute()
  return {
    limit: visitorLimit,
    remaining: visitorLimit === null ? null : visitorLimit - row.visitorNumbers - count,
  }
}
