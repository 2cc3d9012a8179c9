/**
 * A quote's money (SPEC §3 quote, §5 "amounts are exact decimals end to end"): each charge line's amount,
 * the subtotal per currency and the total in the quote's currency. Pure, over exact decimals
 * (rules/pricing.ts): the server stores what this answers (server/domain/quotes/totals.ts) and the quote
 * editor shows the same figures live before saving.
 */
import { toScaled } from './decimal.ts'
import { convert, format, multiply, roundScaled, scaled, sum } from './pricing.ts'

export interface QuoteLineInput {
  quantity?: unknown
  unitPrice?: unknown
  currency?: unknown
}

/** A currency's rate to CNY on the quote's day and its minor units (0 for JPY and KRW). */
export interface CurrencyRate {
  rateToCny: string
  minorUnits: number
}

export interface QuoteFigures {
  /** Per line, quantity × unit price rounded half up to the line currency's minor units; null while incomplete. */
  amounts: (string | null)[]
  /** Per currency of the lines, in the order they first appear. */
  subtotals: { currency: string; amount: string }[]
  /** The subtotals converted into the quote's currency (each rounded to its minor units) and added; null when a rate is missing. */
  total: string | null
  /** Currencies (of lines or the quote) without an exchange rate. */
  missingRates: string[]
}

const isDecimal = (value: unknown) => toScaled(value) !== undefined

export function quoteFigures(
  lines: readonly QuoteLineInput[],
  currency: string | null | undefined,
  rates: ReadonlyMap<string, CurrencyRate>,
): QuoteFigures {
  const minorOf = (code: string) => rates.get(code)?.minorUnits ?? 2
  const amounts = lines.map((line) => {
    if (!isDecimal(line.quantity) || !isDecimal(line.unitPrice) || typeof line.currency !== 'string' || !line.currency)
      return null
    const places = minorOf(line.currency)
    return format(roundScaled(multiply(scaled(line.quantity), scaled(line.unitPrice)), places), places)
  })
  const byCurrency = new Map<string, string[]>()
  lines.forEach((line, i) => {
    const amount = amounts[i]
    if (amount === null || amount === undefined) return
    const code = line.currency as string
    byCurrency.set(code, [...(byCurrency.get(code) ?? []), amount])
  })
  const subtotals = [...byCurrency].map(([code, list]) => ({ currency: code, amount: sum(list, minorOf(code)) }))
  const missingRates = [...new Set([...(currency ? [currency] : []), ...byCurrency.keys()])].filter(
    (code) => !rates.has(code),
  )
  const to = currency ? rates.get(currency) : undefined
  const total =
    to && !missingRates.length
      ? sum(
          subtotals.map((s) =>
            convert(s.amount, (rates.get(s.currency) as CurrencyRate).rateToCny, to.rateToCny, to.minorUnits),
          ),
          to.minorUnits,
        )
      : null
  return { amounts, subtotals, total, missingRates }
}

/** An amount of one currency in another (the amount due in the quote's currency); null without both rates. */
export function convertAmount(
  amount: string,
  from: string,
  to: string,
  rates: ReadonlyMap<string, CurrencyRate>,
): string | null {
  const a = rates.get(from)
  const b = rates.get(to)
  return a && b ? convert(amount, a.rateToCny, b.rateToCny, b.minorUnits) : null
}

/** The states a quote may still be edited in: not while the customer sees it, under review or after it is booked. */
export const EDITABLE_STATES: readonly string[] = ['draft', 'automatic', 'withdrawn']

/**
 * Whether a quote may be edited (server/domain/quotes/totals.ts refuses, the editor disables): in those states,
 * and once its reviewer turned it back (state rejected, review rejected; a quote the customer rejected is not).
 */
export function quoteEditable(quote: { state?: unknown; review?: unknown }): boolean {
  return EDITABLE_STATES.includes(quote.state as string) || (quote.state === 'rejected' && quote.review === 'rejected')
}
