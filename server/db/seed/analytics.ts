import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import { type Day, dayIn, timeZoneOf } from '../../../rules/calendar.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The demo tenants' analytics history (issue #28): 360 tenant-local days up to now of what the nine analytics
 * screens chart — page views of real route names (the route table, generated/manifest.json), visitors, registrations
 * by channel, sign-ins by method, rate searches by mode, orders per mode and lane and their amounts per currency
 * (USD, CNY, EUR; never one row for two) — with a weekday/weekend shape, a slow growth and a wobble.
 *
 * Deterministic (every value is a function of the day's index and the row's number, no random draws) and written
 * in a handful of `insert … select … from generate_series` statements, so the test template pays well under a
 * second for it. The raw page_visit rows are written for the last RAW_DAYS days only (today up to now); their
 * roll-ups (pageView, visitor, with the actor rows that make a day's UV count each cookie once) are computed from
 * those rows by the same SQL a re-computation would use, so a roll-up row equals what its raw rows give. The older
 * days' pageView/visitor rows and every day's register/login/rateQuery/order/orderAmount rows are the history
 * alone (their events were never kept raw); their actor rows are not written, so an actor counted today by a live
 * event is counted once more at most. The rate searches of actors who are the tenant's users are also their asks
 * (analytics_user_ask: the first and last day of each mode), as UserPortrait reads them.
 *
 * acme gets a different, smaller history: a fifth of the traffic, other pages, another lane mix.
 */

export const HISTORY_DAYS = 360
/** Days (today included) whose page visits are kept as raw rows. */
export const RAW_DAYS = 7

interface TenantHistory {
  /** Visitors on an ordinary weekday a year ago, before the growth. */
  visitors: number
  /** Cookies the visitors come from: a day's visitors are distinct, returning across days. */
  cookiePool: number
  /** Page name → weight: how often a view is of that page. */
  pages: Record<string, number>
  /** Mode → lanes (POL-POD) with the currency the lane is billed in. */
  lanes: Record<string, [string, 'USD' | 'EUR' | 'CNY'][]>
  salt: number
}

const HISTORY: Record<string, TenantHistory> = {
  demo: {
    visitors: 150,
    cookiePool: 2000,
    pages: {
      dashboard: 30,
      productService: 18,
      orderTracking: 12,
      tracking: 6,
      fclFreightRatesContrastTable: 6,
      lclProductService: 5,
      airProductService: 4,
      informationCenterList: 5,
      siteInformationCenterDetail: 4,
      login: 8,
      register: 3,
      myOrders: 7,
      orderDetails: 5,
      inquiryHome: 3,
      personalInfo: 2,
      aboutUs: 2,
      serviceCenter: 2,
      mobileHome: 4,
      mobileTracking: 3,
    },
    lanes: {
      FCL: [
        ['CNSHA-USLAX', 'USD'],
        ['CNNGB-NLRTM', 'EUR'],
        ['CNSHA-DEHAM', 'EUR'],
        ['CNSZX-USLGB', 'USD'],
        ['CNSHA-HKHKG', 'CNY'],
      ],
      LCL: [
        ['CNSHA-SGSIN', 'USD'],
        ['CNNGB-BEANR', 'EUR'],
        ['CNSHA-KRPUS', 'CNY'],
      ],
      AIR: [
        ['PVG-LAX', 'USD'],
        ['PVG-FRA', 'EUR'],
      ],
    },
    salt: 0,
  },
  acme: {
    visitors: 30,
    cookiePool: 400,
    pages: {
      dashboard: 25,
      productService: 10,
      airProductService: 9,
      orderTracking: 14,
      login: 6,
      myOrders: 6,
      orderDetails: 4,
      aboutUs: 3,
      informationCenterList: 2,
    },
    lanes: {
      FCL: [
        ['CNSZX-USLGB', 'USD'],
        ['CNSZX-GBFXT', 'EUR'],
      ],
      AIR: [
        ['SZX-LAX', 'USD'],
        ['SZX-AMS', 'EUR'],
        ['SZX-PVG', 'CNY'],
      ],
    },
    salt: 7,
  },
}

const REGISTER_CHANNELS = ['mobile', 'mobile', 'email', 'invitation']
const LOGIN_METHODS = ['password', 'password', 'password', 'code', 'wechat']
const QUERY_MODES = ['FCL', 'FCL', 'FCL', 'LCL', 'AIR']
/** What an order of a mode costs, in USD, before its wobble; EUR and CNY are converted at a fixed rate. */
const ORDER_BASE: Record<string, number> = { FCL: 2600, LCL: 540, AIR: 3100 }
const RATE: Record<string, number> = { USD: 1, EUR: 0.92, CNY: 7.1 }

const textArray = (values: readonly string[]) => sql`${sql.val(values)}::text[]`
const intArray = (values: readonly number[]) => sql`${sql.val(values)}::int[]`

export async function seedAnalytics(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const routes = new Map(manifest.screens.map((s) => [s.name, s.route]))
  for (const [code, history] of Object.entries(HISTORY)) {
    const tenant = await db.selectFrom('tenant').select(['id', 'settings']).where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    for (const page of Object.keys(history.pages))
      if (!routes.get(page) || routes.get(page)?.includes(':'))
        throw new Error(`seed: analytics page ${page} is not a route of the route table`)
    const zone = timeZoneOf(tenant.settings as Record<string, unknown> | null)
    const at = now()
    await withTenant(db, tenant.id, (trx) =>
      seedTenant(trx, tenant.id, code, history, routes, zone, dayIn(at, zone), at),
    )
  }
}

async function seedTenant(
  trx: Transaction<DB>,
  tenantId: number,
  code: string,
  history: TenantHistory,
  routes: Map<string, string>,
  zone: string,
  today: Day,
  at: Date,
): Promise<void> {
  const names = Object.keys(history.pages)
  // A page drawn by weight: its name repeated as often as its weight, indexed by a row's number.
  const drawn = names.flatMap((name) => Array(history.pages[name]).fill(name) as string[])
  const weights = names.map((name) => history.pages[name] as number)
  const total = weights.reduce((a, b) => a + b, 0)
  const users = await sql<{ id: number; type: number; company: number | null }>`
    select id, company_user_type as type, company_id as company from app_user
    where tenant_id = ${tenantId} and username <> 'platform' order by id`.execute(trx)
  const salt = history.salt
  const last = HISTORY_DAYS - 1

  // The days: index k (0 a year ago, `last` today), the day, its seconds so far (today: up to now), its visitors.
  const days = sql`days as (
    select k, day, span,
      round(${history.visitors}
        * case when extract(isodow from day) >= 6 then 0.4 else 1 end
        * (0.75 + 0.25 * k / ${last}::numeric)
        * (1 + 0.12 * sin((k + ${salt}) / 9.0) + (((k + ${salt}) * 37) % 17 - 8) / 100.0)
        * span / 86400.0)::int as v
    from generate_series(0, ${last}::int) k,
      lateral (select ${today}::date - (${last}::int - k) as day) d,
      lateral (select case when k = ${last}::int
        then least(86400, greatest(0, floor(extract(epoch from (${at}::timestamptz at time zone ${zone}) - ${today}::date::timestamp))))::int
        else 86400 end as span) s
  )`

  // 1. The raw page visits of the last RAW_DAYS days: a day's visitors each view 1..6 pages, 40 s apart.
  await sql`
    with ${days}, signed as (
      select * from unnest(${intArray(users.rows.map((u) => u.id))}, ${intArray(users.rows.map((u) => u.type))},
        ${intArray(users.rows.map((u) => u.company ?? 0))}) with ordinality as u(id, type, company, n)
    )
    insert into page_visit (tenant_id, visitor, user_id, user_type, company_id, page_name, page_route, created_at)
    select ${tenantId}::int, md5(${code} || ':' || c.cookie)::uuid, u.id, u.type, nullif(u.company, 0), p.name,
      (${textArray(names.map((n) => routes.get(n) as string))})[array_position(${textArray(names)}, p.name)],
      (days.day::timestamp + least(days.span - 1,
        (vi - 1) * days.span / days.v + j * 40 + (c.cookie * 7) % 30) * interval '1 second') at time zone ${zone}
    from days
      cross join generate_series(1, days.v) vi
      cross join lateral (select (days.k * 131 + vi * 17) % ${history.cookiePool}::int as cookie) c
      left join signed u on u.n = 1 + c.cookie % 40
      cross join generate_series(0, (vi * 7 + days.k) % 6) j
      cross join lateral (select (${textArray(drawn)})[1 + (vi * 13 + j * 7 + days.k * 5 + ${salt}) % ${drawn.length}::int] as name) p
    where days.k > ${last - RAW_DAYS}::int and days.v > 0`.execute(trx)

  // 2. Their roll-ups and actor rows, from the raw rows (what a re-computation of those days would write).
  await rollUpRawVisits(trx, tenantId, zone)

  // 3. The older days' page views and visitors, from the day's visitor count (the same shape as the raw days).
  const signedShare = new Map<string, number>()
  for (const u of users.rows.slice(0, 40)) signedShare.set(String(u.type), (signedShare.get(String(u.type)) ?? 0) + 1)
  const typeKeys = ['0', ...signedShare.keys()]
  const typeShares = [1 - Math.min(40, users.rows.length) / 40, ...[...signedShare.values()].map((n) => n / 40)]
  await sql`
    with ${days}
    insert into analytics_daily (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    select ${tenantId}::int, 'pageView', day, p.name,
      (${textArray(names.map((n) => routes.get(n) as string))})[p.n], e.events, least(v, ceil(e.events * 0.8)), 0
    from days
      cross join unnest(${textArray(names)}, ${intArray(weights)}) with ordinality as p(name, weight, n)
      cross join lateral (select round(v * 3.5 * p.weight / ${total}::numeric
        * (1 + ((k * 11 + p.n * 7) % 9 - 4) / 40.0))::int as events) e
    where k <= ${last - RAW_DAYS}::int and e.events > 0
    union all
    select ${tenantId}::int, 'visitor', day, t.type, '', e.n, e.n, 0
    from days
      cross join unnest(${textArray(typeKeys)}, ${sql.val(typeShares)}::float8[]) as t(type, share)
      cross join lateral (select round(v * t.share)::int as n) e
    where k <= ${last - RAW_DAYS}::int and e.n > 0`.execute(trx)

  // 4. Every day's registrations, sign-ins, rate searches, orders and order amounts, event by event, then counted.
  const modes = Object.keys(history.lanes)
  const lanes = modes.flatMap((mode) =>
    (history.lanes[mode] ?? []).map(([lane, currency]) => ({ mode, lane, currency })),
  )
  const laneOf = (mode: string) => lanes.map((l, i) => (l.mode === mode ? i + 1 : 0)).filter(Boolean)
  const modeLanes = modes.map((m) => laneOf(m))
  const width = Math.max(...modeLanes.map((l) => l.length))
  // Mode m's lane j (1-based), as a flat array: row m holds its lanes, padded by repeating its first.
  const laneGrid = modeLanes.flatMap((l) => Array.from({ length: width }, (_, j) => l[j % l.length] as number))
  const orderModes = modes.flatMap((m) => Array(m === 'FCL' ? 3 : 1).fill(m) as string[])
  const userPool = Math.max(5, Math.round(history.visitors / 2))
  const companyPool = Math.max(3, Math.round(history.visitors / 6))
  const customers = [...new Set(users.rows.filter((u) => u.type === 2 && u.company).map((u) => u.company as number))]
  // The history's searchers and sign-ins are numbers of a pool: a number that is one of the tenant's accounts is that
  // account (`user:<id>`), any other is nobody's (`seeded:<n>`) — never an id an account registered later takes.
  const accounts = intArray(users.rows.map((u) => u.id))
  const userActor = (n: RawBuilder<unknown>) =>
    sql`case when ${n} = any(${accounts}) then 'user:' || ${n} else 'seeded:' || ${n} end`
  await sql`
    with ${days}, lanes as (
      select * from unnest(${textArray(lanes.map((l) => l.mode))}, ${textArray(lanes.map((l) => l.lane))},
        ${textArray(lanes.map((l) => l.currency))}) with ordinality as l(mode, lane, currency, n)
    ),
    orders as (
      select day, k, i, om.mode,
        (${intArray(laneGrid)})[(array_position(${textArray(modes)}, om.mode) - 1) * ${width}::int
          + 1 + (i * 3 + k) % ${width}::int] as lane_n
      from days
        cross join generate_series(1, round(v * 0.07)::int) i
        cross join lateral (select (${textArray(orderModes)})[1 + (i + k * 2) % ${orderModes.length}::int] as mode) om
    ),
    events (metric, day, dim1, dim2, actor, amount) as (
      select 'register', day, (${textArray(REGISTER_CHANNELS)})[1 + (i + k) % ${REGISTER_CHANNELS.length}::int], '',
        'new:' || k || ':' || i, 0::numeric
      from days cross join generate_series(1, round(v * 0.025)::int) i
      union all
      select 'login', day, (${textArray(LOGIN_METHODS)})[1 + (i * 3 + k) % ${LOGIN_METHODS.length}::int], '',
        ${userActor(sql`(i * 7 + k * 3) % ${userPool}::int`)}, 0
      from days cross join generate_series(1, round(v * 0.3)::int) i
      union all
      select 'rateQuery', day, (${textArray(QUERY_MODES)})[1 + (i * 5 + k) % ${QUERY_MODES.length}::int], '',
        ${userActor(sql`(i * 5 + k) % ${userPool}::int`)}, 0
      from days cross join generate_series(1, round(v * 0.45)::int) i
      union all
      select 'order', o.day, o.mode, l.lane, 'company:' || (o.i * 3 + o.k) % ${companyPool}::int, 0
      from orders o join lanes l on l.n = o.lane_n
      union all
      select 'orderAmount', o.day, c.currency, o.mode, 'company:' || (o.i * 3 + o.k) % ${companyPool}::int,
        round((${sql.val(modes.map((m) => ORDER_BASE[m] ?? 1000))}::numeric[])[array_position(${textArray(modes)}, o.mode)]
          * (0.7 + ((o.i * 37 + o.k * 11) % 60) / 100.0)
          * (${sql.val(['USD', 'EUR', 'CNY'].map((c) => RATE[c] as number))}::numeric[])[array_position(array['USD','EUR','CNY'], c.currency)], 2)
      from orders o join lanes l on l.n = o.lane_n
        cross join lateral (select case when (o.i + o.k) % 5 = 0 then 'CNY' else l.currency end as currency) c
    ),
    -- The reviews' amounts (FreightReview, BookingReview): each order's amount again by lane and by customer — the
    -- tenant's own enterprises, so a customer shows by name — its freight about three quarters of it.
    priced as (
      select o.day, o.i, o.k, l.lane, c.currency,
        (${intArray(customers)})[1 + (o.i * 3 + o.k) % ${Math.max(1, customers.length)}::int] as customer,
        round((${sql.val(modes.map((m) => ORDER_BASE[m] ?? 1000))}::numeric[])[array_position(${textArray(modes)}, o.mode)]
          * (0.7 + ((o.i * 37 + o.k * 11) % 60) / 100.0)
          * (${sql.val(['USD', 'EUR', 'CNY'].map((c) => RATE[c] as number))}::numeric[])[array_position(array['USD','EUR','CNY'], c.currency)], 2) as amount
      from orders o join lanes l on l.n = o.lane_n
        cross join lateral (select case when (o.i + o.k) % 5 = 0 then 'CNY' else l.currency end as currency) c
      where ${customers.length > 0}
    ),
    reviews (metric, day, dim1, dim2, actor, amount) as (
      select m.metric, p.day, p.currency, g.dim2, 'company:' || p.customer,
        case when m.metric = 'freightAmount' then round(p.amount * 0.75, 2) else p.amount end
      from priced p
        cross join (values ('bookingAmount'), ('freightAmount')) m(metric)
        cross join lateral (values ('lane:' || p.lane), ('customer:' || p.customer)) g(dim2)
    ),
    -- Who was counted: the charts of distinct users (server/domain/analytics/charts.ts) read them, every day.
    counted as (
      insert into analytics_daily_actor (tenant_id, metric, day, dim1, dim2, actor)
      select distinct ${tenantId}::int, metric, day, dim1, dim2, actor from events
      on conflict do nothing
    ),
    -- What the tenant's users searched, first and last day per mode (UserPortrait's asks, migration 0040), as
    -- their searches' transactions keep it.
    asked as (
      insert into analytics_user_ask as a (tenant_id, user_id, mode, first_day, last_day)
      select ${tenantId}::int, u.id, e.dim1, min(e.day), max(e.day)
      from events e join app_user u on u.tenant_id = ${tenantId}::int and e.actor = 'user:' || u.id
      where e.metric = 'rateQuery'
      group by u.id, e.dim1
      on conflict (tenant_id, user_id, mode) do update set
        first_day = least(a.first_day, excluded.first_day), last_day = greatest(a.last_day, excluded.last_day)
    ),
    -- The day's distinct actors, across every dimension value and per dim1 value (what those charts read).
    counted_total as (
      insert into analytics_daily_total_actor (tenant_id, metric, day, per, dim1, actor)
      select ${tenantId}::int, metric, day, 'day', '', actor from events
      union
      select ${tenantId}::int, metric, day, 'dim1', dim1, actor from events
      on conflict do nothing
    ),
    totals as (
      insert into analytics_daily_total (tenant_id, metric, day, per, dim1, actors)
      select ${tenantId}::int, metric, day, 'day', '', count(distinct actor) from events group by metric, day
      union all
      select ${tenantId}::int, metric, day, 'dim1', dim1, count(distinct actor) from events group by metric, day, dim1
    )
    insert into analytics_daily (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    select ${tenantId}::int, metric, day, dim1, dim2, count(*), count(distinct actor), sum(amount)
    from (select * from events union all select * from reviews) counted
    group by metric, day, dim1, dim2`.execute(trx)
}

/**
 * The pageView and visitor roll-ups of every raw page visit of a tenant (or of all tenants, `tenantId` null: the
 * bench), with their actor rows: one pageView row per tenant-local day, page name and route (events the views,
 * actors the distinct cookies), one visitor row per day and user type ('0' before sign-in, as server/domain/analytics/visits.ts tallies it; events = actors = the
 * day's distinct cookies). The days are the tenant's own: `zone` is its time zone (null: each tenant's setting,
 * Asia/Shanghai when none). Adds to rows that exist (`on conflict … do update`), so run it on days it has not
 * counted yet.
 */
export async function rollUpRawVisits(
  db: Kysely<DB> | Transaction<DB>,
  tenantId: number | null,
  zone: string | null,
  /** Write the actor rows of this day and later only (the bench: what is kept once older days' are pruned). */
  actorsFrom?: Day,
): Promise<void> {
  const where: RawBuilder<unknown> = tenantId === null ? sql`true` : sql`v.tenant_id = ${tenantId}`
  const zoneOf = zone
    ? sql`${zone}::text`
    : sql`coalesce((select t.settings ->> 'timeZone' from tenant t where t.id = v.tenant_id), 'Asia/Shanghai')`
  const visits = sql`visits as materialized (
    select v.tenant_id, (v.created_at at time zone ${zoneOf})::date as day, v.page_name, v.page_route,
      v.visitor::text as actor, coalesce(v.user_type::text, '0') as user_type
    from page_visit v where ${where}
  )`
  const counted = actorsFrom ? sql`day >= ${actorsFrom}::date` : sql`true`
  await sql`
    with ${visits}
    insert into analytics_daily_actor (tenant_id, metric, day, dim1, dim2, actor)
    select distinct tenant_id, 'pageView', day, left(page_name, 200), left(page_route, 200), actor from visits
    where ${counted}
    union all
    select distinct on (tenant_id, day, actor) tenant_id, 'visitor', day, user_type, '', actor from visits
    where ${counted}
    on conflict do nothing`.execute(db)
  await sql`
    with ${visits}
    insert into analytics_daily_total_actor (tenant_id, metric, day, per, dim1, actor)
    select distinct tenant_id, metric, day, per, dim1, actor from visits
      cross join lateral (values ('pageView', 'day', ''), ('pageView', 'dim1', left(page_name, 200)),
        ('visitor', 'day', '')) as t(metric, per, dim1)
    where ${counted}
    union all
    select distinct on (tenant_id, day, actor) tenant_id, 'visitor', day, 'dim1', user_type, actor from visits
    where ${counted}
    on conflict do nothing`.execute(db)
  await sql`
    with ${visits}
    insert into analytics_daily_total as a (tenant_id, metric, day, per, dim1, actors)
    select tenant_id, 'pageView', day, 'day', '', count(distinct actor) from visits group by tenant_id, day
    union all
    select tenant_id, 'pageView', day, 'dim1', left(page_name, 200), count(distinct actor)
    from visits group by tenant_id, day, left(page_name, 200)
    union all
    select tenant_id, 'visitor', day, 'day', '', count(distinct actor) from visits group by tenant_id, day
    union all
    select tenant_id, 'visitor', day, 'dim1', user_type, count(*)
    from (select distinct on (tenant_id, day, actor) tenant_id, day, actor, user_type from visits) first_type
    group by tenant_id, day, user_type
    on conflict (tenant_id, metric, day, per, dim1) do update set actors = a.actors + excluded.actors`.execute(db)
  await sql`
    with ${visits}
    insert into analytics_daily as a (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    select tenant_id, 'pageView', day, left(page_name, 200), left(page_route, 200), count(*), count(distinct actor), 0
    from visits group by tenant_id, day, left(page_name, 200), left(page_route, 200)
    union all
    select tenant_id, 'visitor', day, user_type, '', count(*), count(*), 0
    from (select distinct on (tenant_id, day, actor) tenant_id, day, actor, user_type from visits) first_type
    group by tenant_id, day, user_type
    on conflict (tenant_id, metric, day, dim1, dim2) do update set
      events = a.events + excluded.events, actors = a.actors + excluded.actors`.execute(db)
}
