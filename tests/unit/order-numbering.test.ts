import { describe, expect, it } from 'vitest'
import {
  checkRule,
  counterKey,
  datePart,
  formatOrderNo,
  type NumberRule,
  periodKey,
} from '../../server/domain/orders/numbering.ts'

/** Order numbers from the tenant's rules (issue #8): periods, date parts, padding, overflow. */

// 2026-03-15 17:30 UTC is already 2026-03-16 01:30 in Shanghai (the default time zone).
const lateUtc = new Date('2026-03-15T17:30:00Z')
const daily: NumberRule = { prefix: 'HY', datePattern: 'YYMMDD', sequenceLength: 4, reset: 'daily' }

describe('order numbering', () => {
  it('keys the counter by the reset period, in the tenant time zone (Asia/Shanghai by default)', () => {
    expect(periodKey('never', lateUtc)).toBe('')
    expect(periodKey('yearly', lateUtc)).toBe('2026')
    expect(periodKey('monthly', lateUtc)).toBe('2026-03')
    expect(periodKey('daily', lateUtc)).toBe('2026-03-16')
    expect(periodKey('daily', lateUtc, 'UTC')).toBe('2026-03-15')
    expect(periodKey('yearly', new Date('2025-12-31T16:00:00Z'))).toBe('2026')
  })

  it('renders the date parts', () => {
    expect(datePart('none', lateUtc)).toBe('')
    expect(datePart('YYYY', lateUtc)).toBe('2026')
    expect(datePart('YYYYMM', lateUtc)).toBe('202603')
    expect(datePart('YYYYMMDD', lateUtc)).toBe('20260316')
    expect(datePart('YYMM', lateUtc)).toBe('2603')
    expect(datePart('YYMMDD', lateUtc)).toBe('260316')
    expect(datePart('YYMMDD', lateUtc, 'Europe/Madrid')).toBe('260315')
  })

  it('zero-pads the sequence after prefix and date', () => {
    expect(formatOrderNo(daily, 7, lateUtc)).toBe('HY2603160007')
    expect(formatOrderNo(daily, 9999, lateUtc)).toBe('HY2603169999')
    const plain: NumberRule = { prefix: '', datePattern: 'none', sequenceLength: 10, reset: 'never' }
    expect(formatOrderNo(plain, 42, lateUtc)).toBe('0000000042')
  })

  it('refuses a sequence beyond its length with a clear error', () => {
    expect(() => formatOrderNo(daily, 10_000, lateUtc)).toThrow(
      expect.objectContaining({
        code: 'validation',
        fieldErrors: [expect.objectContaining({ field: 'orderNo', message: 'rule.orderNoOverflow' })],
      }),
    )
    expect(() => formatOrderNo(daily, 0, lateUtc)).toThrow()
  })

  it('refuses a reset finer than the date part (it would repeat numbers)', () => {
    expect(() => checkRule({ ...daily, datePattern: 'YYYY' })).toThrow(
      expect.objectContaining({ fieldErrors: [expect.objectContaining({ field: 'reset' })] }),
    )
    expect(() => checkRule({ ...daily, datePattern: 'none', reset: 'monthly' })).toThrow()
    expect(() => checkRule({ ...daily, datePattern: 'YYYYMMDD', reset: 'yearly' })).not.toThrow()
    expect(() => checkRule({ ...daily, datePattern: 'none', reset: 'never' })).not.toThrow()
  })

  it('shares a counter between rules that render the same numbers', () => {
    expect(counterKey(daily)).toBe(counterKey({ ...daily, reset: 'daily' }))
    expect(counterKey(daily)).not.toBe(counterKey({ ...daily, prefix: 'AC' }))
  })
})
