/**
 * The auto-reply (/ImAutoReply, ImAutoresponder, issue #27): when a customer's message has waited for an
 * operator, which message the chat answers with and when. Pure: the tenant's settings, the instant the
 * customer's message arrived, now (server/tenancy/clock.ts) and the tenant's time zone in; a decision out.
 *
 * - A message that arrives outside service hours is answered at once with the outside-hours message.
 * - One that arrives within them is answered after the wait (seconds, minutes or hours, SPEC §9) if no
 *   operator has answered by then — with the outside-hours message if the wait ends after closing time.
 * Service hours are the tenant's local days and times: start inclusive, end exclusive, Monday–Friday
 * 09:00–18:00 unless the tenant changes them.
 */

export type WaitUnit = 'seconds' | 'minutes' | 'hours'

export interface AutoReplySettings {
  enabled: boolean
  message: string
  waitValue: number
  waitUnit: WaitUnit
  /** ISO weekdays: 1 Monday … 7 Sunday. */
  serviceDays: readonly number[]
  /** HH:MM, local time. */
  serviceStart: string
  serviceEnd: string
  outsideHoursMessage: string
}

export const DEFAULT_SERVICE_HOURS = {
  serviceDays: [1, 2, 3, 4, 5],
  serviceStart: '09:00',
  serviceEnd: '18:00',
} as const

const UNIT_MS: Record<WaitUnit, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000 }

export function waitMs(settings: Pick<AutoReplySettings, 'waitValue' | 'waitUnit'>): number {
  return settings.waitValue * UNIT_MS[settings.waitUnit]
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }
const formats = new Map<string, Intl.DateTimeFormat>()

/** The local ISO weekday and minute of the day of an instant in a time zone. */
export function localWeekMinute(at: Date, timeZone: string): { weekday: number; minute: number } {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formats.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]))
  return { weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0, minute: Number(parts.hour) * 60 + Number(parts.minute) }
}

const minuteOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return (h ?? 0) * 60 + (m ?? 0)
}

/** Whether an instant falls within the tenant's service hours. */
export function withinServiceHours(
  settings: Pick<AutoReplySettings, 'serviceDays' | 'serviceStart' | 'serviceEnd'>,
  at: Date,
  timeZone: string,
): boolean {
  const { weekday, minute } = localWeekMinute(at, timeZone)
  return (
    settings.serviceDays.includes(weekday) &&
    minute >= minuteOf(settings.serviceStart) &&
    minute < minuteOf(settings.serviceEnd)
  )
}

export interface AutoReplyDue {
  kind: 'wait' | 'outsideHours'
  text: string
  /** When it is to be sent. */
  at: Date
  /** Whether that time has come. */
  due: boolean
}

/**
 * The auto-reply a customer's waiting message gets: none when the auto-reply is off, an operator has
 * answered, or the message it would send is empty; else which one, when, and whether that is now.
 */
export function autoReplyFor(input: {
  settings: AutoReplySettings
  arrivedAt: Date
  now: Date
  timeZone: string
  answered: boolean
}): AutoReplyDue | null {
  const { settings, arrivedAt, now, timeZone, answered } = input
  if (!settings.enabled || answered) return null
  const at = withinServiceHours(settings, arrivedAt, timeZone)
    ? new Date(arrivedAt.getTime() + waitMs(settings))
    : arrivedAt
  const kind = withinServiceHours(settings, at, timeZone) ? 'wait' : 'outsideHours'
  const text = (kind === 'wait' ? settings.message : settings.outsideHoursMessage).trim()
  if (!text) return null
  return { kind, text, at, due: now.getTime() >= at.getTime() }
}
