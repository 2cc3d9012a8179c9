import { sql } from 'kysely'
import type { ChartGroupDef } from '../model/chart.ts'
import type { Day } from '../rules/calendar.ts'
import type { Database } from '../server/db/database.ts'
import { ACTIVITY_BANDS, INQUIRY_ASK, PORTRAIT_METRIC, personalUsers } from '../server/domain/analytics/portrait.ts'
import { tenantTimeZone } from '../server/tenancy/clock.ts'
import { withTenant } from '../server/tenancy/scope.ts'
import { ms, percentile, ratio } from './latency.ts'

/**
 * UserPortrait at scale (issue #28, server/domain/analytics/portrait.ts): BENCH_PERSONAL personal users (default
 * 100,000) for the largest tenant, with regions, channels and last sign-ins spread over a year, and their rate
 * searches over the window (a tenth of them a day, each on one of three modes) as the roll-up actor rows a live
 * search writes, and the per-user roll-up of what they asked for (analytics_user_ask) the same searches keep. Each
 * group answered by the chart source (aggregated in SQL: personal users over their partial index; asks the join of
 * them with the roll-up) and computed from the raw rows in the application (every personal user's row and every
 * search row of the window read and bucketed) — timed in the same run through the API's role and row-level
 * security, the two answers compared. Both count only the users registered by the window's end.
 *
 * BENCH_PERSONAL scales the users; BENCH_PORTRAIT_RUNS / BENCH_PORTRAIT_RAW_RUNS the timed runs (30 and 5).
 */
const PERSONAL = Number(process.env.BENCH_PERSONAL ?? 100_000)
const RUNS = Number(process.env.BENCH_PORTRAIT_RUNS ?? 30)
const RAW_RUNS = Number(process.env.BENCH_PORTRAIT_RAW_RUNS ?? 5)
const REGIONS = ['CN', 'CN', 'CN', 'CN', 'HK', 'SG', 'US', 'DE', 'JP', 'KR', 'VN', 'GB']
const CHANNELS = ['mobile', 'mobile', 'mobile', 'invitation']
const MODES = ['FCL', 'FCL', 'LCL', 'AIR']
const GROUPS = ['region', 'channel', 'activity', 'asks'] as const

const group = (name: string): ChartGroupDef => ({ name, label: `analytics.group.${name}` })

async function load(database: Database, tenantId: number, from: Day, to: Day): Promise<void> {
  const db = database.db
  await sql`
    insert into app_user (tenant_id, company_id, username, real_name, mobile, password_hash, company_user_type,
      region, register_channel, created_at, last_login_at)
    select ${tenantId}::int, null, 'portrait' || g, 'Portrait ' || g, null, 'x', 2,
      (${sql.val(REGIONS)}::text[])[1 + g % ${REGIONS.length}::int],
      (${sql.val(CHANNELS)}::text[])[1 + (g / 7) % ${CHANNELS.length}::int],
      ${from}::date - (g % 400) * interval '1 day',
      case when g % 11 = 0 then null else ${to}::date + interval '12 hours' - ((g * 37) % 200) * interval '1 day' end
    from generate_series(1, ${PERSONAL}::int) g`.execute(db)
  // A tenth of the users search each day, on one mode a day: the actor rows a live search's tally writes.
  await sql`
    insert into analytics_daily_actor (tenant_id, metric, day, dim1, dim2, actor)
    select ${tenantId}::int, 'rateQuery', d::date, (${sql.val(MODES)}::text[])[1 + (u.id + k) % ${MODES.length}::int], '',
      'user:' || u.id
    from generate_series(${from}::date, ${to}::date, interval '1 day') with ordinality as days(d, k)
      join app_user u on u.tenant_id = ${tenantId} and u.company_id is null and u.company_user_type = 2
        and (u.id + k) % 10 = 0
    on conflict do nothing`.execute(db)
  // What those searches keep per user (analytics_user_ask): the first and last day of each mode, as tallyRateSearch
  // writes them search by search.
  await sql`
    insert into analytics_user_ask as a (tenant_id, user_id, mode, first_day, last_day)
    select tenant_id, substr(actor, 6)::int, dim1, min(day), max(day) from analytics_daily_actor
    where tenant_id = ${tenantId} and metric = 'rateQuery' and actor like 'user:%'
    group by tenant_id, substr(actor, 6)::int, dim1
    on conflict (tenant_id, user_id, mode) do update set
      first_day = least(a.first_day, excluded.first_day), last_day = greatest(a.last_day, excluded.last_day)`.execute(
    db,
  )
  await sql`vacuum analyze app_user, analytics_daily_actor, analytics_user_ask`.execute(db)
}

