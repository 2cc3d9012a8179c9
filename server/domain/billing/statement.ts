import { minorUnits } from '../../../rules/currencies.ts'
import { convert, format, scaled } from '../../../rules/pricing.ts'

/**
 * A customer's statement (issue #24), pure: the confirmed bills, each currency's balance — what the customer owes
 * on receivable bills less what the forwarder owes them on payable ones — and, only when a rate date is named, the
 * balances converted at that day's rates with each rate shown. Every figure is exact to the currency's minor units,
 * so a currency's billed less paid is its open balance to the cent.
 */

export interface StatementBill {
  billingNo: string
  billingType: 'receivable' | 'payable'
  inputDate: string
  age: number
  currency: string
  amount: string
  paid: string
  open: string
}

export interface StatementBalance {
  currency: string
  billed: string
  paid: string
  open: string
}

export interface Conversion {
  rateDate: string
  target: string
  rates: { currency: string; rateToCny: string }[]
  lines: { currency: string; open: string; converted: string }[]
  total: string
}

const sign = (bill: StatementBill) => (bill.billingType === 'payable' ? -1n : 1n)

/** Each currency's billed, paid and open, receivable less payable, in the order the currencies first appear. */
export function balances(bills: readonly StatementBill[]): StatementBalance[] {
  const sums = new Map<string, { billed: bigint; paid: bigint; open: bigint }>()
  for (const bill of bills) {
    const sum = sums.get(bill.currency) ?? { billed: 0n, paid: 0n, open: 0n }
    sum.billed += sign(bill) * scaled(bill.amount)
    sum.paid += sign(bill) * scaled(bill.paid)
    sum.open += sign(bill) * scaled(bill.open)
    sums.set(bill.currency, sum)
  }
  return [...sums].map(([currency, sum]) => {
    const places = minorUnits(currency)
    return {
      currency,
      billed: format(sum.billed, places),
      paid: format(sum.paid, places),
      open: format(sum.open, places),
    }
  })
}

/**
 * The open balances in one currency at the rates of a day (each currency's rate to CNY in force then): null when a
 * currency has no rate that day — never a guess.
 */
export function converted(
  list: readonly StatementBalance[],
  target: string,
  rateDate: string,
  rates: ReadonlyMap<string, { rateToCny: string }>,
): Conversion | null {
  const to = rates.get(target)
  if (!to) return null
  const places = minorUnits(target)
  const lines = []
  for (const balance of list) {
    const from = rates.get(balance.currency)
    if (!from) return null
    lines.push({
      currency: balance.currency,
      open: balance.open,
      converted: convert(balance.open, from.rateToCny, to.rateToCny, places),
    })
  }
  const total = format(
    lines.reduce((sum, line) => sum + scaled(line.converted), 0n),
    places,
  )
  const used = [...new Set([...list.map((b) => b.currency), target])]
  return {
    rateDate,
    target,
    rates: used.map((currency) => ({ currency, rateToCny: (rates.get(currency) as { rateToCny: string }).rateToCny })),
    lines,
    total,
  }
}

/** The ageing bucket of an open amount by its days: 0–30, 31–60, 61–90, over 90. */
export function bucketOf(age: number): 'days0to30' | 'days31to60' | 'days61to90' | 'daysOver90' {
  if (age <= 30) return 'days0to30'
  if (age <= 60) return 'days31to60'
  if (age <= 90) return 'days61to90'
  return 'daysOver90'
}
