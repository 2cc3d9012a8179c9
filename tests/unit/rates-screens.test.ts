import { describe, expect, it } from 'vitest'
import { groupDigits } from '../../rules/decimal.ts'
import { priceProblem } from '../../runtime/flows/rates/price.ts'
import {
  addToSelection,
  COMPARE_LIMIT,
  comparisonMarks,
  comparisonPath,
  parseIds,
  parseSearch,
  readSelection,
  removeFromSelection,
  type Selection,
  searchParamsOf,
  sortedResults,
  viewOf,
  writeSelection,
} from '../../runtime/flows/rates/state.ts'
import { money, quoteMoney } from '../../runtime/flows/rates/texts.ts'
import type { PricedRate } from '../../runtime/flows/rates/types.ts'

function rate(id: number, over: Partial<PricedRate> = {}): PricedRate {
  return {
    id,
    rateNo: `FCL-${id}`,
    mode: 'FCL',
    carrier: 'COSU',
    carrierName: 'COSCO',
    origin: 'CNSHA',
    originName: 'Shanghai',
    destination: 'USLAX',
    destinationName: 'Los Angeles',
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
    transitDays: 16,
    cutOffDay: null,
    departureDays: [3],
    nextDeparture: '2026-03-04',
    rateCurrency: 'USD',
    chargeUnit: 'container',
    containerType: '45G1',
    chargeableQuantity: '1',
    freight: { unitPrice: '2000.00', amount: '2000.00', currency: 'USD' },
    total: '2000.30',
    currency: 'USD',
    totalsByCurrency: { USD: '2000.30' },
    charges: [
      {
        code: 'FRT',
        name: 'Ocean freight',
        category: 'freight',
        unit: 'container',
        quantity: '1',
        unitPrice: '2000.00',
        amount: '2000.00',
        currency: 'USD',
        converted: '2000.00',
      },
      {
        code: 'DOC',
        name: 'Documentation',
        category: 'origin',
        unit: 'shipment',
        quantity: '1',
        unitPrice: '0.10',
        amount: '0.10',
        currency: 'USD',
        converted: '0.10',
      },
      {
        code: 'ISP',
        name: 'ISPS',
        category: 'origin',
        unit: 'shipment',
        quantity: '1',
        unitPrice: '0.20',
        amount: '0.20',
        currency: 'USD',
        converted: '0.20',
      },
    ],
    remarks: null,
    ...over,
  }
}

describe('rate search state in the URL', () => {
  it('round-trips a search and leaves defaults out', () => {
    const state = parseSearch(
      new URLSearchParams(
        'origin=cnsha&destination=USLAX&containerType=22G1&sort=quickest&allIn=0&currency=EUR&page=2',
      ),
      'FCL',
    )
    expect(state).toMatchObject({
      origin: 'CNSHA',
      destination: 'USLAX',
      containerType: '22G1',
      sort: 'quickest',
      allIn: false,
      currency: 'EUR',
      page: 2,
    })
    expect(searchParamsOf(state, 'FCL').toString()).toBe(
      'origin=CNSHA&destination=USLAX&containerType=22G1&sort=quickest&allIn=0&currency=EUR&page=2',
    )
    expect(parseSearch(searchParamsOf(state, 'FCL'), 'FCL')).toEqual(state)
  })

  it("accepts the quick search's pol/pod and refuses what is not a code, a number or a listed value", () => {
    const state = parseSearch(
      new URLSearchParams('pol=CNSHA&pod=Los Angeles&containerType=99X9&sort=random&currency=XXX&cbm=-1'),
      'LCL',
    )
    expect(state.origin).toBe('CNSHA')
    expect(state.destination).toBe('')
    expect(state.containerType).toBe('45G1')
    expect(state.sort).toBe('cheapest')
    expect(state.currency).toBe('')
    expect(state.cbm).toBe('2')
  })
})

