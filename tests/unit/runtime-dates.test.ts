import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calendarDay, formatDate, formatDateTime, formatWhen, isDateOnly } from '../../runtime/dates.ts'
import { cellView } from '../../runtime/screens/list/format.ts'
import { formatTime } from '../../runtime/site/tracking/ShipmentCard.tsx'

/**
 * Dates and moments (runtime/dates.ts, issue #16): a day with no time reads as that day in every
 * language and every time zone; a moment reads with its time. Run west and east of UTC: Node applies a
 * change of process.env.TZ at once, to Date and to Intl's default zone (checked, so a runtime that did
 * not would fail here rather than pass for nothing).
 */

const ZONES = ['America/Los_Angeles', 'Asia/Shanghai'] as const
/** ICU versions differ in the space before AM/PM (U+202F or a plain one). */
const plain = (text: string | false) => (text === false ? text : text.replace(/\s/g, ' '))
const original = process.env.TZ

function inZone(zone: string) {
  beforeAll(() => {
    process.env.TZ = zone
  })
  afterAll(() => {
    if (original === undefined) delete process.env.TZ
    else process.env.TZ = original
  })
}

for (const zone of ZONES) {
  describe(`in ${zone}`, () => {
    inZone(zone)

    it('runs in that zone', () => {
      expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone)
      // What the portal used to do: a day read as a local Date moves to the 9th west of UTC.
      const naive = new Date('2026-12-10').getDate()
      expect(naive).toBe(zone === 'America/Los_Angeles' ? 9 : 10)
    })

    it('writes a date-only value as that day in each language, with no time', () => {
      expect(formatDate('2026-12-10', 'en')).toBe('Dec 10, 2026')
      expect(formatDate('2026-12-10', 'zh')).toBe('2026年12月10日')
      expect(formatDate('2026-12-10', 'ja')).toBe('2026/12/10')
      expect(formatDate('2026-12-10', 'es')).toBe('10 dic 2026')
      // The first and last days of a year, where a shift would change the year too.
      expect(formatDate('2027-01-01', 'en')).toBe('Jan 1, 2027')
      expect(formatDate('2026-12-31', 'en')).toBe('Dec 31, 2026')
    })

    it('reads any date-only string, or any value of a date field, as a date', () => {
      expect(formatWhen('2026-12-10', 'en')).toBe('Dec 10, 2026')
      expect(formatWhen('2026-12-10', 'en', { timeZone: 'UTC' })).toBe('Dec 10, 2026')
      expect(formatDateTime('2026-12-10', 'en')).toBe('Dec 10, 2026')
      // A date field a call sends as midnight UTC is still the day it names.
      expect(formatWhen('2026-12-10T00:00:00.000Z', 'en', { type: 'date' })).toBe('Dec 10, 2026')
      expect(formatWhen(null, 'en', { empty: '—' })).toBe('—')
      expect(formatWhen('', 'en')).toBe('')
    })

    it("writes a moment with its time, in the reader's zone unless one is named", () => {
      const moment = '2026-12-10T06:30:00.000Z'
      expect(plain(formatDateTime(moment, 'en', 'UTC'))).toBe('Dec 10, 2026, 6:30 AM')
      const local = plain(formatDateTime(moment, 'en'))
      expect(local).toBe(zone === 'America/Los_Angeles' ? 'Dec 9, 2026, 10:30 PM' : 'Dec 10, 2026, 2:30 PM')
      expect(formatWhen(moment, 'zh', { timeZone: 'UTC' })).toBe('2026年12月10日 06:30')
    })

    it('lists and details show date columns as dates, and moments with a time', () => {
      const order = {
        fields: {
          etd: { type: 'date', label: 'field.etd' },
          createdAt: { type: 'datetime', label: 'field.createdAt' },
          remark: { type: 'string', label: 'field.remark' },
        },
        states: undefined,
      } as never
      expect(cellView('2026-12-10', { field: 'etd', format: 'date' }, order, undefined, 'en')).toEqual({
        kind: 'text',
        text: 'Dec 10, 2026',
      })
      // The field's type decides when the column names no format, and a date field under `datetime` stays a date.
      expect(cellView('2026-12-10', { field: 'etd' }, order, undefined, 'ja')).toEqual({
        kind: 'text',
        text: '2026/12/10',
      })
      expect(cellView('2026-12-10', { field: 'etd', format: 'datetime' }, order, undefined, 'es')).toEqual({
        kind: 'text',
        text: '10 dic 2026',
      })
      expect(cellView('2026-12-10', { field: 'remark', format: 'text' }, order, undefined, 'zh')).toEqual({
        kind: 'text',
        text: '2026年12月10日',
      })
      const created = cellView(
        '2026-12-10T06:30:00.000Z',
        { field: 'createdAt', format: 'datetime' },
        order,
        undefined,
        'en',
      )
      expect(plain(created.kind === 'text' && created.text)).toMatch(/^Dec (9|10), 2026, \d{1,2}:30 (AM|PM)$/)
    })

    it("tracking writes a day as a date and an event's moment with its time (UTC)", () => {
      expect(formatTime('2026-12-10', 'en')).toBe('Dec 10, 2026')
      expect(plain(formatTime('2026-12-10T06:30:00.000Z', 'en'))).toBe('Dec 10, 2026, 6:30 AM')
      expect(formatTime(null, 'en')).toBe('—')
    })
  })
}

describe('what counts as a day', () => {
  it('is YYYY-MM-DD naming a real day', () => {
    expect(isDateOnly('2026-12-10')).toBe(true)
    expect(isDateOnly('2026-12-10T00:00:00Z')).toBe(false)
    expect(isDateOnly('HY2612100001')).toBe(false)
    expect(calendarDay('2026-02-29')).toBeNull()
    expect(calendarDay('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 })
    expect(formatDate('2026-02-30', 'en')).toBe('2026-02-30')
    expect(formatDateTime('not a date', 'en')).toBe('not a date')
  })
})
