import { describe, expect, it } from 'vitest'
import { MINOR_UNITS, minorUnits, significantDecimals } from '../../rules/currencies.ts'
import { currencyDecimals } from '../../rules/keywords.ts'
import { CURRENCIES } from '../../server/db/seed/reference/currencies.ts'

describe('currency minor units', () => {
  it('are the reference table’s, from ISO 4217', () => {
    expect(Object.fromEntries(CURRENCIES.map((c) => [c.code, c.minor_units]))).toEqual(MINOR_UNITS)
    expect(minorUnits('JPY')).toBe(0)
    expect(minorUnits('XXX')).toBe(2)
  })

  it('count the decimals an amount carries, trailing zeros aside', () => {
    expect(significantDecimals('100.00')).toBe(0)
    expect(significantDecimals('10.005')).toBe(3)
    expect(significantDecimals('12.50')).toBe(1)
    expect(significantDecimals(7)).toBe(0)
  })

  it('refuse an amount finer than its currency, on the record or on every row', () => {
    const flat = { field: 'amount', currency: 'currency' }
    expect(currencyDecimals({ amount: '10.05', currency: 'USD' }, flat)).toBe(true)
    expect(currencyDecimals({ amount: '10.005', currency: 'USD' }, flat)).toBe(false)
    expect(currencyDecimals({ amount: '100.5', currency: 'JPY' }, flat)).toBe(false)
    expect(currencyDecimals({ amount: '100.000', currency: 'JPY' }, flat)).toBe(true)
    const rows = { field: 'lines', item: 'unitPrice', currency: 'currency' }
    expect(currencyDecimals({ lines: [{ unitPrice: '1.25', currency: 'CNY' }] }, rows)).toBe(true)
    expect(
      currencyDecimals(
        {
          lines: [
            { unitPrice: '1.25', currency: 'CNY' },
            { unitPrice: '3.5', currency: 'KRW' },
          ],
        },
        rows,
      ),
    ).toBe(false)
  })
})
