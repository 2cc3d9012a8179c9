import { describe, expect, it } from 'vitest'
import { addDays, DEFAULT_TIME_ZONE, dayIn, isTimeZone, timeZoneOf } from '../../rules/calendar.ts'
import { tenantToday } from '../../server/tenancy/clock.ts'

/** Issue #19's one clock: "today" is the tenant's day, between 00:00 and 08:00 Shanghai time too. */
describe('the tenant calendar', () => {
  // 2026-11-25 00:30 in Shanghai is still 2026-11-24 16:30 in UTC; 23:30 the night before is 15:30 UTC.
  const halfPastMidnight = new Date('2026-11-24T16:30:00Z')
  const halfPastEleven = new Date('2026-11-24T15:30:00Z')

  it("reads today in the tenant's zone, not UTC's, all through 00:00–08:00", () => {
    expect(dayIn(halfPastMidnight, 'Asia/Shanghai')).toBe('2026-11-25')
    expect(halfPastMidnight.toISOString().slice(0, 10)).toBe('2026-11-24')
    expect(dayIn(halfPastEleven, 'Asia/Shanghai')).toBe('2026-11-24')
    for (let hour = 0; hour < 8; hour++) {
      const at = new Date(Date.UTC(2026, 10, 24, 16 + hour, 0))
      expect(dayIn(at, DEFAULT_TIME_ZONE), `${hour}:00 in Shanghai`).toBe('2026-11-25')
    }
    expect(dayIn(new Date('2026-11-25T08:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-25')
    expect(dayIn(new Date('2026-11-25T07:59:00Z'), 'America/Los_Angeles')).toBe('2026-11-24')
  })

  it("takes a tenant's zone from its settings, the default when it names none or none that exists", () => {
    expect(timeZoneOf({ timeZone: 'Europe/Madrid' })).toBe('Europe/Madrid')
    expect(timeZoneOf({ timeZone: 'Mars/Olympus' })).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOf({ timeZone: 42 })).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOf({})).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOf(null)).toBe(DEFAULT_TIME_ZONE)
    expect(isTimeZone('Asia/Tokyo')).toBe(true)
    expect(isTimeZone('')).toBe(false)
    expect(tenantToday({ settings: {} }, halfPastMidnight)).toBe('2026-11-25')
    expect(tenantToday({ settings: { timeZone: 'Europe/London' } }, halfPastMidnight)).toBe('2026-11-24')
  })

  it('counts days on the calendar, across months and years', () => {
    expect(addDays('2026-11-25', 7)).toBe('2026-12-02')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
  })
})
