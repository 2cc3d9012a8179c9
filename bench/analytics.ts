import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import { MAX_CATEGORIES } from '../model/chart.ts'
import { addDays, type Day, DEFAULT_TIME_ZONE } from '../rules/calendar.ts'
import { type Database, openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import type { DB } from '../server/db/schema.ts'
import { rollUpRawVisits } from '../server/db/seed/analytics.ts'
import { dailyActors } from '../server/domain/analytics/charts.ts'
import { type DailyRow, dailyRows, type Metric, tally } from '../server/domain/analytics/rollup.ts'
import { rollupGroupRows } from '../server/domain/analytics/sources.ts'
import { loadManifest } from '../server/manifest.ts'
import { withTenant } from '../server/tenancy/scope.ts'
import { scratchDatabase } from '../tests/support/database.ts'
import { FULL_PLAN, generateBenchData } from './data.ts'
import { ms, percentile, ratio } from './latency.ts'
import { benchPortrait } from './portrait.ts'

/**
 * Analytics at scale (issue #28): on PostgreSQL, 10,000,000 page visits and the 1,000,000 orders of the load bench
 * (bench/data.ts) over 1,000 tenants, the largest holding a fifth of each; the roll-ups built from them by the same
 * SQL the seed uses (server/db/seed/analytics.ts rollUpRawVisits) and, for orders, by their day, mode, lane and
 * currency. Then each analytics query shape over the largest tenant's 360-day window — answered from
 * analytics_daily (what the charts read) and computed directly from the raw rows — timed in the same run, through
 * the API's role and row-level security (withTenant), with the two answers compared. Then the cost of `tally` per
 * event and of recording one batch of visits in one transaction.
 *
 * Every value is a function of the row number (no random draws); everything is loaded by `insert … select … from
 * generate_series`, so ten million visits take minutes. The scratch database is dropped afterwards. Without
 * DATABASE_URL: not measured (PGlite holds one core and is not the engine ten million rows are kept in).
 *
 * BENCH_VISITS (default 10,000,000) and BENCH_ORDERS (default 1,000,000) scale a run down for a quick look.
 */

const VISITS = Number(process.env.BENCH_VISITS ?? 10_000_000)
const ORDERS = Number(process.env.BENCH_ORDERS ?? FULL_PLAN.orders)
const WINDOW = 360
const ROLLUP_RUNS = 60
const RAW_RUNS = 8
const TALLIES = 2_000
const BATCHES = 300
const BATCH_VISITS = 10
const LOAD_BATCH = 1_000_000
const ZONE = DEFAULT_TIME_ZONE
/** The zone as a literal: the same expression in a select and its group by. */
const Z = sql.lit(ZONE)
const PAGES = [
  ['dashboard', '/dashboard'],
  ['productService', '/productService'],
  ['orderTracking', '/orderTracking'],
  ['tracking', '/tracking'],
  ['informationCenterList', '/informationCenterList'],
  ['siteInformationCenterDetail', '/InformationCenterDetail'],
  ['login', '/login'],
  ['register', '/register'],
  ['myOrders', '/myOrders'],
  ['orderDetails', '/orderDetails'],
  ['lclProductService', '/lclProductService'],
  ['airProductService', '/airProductService'],
  ['fclFreightRatesContrastTable', '/fclFreightRatesContrastTable'],
  ['inquiryHome', '/inquiryHome'],
  ['aboutUs', '/aboutUs'],
  ['mobileHome', '/m'],
] as const

/** The bench order's currency and amount: bench orders carry none, so both are functions of the row (both sides use them). */
const CURRENCY = sql.raw(
  `case when o.pod like 'US%' then 'USD' when o.pod in ('NLRTM','DEHAM','BEANR','GBFXT') then 'EUR' else 'CNY' end`,
)
const AMOUNT = sql.raw('(300 + o.id % 4000)::numeric(20, 4)')
/** Its freight charges (FreightReview), three quarters of it. */
const FREIGHT = sql.raw('((300 + o.id % 4000) * 0.75)::numeric(20, 4)')
/** An order's lane and customer as the reviews name them (server/domain/analytics/events.ts tallyOrderAmount). */
const LANE = sql.raw(`coalesce(o.pol, '') || '-' || coalesce(o.pod, '')`)
const CUSTOMER = sql.raw(`coalesce(o.customer_company::text, 'user:' || coalesce(o.created_by::text, ''))`)

interface Shape {
  name: string
  rollup: (trx: Transaction<DB>, t: number, from: Day, to: Day) => Promise<string[]>
  raw: (trx: Transaction<DB>, t: number, from: Day, to: Day) => Promise<string[]>
}

const sumBy = (rows: DailyRow[], key: 'dim1' | null, value: 'events' | 'actors' | 'amount') => {
  const m = new Map<string, number>()
  for (const r of rows) {
    const k = `${r.day}|${key ? r[key] : ''}`
    m.set(k, (m.get(k) ?? 0) + r[value])
  }
  return [...m].map(([k, n]) => `${k}|${Math.round(n * 100) / 100}`).sort()
}
const rowsOf = (rows: { key: string; n: string | number }[]) =>
  rows.map((r) => `${r.key}|${Math.round(Number(r.n) * 100) / 100}`).sort()

const start = (day: Day) => sql`(${day}::date::timestamp at time zone ${Z})`
const end = (day: Day) => sql`((${day}::date + 1)::timestamp at time zone ${Z})`

/**
 * FreightReview and BookingReview (screens/analytics.yaml): a metric's amounts over the window per currency and
 * lane or customer, the largest MAX_CATEGORIES per currency — from the roll-ups by the charts' own reader
 * (rollupGroupRows) and from the orders, ranked the same way.
 */
function reviewShape(name: string, metric: 'freightAmount' | 'bookingAmount', group: 'lane' | 'customer'): Shape {
  const amount = metric === 'freightAmount' ? FREIGHT : AMOUNT
  const category: RawBuilder<unknown> = group === 'lane' ? sql`${LANE}` : sql`${CUSTOMER}`
  return {
    name,
    rollup: async (trx, t, from, to) =>
      rowsOf(
        (
          await rollupGroupRows(trx, t, {
            from,
            to,
            group: { name: group, label: `analytics.group.${group}` },
            chart: { call: metric, type: 'bar', measures: [] },
            metric,
          })
        ).map((r) => ({ key: `${r.dim1}|${r.category}`, n: r.amount })),
      ),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string; n: string }>`
        select currency || '|' || category as key, amount as n from (
          select ${CURRENCY} as currency, ${category} as category, sum(${amount}) as amount,
            row_number() over (partition by ${CURRENCY} order by sum(${amount}) desc, count(*) desc, ${category}) as rank
          from booking_order o where o.tenant_id = ${t} and o.created_at >= ${start(from)} and o.created_at < ${end(to)}
          group by 1, 2
        ) ranked where rank <= ${MAX_CATEGORIES}`.execute(trx)
      return rowsOf(rows)
    },
  }
}

