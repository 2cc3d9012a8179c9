import { describe, expect, it } from 'vitest'
import {
  airFreight,
  applyMarkup,
  chargeableWeightKg,
  compareRates,
  convert,
  lclFreight,
  nextDeparture,
  revenueTons,
  sum,
} from '../../rules/pricing.ts'

describe('chargeable weight (air)', () => {
  it('is the greater of actual and volume weight (CBM × 1 000 000 ÷ 6000), up to the next half kg', () => {
    expect(chargeableWeightKg('100', '1')).toBe('167.0') // 166.67 kg of volume → 167.0
    expect(chargeableWeightKg('200.2', '1')).toBe('200.5')
    expect(chargeableWeightKg('10', '0.06')).toBe('10.0') // 0.06 CBM = 10 kg exactly
    expect(chargeableWeightKg('0', '0.0601')).toBe('10.5')
  })
})

describe('weight or measure (LCL)', () => {
  it('charges the greater of CBM and metric tons, never under the minimum', () => {
    expect(revenueTons('2.5', '1800')).toBe('2.500')
    expect(revenueTons('1.2', '3450')).toBe('3.450')
    expect(lclFreight('2.5', '1800', { perCbm: '40', perTon: '44', minimum: '40' })).toBe('100.00')
    expect(lclFreight('1.2', '3450', { perCbm: '40', perTon: '44', minimum: '40' })).toBe('151.80')
    expect(lclFreight('0.3', '50', { perCbm: '40', minimum: '40' })).toBe('40.00')
  })
})

describe('air freight by weight break', () => {
  const breaks = [
    { minKg: 45, price: '30' },
    { minKg: 100, price: '27' },
    { minKg: 300, price: '24.6' },
  ]
  it('takes the break the weight reaches, the next break when cheaper, and the minimum', () => {
    expect(airFreight('50', breaks)).toBe('1500.00')
    expect(airFreight('95', breaks)).toBe('2700.00') // 95 × 30 = 2850 > 100 × 27
    expect(airFreight('320', breaks)).toBe('7872.00')
    expect(airFreight('5', breaks, '400')).toBe('400.00')
  })
})

describe('exact money', () => {
  it('adds decimals exactly where floats drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3)
    expect(sum(['0.10', '0.20'])).toBe('0.30')
    expect(sum(['2060', '0.1', '0.2'])).toBe('2060.30')
  })
  it('applies a markup and rounds half up to cents', () => {
    expect(applyMarkup('2000', 3)).toBe('2060.00')
    expect(applyMarkup('1.005', 0)).toBe('1.01')
    expect(applyMarkup('99.99', '-2.5')).toBe('97.49')
  })
  it('converts through CNY rates to the target minor units', () => {
    expect(convert('2060.00', '7.1200', '7.7850')).toBe('1884.03')
    expect(convert('1100', '1', '7.7850')).toBe('141.30')
    expect(convert('100', '7.1200', '0.047350', 0)).toBe('15037')
    expect(convert('12.345', '1', '1')).toBe('12.35')
  })
})

describe('departures and sorting', () => {
  it('finds the next sailing on the rate weekdays within its validity', () => {
    // 2026-03-02 is a Monday.
    expect(nextDeparture('2026-03-02', [3, 6])).toBe('2026-03-04')
    expect(nextDeparture('2026-03-05', [3, 6])).toBe('2026-03-07')
    expect(nextDeparture('2026-03-05', [3], '2026-03-10')).toBe(null)
    expect(nextDeparture('2026-03-05', [])).toBe('2026-03-05')
  })
  it('sorts cheapest, quickest and earliest with stable ties', () => {
    const rates = [
      { id: 1, total: '100.10', transitDays: 20, nextDeparture: '2026-03-05' },
      { id: 2, total: '100.09', transitDays: 30, nextDeparture: '2026-03-03' },
      { id: 3, total: '100.10', transitDays: 20, nextDeparture: null },
    ]
    expect([...rates].sort(compareRates('cheapest')).map((r) => r.id)).toEqual([2, 1, 3])
    expect([...rates].sort(compareRates('quickest')).map((r) => r.id)).toEqual([1, 3, 2])
    expect([...rates].sort(compareRates('earliest')).map((r) => r.id)).toEqual([2, 1, 3])
  })
})
