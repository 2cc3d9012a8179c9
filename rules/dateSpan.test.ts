import { describe, expect, it } from 'vitest'
import { daysIncluded, shiftDay, withinDays } from './dateSpan.ts'

describe('date spans', () => {
  it('counts both days, across months and a leap day, ignoring a time part', () => {
    expect(daysIncluded('2027-01-01', '2027-01-01')).toBe(1)
    expect(daysIncluded('2027-01-01', '2027-03-31')).toBe(90)
    expect(daysIncluded('2028-02-01', '2028-03-01 00:00:00')).toBe(30)
    expect(daysIncluded('2027-01-02', '2027-01-01')).toBe(0)
    expect(daysIncluded('soon', '2027-01-01')).toBeNull()
  })

  it('holds a range to its limit, leaving open ends alone', () => {
    expect(withinDays('2027-01-01', '2027-03-31', 90)).toBe(true)
    expect(withinDays('2027-01-01', '2027-04-01', 90)).toBe(false)
    expect(withinDays('2027-01-01', undefined, 90)).toBe(true)
    expect(withinDays(undefined, '2027-04-01', 1)).toBe(true)
  })

  it('shifts a day by whole days', () => {
    expect(shiftDay('2027-01-01', 89)).toBe('2027-03-31')
    expect(shiftDay('2027-03-31', -89)).toBe('2027-01-01')
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01')
  })
})