const SHAPES: Shape[] = [
  {
    name: 'pageView per page and day (views, UV)',
    rollup: async (trx, t, from, to) =>
      (await dailyRows(trx, t, 'pageView', from, to)).map((r) => `${r.day}|${r.dim1}|${r.events}|${r.actors}`).sort(),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string }>`
        select to_char((created_at at time zone ${Z})::date, 'YYYY-MM-DD') || '|' || page_name || '|' ||
          count(*) || '|' || count(distinct visitor) as key
        from page_visit where tenant_id = ${t} and created_at >= ${start(from)} and created_at < ${end(to)}
        group by (created_at at time zone ${Z})::date, page_name, page_route`.execute(trx)
      return rows.map((r) => r.key).sort()
    },
  },
  {
    name: 'visitors (UV) per day',
    rollup: async (trx, t, from, to) => sumBy(await dailyRows(trx, t, 'visitor', from, to), null, 'actors'),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string; n: string }>`
        select to_char((created_at at time zone ${Z})::date, 'YYYY-MM-DD') || '|' as key, count(distinct visitor) as n
        from page_visit where tenant_id = ${t} and created_at >= ${start(from)} and created_at < ${end(to)}
        group by 1`.execute(trx)
      return rowsOf(rows)
    },
  },
  {
    name: 'orders per day and mode',
    rollup: async (trx, t, from, to) => sumBy(await dailyRows(trx, t, 'order', from, to), 'dim1', 'events'),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string; n: string }>`
        select to_char((o.created_at at time zone ${Z})::date, 'YYYY-MM-DD') || '|' || o.container_load_type as key,
          count(*) as n
        from booking_order o where o.tenant_id = ${t} and o.created_at >= ${start(from)} and o.created_at < ${end(to)}
        group by 1`.execute(trx)
      return rowsOf(rows)
    },
  },
  {
    name: 'order amount per day and currency',
    rollup: async (trx, t, from, to) => sumBy(await dailyRows(trx, t, 'orderAmount', from, to), 'dim1', 'amount'),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string; n: string }>`
        select to_char((o.created_at at time zone ${Z})::date, 'YYYY-MM-DD') || '|' || ${CURRENCY} as key,
          sum(${AMOUNT}) as n
        from booking_order o where o.tenant_id = ${t} and o.created_at >= ${start(from)} and o.created_at < ${end(to)}
        group by 1`.execute(trx)
      return rowsOf(rows)
    },
  },
  {
    name: 'ordering customers per day (DailyOrderClients)',
    rollup: async (trx, t, from, to) => sumBy(await dailyActors(trx, t, 'order', from, to, 'none'), null, 'actors'),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string; n: string }>`
        select to_char((o.created_at at time zone ${Z})::date, 'YYYY-MM-DD') || '|' as key,
          count(distinct coalesce(o.customer_company::text, '')) as n
        from booking_order o where o.tenant_id = ${t} and o.created_at >= ${start(from)} and o.created_at < ${end(to)}
        group by 1`.execute(trx)
      return rowsOf(rows)
    },
  },
  {
    name: 'signed-in users per day (DailyRegisterOrLogin, logins)',
    rollup: async (trx, t, from, to) => sumBy(await dailyActors(trx, t, 'login', from, to, 'none'), null, 'actors'),
    raw: async (trx, t, from, to) => {
      const { rows } = await sql<{ key: string; n: string }>`
        select to_char((created_at at time zone ${Z})::date, 'YYYY-MM-DD') || '|' as key, count(distinct visitor) as n
        from page_visit where tenant_id = ${t} and page_name = 'login'
          and created_at >= ${start(from)} and created_at < ${end(to)}
        group by 1`.execute(trx)
      return rowsOf(rows)
    },
  },
  reviewShape('FreightReview: freight per currency and lane', 'freightAmount', 'lane'),
  reviewShape('FreightReview: freight per currency and customer', 'freightAmount', 'customer'),
  reviewShape('BookingReview: amount per currency and lane', 'bookingAmount', 'lane'),
  reviewShape('BookingReview: amount per currency and customer', 'bookingAmount', 'customer'),
]

