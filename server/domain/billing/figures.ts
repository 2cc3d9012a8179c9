import { minorUnits } from '../../../rules/currencies.ts'
import { format, multiply, roundScaled, scaled } from '../../../rules/pricing.ts'

/**
 * A bill's money (issue #24), pure and exact (rules/pricing.ts): each line's tax and amount in its own
 * currency's minor units, and the totals per currency with what was paid and what is still open. Nothing is
 * converted: a bill in USD and CNY has a USD total and a CNY total.
 */

export interface BillLine {
  chargeName: string
  unit: string
  quantity: number | string
  unitPrice: string
  currency: string
  taxRate?: number | string | null
  tax?: string
  amount?: string
}

export interface BillTotal {
  currency: string
  amount: string
  paid: string
  open: string
}

const HUNDRED = scaled('100')

/** The line with its tax (net × rate %, rounded half up) and amount (net + tax), net = quantity × unit price rounded. */
export function pricedLine(line: BillLine): BillLine & { tax: string; amount: string } {
  const places = minorUnits(line.currency)
  const net = roundScaled(multiply(scaled(line.quantity), scaled(line.unitPrice)), places)
  const rate = line.taxRate === null || line.taxRate === undefined || line.taxRate === '' ? 0n : scaled(line.taxRate)
  // net × rate ÷ 100, exact to 10^-6 before rounding: rate / 100 keeps at most 4 decimals, net at most 2.
  const tax = roundScaled((net * rate) / HUNDRED, places)
  return { ...line, tax: format(tax, places), amount: format(net + tax, places) }
}

/**
 * The totals per currency of priced lines, in the order each currency first appears; what was paid before in a
 * currency (a payment recorded, a write-off) is kept and the open amount is the rest.
 */
export function billTotals(lines: readonly { currency: string; amount: string }[], paid: ReadonlyMap<string, string>) {
  const sums = new Map<string, bigint>()
  for (const line of lines) sums.set(line.currency, (sums.get(line.currency) ?? 0n) + scaled(line.amount))
  return [...sums].map(([currency, amount]): BillTotal => {
    const places = minorUnits(currency)
    const settled = scaled(paid.get(currency) ?? '0')
    return {
      currency,
      amount: format(amount, places),
      paid: format(settled, places),
      open: format(amount - settled, places),
    }
  })
}
