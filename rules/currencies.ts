import { groupDigits } from './decimal.ts'

/**
 * ISO 4217 minor units of the SPEC §9 currencies: how many decimals an amount in each may have (JPY and KRW
 * none, the others two). A currency not listed keeps two. The reference table (server/db/seed/reference/
 * currencies.ts, from the `currency-codes` package) holds the same; tests/unit/currencies.test.ts holds them equal.
 * Pure and small, so the portal's validators and the server's share it.
 */
export const MINOR_UNITS: Readonly<Record<string, number>> = Object.freeze({
  AUD: 2,
  CAD: 2,
  CNY: 2,
  EUR: 2,
  GBP: 2,
  HKD: 2,
  JPY: 0,
  KRW: 0,
  USD: 2,
})

export const minorUnits = (currency: string): number => MINOR_UNITS[currency] ?? 2

/** Decimals an amount actually carries, trailing zeros aside ("100.00" JPY is a whole amount; "10.005" has 3). */
export function significantDecimals(amount: unknown): number {
  const text = typeof amount === 'number' ? String(amount) : String(amount ?? '')
  if (/e/i.test(text)) return 0
  const dot = text.indexOf('.')
  if (dot < 0) return 0
  return text.slice(dot + 1).replace(/0+$/, '').length
}

/**
 * Amounts per currency (a bill's totals: `[{ currency, amount, … }]`) as one line a reader reads, `JPY 48,350; USD
 * 3,700.00`, each amount exactly as stored, its digits grouped; undefined for anything else. One cell holds them in the list and in
 * the .xlsx export alike (server/engine/export/sheet.ts, runtime/screens/list/format.ts).
 */
export function amountsText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined
  const amounts = value.every(
    (item) => typeof item === 'object' && item !== null && 'currency' in item && 'amount' in item,
  )
  if (!amounts) return undefined
  return (value as { currency: unknown; amount: unknown }[])
    .map((i) => `${i.currency} ${groupDigits(String(i.amount))}`)
    .join('; ')
}