/** The visits: the demo tenant takes a fifth, the bench tenants the rest evenly, over the window's 360 days. */
async function loadVisits(db: Kysely<DB>, demo: number, from: Day): Promise<number> {
  const { rows } = await sql<{ id: number }>`select id from tenant where code like 'bench%' order by id`.execute(db)
  const others = rows.map((r) => r.id)
  const big = Math.round(VISITS / 5)
  const per = Math.max(1, Math.floor((VISITS - big) / others.length))
  const total = big + per * others.length
  const names = `(array[${PAGES.map(([n]) => `'${n}'`).join(',')}])`
  const routes = `(array[${PAGES.map(([, r]) => `'${r}'`).join(',')}])`
  for (let lo = 1; lo <= total; lo += LOAD_BATCH) {
    const hi = Math.min(total, lo + LOAD_BATCH - 1)
    await sql`
      insert into page_visit (tenant_id, visitor, user_id, user_type, page_name, page_route, created_at)
      select t, ('00000000-0000-4000-8000-' || lpad(to_hex(t::bigint * 1000000 + (g::bigint * 7919) % pool), 12, '0'))::uuid,
        null, case when g % 9 = 0 then 2 end, ${sql.raw(names)}[1 + p], ${sql.raw(routes)}[1 + p],
        ${start(from)} + ((g::bigint * 104729) % ${WINDOW * 86400}::bigint) * interval '1 second'
      from generate_series(${lo}::int, ${hi}::int) g,
        lateral (select case when g <= ${big}::int then ${demo}::int
          else (${sql.raw(`array[${others.join(',')}]`)})[1 + ((g - ${big}::int - 1) / ${per}::int) % ${others.length}::int] end as t,
          case when g <= ${big}::int then 3000 else 60 end as pool,
          (g * 13 + g / 5) % ${PAGES.length}::int as p) x`.execute(db)
  }
  return total
}

