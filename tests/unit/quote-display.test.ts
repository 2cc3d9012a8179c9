import { describe, expect, it } from 'vitest'
import { DEFAULT_QUOTE_DISPLAY, quoteDisplayOf, shapeQuote } from '../../rules/quoteDisplay.ts'

/** A sea quote in USD with yen and yuan lines: what a Tokyo-bound forwarder's quote looks like. */
const LINES = [
  { chargeType: 'origin', name: 'Terminal handling', currency: 'CNY', amount: '2550.00' },
  { chargeType: 'freight', name: 'Ocean freight 40HQ', currency: 'USD', amount: '3701.00' },
  { chargeType: 'destination', name: 'Delivery Tokyo', currency: 'JPY', amount: '45000' },
  { chargeType: 'freight', name: 'Bunker surcharge', currency: 'USD', amount: '120.50' },
  { chargeType: 'destination', name: 'Customs clearance Tokyo', currency: 'JPY', amount: '18001' },
  { chargeType: 'origin', name: 'Documentation', currency: 'CNY', amount: '450.00' },
]
const QUOTE = { charges: LINES, total: '4609.560', freightTotal: '3821.500' }
const ORDER = ['freight', 'origin', 'destination', 'customs', 'warehouse', 'trucking', 'insurance', 'other']

describe('quoteDisplayOf', () => {
  it('reads the two settings and keeps the default for a missing or unknown value', () => {
    expect(quoteDisplayOf({ quoteDisplayItems: 'category', quoteDisplayCharges: 'freightOnly' })).toEqual({
      items: 'category',
      charges: 'freightOnly',
    })
    expect(quoteDisplayOf({ quoteDisplayItems: 'some', quoteDisplayCharges: 3 })).toEqual(DEFAULT_QUOTE_DISPLAY)
    expect(quoteDisplayOf(null)).toEqual({ items: 'every', charges: 'allIn' })
  })
})

describe('shapeQuote', () => {
  it('every item, all-in: every line, the stored total, subtotals per currency in the order they appear', () => {
    const shown = shapeQuote(QUOTE, { items: 'every', charges: 'allIn' }, ORDER)
    expect(shown.charges.map((c) => c.name)).toEqual(LINES.map((c) => c.name))
    expect(shown.categories).toEqual([])
    expect(shown.subtotals).toEqual([
      { currency: 'CNY', amount: '3000.00' },
      { currency: 'USD', amount: '3821.50' },
      { currency: 'JPY', amount: '63001' },
    ])
    expect(shown.total).toBe('4609.560')
  })

  it('major category only: one sum per category and currency, in the YAML order, yen kept whole', () => {
    const shown = shapeQuote(QUOTE, { items: 'category', charges: 'allIn' }, ORDER)
    expect(shown.charges).toEqual([])
    expect(shown.categories).toEqual([
      { chargeType: 'freight', currency: 'USD', amount: '3821.50' },
      { chargeType: 'origin', currency: 'CNY', amount: '3000.00' },
      { chargeType: 'destination', currency: 'JPY', amount: '63001' },
    ])
    expect(shown.total).toBe('4609.560')
  })

  it('a category in two currencies is two sums, never one across currencies', () => {
    const lines = [...LINES, { chargeType: 'origin', name: 'Loading Shanghai', currency: 'USD', amount: '80.00' }]
    const shown = shapeQuote({ ...QUOTE, charges: lines }, { items: 'category', charges: 'allIn' }, ORDER)
    expect(shown.categories.filter((c) => c.chargeType === 'origin')).toEqual([
      { chargeType: 'origin', currency: 'CNY', amount: '3000.00' },
      { chargeType: 'origin', currency: 'USD', amount: '80.00' },
    ])
  })

  it('none: no line and no category, only the subtotals and the total', () => {
    const shown = shapeQuote(QUOTE, { items: 'none', charges: 'allIn' }, ORDER)
    expect([shown.charges, shown.categories]).toEqual([[], []])
    expect(shown.subtotals).toHaveLength(3)
    expect(shown.total).toBe('4609.560')
  })

  it('freight only: only the freight lines count, and the total is the freight total the server converted', () => {
    const every = shapeQuote(QUOTE, { items: 'every', charges: 'freightOnly' }, ORDER)
    expect(every.charges.map((c) => c.name)).toEqual(['Ocean freight 40HQ', 'Bunker surcharge'])
    expect(every.subtotals).toEqual([{ currency: 'USD', amount: '3821.50' }])
    expect(every.total).toBe('3821.500')
    const byCategory = shapeQuote(QUOTE, { items: 'category', charges: 'freightOnly' }, ORDER)
    expect(byCategory.categories).toEqual([{ chargeType: 'freight', currency: 'USD', amount: '3821.50' }])
  })
})
