import { describe, expect, it } from 'vitest'
import { createAjv } from './ajv.ts'
import { decimalExclusiveMinimum, decimalMaximum, decimalMinimum, decimals, itemsIn, startsWith } from './keywords.ts'

// Money travels as decimal strings; these bounds compare them exactly, never as floats.
describe('money bounds', () => {
  it('minimum takes the limit itself and anything above, however it is written', () => {
    expect(decimalMinimum('0', 0)).toBe(true)
    expect(decimalMinimum('0.00', 0)).toBe(true)
    expect(decimalMinimum('0.01', 0)).toBe(true)
    expect(decimalMinimum('-0.01', 0)).toBe(false)
    expect(decimalMinimum('1000', 1000)).toBe(true)
    expect(decimalMinimum('999', 1000)).toBe(false)
  })

  it('exclusive minimum refuses the limit itself: a price of 0 is no price', () => {
    expect(decimalExclusiveMinimum('0', 0)).toBe(false)
    expect(decimalExclusiveMinimum('0.00', 0)).toBe(false)
    expect(decimalExclusiveMinimum('0.01', 0)).toBe(true)
    expect(decimalExclusiveMinimum('0.000001', 0)).toBe(true)
    expect(decimalExclusiveMinimum('-1', 0)).toBe(false)
    expect(decimalExclusiveMinimum('1', 1)).toBe(false)
    expect(decimalExclusiveMinimum('1.000001', 1)).toBe(true)
  })

  it('maximum takes the limit itself and anything below, past where a float would blur them', () => {
    expect(decimalMaximum('9999999999.99', 9999999999.99)).toBe(true)
    expect(decimalMaximum('10000000000.00', 9999999999.99)).toBe(false)
    expect(decimalMaximum('9999999999.999999', 9999999999.99)).toBe(false)
    expect(decimalMaximum('-5', 0)).toBe(true)
  })

  it('leaves what is not a decimal to the type check', () => {
    for (const check of [decimalMinimum, decimalExclusiveMinimum, decimalMaximum]) {
      expect(check('abc', 0)).toBe(true)
      expect(check(undefined, 0)).toBe(true)
    }
  })
})

describe('decimal places', () => {
  it('counts the digits after the point as written: none for a yen or won amount, two for CNY and USD', () => {
    expect(decimals('1234', 0)).toBe(true) // JPY
    expect(decimals('1234.5', 0)).toBe(false) // half a yen
    expect(decimals('50000', 0)).toBe(true) // KRW
    expect(decimals('19.99', 2)).toBe(true) // USD
    expect(decimals('19.995', 2)).toBe(false)
    expect(decimals('19.90', 2)).toBe(true)
    expect(decimals('19.900', 2)).toBe(false) // a third place, even a zero
    expect(decimals(19.9, 2)).toBe(true)
    expect(decimals(0.125, 2)).toBe(false)
  })
})

describe('the money keywords in a schema', () => {
  const validate = createAjv().compile({
    type: 'object',
    properties: {
      unitPrice: { type: 'string', wbDecimalExclusiveMinimum: 0, wbDecimalMaximum: 1000000, wbDecimals: 2 },
      discount: { type: 'string', wbDecimalMinimum: 0 },
      yen: { type: 'string', wbDecimals: 0 },
    },
  })
  const errorsOf = (data: object) => {
    validate(data)
    return (validate.errors ?? []).map((e) => [e.instancePath, e.keyword, e.params])
  }

  it('reports each broken bound with its keyword and limit, as JSON Schema reports its own', () => {
    expect(errorsOf({ unitPrice: '12.50', discount: '0', yen: '1500' })).toEqual([])
    expect(errorsOf({ unitPrice: '0.00', discount: '-0.01', yen: '1500.5' })).toEqual([
      ['/unitPrice', 'wbDecimalExclusiveMinimum', { limit: 0 }],
      ['/discount', 'wbDecimalMinimum', { limit: 0 }],
      ['/yen', 'wbDecimals', { limit: 0 }],
    ])
    expect(errorsOf({ unitPrice: '1000000.001' })).toEqual([
      ['/unitPrice', 'wbDecimals', { limit: 2 }],
      ['/unitPrice', 'wbDecimalMaximum', { limit: 1000000 }],
    ])
  })
})

describe('startsWith', () => {
  const rule = { field: 'uldNo', other: 'uldType' }
  it('holds when the text begins with the other value, or either is empty', () => {
    expect(startsWith({ uldNo: 'AKE12345CA', uldType: 'AKE' }, rule)).toBe(true)
    expect(startsWith({ uldNo: 'PMC12345CA', uldType: 'AKE' }, rule)).toBe(false)
    expect(startsWith({ uldNo: 'AKE12345CA' }, rule)).toBe(true)
    expect(startsWith({ uldType: 'AKE' }, rule)).toBe(true)
  })
})

describe('itemsIn', () => {
  const rule = { field: 'products', item: 'boxNo', of: 'boxes', key: 'boxNo' }
  const boxes = [{ boxNo: 'MH-001' }, { boxNo: 'MH-002' }]

  it('holds when every product names a box of the list, compared trimmed and case-blind', () => {
    expect(itemsIn({ boxes, products: [{ boxNo: 'MH-001' }, { boxNo: ' mh-002 ' }] }, rule)).toBe(true)
  })

  it('fails when a product names a box that is not in the list, or there is no list', () => {
    expect(itemsIn({ boxes, products: [{ boxNo: 'MH-001' }, { boxNo: 'MH-003' }] }, rule)).toBe(false)
    expect(itemsIn({ products: [{ boxNo: 'MH-001' }] }, rule)).toBe(false)
  })

  it('leaves a product without a box to its required check, and a record without products alone', () => {
    expect(itemsIn({ boxes, products: [{ boxNo: '' }, {}] }, rule)).toBe(true)
    expect(itemsIn({ boxes }, rule)).toBe(true)
  })
})