/** The orders' roll-ups, as the order calls would have tallied them: per day, mode and lane; per day, currency and mode. */
async function rollUpOrders(db: Kysely<DB>): Promise<void> {
  await sql`
    insert into analytics_daily (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    select o.tenant_id, 'order', (o.created_at at time zone ${Z})::date, o.container_load_type, o.pol || '-' || o.pod,
      count(*), count(distinct coalesce(o.customer_company::text, '')), 0
    from booking_order o group by 1, 3, 4, 5
    union all
    select o.tenant_id, 'orderAmount', (o.created_at at time zone ${Z})::date, ${CURRENCY}, o.container_load_type,
      count(*), count(distinct coalesce(o.customer_company::text, '')), sum(${AMOUNT})
    from booking_order o group by 1, 3, 4, 5`.execute(db)
  // The reviews' amounts (FreightReview, BookingReview): per day and currency, a row per lane and one per customer.
  await sql`
    insert into analytics_daily (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    select o.tenant_id, m.metric, (o.created_at at time zone ${Z})::date, ${CURRENCY}, g.dim2,
      count(*), count(distinct ${CUSTOMER}), sum(case when m.metric = 'freightAmount' then ${FREIGHT} else ${AMOUNT} end)
    from booking_order o
      cross join (values ('bookingAmount'), ('freightAmount')) m(metric)
      cross join lateral (values ('lane:' || ${LANE}), ('customer:' || ${CUSTOMER})) g(dim2)
    group by 1, 2, 3, 4, 5`.execute(db)
  // The day's distinct ordering customers, across modes and per mode, as tally keeps them (analytics_daily_total).
  await sql`
    insert into analytics_daily_total (tenant_id, metric, day, per, dim1, actors)
    select o.tenant_id, 'order', (o.created_at at time zone ${Z})::date, 'day', '',
      count(distinct coalesce(o.customer_company::text, ''))
    from booking_order o group by 1, 3
    union all
    select o.tenant_id, 'order', (o.created_at at time zone ${Z})::date, 'dim1', o.container_load_type,
      count(distinct coalesce(o.customer_company::text, ''))
    from booking_order o group by 1, 3, 5`.execute(db)
}

/**
 * The sign-ins: every visit of the login page is a sign-in of its visitor, by password before noon and by code
 * after (so a visitor signing in twice a day counts under two rows, and once in the day's total). Their roll-up
 * rows and totals, as tally keeps them; the actor rows of the last two days only (what a prune keeps).
 */
async function rollUpLogins(db: Kysely<DB>, actorsFrom: Day): Promise<void> {
  const logins = sql`logins as materialized (
    select tenant_id, (created_at at time zone ${Z})::date as day, visitor::text as actor,
      case when extract(hour from created_at at time zone ${Z}) < 12 then 'password' else 'code' end as method
    from page_visit where page_name = 'login'
  )`
  await sql`
    with ${logins}
    insert into analytics_daily (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    select tenant_id, 'login', day, method, '', count(*), count(distinct actor), 0 from logins group by 1, 3, 4`.execute(
    db,
  )
  await sql`
    with ${logins}
    insert into analytics_daily_total (tenant_id, metric, day, per, dim1, actors)
    select tenant_id, 'login', day, 'day', '', count(distinct actor) from logins group by 1, 3
    union all
    select tenant_id, 'login', day, 'dim1', method, count(distinct actor) from logins group by 1, 3, 5`.execute(db)
  await sql`
    with ${logins}
    insert into analytics_daily_actor (tenant_id, metric, day, dim1, dim2, actor)
    select distinct tenant_id, 'login', day, method, '', actor from logins where day >= ${actorsFrom}::date
    on conflict do nothing`.execute(db)
  await sql`
    with ${logins}
    insert into analytics_daily_total_actor (tenant_id, metric, day, per, dim1, actor)
    select distinct tenant_id, 'login', day, 'day', '', actor from logins where day >= ${actorsFrom}::date
    union
    select distinct tenant_id, 'login', day, 'dim1', method, actor from logins where day >= ${actorsFrom}::date
    on conflict do nothing`.execute(db)
}

