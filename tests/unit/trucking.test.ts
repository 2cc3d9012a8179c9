import { describe, expect, it } from 'vitest'
import { pickUpLine, placeNamed, type TruckingFeeRow } from '../../server/domain/quotes/trucking.ts'

/**
 * The automatic quote's pick-up line (issue #25, server/domain/quotes/trucking.ts): which fee an address names
 * and how a fee prices the cargo, its minimum applied, in exact decimals of its currency.
 */

const fee = (overrides: Partial<TruckingFeeRow> = {}): TruckingFeeRow => ({
  charge_no: 'TK-HGH-SHA-L',
  name: 'Hangzhou → Shanghai CFS, loose',
  load_type: 'loose',
  calc_type: 'cbm',
  origin: 'Hangzhou/杭州',
  currency: 'CNY',
  charge_level: '90.00',
  minimum_amount: '450.00',
  ...overrides,
})

describe('the place a pick-up address names', () => {
  it('finds any of the origin names, Latin letters without case, and says how precisely', () => {
    expect(placeNamed('No. 88 Wenyi West Road, Xihu District, HANGZHOU', 'Hangzhou/杭州')).toBe(8)
    expect(placeNamed('浙江省杭州市萧山区建设一路 66 号', 'Hangzhou/杭州')).toBe(2)
    expect(placeNamed('Futian Road 1, Yiwu', 'Hangzhou/杭州')).toBe(0)
    // A district's fee names more of the address than its city's, so it is the more precise one.
    const address = '浙江省杭州市萧山区建设一路 66 号'
    expect(placeNamed(address, 'Xiaoshan District/萧山区')).toBe(3)
    expect(placeNamed(address, 'Xiaoshan District/萧山区')).toBeGreaterThan(placeNamed(address, 'Hangzhou/杭州'))
    expect(placeNamed('anywhere', ' / ')).toBe(0)
  })
})

describe('the pick-up line', () => {
  const cargo = { containers: 3, cbm: '12.350', weightKg: '8820.5' }

  it('prices the count of its calculation type at the charge level', () => {
    expect(pickUpLine(fee(), cargo, 2)).toMatchObject({ quantity: 12.35, unit: 'cbm', unitPrice: '90.00' })
    expect(pickUpLine(fee({ calc_type: 'ton', charge_level: '120.00' }), cargo, 2)).toMatchObject({
      quantity: 8.821,
      unit: 'ton',
    })
    expect(pickUpLine(fee({ calc_type: 'kg', charge_level: '0.15' }), cargo, 2)).toMatchObject({
      quantity: 8820.5,
      unit: 'kg',
      remarks: 'TK-HGH-SHA-L',
    })
    expect(
      pickUpLine(fee({ load_type: 'container', calc_type: 'container', charge_level: '2350.00' }), cargo, 2),
    ).toMatchObject({ chargeType: 'trucking', quantity: 3, unit: 'container', unitPrice: '2350.00' })
    expect(pickUpLine(fee({ calc_type: 'shipment', charge_level: '800' }), cargo, 2)).toMatchObject({
      quantity: 1,
      unit: 'shipment',
    })
  })

  it('charges one shipment at the minimum when the count is under it, in the currency’s decimals', () => {
    // 2 CBM × 90.00 = 180.00 < 450.00.
    expect(pickUpLine(fee(), { ...cargo, cbm: '2' }, 2)).toEqual({
      chargeType: 'trucking',
      name: 'Hangzhou → Shanghai CFS, loose',
      quantity: 1,
      unit: 'shipment',
      unitPrice: '450.00',
      currency: 'CNY',
      remarks: 'TK-HGH-SHA-L minimum',
    })
    // JPY has no minor units: 2 × 4999 = 9998 < 10000.
    expect(
      pickUpLine(fee({ currency: 'JPY', charge_level: '4999', minimum_amount: '10000' }), { ...cargo, cbm: '2' }, 0),
    ).toMatchObject({ unitPrice: '10000', quantity: 1 })
    // Exactly the minimum is not under it.
    expect(pickUpLine(fee(), { ...cargo, cbm: '5' }, 2)).toMatchObject({ quantity: 5, unit: 'cbm' })
    // Nothing to count: no line.
    expect(pickUpLine(fee(), { ...cargo, cbm: '0' }, 2)).toBeNull()
    expect(pickUpLine(fee({ calc_type: 'container' }), { ...cargo, containers: 0 }, 2)).toBeNull()
  })
})
