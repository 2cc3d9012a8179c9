import { sql, type Transaction } from 'kysely'
import { type Day, dayIn, timeZoneOf } from '../../rules/calendar.ts'
import type { DB } from '../db/schema.ts'
import type { Tenant } from './resolve.ts'

/**
 * The server's one clock (issue #19): every "now" and every tenant's "today" comes from here. `WAYBILL_NOW`
 * (an ISO instant) starts the clock at that moment and lets it run on from there — a whole server, its
 * seeds and its tests can be put at 23:30 or 00:30 tenant time without touching the machine's clock.
 */
const offsetMs = (() => {
  const fixed = process.env.WAYBILL_NOW
  if (!fixed) return 0
  const at = Date.parse(fixed)
  if (Number.isNaN(at)) throw new Error(`WAYBILL_NOW is not an instant: ${fixed}`)
  return at - Date.now()
})()

export function now(): Date {
  return new Date(Date.now() + offsetMs)
}

/** The tenant's calendar day at an instant (now by default), in its time zone. */
export function tenantToday(tenant: Pick<Tenant, 'settings'>, at: Date = now()): Day {
  return dayIn(at, timeZoneOf(tenant.settings))
}

/** A tenant's time zone read in a transaction, for code that has the tenant's id but not its settings. */
export async function tenantTimeZone(trx: Transaction<DB>, tenantId: number): Promise<string> {
  return timeZoneOf(await tenantSettings(trx, tenantId))
}

/** The tenant's site settings as kept (SPEC §3), null when it has none. */
export async function tenantSettings(trx: Transaction<DB>, tenantId: number): Promise<Record<string, unknown> | null> {
  const { rows } = await sql<{ settings: Record<string, unknown> | null }>`
    select settings from tenant where id = ${tenantId}`.execute(trx)
  return rows[0]?.settings ?? null
}

/** The same day, by the tenant's id. */
export async function tenantDay(trx: Transaction<DB>, tenantId: number, at: Date = now()): Promise<Day> {
  return dayIn(at, await tenantTimeZone(trx, tenantId))
}
