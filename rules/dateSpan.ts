/**
 * How many calendar days a date range spans, both days included: the bound of a list's `dateRange` search with
 * `maxDays` (screens/*.yaml; the sailing schedules' departure window), checked by the portal's search form before it
 * asks and by the engine when it answers (server/engine/search.ts). Dates are 'YYYY-MM-DD', a time part ignored.
 */
const DAY_MS = 86_400_000

const dayOf = (text: string): number | null => {
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(text)
  const at = match ? Date.parse(`${match[1]}T00:00:00Z`) : Number.NaN
  return Number.isNaN(at) ? null : at
}

/** The days from `begin` to `end`, both included (0 or less when end is before begin); null when one is no date. */
export function daysIncluded(begin: string, end: string): number | null {
  const from = dayOf(begin)
  const to = dayOf(end)
  return from === null || to === null ? null : Math.round((to - from) / DAY_MS) + 1
}

/** Whether the range keeps within `maxDays`; a range with an end missing or unreadable is not this rule's to judge. */
export function withinDays(begin: string | undefined, end: string | undefined, maxDays: number): boolean {
  if (!begin || !end) return true
  const days = daysIncluded(begin, end)
  return days === null || days <= maxDays
}

/** The day `days` after (or before, negative) a date, 'YYYY-MM-DD'. */
export function shiftDay(day: string, days: number): string {
  return new Date((dayOf(day) as number) + days * DAY_MS).toISOString().slice(0, 10)
}
