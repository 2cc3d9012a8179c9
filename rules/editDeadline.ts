import type { EditDeadlineDef } from '../model/definitions.ts'
import { DEFAULT_TIME_ZONE, dayStartIn } from './calendar.ts'

/**
 * Whether a record may no longer be modified (SPEC §9's ETD warning, issue #23), as an entity's
 * `editDeadline:` says: with the site setting `enabled` on, once now is later than the `date` field less
 * `hours` (the setting), or than the `until` field (the last modification allowed). A day without a time is
 * read as its start in the tenant's zone (the stricter reading: ETD 2027-01-10 with 24 hours closes at
 * 2027-01-09 00:00 Shanghai time). With `lineOfBusiness`, a record whose value is not in the setting's list
 * is not limited by the ETD; an empty or missing list limits every line. Pure: the portal's form and the
 * engine's update call it with the same record, settings and the server's now.
 */
export function editClosed(
  rule: EditDeadlineDef,
  record: Record<string, unknown> | null | undefined,
  settings: Record<string, unknown> | null | undefined,
  at: Date,
  timeZone = DEFAULT_TIME_ZONE,
): boolean {
  if (!record || settings?.[rule.enabled] !== true) return false
  const until = instant(record[rule.until ?? ''], timeZone)
  if (until !== null && at.getTime() > until) return true
  if (rule.lineOfBusiness) {
    const lines = settings[rule.lineOfBusiness.setting]
    const value = record[rule.lineOfBusiness.field]
    if (Array.isArray(lines) && lines.length > 0 && !lines.includes(value)) return false
  }
  const date = instant(record[rule.date], timeZone)
  if (date === null) return false
  const hours = Number(settings[rule.hours])
  const limit = Number.isFinite(hours) && hours > 0 ? hours * 3_600_000 : 0
  return at.getTime() > date - limit
}

/** A stored date (YYYY-MM-DD, its start in the zone) or instant (ISO) in ms; null when there is none. */
function instant(value: unknown, timeZone: string): number | null {
  if (typeof value !== 'string' || value === '') return null
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dayStartIn(value, timeZone).getTime()
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : ms
}
