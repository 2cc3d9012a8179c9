import { describe, expect, it } from 'vitest'
import { type CurrencyRate, convertAmount, quoteFigures } from './quotes.ts'

// Rates to CNY as the tenant's exchange-rate table gives them, with ISO 4217 minor units (JPY and KRW have none).
const rates = new Map<string, CurrencyRate>([
  ['CNY', { rateToCny: '1', minorUnits: 2 }],
  ['USD', { rateToCny: '7.1', minorUnits: 2 }],
  ['JPY', { rateToCny: '0.048', minorUnits: 0 }],
  ['KRW', { rateToCny: '0.0052', minorUnits: 0 }],
])

// One quote with a line in each currency; every expected figure below is worked out by hand.
const lines = [
  { quantity: '3', unitPrice: '19.995', currency: 'USD' }, // 59.985 → 59.99
  { quantity: '3', unitPrice: '1234.5', currency: 'JPY' }, // 3703.5 → 3704 yen, not 3703.50
  { quantity: '1.5', unitPrice: '33333', currency: 'KRW' }, // 49999.5 → 50000 won
  { quantity: '0.5', unitPrice: '0.01', currency: 'CNY' }, // 0.005 → 0.01
  { quantity: '1', unitPrice: '0.01', currency: 'USD' },
  { quantity: '', unitPrice: '80', currency: 'USD' }, // not filled in yet
]

describe('a quote line amount', () => {
  it('is quantity × unit price rounded half up to the line currency’s minor units: none for JPY and KRW', () => {
    expect(quoteFigures(lines, 'CNY', rates).amounts).toEqual(['59.99', '3704', '50000', '0.01', '0.01', null])
  })

  it('rounds a yen or won half away from zero, and a negative line (a discount) the same way', () => {
    const figures = quoteFigures(
      [
        { quantity: '1', unitPrice: '0.5', currency: 'JPY' },
        { quantity: '1', unitPrice: '0.49', currency: 'KRW' },
        { quantity: '1', unitPrice: '-2.5', currency: 'JPY' },
        { quantity: '1', unitPrice: '-0.125', currency: 'CNY' },
      ],
      'JPY',
      rates,
    )
    expect(figures.amounts).toEqual(['1', '0', '-3', '-0.13'])
  })

  it('is null until quantity, unit price and currency are all there and decimal', () => {
    const figures = quoteFigures(
      [
        { quantity: '2', unitPrice: '10' },
        { quantity: 'two', unitPrice: '10', currency: 'USD' },
        { unitPrice: '10', currency: 'USD' },
        { quantity: 2, unitPrice: 10.25, currency: 'USD' },
      ],
      'USD',
      rates,
    )
    expect(figures.amounts).toEqual([null, null, null, '20.50'])
  })
})

describe('a quote’s subtotals and total', () => {
  it('adds the lines per currency, in the order the currencies first appear, each with its own places', () => {
    expect(quoteFigures(lines, 'CNY', rates).subtotals).toEqual([
      { currency: 'USD', amount: '60.00' },
      { currency: 'JPY', amount: '3704' },
      { currency: 'KRW', amount: '50000' },
      { currency: 'CNY', amount: '0.01' },
    ])
  })

  it('converts each subtotal into the quote’s currency, rounded to its places, and adds them', () => {
    // 60.00 × 7.1 = 426.00; 3704 × 0.048 = 177.792 → 177.79; 50000 × 0.0052 = 260.00; 0.01
    expect(quoteFigures(lines, 'CNY', rates)).toMatchObject({ total: '863.80', missingRates: [] })
    // 426 ÷ 0.048 = 8875; 3704; 260 ÷ 0.048 = 5416.67 → 5417; 0.01 ÷ 0.048 = 0.21 → 0
    expect(quoteFigures(lines, 'JPY', rates)).toMatchObject({ total: '17996', missingRates: [] })
    // 426 ÷ 0.0052 = 81923.08 → 81923; 177.792 ÷ 0.0052 = 34190.77 → 34191; 50000; 0.01 ÷ 0.0052 = 1.92 → 2
    expect(quoteFigures(lines, 'KRW', rates)).toMatchObject({ total: '166116', missingRates: [] })
    // 60.00; 177.792 ÷ 7.1 = 25.041 → 25.04; 260 ÷ 7.1 = 36.619 → 36.62; 0.01 ÷ 7.1 = 0.0014 → 0.00
    expect(quoteFigures(lines, 'USD', rates)).toMatchObject({ total: '121.66', missingRates: [] })
  })

  it('has no total while a currency of the lines or of the quote has no rate, and names those currencies', () => {
    const euroLine = [...lines, { quantity: '1', unitPrice: '5', currency: 'EUR' }]
    expect(quoteFigures(euroLine, 'CNY', rates)).toMatchObject({ total: null, missingRates: ['EUR'] })
    expect(quoteFigures(lines, 'GBP', rates)).toMatchObject({ total: null, missingRates: ['GBP'] })
    expect(quoteFigures(lines, null, rates)).toMatchObject({ total: null, missingRates: [] })
  })
})

describe('an amount in another currency', () => {
  it('is the amount through both rates to CNY, rounded half up to the target’s places', () => {
    expect(convertAmount('100', 'USD', 'JPY', rates)).toBe('14792') // 710 ÷ 0.048 = 14791.67
    expect(convertAmount('14792', 'JPY', 'USD', rates)).toBe('100.00') // 710.016 ÷ 7.1 = 100.0023
    expect(convertAmount('1000', 'KRW', 'JPY', rates)).toBe('108') // 5.2 ÷ 0.048 = 108.33
    expect(convertAmount('12.345', 'CNY', 'CNY', rates)).toBe('12.35')
    expect(convertAmount('100', 'USD', 'EUR', rates)).toBeNull()
  })
})
