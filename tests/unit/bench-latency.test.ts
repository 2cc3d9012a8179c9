import { describe, expect, it } from 'vitest'
import { ms, percentile, ratio, summarise } from '../../bench/latency.ts'

/** The chat bench's figures (bench/latency.ts): nearest-rank percentiles and ratios to a baseline. */
describe('bench latency figures', () => {
  it('answers nearest-rank percentiles of unsorted values', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i) // 100 … 1
    expect(percentile(values, 50)).toBe(50)
    expect(percentile(values, 99)).toBe(99)
    expect(percentile(values, 100)).toBe(100)
    expect(percentile(values, 0)).toBe(1)
    expect(percentile([7, 3, 5], 50)).toBe(5)
    expect(percentile([4], 99)).toBe(4)
    // The input is left as it was.
    expect(values[0]).toBe(100)
  })

  it('lets one slow delivery in a hundred show at p99 and not at p50', () => {
    const values = [...Array.from({ length: 98 }, () => 2), 500, 900]
    expect(summarise(values)).toEqual({ count: 100, p50: 2, p99: 500, max: 900 })
  })

  it('answers nothing measured as NaN, and refuses a percentile out of range', () => {
    expect(percentile([], 50)).toBeNaN()
    expect(summarise([]).count).toBe(0)
    expect(() => percentile([1], 101)).toThrow(RangeError)
  })

  it('writes ratios and milliseconds, with a dash for no baseline', () => {
    expect(ratio(6.8, 2)).toBe('3.40×')
    expect(ratio(1, 0)).toBe('–')
    expect(ratio(Number.NaN, 2)).toBe('–')
    expect(ms(1.234)).toBe('1.23 ms')
    expect(ms(123.45)).toBe('123.5 ms')
    expect(ms(Number.NaN)).toBe('–')
  })
})