/** The same answer from the raw rows, bucketed in the application: what the source saves. */
async function raw(database: Database, tenantId: number, name: string, from: Day, to: Day): Promise<string[]> {
  return withTenant(database.api, tenantId, async (trx) => {
    const zone = await tenantTimeZone(trx, tenantId)
    const end = sql`((${to}::date + 1)::timestamp at time zone ${zone})`
    const counts = new Map<string, Set<number>>()
    const add = (key: string, id: number) => {
      const set = counts.get(key) ?? new Set<number>()
      set.add(id)
      counts.set(key, set)
    }
    const { rows: users } = await sql<{
      id: number
      region: string | null
      register_channel: string | null
      origin: number
      last_day: string | null
    }>`select id, region, register_channel, origin,
        to_char(last_login_at at time zone ${zone}, 'YYYY-MM-DD') as last_day, created_at
      from app_user where tenant_id = ${tenantId} and company_id is null and company_user_type = 2
        and created_at < ${end}`.execute(trx)
    const endDay = Date.parse(`${to}T00:00:00Z`)
    if (name === 'asks') {
      const personal = new Set(users.map((u) => u.id))
      const { rows } = await sql<{ dim1: string; actor: string }>`
        select dim1, actor from analytics_daily_actor
        where tenant_id = ${tenantId} and metric = 'rateQuery' and day between ${from}::date and ${to}::date`.execute(
        trx,
      )
      for (const row of rows) {
        const id = Number(row.actor.slice('user:'.length))
        if (row.actor.startsWith('user:') && personal.has(id)) add(row.dim1, id)
      }
      const { rows: inquiries } = await sql<{ created_by: number }>`
        select created_by from inquiry where tenant_id = ${tenantId}
          and created_at >= (${from}::date::timestamp at time zone ${zone}) and created_at < ${end}`.execute(trx)
      for (const row of inquiries) if (personal.has(row.created_by)) add(INQUIRY_ASK, row.created_by)
    } else {
      for (const u of users) {
        if (name === 'region') add(u.region ?? '', u.id)
        else if (name === 'channel')
          add(u.register_channel ?? (u.origin === 1 ? 'invitation' : u.origin === 2 ? 'operator' : ''), u.id)
        else {
          const days = u.last_day === null ? null : (endDay - Date.parse(`${u.last_day}T00:00:00Z`)) / 86_400_000
          add(days === null ? 'never' : (ACTIVITY_BANDS.find((b) => days < b.below)?.key ?? 'older'), u.id)
        }
      }
    }
    return [...counts].map(([key, ids]) => `${key}|${ids.size}`).sort()
  })
}

export async function benchPortrait(database: Database, tenantId: number, from: Day, to: Day): Promise<string[]> {
  await load(database, tenantId, from, to)
  const lines = [
    '',
    `UserPortrait (personalUserProfile): ${PERSONAL.toLocaleString('en')} personal users of the largest tenant and their rate searches over the window (a tenth of them a day) as roll-up actor rows, with the per-user asks they keep; source ${RUNS} runs, raw ${RAW_RUNS}, after one warm-up each; the two answers compared.`,
    '',
    '| group (largest tenant, 360 days) | source p50 | p95 | raw rows in the app p50 | p95 | raw / source (p95) | same answer |',
    '| -------------------------------- | ---------: | --: | ----------------------: | --: | -----------------: | ----------- |',
  ]
  for (const name of GROUPS) {
    const source = () =>
      withTenant(database.api, tenantId, async (trx) =>
        (
          await personalUsers(trx, tenantId, {
            from,
            to,
            group: group(name),
            chart: { call: 'personalUserProfile', type: 'pie', measures: [] },
            metric: PORTRAIT_METRIC,
          })
        )
          .map((row) => `${row.category}|${row.actors}`)
          .sort(),
      )
    const same = JSON.stringify(await source()) === JSON.stringify(await raw(database, tenantId, name, from, to))
    const fast: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const began = performance.now()
      await source()
      fast.push(performance.now() - began)
    }
    const slow: number[] = []
    for (let i = 0; i < RAW_RUNS; i++) {
      const began = performance.now()
      await raw(database, tenantId, name, from, to)
      slow.push(performance.now() - began)
    }
    lines.push(
      `| ${name} | ${ms(percentile(fast, 50))} | ${ms(percentile(fast, 95))} | ${ms(percentile(slow, 50))} | ${ms(percentile(slow, 95))} | ${ratio(percentile(slow, 95), percentile(fast, 95))} | ${same ? 'yes' : 'NO'} |`,
    )
  }
  return lines
}