async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now()
  const result = await work()
  return [performance.now() - t0, result]
}

async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  await work() // warm
  const out: number[] = []
  for (let i = 0; i < runs; i++) out.push((await time(work))[0])
  return out
}

async function benchOn(database: Database): Promise<string[]> {
  const db = database.db
  const demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  // The seeded history would add to the bench's rows on the same days: the bench counts its own rows only.
  for (const table of [
    'analytics_user_ask',
    'analytics_daily_actor',
    'analytics_daily',
    'analytics_daily_total_actor',
    'analytics_daily_total',
    'page_visit',
  ])
    await sql`delete from ${sql.table(table)}`.execute(db)

  const scale = ORDERS / FULL_PLAN.orders
  const plan = {
    orders: ORDERS,
    tenants: Math.max(10, Math.round(FULL_PLAN.tenants * scale)),
    bigTenant: Math.round(FULL_PLAN.bigTenant * scale),
  }
  const [orderSeconds, { orders }] = await time(() => generateBenchData(db as never, plan))
  const { rows: last } = await sql<{ day: string }>`
    select to_char(max(created_at at time zone ${Z})::date, 'YYYY-MM-DD') as day
    from booking_order where tenant_id = ${demo}`.execute(db)
  const to = last[0]?.day as Day
  const from = addDays(to, -(WINDOW - 1))
  const [visitMs, visits] = await time(() => loadVisits(db, demo, from))
  const [rollMs] = await time(() =>
    db.transaction().execute(async (trx) => {
      await sql`set local work_mem = '256MB'`.execute(trx)
      await rollUpRawVisits(trx, null, ZONE, addDays(to, -1))
      await rollUpOrders(trx as never)
      await rollUpLogins(trx as never, addDays(to, -1))
    }),
  )
  await sql`vacuum analyze page_visit, analytics_daily, analytics_daily_actor, analytics_daily_total, analytics_daily_total_actor, booking_order`.execute(
    db,
  )
  const { rows: sizes } = await sql<{ daily: string; totals: string; actors: string; largest: string }>`
    select (select count(*) from analytics_daily)::text as daily, (select count(*) from analytics_daily_total)::text as totals,
      (select count(*) from analytics_daily_actor)::text as actors,
      (select count(*) from page_visit where tenant_id = ${demo})::text as largest`.execute(db)
  const size = sizes[0] as { daily: string; totals: string; actors: string; largest: string }
  const n = (v: number | string) => Number(v).toLocaleString('en')

  const lines = [
    `### PostgreSQL: ${n(visits)} page visits and ${n(orders)} orders over ${plan.tenants} tenants`,
    '',
    `Loaded in SQL: orders ${(orderSeconds / 1000).toFixed(0)} s, visits ${(visitMs / 1000).toFixed(0)} s, roll-ups from the raw rows ${(rollMs / 1000).toFixed(0)} s (${n(size.daily)} analytics_daily rows, ${n(size.totals)} analytics_daily_total rows of the day's distinct actors; the actor rows of the last two days only, ${n(size.actors)}, as kept once older days' are pruned — see docs/PERFORMANCE.md). The largest tenant: ${n(size.largest)} visits and ${n(plan.bigTenant)} orders; its window ${from} … ${to} (${WINDOW} days, Asia/Shanghai). Each call through the API's role and row-level security (withTenant); roll-up ${ROLLUP_RUNS} runs, raw ${RAW_RUNS}, after one warm-up each; the two answers compared.`,
    '',
    '| query (largest tenant, 360 days) | roll-up p50 | p95 | raw rows p50 | p95 | raw / roll-up (p95) | same answer |',
    '| -------------------------------- | ----------: | --: | -----------: | --: | ------------------: | ----------- |',
  ]
  for (const shape of SHAPES) {
    const once = (q: Shape['rollup']) => withTenant(database.api, demo, (trx) => q(trx, demo, from, to))
    const same = JSON.stringify(await once(shape.rollup)) === JSON.stringify(await once(shape.raw))
    const fast = await timed(ROLLUP_RUNS, () => once(shape.rollup))
    const slow = await timed(RAW_RUNS, () => once(shape.raw))
    lines.push(
      `| ${shape.name} | ${ms(percentile(fast, 50))} | ${ms(percentile(fast, 95))} | ${ms(percentile(slow, 50))} | ${ms(percentile(slow, 95))} | ${ratio(percentile(slow, 95), percentile(fast, 95))} | ${same ? 'yes' : 'NO'} |`,
    )
  }

  lines.push(...(await benchPortrait(database, demo, from, to)))

  // tally per event: each in its own transaction, as an event's own transaction would add it.
  const metrics: Metric[] = ['pageView', 'login', 'rateQuery', 'order']
  const tallies: number[] = []
  const [tallyMs] = await time(async () => {
    for (let i = 0; i < TALLIES; i++) {
      const [took] = await time(() =>
        withTenant(database.api, demo, (trx) =>
          tally(trx, demo, {
            metric: metrics[i % metrics.length] as Metric,
            dim1: PAGES[i % PAGES.length]?.[0],
            actor: `bench:${i % 700}`,
          }),
        ),
      )
      tallies.push(took)
    }
  })
  // One batch of visits as the browser posts it: the rows, then each view's and the visitor's roll-up, one transaction.
  const batches: number[] = []
  for (let b = 0; b < BATCHES; b++) {
    const visitor = `00000000-0000-4000-9000-${String(b).padStart(12, '0')}`
    const [took] = await time(() =>
      withTenant(database.api, demo, async (trx) => {
        const pages = Array.from(
          { length: BATCH_VISITS },
          (_, i) => PAGES[(b + i) % PAGES.length] as readonly [string, string],
        )
        await sql`
          insert into page_visit (tenant_id, visitor, page_name, page_route)
          select ${demo}::int, ${visitor}::uuid, name, route
          from unnest(${sql.val(pages.map((p) => p[0]))}::text[], ${sql.val(pages.map((p) => p[1]))}::text[]) as p(name, route)`.execute(
          trx,
        )
        await tally(trx, demo, { metric: 'visitor', actor: visitor })
        for (const [name, route] of pages)
          await tally(trx, demo, { metric: 'pageView', dim1: name, dim2: route, actor: visitor })
      }),
    )
    batches.push(took)
  }
  lines.push(
    '',
    `\`tally\`, one event in its own transaction (${n(TALLIES)} in a row, one connection): p50 ${ms(percentile(tallies, 50))}, p95 ${ms(percentile(tallies, 95))}, ${(TALLIES / (tallyMs / 1000)).toFixed(0)} events/s. A batch of ${BATCH_VISITS} visits (the rows, the visitor's and each view's roll-up, one transaction): p50 ${ms(percentile(batches, 50))}, p95 ${ms(percentile(batches, 95))} — paid by the beacon's request after the page has gone, not by the navigation.`,
  )
  return lines
}

export async function benchAnalytics(): Promise<string[]> {
  const out = ['## Analytics at scale (issue #28)', '']
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) return [...out, 'PostgreSQL: not measured (no DATABASE_URL).']
  const scratch = await scratchDatabase(adminUrl, 'waybill_bench_analytics')
  const database = await openDatabase({ databaseUrl: scratch.url })
  try {
    await prepareDatabase(database, loadManifest(), { seed: true })
    out.push(...(await benchOn(database)))
  } finally {
    await database.close()
    await scratch.drop()
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchAnalytics()).join('\n'))
