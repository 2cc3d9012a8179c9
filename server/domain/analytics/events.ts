import { sql, type Transaction } from 'kysely'
import { groupDim } from '../../../model/chart.ts'
import type { Day } from '../../../rules/calendar.ts'
import type { DB } from '../../db/schema.ts'
import type { EffectContext } from '../../engine/index.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { INQUIRY_ASK } from './portrait.ts'
import { type Metric, tally, tallyOn } from './rollup.ts'

/**
 * The events the analytics charts count besides page visits (issue #28), each tallied in the transaction that
 * records it, so a chart never waits for a batch: a hook in the handler is one line calling one of these.
 */

/**
 * What a user asked for, kept per user (migration 0040 analytics_user_ask; UserPortrait's asks): the first and the
 * last tenant-local day they asked for it. A later day moves the last (a day already there writes nothing); an
 * earlier one — a late event — the first.
 */
async function recordAsk(trx: Transaction<DB>, tenantId: number, userId: number, ask: string, day: Day): Promise<void> {
  await sql`
    insert into analytics_user_ask as a (tenant_id, user_id, mode, first_day, last_day)
    values (${tenantId}, ${userId}, ${ask.slice(0, 40)}, ${day}::date, ${day}::date)
    on conflict (tenant_id, user_id, mode) do update set
      first_day = least(a.first_day, excluded.first_day), last_day = greatest(a.last_day, excluded.last_day)
    where excluded.first_day < a.first_day or excluded.last_day > a.last_day`.execute(trx)
}

/**
 * A signed-in user's rate search (rateSearch): one search of its mode by the user on the tenant's day — the
 * DailyQueryUsers roll-up — and the mode among what the user asks for.
 */
export async function tallyRateSearch(
  trx: Transaction<DB>,
  tenantId: number,
  day: Day,
  userId: number,
  mode: string,
): Promise<void> {
  await tallyOn(trx, tenantId, day, { metric: 'rateQuery', dim1: mode, actor: `user:${userId}` })
  if (mode) await recordAsk(trx, tenantId, userId, mode, day)
}

/** inquiry, create (engine effect `tallyInquiry`): its sender asks for a quote — UserPortrait's `inquiry`. */
export async function tallyInquiry({ trx, call, after: inquiry, at }: EffectContext): Promise<void> {
  const sender = Number(inquiry.createdBy ?? call.session.userId)
  if (!Number.isInteger(sender) || sender < 1) return
  await recordAsk(trx, call.tenantId, sender, INQUIRY_ASK, await tenantDay(trx, call.tenantId, at))
}

/** Who ordered: the ordering company, else (a personal user) the user. */
const orderActor = (order: Record<string, unknown>) =>
  order.customerCompany ? `company:${order.customerCompany}` : `user:${order.createdBy}`

/** order, submit (engine effect `tallyOrder`): one order placed, by mode and lane (POL-POD). Drafts never count. */
export async function tallyOrder({ trx, call, after: order, at }: EffectContext): Promise<void> {
  await tally(trx, call.tenantId, {
    metric: 'order',
    at,
    dim1: String(order.containerLoadType ?? ''),
    dim2: `${order.pol ?? ''}-${order.pod ?? ''}`,
    actor: orderActor(order),
  })
}

export interface ChargeLine {
  currency?: unknown
  amount?: unknown
  /** origin, freight or destination (schemas/orderCharge.yaml). */
  category?: unknown
}

/** Sums charge lines per currency in minor-unit-safe steps (amounts are decimal strings of at most 4 places). */
function perCurrency(lines: readonly ChargeLine[]): Map<string, number> {
  const sums = new Map<string, number>()
  for (const line of lines) {
    const currency = String(line.currency ?? '')
    sums.set(currency, (sums.get(currency) ?? 0) + Math.round(Number(line.amount ?? 0) * 10_000))
  }
  return sums
}

/**
 * An order's charge lines replaced (adjustOrderCharge): orderAmount moves by the change of each currency's sum —
 * dim1 the currency, dim2 the order's mode — so the amounts charted per day are the amounts set that day, never
 * summed across currencies. The reviews move the same way, by lane and by customer: bookingAmount with every
 * charge (BookingReview), freightAmount with the freight charges only (FreightReview). A personal user's order is
 * its user's (`customer:user:<id>`).
 */
export async function tallyOrderAmount(
  trx: Transaction<DB>,
  tenantId: number,
  order: Record<string, unknown>,
  before: readonly ChargeLine[],
  after: readonly ChargeLine[],
): Promise<void> {
  const actor = orderActor(order)
  const lane = `${order.pol ?? ''}-${order.pod ?? ''}`
  const customer = order.customerCompany ? String(order.customerCompany) : `user:${order.createdBy}`
  const freight = (lines: readonly ChargeLine[]) => lines.filter((line) => line.category === 'freight')
  const moves: [Metric, string, Map<string, number>, Map<string, number>][] = [
    ['orderAmount', String(order.containerLoadType ?? ''), perCurrency(before), perCurrency(after)],
    ['bookingAmount', '', perCurrency(before), perCurrency(after)],
    ['freightAmount', '', perCurrency(freight(before)), perCurrency(freight(after))],
  ]
  for (const [metric, mode, old, fresh] of moves)
    for (const currency of new Set([...old.keys(), ...fresh.keys()])) {
      const change = (fresh.get(currency) ?? 0) - (old.get(currency) ?? 0)
      if (change === 0) continue
      const amount = change / 10_000
      // orderAmount per mode (DailyTransactionAmount); the reviews per lane and per customer, a row for each group.
      const dims = metric === 'orderAmount' ? [mode] : [groupDim('lane', lane), groupDim('customer', customer)]
      for (const dim2 of dims) await tally(trx, tenantId, { metric, dim1: currency, dim2, actor, amount })
    }
}
