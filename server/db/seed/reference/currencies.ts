import { code as iso4217 } from 'currency-codes'

/**
 * The currencies of SPEC §9. ISO 4217 numeric code, minor units and the ISO name come from the
 * `currency-codes` package (the ISO 4217 list one); Chinese names and symbols follow CLDR zh-CN usage.
 */

export const SPEC_CURRENCY_CODES = ['CNY', 'USD', 'JPY', 'EUR', 'GBP', 'HKD', 'KRW', 'AUD', 'CAD'] as const
export type CurrencyCode = (typeof SPEC_CURRENCY_CODES)[number]

export interface Currency {
  readonly code: CurrencyCode
  /** ISO 4217 numeric code as three digits, e.g. `036` for AUD. */
  readonly numeric: string
  /** Digits after the decimal point (ISO 4217 minor unit): 0 for JPY and KRW, 2 for the others here. */
  readonly minor_units: number
  /** Name as written in ISO 4217, e.g. `Yuan Renminbi`. */
  readonly iso_name: string
  readonly name_en: string
  readonly name_zh: string
  readonly symbol: string
}

const DISPLAY: Record<CurrencyCode, { name_en: string; name_zh: string; symbol: string }> = {
  CNY: { name_en: 'Chinese Yuan', name_zh: '人民币', symbol: '¥' },
  USD: { name_en: 'US Dollar', name_zh: '美元', symbol: 'US$' },
  JPY: { name_en: 'Japanese Yen', name_zh: '日元', symbol: 'JP¥' },
  EUR: { name_en: 'Euro', name_zh: '欧元', symbol: '€' },
  GBP: { name_en: 'British Pound', name_zh: '英镑', symbol: '£' },
  HKD: { name_en: 'Hong Kong Dollar', name_zh: '港元', symbol: 'HK$' },
  KRW: { name_en: 'South Korean Won', name_zh: '韩元', symbol: '₩' },
  AUD: { name_en: 'Australian Dollar', name_zh: '澳元', symbol: 'AU$' },
  CAD: { name_en: 'Canadian Dollar', name_zh: '加元', symbol: 'CA$' },
}

export const CURRENCIES: readonly Currency[] = Object.freeze(
  SPEC_CURRENCY_CODES.map((code) => {
    const record = iso4217(code)
    if (!record) throw new Error(`currency-codes has no ISO 4217 entry for ${code}; update the package`)
    return { code, numeric: record.number, minor_units: record.digits, iso_name: record.currency, ...DISPLAY[code] }
  }),
)

export interface ExchangeRate {
  readonly currency: CurrencyCode
  /** Amount of CNY for one unit of `currency`, as a decimal string with at most 6 decimals. */
  readonly rate_to_cny: string
  /** ISO date (YYYY-MM-DD) the rate applies from. */
  readonly effective_date: string
}

/** Date of the demo rate table below. */
export const DEMO_RATE_DATE = '2026-11-01'

/**
 * DEMO values for the seeded tenant: plausible, fixed so seeds and tests are deterministic, and NOT market
 * quotes. A real deployment loads its own rates.
 */
export const DEMO_EXCHANGE_RATES_TO_CNY: readonly ExchangeRate[] = Object.freeze(
  (
    [
      ['CNY', '1.000000'],
      ['USD', '7.1200'],
      ['JPY', '0.047350'],
      ['EUR', '7.7850'],
      ['GBP', '9.0520'],
      ['HKD', '0.915800'],
      ['KRW', '0.005120'],
      ['AUD', '4.6530'],
      ['CAD', '5.1180'],
    ] satisfies ReadonlyArray<readonly [CurrencyCode, string]>
  ).map(([currency, rate_to_cny]) => ({ currency, rate_to_cny, effective_date: DEMO_RATE_DATE })),
)
