/**
 * The calendar as a forwarder's tenant lives it (issue #19 "one clock"): "today", a day's boundaries and
 * periods are read in the tenant's time zone (`settings.timeZone`, Asia/Shanghai by default), never in UTC
 * or the server's zone — between 00:00 and 08:00 in Shanghai, UTC is still yesterday. Pure: the instant is
 * always passed in (the server's clock is server/tenancy/clock.ts).
 */

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai'

/** A day as text, YYYY-MM-DD: how dates are stored, compared and sent. */
export type Day = string

const DAY_MS = 86_400_000
const formats = new Map<string, Intl.DateTimeFormat>()

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    formats.set(timeZone, format)
  }
  return format
}

/** Whether the runtime knows the IANA zone name (a tenant's setting is checked before it is used). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > 64) return false
  try {
    formatIn(value)
    return true
  } catch {
    return false
  }
}

/** A tenant's zone from its settings, or the default when it names none or one that does not exist. */
export function timeZoneOf(settings: Record<string, unknown> | null | undefined): string {
  const zone = settings?.timeZone
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE
}

/** The calendar day of an instant in a time zone, as its parts. */
export function localDate(at: Date, timeZone = DEFAULT_TIME_ZONE): { year: string; month: string; day: string } {
  const parts = formatIn(timeZone)
    .formatToParts(at)
    .reduce<Record<string, string>>((all, p) => Object.assign(all, { [p.type]: p.value }), {})
  return { year: parts.year as string, month: parts.month as string, day: parts.day as string }
}

/** The calendar day of an instant in a time zone: "today" when the instant is now. */
export function dayIn(at: Date, timeZone = DEFAULT_TIME_ZONE): Day {
  const { year, month, day } = localDate(at, timeZone)
  return `${year}-${month}-${day}`
}

/** A day some days later (or earlier): calendar arithmetic on the date alone, the same in every zone. */
export function addDays(day: Day, days: number): Day {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

const timeFormats = new Map<string, Intl.DateTimeFormat>()

/** The offset of a zone from UTC at an instant, in ms (Shanghai: +8 h). */
function offsetAt(at: Date, timeZone: string): number {
  let format = timeFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    timeFormats.set(timeZone, format)
  }
  const p = format.formatToParts(at).reduce<Record<string, number>>((all, x) => {
    if (x.type !== 'literal') all[x.type] = Number(x.value)
    return all
  }, {})
  const local = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0)
  return local - Math.floor(at.getTime() / 1000) * 1000
}

/** The instant a day begins in a time zone (a day's 00:00 in Shanghai is 16:00 UTC the day before). */
export function dayStartIn(day: Day, timeZone = DEFAULT_TIME_ZONE): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`)
  const first = midnightUtc - offsetAt(new Date(midnightUtc), timeZone)
  // Once more at the guessed instant, for a zone whose offset changed in between (daylight saving).
  return new Date(midnightUtc - offsetAt(new Date(first), timeZone))
}
