import { describe, expect, it } from 'vitest'
import { chargeableTotal, chargeableWeight } from './fbaWeight.ts'

describe('FBA chargeable weight', () => {
  it('is the volumetric weight when the carton is light for its size', () => {
    // 60 × 40 × 40 / 6000 = 16 kg against 12.5 kg weighed.
    expect(chargeableWeight({ quantity: 1, weight: 12.5, length: 60, width: 40, height: 40 }, 6000)).toBe('16.000')
  })

  it('is the weight when the carton is heavy for its size', () => {
    expect(chargeableWeight({ quantity: 1, weight: '21.35', length: 50, width: 40, height: 30 }, 6000)).toBe('21.350')
  })

  it('rounds the volume half up to grams, exactly, with the tenant divisor', () => {
    // 45.5 × 35.5 × 30.1 = 48618.025 cm³; / 6000 = 8.1030041… → 8.103; / 5000 = 9.723605 → 9.724.
    const box = { quantity: 1, weight: 1, length: 45.5, width: 35.5, height: 30.1 }
    expect(chargeableWeight(box, 6000)).toBe('8.103')
    expect(chargeableWeight(box, 5000)).toBe('9.724')
  })

  it('totals each box times its quantity without float error', () => {
    const boxes = [
      { quantity: 2, weight: 12.5, length: 60, width: 40, height: 40 },
      { quantity: 3, weight: 0.1, length: 10, width: 10, height: 10 },
      { quantity: 1, weight: 0.2, length: 10, width: 10, height: 10 },
    ]
    // 2 × 16 + 3 × 0.167 + 1 × 0.2 = 32.701
    expect(chargeableTotal(boxes, 6000)).toBe('32.701')
  })

  it('answers nothing for a box without its sizes or a divisor that is not a whole positive number', () => {
    expect(chargeableWeight({ quantity: 1, weight: 1, length: 10, width: undefined, height: 10 }, 6000)).toBeUndefined()
    expect(chargeableWeight({ quantity: 1, weight: 1, length: 10, width: 10, height: 10 }, 0)).toBeUndefined()
  })
})
