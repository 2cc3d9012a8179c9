import type { Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EffectContext } from '../../engine/index.ts'
import { tally } from './rollup.ts'

/**
 * The events the analytics charts count besides page visits (issue #28), each tallied in the transaction that
 * records it, so a chart never waits for a batch: a hook in the handler is one line calling one of these.
 */

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
 * summed across currencies.
 */
export async function tallyOrderAmount(
  trx: Transaction<DB>,
  tenantId: number,
  order: Record<string, unknown>,
  before: readonly ChargeLine[],
  after: readonly ChargeLine[],
): Promise<void> {
  const old = perCurrency(before)
  const fresh = perCurrency(after)
  for (const currency of new Set([...old.keys(), ...fresh.keys()])) {
    const change = (fresh.get(currency) ?? 0) - (old.get(currency) ?? 0)
    if (change === 0) continue
    await tally(trx, tenantId, {
      metric: 'orderAmount',
      dim1: currency,
      dim2: String(order.containerLoadType ?? ''),
      actor: orderActor(order),
      amount: change / 10_000,
    })
  }
}
