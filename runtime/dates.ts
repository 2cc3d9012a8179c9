/**
 * How the portal writes dates and moments: one module for the lists, the detail screens, tracking and
 * the rate screens (issue #16).
 *
 * - A calendar day (`YYYY-MM-DD`, or any value of a field whose schema type is `date`) reads as a date in
 *   the reader's language, never with a time, and never on another day: it is formatted from its own
 *   year, month and day in UTC, so the reader's time zone never enters (Los Angeles and Shanghai read
 *   the 10th as the 10th).
 * - A moment (an ISO instant) reads as a date and time in the reader's language and time zone, or in
 *   the zone a caller names.
 * - Anything else that is not a date is shown as it came.
 */

export type TemporalType = 'date' | 'datetime'

const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** The Intl locale of a portal language (zh, en, ja, es). */
export function intlLocale(language: string): string {
  switch (language) {
    case 'zh':
      return 'zh-CN'
    case 'ja':
      return 'ja-JP'
    case 'es':
      return 'es-ES'
    case 'en':
      return 'en-US'
    default:
      return language || 'en-US'
  }
}

/** A day with no time: `2026-12-10`. */
export function isDateOnly(value: unknown): value is string {
  return typeof value === 'string' && DATE_ONLY.test(value)
}

/**
 * The year, month and day a date value names, read from its text: `2026-12-10`, or the first ten
 * characters of `2026-12-10T00:00:00Z` (a date field some call sends as midnight). Null for anything
 * that is not a real day.
 */
export function calendarDay(value: string): { year: number; month: number; day: number } | null {
  const match = DAY.exec(value)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const check = new Date(Date.UTC(year, month - 1, day))
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null
  return { year, month, day }
}

const formats = new Map<string, Intl.DateTimeFormat>()
/**
 * A formatter, kept when it names its time zone: one without takes the zone in force when it is made,
 * and keeping it would keep that zone.
 */
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  if (!options.timeZone) return new Intl.DateTimeFormat(locale, options)
  const key = `${locale}|${JSON.stringify(options)}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options)
    formats.set(key, format)
  }
  return format
}

/** A calendar day in the reader's language: Dec 10, 2026 · 2026年12月10日 · 2026/12/10 · 10 dic 2026. */
export function formatDate(value: string, language: string): string {
  const day = calendarDay(value)
  if (!day) return value
  // A UTC instant formatted in UTC: the day written is the day given, whatever the reader's zone.
  return formatter(intlLocale(language), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    Date.UTC(day.year, day.month - 1, day.day),
  )
}

/** A moment in the reader's language, in their time zone unless `timeZone` names one. */
export function formatDateTime(value: string, language: string, timeZone?: string): string {
  if (isDateOnly(value)) return formatDate(value, language)
  const time = Date.parse(value)
  if (Number.isNaN(time)) return value
  return formatter(intlLocale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(time)
}

/**
 * The one entry for any date-like value: a `date` field or a date-only string reads as a date, anything
 * else as a moment. Empty values answer `empty` ('' unless given).
 */
export function formatWhen(
  value: unknown,
  language: string,
  options: { type?: TemporalType; timeZone?: string; empty?: string } = {},
): string {
  if (value === null || value === undefined || value === '') return options.empty ?? ''
  const text = value instanceof Date ? value.toISOString() : String(value)
  if (options.type === 'date' || isDateOnly(text)) return formatDate(text, language)
  return formatDateTime(text, language, options.timeZone)
}
