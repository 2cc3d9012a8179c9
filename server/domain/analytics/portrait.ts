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
 * - `asks`: what they asked for in the window — the modes they searched rates for (the rateQuery actor rows of
 *   the roll-ups) and, as one category, whether they sent an inquiry; a user who did both counts under each.
 *
 * region, channel and activity are the stock of personal users registered by the window's end; asks are those of
 * them who asked within the window.
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
  // The window's bounds as instants: its first day's start and the day after its last, in the tenant's zone.
  const start = sql`(${from}::date::timestamp at time zone ${zone})`
  const end = sql`((${to}::date + 1)::timestamp at time zone ${zone})`
  const { rows } =
    group.name === 'asks'
      ? await sql<{ category: string; users: string }>`
          select a.dim1 as category, count(distinct u.id)::text as users
          from analytics_daily_actor a
            join app_user u on u.tenant_id = a.tenant_id and a.actor = 'user:' || u.id
          where a.tenant_id = ${tenantId} and a.metric = 'rateQuery' and a.day between ${from}::date and ${to}::date
            and ${personal(tenantId)}
          group by a.dim1
          union all
          select ${INQUIRY_ASK}, count(distinct u.id)::text
          from inquiry i join app_user u on u.tenant_id = i.tenant_id and u.id = i.created_by
          where i.tenant_id = ${tenantId} and i.created_at >= ${start} and i.created_at < ${end}
            and ${personal(tenantId)}
          having count(distinct u.id) > 0
        `.execute(trx)
      : await sql<{ category: string; users: string }>`
          select ${userCategory(group.name, zone, to)} as category, count(*)::text as users
          from app_user u
          where ${personal(tenantId)} and u.created_at < ${end}
          group by 1
        `.execute(trx)
  return rows.map((row) => ({ dim1: '', category: row.category, events: 0, actors: Number(row.users), amount: 0 }))
}
