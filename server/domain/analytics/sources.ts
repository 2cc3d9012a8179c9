import { sql, type Transaction } from 'kysely'
import { type ChartDef, type ChartGroupDef, groupDim, MAX_CATEGORIES } from '../../../model/chart.ts'
import type { Day } from '../../../rules/calendar.ts'
import type { DB } from '../../db/schema.ts'

/**
 * Where a grouped chart's rows come from (issue #28; model/chart.ts `groups`, `source`): a value per series key
 * (dim1: a currency; '' when the chart has no series dimension) and category (a lane, a customer, a region), totalled
 * over the window. From the roll-ups by default; a chart naming a `source` reads one a domain module registered
 * (UserPortrait's personal users are a stock of users, not a sum of days).
 */
export interface GroupRow {
  dim1: string
  category: string
  events: number
  actors: number
  amount: number
}

export interface GroupQuery {
  from: Day
  to: Day
  group: ChartGroupDef
  chart: ChartDef
  /** The measure's metric being read (a source may answer several). */
  metric: string
}

export type ChartSource = (trx: Transaction<DB>, tenantId: number, query: GroupQuery) => Promise<GroupRow[]>

const sources = new Map<string, ChartSource>()

/** A domain module's chart source, by the name model/chart.ts CHART_SOURCES lists with its metrics. */
export function registerChartSource(name: string, source: ChartSource): void {
  sources.set(name, source)
}

export function chartSource(name: string): ChartSource | undefined {
  return sources.get(name)
}

/**
 * A grouped chart's rows from the roll-ups: the metric's rows whose dim2 is `<group>:<value>`, summed over the
 * window's days per (dim1, value) — at most MAX_CATEGORIES values per dim1, the largest first (the answer keeps the
 * largest categories anyway). The rows are a range of (tenant, metric, day) in the roll-up's key.
 */
export async function rollupGroupRows(
  trx: Transaction<DB>,
  tenantId: number,
  { from, to, group, metric }: GroupQuery,
): Promise<GroupRow[]> {
  const prefix = groupDim(group.name, '')
  const { rows } = await sql<{ dim1: string; category: string; events: string; actors: string; amount: string }>`
    select dim1, category, events::text, actors::text, amount::text from (
      select dim1, substr(dim2, ${prefix.length + 1}) as category,
        sum(events) as events, sum(actors) as actors, sum(amount) as amount,
        row_number() over (partition by dim1 order by sum(amount) desc, sum(events) desc, substr(dim2, ${prefix.length + 1})) as rank
      from analytics_daily
      where tenant_id = ${tenantId} and metric = ${metric} and day between ${from}::date and ${to}::date
        and left(dim2, ${prefix.length}) = ${prefix}
      group by dim1, dim2
    ) ranked
    where rank <= ${MAX_CATEGORIES}
  `.execute(trx)
  return rows.map((r) => ({
    dim1: r.dim1,
    category: r.category,
    events: Number(r.events),
    actors: Number(r.actors),
    amount: Number(r.amount),
  }))
}