describe('how a result reads', () => {
  it('sums freight-only and major categories exactly (no float drift)', () => {
    const r = rate(1)
    expect(viewOf(r, 'all', true).total).toBe('2000.30')
    expect(viewOf(r, 'all', false)).toMatchObject({ total: '2000.00' })
    expect(viewOf(r, 'all', false).lines?.map((l) => l.code)).toEqual(['FRT'])
    expect(viewOf(r, 'major', true).categories).toEqual([
      { category: 'origin', amount: '0.30' },
      { category: 'freight', amount: '2000.00' },
    ])
    expect(viewOf(r, 'none', true)).toEqual({ total: '2000.30', lines: null, categories: null })
  })

  it('sorts cheapest, quickest and earliest', () => {
    const list = [
      rate(1, { total: '2500.00', transitDays: 12, nextDeparture: '2026-03-06', charges: [] }),
      rate(2, { total: '1999.99', transitDays: 20, nextDeparture: '2026-03-05', charges: [] }),
      rate(3, { total: '2100.00', transitDays: 14, nextDeparture: '2026-03-04', charges: [] }),
    ]
    const ids = (sort: 'cheapest' | 'quickest' | 'earliest') => sortedResults(list, sort, true).map((r) => r.rate.id)
    expect(ids('cheapest')).toEqual([2, 3, 1])
    expect(ids('quickest')).toEqual([1, 3, 2])
    expect(ids('earliest')).toEqual([3, 2, 1])
  })

  it('groups digits without touching the decimals', () => {
    expect(groupDigits('1234567.500')).toBe('1,234,567.500')
    expect(groupDigits('999')).toBe('999')
    expect(groupDigits('-1000.1')).toBe('-1,000.1')
    expect(groupDigits('n/a')).toBe('n/a')
  })

  it('shows rates with their three places and quotes without a third that is zero', () => {
    expect(money('1915.710', 'USD')).toBe('USD 1,915.710')
    expect(quoteMoney('8108.150', 'USD')).toBe('USD 8,108.15')
    expect(quoteMoney('333.333', 'USD')).toBe('USD 333.333')
    expect(quoteMoney('2150.00', 'CNY')).toBe('CNY 2,150.00')
    expect(quoteMoney(null, 'USD')).toBe('—')
  })
})

describe('comparison selection', () => {
  it('takes at most four, refuses a fifth and a duplicate, and starts again for another cargo', () => {
    let selection: Selection = { ids: [], query: { containerType: '45G1' } }
    for (const id of [11, 12, 13, 14]) {
      const outcome = addToSelection(selection, id, { containerType: '45G1' })
      expect(outcome.ok).toBe(true)
      if (outcome.ok) selection = outcome.selection
    }
    expect(selection.ids).toHaveLength(COMPARE_LIMIT)
    expect(addToSelection(selection, 15, { containerType: '45G1' })).toEqual({ ok: false, reason: 'full' })
    expect(addToSelection(selection, 12, { containerType: '45G1' })).toEqual({ ok: false, reason: 'already' })
    const other = addToSelection(selection, 15, { containerType: '22G1' })
    expect(other.ok && other.selection.ids).toEqual([15])
    expect(removeFromSelection(selection, 12).ids).toEqual([11, 13, 14])
    expect(comparisonPath('LCL', { ids: [1, 2], query: { cbm: '3' } })).toBe(
      '/lclFreightRatesContrastTable?cbm=3&ids=1%2C2',
    )
  })

  it('reads ids from a URL and storage defensively', () => {
    expect(parseIds('3,3,x,-1,7,8,9,10')).toEqual([3, 7, 8, 9])
    const store = new Map<string, string>()
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    }
    writeSelection(storage, 'AIR', { ids: [5, 6], query: { weightKg: '100' } })
    expect(readSelection(storage, 'AIR')).toEqual({ ids: [5, 6], query: { weightKg: '100' } })
    expect(readSelection(storage, 'FCL')).toEqual({ ids: [], query: {} })
    store.set('waybill.rateComparison.FCL', '{broken')
    expect(readSelection(storage, 'FCL')).toEqual({ ids: [], query: {} })
  })
})

describe('comparison highlighting', () => {
  it('marks the cheapest (exactly, ties included), the fastest and the rows that differ', () => {
    const marks = comparisonMarks(
      [
        { id: 1, total: '2000.10', transitDays: 18 },
        { id: 2, total: '2000.1', transitDays: 14 },
        { id: 3, total: '10000.00', transitDays: 14 },
      ],
      { carrier: ['COSU', 'MAEU', 'COSU'], lane: ['CNSHA → USLAX', 'CNSHA → USLAX', 'CNSHA → USLAX'] },
    )
    expect([...marks.cheapest]).toEqual([1, 2])
    expect([...marks.fastest]).toEqual([2, 3])
    expect([...marks.differs]).toEqual(['carrier'])
  })

  it('marks nothing with a single rate', () => {
    const marks = comparisonMarks([{ id: 1, total: '1', transitDays: 1 }], { carrier: ['COSU'] })
    expect(marks.cheapest.size + marks.fastest.size + marks.differs.size).toBe(0)
  })
})

describe('special-rate price', () => {
  it('takes at most 3 decimals and 10 digits, above zero and below the list price', () => {
    expect(priceProblem('')).toBe('required')
    expect(priceProblem('1.2345')).toBe('format')
    expect(priceProblem('12345678901')).toBe('format')
    expect(priceProblem('0.000')).toBe('positive')
    expect(priceProblem('2000', '2000.00')).toBe('notBelow')
    expect(priceProblem('1999.999', '2000')).toBeNull()
  })
})
