import { describe, expect, it } from 'vitest'
import { addDays, type Day, DEFAULT_TIME_ZONE, dayStartIn } from '../../rules/calendar.ts'
import {
  type AutoReplySettings,
  autoReplyFor,
  DEFAULT_SERVICE_HOURS,
  withinServiceHours,
} from '../../server/domain/im/autoReply.ts'
import { today } from '../support/clock.ts'

const zone = DEFAULT_TIME_ZONE
const settings: AutoReplySettings = {
  enabled: true,
  message: 'An operator will be with you shortly.',
  waitValue: 3,
  waitUnit: 'minutes',
  ...DEFAULT_SERVICE_HOURS,
  serviceDays: [...DEFAULT_SERVICE_HOURS.serviceDays],
  outsideHoursMessage: 'We are closed; we answer from 09:00 on working days.',
}

/** ISO weekday of a day (1 Monday … 7 Sunday). */
const weekdayOf = (day: Day) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1
/** The first day on or after the tenant's today that is the given weekday. */
const next = (weekday: number): Day => {
  let day = today()
  while (weekdayOf(day) !== weekday) day = addDays(day, 1)
  return day
}
/** A local time on a day in the tenant's zone. */
const at = (day: Day, hhmm: string, seconds = 0) => {
  const [h, m] = hhmm.split(':').map(Number)
  return new Date(dayStartIn(day, zone).getTime() + ((h ?? 0) * 3600 + (m ?? 0) * 60 + seconds) * 1000)
}
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms)

describe('auto-reply', () => {
  it('knows service hours in the tenant zone: start inclusive, end exclusive, weekdays only', () => {
    const monday = next(1)
    expect(withinServiceHours(settings, at(monday, '09:00'), zone)).toBe(true)
    expect(withinServiceHours(settings, at(monday, '08:59', 59), zone)).toBe(false)
    expect(withinServiceHours(settings, at(monday, '17:59', 59), zone)).toBe(true)
    expect(withinServiceHours(settings, at(monday, '18:00'), zone)).toBe(false)
    expect(withinServiceHours(settings, at(next(6), '10:00'), zone)).toBe(false)
    expect(withinServiceHours(settings, at(next(7), '10:00'), zone)).toBe(false)
    // 10:00 in Shanghai is 02:00 UTC: a UTC reading would call it the night.
    expect(withinServiceHours(settings, at(next(5), '10:00'), 'UTC')).toBe(false)
  })

  it('answers after the wait within hours, and not before it', () => {
    const arrived = at(next(2), '10:15')
    const early = autoReplyFor({
      settings,
      arrivedAt: arrived,
      now: plus(arrived, 179_000),
      timeZone: zone,
      answered: false,
    })
    expect(early).toMatchObject({ kind: 'wait', text: settings.message, due: false })
    expect(early?.at.getTime()).toBe(arrived.getTime() + 180_000)
    const late = autoReplyFor({
      settings,
      arrivedAt: arrived,
      now: plus(arrived, 180_000),
      timeZone: zone,
      answered: false,
    })
    expect(late).toMatchObject({ kind: 'wait', due: true })
  })

  it('counts the wait in seconds, minutes or hours', () => {
    const arrived = at(next(3), '09:30')
    for (const [waitUnit, ms] of [
      ['seconds', 3_000],
      ['minutes', 180_000],
      ['hours', 10_800_000],
    ] as const) {
      const due = autoReplyFor({
        settings: { ...settings, waitUnit },
        arrivedAt: arrived,
        now: arrived,
        timeZone: zone,
        answered: false,
      })
      expect(due?.at.getTime()).toBe(arrived.getTime() + ms)
    }
  })

  it('says nothing once an operator answered or when it is off', () => {
    const arrived = at(next(2), '11:00')
    const later = plus(arrived, 3_600_000)
    expect(autoReplyFor({ settings, arrivedAt: arrived, now: later, timeZone: zone, answered: true })).toBeNull()
    expect(
      autoReplyFor({
        settings: { ...settings, enabled: false },
        arrivedAt: arrived,
        now: later,
        timeZone: zone,
        answered: false,
      }),
    ).toBeNull()
  })

  it('answers at once around midnight and on weekends with the outside-hours message', () => {
    // Friday 23:59 and Saturday 00:00 local: the night between, the Chinese date moving on while UTC has not.
    const friday = next(5)
    for (const arrived of [at(friday, '23:59'), at(addDays(friday, 1), '00:00'), at(next(7), '12:00')]) {
      const due = autoReplyFor({ settings, arrivedAt: arrived, now: arrived, timeZone: zone, answered: false })
      expect(due).toMatchObject({ kind: 'outsideHours', text: settings.outsideHoursMessage, due: true })
      expect(due?.at.getTime()).toBe(arrived.getTime())
    }
  })

  it('sends the outside-hours message when the wait ends after closing time', () => {
    const arrived = at(next(4), '17:58')
    const due = autoReplyFor({ settings, arrivedAt: arrived, now: arrived, timeZone: zone, answered: false })
    expect(due).toMatchObject({ kind: 'outsideHours', due: false })
  })

  it('follows service hours the tenant changed, such as a Saturday morning', () => {
    const saturday = next(6)
    const custom = { ...settings, serviceDays: [6], serviceStart: '08:00', serviceEnd: '12:00' }
    const due = autoReplyFor({
      settings: custom,
      arrivedAt: at(saturday, '08:00'),
      now: at(saturday, '08:10'),
      timeZone: zone,
      answered: false,
    })
    expect(due).toMatchObject({ kind: 'wait', due: true })
  })
})
