import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { tenantTimeZone } from '../../tenancy/clock.ts'
import type { GroupQuery, GroupRow } from './sources.ts'

/**
 * UserPortrait's chart source `personalUsers` (issue #28, screens/analytics.yaml userPortrait; registered in
 * ./register.ts): the tenant's personal users — no company, enterprise side (company_user_type 2), as
 * registration makes them and leaving an enterprise leaves them (docs/DECISIONS.md "UserPortrait") — counted
 * per value of a group, one user once in a category:
 *
 * - `region`: the country or region they chose (app_user.region, a ref_country code; '' none chosen).
 * - `channel`: how they came — the register tally's channel kept on the user (mobile, invitation), else the
 *   account's origin (1 invited, 2 created by an operator), else ''.
 * - `activity`: their last sign-in (app_user.last_login_at) against the window's last day, in tenant days:
 *   within 7, 30, 90 days, longer, never.
 * - `asks`: what they asked for in the window — the modes they searched rates for and, as one category, whether
 *   they sent an inquiry; a user who did both counts under each. Read from analytics_user_ask (migration 0040), the
 *   first and last day each user asked for each, kept by the search's and the inquiry's own transactions
 *   (./events.ts): a user asked within the window when their first day is not after its end and their last not
 *   before its start — exact for a window ending today, the charts' windows (see docs/DECISIONS.md for a range
 *   in the past).
 *
 * Every group counts only the personal users registered by the window's end (created before the day after its last
 * tenant day): region, channel and activity are that stock; asks are those of them who asked within the window.
 */

/** The metric the source answers (model/chart.ts CHART_SOURCES.personalUsers). */
export const PORTRAIT_METRIC = 'users'

/** The activity bands, by days from the last sign-in to the window's last day (below the bound). */
export const ACTIVITY_BANDS = [
  { key: 'd7', below: 7 },
  { key: 'd30', below: 30 },
  { key: 'd90', below: 90 },
] as const

/** The asks category of a user who sent an inquiry in the window. */
export const INQUIRY_ASK = 'inquiry'

/** A personal user of the tenant, as `u` (the partial index app_user_personal, migration 0034, serves it). */
const personal = (tenantId: number) =>
  sql`u.tenant_id = ${tenantId} and u.company_id is null and u.company_user_type = 2`

/** What a user is filed under in a group read off the user row. */
function userCategory(group: string, zone: string, to: string): RawBuilder<string> {
  if (group === 'region') return sql<string>`coalesce(u.region, '')`
  if (group === 'channel')
    return sql<string>`coalesce(u.register_channel,
      case u.origin when 1 then 'invitation' when 2 then 'operator' else '' end)`
  if (group !== 'activity') throw new Error(`chart source personalUsers has no group ${group}`)
  // activity: tenant days from the last sign-in to the window's last day; a sign-in after it counts as recent.
  const days = sql`(${to}::date - (u.last_login_at at time zone ${zone})::date)`
  return sql<string>`case
    when u.last_login_at is null then 'never'
    ${sql.join(
      ACTIVITY_BANDS.map((band) => sql`when ${days} < ${band.below} then ${band.key}`),
      sql` `,
    )}
    else 'older' end`
}

/** The personal users per category of the query's group (see above). */
export async function personalUsers(
  trx: Transaction<DB>,
  tenantId: number,
  { from, to, group, metric }: GroupQuery,
): Promise<GroupRow[]> {
  if (metric !== PORTRAIT_METRIC)
    throw new Error(`chart source personalUsers answers ${PORTRAIT_METRIC}, not ${metric}`)
  const zone = await tenantTimeZone(trx, tenantId)
  // The instant the window ends: the day after its last, in the tenant's zone.
  const end = sql`((${to}::date + 1)::timestamp at time zone ${zone})`
  // Every group counts the personal users registered by the window's end, and only them.
  const registered = sql`${personal(tenantId)} and u.created_at < ${end}`
  const { rows } =
    group.name === 'asks'
      ? // One row per user and ask (analytics_user_ask's key): a count of rows is a count of users.
        await sql<{ category: string; users: string }>`
          select a.mode as category, count(*)::text as users
          from analytics_user_ask a join app_user u on u.tenant_id = a.tenant_id and u.id = a.user_id
          where a.tenant_id = ${tenantId} and a.first_day <= ${to}::date and a.last_day >= ${from}::date
            and ${registered}
          group by a.mode
        `.execute(trx)
      : await sql<{ category: string; users: string }>`
          select ${userCategory(group.name, zone, to)} as category, count(*)::text as users
          from app_user u
          where ${registered}
          group by 1
        `.execute(trx)
  return rows.map((row) => ({ dim1: '', category: row.category, events: 0, actors: Number(row.users), amount: 0 }))
}
