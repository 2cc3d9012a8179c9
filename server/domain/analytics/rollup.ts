import { sql, type Transaction } from 'kysely'
import type { ChartMetric } from '../../../model/chart.ts'
import type { Day } from '../../../rules/calendar.ts'
import type { DB } from '../../db/schema.ts'
import { now, tenantDay } from '../../tenancy/clock.ts'

/**
 * The daily roll-ups of issue #28 (migration 0033_analytics): every analytics call reads `analytics_daily`, and
 * every event that a chart counts adds itself here in the transaction that records it — a visit, a login, a
 * registration, a rate search, an order — so the roll-up is never behind the data and today is never empty.
 *
 * A row is (tenant, metric, tenant-local day, dim1, dim2): `events` counts the events, `actors` the distinct
 * actors of that day (a day's UV: a visitor's cookie, a user id), `amount` sums an amount (an order's, in the
 * currency dim names — amounts of two currencies are never one row).
 */

/** The metrics the roll-ups keep, described where the charts that name them read them (model/chart.ts). */
export { CHART_METRICS as METRICS } from '../../../model/chart.ts'
export type Metric = ChartMetric

export interface Tally {
  metric: Metric
  /** When it happened; now by default. The row's day is this instant's day in the tenant's time zone. */
  at?: Date
  dim1?: string
  dim2?: string
  /** Who did it, counted once a day per row (a visitor cookie, `user:12`, `company:3`). */
  actor?: string
  /** An amount to sum (in dim1's currency for orderAmount). */
  amount?: number
  /** How many events (a batch of the same visit rows); 1 by default. */
  events?: number
  /** The event counts only the first time its actor is seen that day under the row (a day's visit of the site). */
  once?: boolean
}

/** A dimension is bounded text: longer values are cut, so a wild route can neither bloat nor split the key. */
const DIM_MAX = 200
const dim = (value: string | undefined) => (value ?? '').slice(0, DIM_MAX)

/** Adds one event (or `events` of them) to its day's row, in the caller's transaction. */
export async function tally(trx: Transaction<DB>, tenantId: number, event: Tally): Promise<void> {
  const day: Day = await tenantDay(trx, tenantId, event.at ?? now())
  await tallyOn(trx, tenantId, day, event)
}

/** The same, for a caller that knows the tenant-local day already (a batch of visits). */
export async function tallyOn(trx: Transaction<DB>, tenantId: number, day: Day, event: Tally): Promise<void> {
  const dim1 = dim(event.dim1)
  const dim2 = dim(event.dim2)
  const events = event.events ?? 1
  const amount = event.amount ?? 0
  const actor = event.actor
  // The row's actor once a day under (dim1, dim2); the day's total once a day across every value of both
  // dimensions, and once per dim1 value across dim2's (migration 0034): the distinct-user charts read those, and
  // an actor seen under two rows the same day stays one. Unique keys make each count right under concurrency.
  await sql`
    with fresh as (
      insert into analytics_daily_actor (tenant_id, metric, day, dim1, dim2, actor)
      select ${tenantId}, ${event.metric}, ${day}::date, ${dim1}, ${dim2}, ${actor ?? ''}
      where ${actor !== undefined}
      on conflict do nothing
      returning 1
    ),
    fresh_total as (
      insert into analytics_daily_total_actor (tenant_id, metric, day, per, dim1, actor)
      select ${tenantId}, ${event.metric}, ${day}::date, per.per, per.dim1, ${actor ?? ''}
      from (values ('day', ''), ('dim1', ${dim1})) as per(per, dim1)
      where ${actor !== undefined}
      on conflict do nothing
      returning per, dim1
    ),
    totals as (
      insert into analytics_daily_total as t (tenant_id, metric, day, per, dim1, actors)
      select ${tenantId}, ${event.metric}, ${day}::date, per, dim1, count(*) from fresh_total group by per, dim1
      on conflict (tenant_id, metric, day, per, dim1) do update set actors = t.actors + excluded.actors
    )
    insert into analytics_daily as a (tenant_id, metric, day, dim1, dim2, events, actors, amount)
    values (${tenantId}, ${event.metric}, ${day}::date, ${dim1}, ${dim2},
      case when ${event.once === true} then (select count(*) from fresh) else ${events} end,
      (select count(*) from fresh), ${amount})
    on conflict (tenant_id, metric, day, dim1, dim2) do update set
      events = a.events + excluded.events,
      actors = a.actors + excluded.actors,
      amount = a.amount + excluded.amount
  `.execute(trx)
}

export interface DailyRow {
  day: Day
  dim1: string
  dim2: string
  events: number
  actors: number
  amount: number
}

/** A metric's rows between two tenant-local days (both included), oldest first — what a chart reads. */
export async function dailyRows(
  trx: Transaction<DB>,
  tenantId: number,
  metric: Metric,
  from: Day,
  to: Day,
): Promise<DailyRow[]> {
  const { rows } = await sql<{
    day: string
    dim1: string
    dim2: string
    events: string
    actors: string
    amount: string
  }>`
    select to_char(day, 'YYYY-MM-DD') as day, dim1, dim2, events::text, actors::text, amount::text
    from analytics_daily
    where tenant_id = ${tenantId} and metric = ${metric} and day between ${from}::date and ${to}::date
    order by day, dim1, dim2
  `.execute(trx)
  return rows.map((r) => ({
    day: r.day,
    dim1: r.dim1,
    dim2: r.dim2,
    events: Number(r.events),
    actors: Number(r.actors),
    amount: Number(r.amount),
  }))
}

/** Whose distinct actors a total counts: the day's, across every value (`day`), or each dim1 value's (`dim1`). */
export type TotalPer = 'day' | 'dim1'

/**
 * A metric's distinct actors per day (per = 'day'), or per day and dim1 value (per = 'dim1', only `dim1` when
 * given), between two tenant-local days — the figures of the distinct-user charts, kept by `tally`.
 */
export async function dailyTotals(
  trx: Transaction<DB>,
  tenantId: number,
  metric: Metric,
  from: Day,
  to: Day,
  per: TotalPer,
  dim1?: string,
): Promise<DailyRow[]> {
  const { rows } = await sql<{ day: string; dim1: string; actors: string }>`
    select to_char(day, 'YYYY-MM-DD') as day, dim1, actors::text
    from analytics_daily_total
    where tenant_id = ${tenantId} and metric = ${metric} and day between ${from}::date and ${to}::date
      and per = ${per} and (${dim1 ?? null}::text is null or dim1 = ${dim1 ?? null})
    order by day, dim1
  `.execute(trx)
  return rows.map((r) => ({ day: r.day, dim1: r.dim1, dim2: '', events: 0, actors: Number(r.actors), amount: 0 }))
}
