import { sql, type Transaction } from 'kysely'
import { DEFAULT_TIME_ZONE, localDate } from '../../../rules/calendar.ts'
import type { DB } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantTimeZone } from '../../tenancy/clock.ts'

/**
 * Order numbers from the tenant's rules (issue #8, schemas/orderNumberRule.yaml, /OrderNoManagement):
 * prefix + date part + zero-padded sequence, e.g. HY2603150042. The pure part (periods, formatting) is
 * tested on its own; `nextOrderNo` draws the sequence from `order_number_counter` (migration 0010) with
 * one upsert in the caller's tenant transaction, so parallel creations never share a number.
 *
 * Dates are read in the tenant's time zone: `settings.timeZone` of the tenant, Asia/Shanghai by default.
 */

export { DEFAULT_TIME_ZONE, localDate } from '../../../rules/calendar.ts'

export type DatePattern = 'none' | 'YYYY' | 'YYYYMM' | 'YYYYMMDD' | 'YYMM' | 'YYMMDD'
export type Reset = 'never' | 'yearly' | 'monthly' | 'daily'

export interface NumberRule {
  prefix: string
  datePattern: DatePattern
  sequenceLength: number
  reset: Reset
}

/** The counter's period: '' for never, then 2026, 2026-03, 2026-03-15. */
export function periodKey(reset: Reset, at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const { year, month, day } = localDate(at, timeZone)
  if (reset === 'yearly') return year
  if (reset === 'monthly') return `${year}-${month}`
  if (reset === 'daily') return `${year}-${month}-${day}`
  return ''
}

export function datePart(pattern: DatePattern, at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const { year, month, day } = localDate(at, timeZone)
  const yy = year.slice(-2)
  const parts: Record<DatePattern, string> = {
    none: '',
    YYYY: year,
    YYYYMM: year + month,
    YYYYMMDD: year + month + day,
    YYMM: yy + month,
    YYMMDD: yy + month + day,
  }
  return parts[pattern]
}

const grain = {
  none: 0,
  never: 0,
  YYYY: 1,
  yearly: 1,
  YYYYMM: 2,
  YYMM: 2,
  monthly: 2,
  YYYYMMDD: 3,
  YYMMDD: 3,
  daily: 3,
}

/**
 * A rule whose sequence restarts more often than its date part changes would repeat numbers (daily
 * reset with YYYY): refused.
 */
export function checkRule(rule: NumberRule): void {
  if (grain[rule.reset] > grain[rule.datePattern])
    throw new ApiError('validation', {}, [{ field: 'reset', message: 'rule.orderNoResetFinerThanDate', params: {} }])
}

/** The number for a sequence value; a value that does not fit the sequence length is refused. */
export function formatOrderNo(rule: NumberRule, sequence: number, at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  checkRule(rule)
  if (!Number.isInteger(sequence) || sequence < 1 || String(sequence).length > rule.sequenceLength)
    throw new ApiError('validation', { sequence, sequenceLength: rule.sequenceLength }, [
      { field: 'orderNo', message: 'rule.orderNoOverflow', params: { sequenceLength: rule.sequenceLength } },
    ])
  return `${rule.prefix}${datePart(rule.datePattern, at, timeZone)}${String(sequence).padStart(rule.sequenceLength, '0')}`
}

/**
 * The counter a rule draws from: rules that render the same prefix and date part share it, so two modes
 * with the same prefix cannot hand out the same number.
 */
export const counterKey = (rule: NumberRule) => `${rule.prefix}|${rule.datePattern}|${rule.sequenceLength}`

interface RuleRow {
  transport_mode: number
  prefix: string | null
  date_pattern: DatePattern
  sequence_length: number
  reset: Reset
}

/** The documents a tenant numbers by its own rules (schemas/orderNumberRule.yaml `document`). */
export type NumberedDocument = 'order' | 'bill' | 'invoice' | 'fba'

/**
 * The next number of the tenant's document for a transport mode: the document's enabled rule for the mode, else
 * its enabled default rule (mode 0); null when the tenant has none. Runs in the caller's tenant transaction.
 * A rule stored before rules had a document is an order rule.
 */
export async function nextOrderNo(
  trx: Transaction<DB>,
  tenantId: number,
  transportMode: unknown,
  at: Date,
  document: NumberedDocument = 'order',
): Promise<string | null> {
  const mode = typeof transportMode === 'number' ? transportMode : 0
  const { rows } = await sql<RuleRow>`
    select transport_mode, prefix, date_pattern, sequence_length, reset from order_number_rule
    where tenant_id = ${tenantId} and enabled and transport_mode in (${mode}, 0)
      and coalesce(document, 'order') = ${document}
    order by transport_mode desc limit 1`.execute(trx)
  const found = rows[0]
  if (!found) return null
  const rule: NumberRule = {
    prefix: found.prefix ?? '',
    datePattern: found.date_pattern,
    sequenceLength: found.sequence_length,
    reset: found.reset,
  }
  checkRule(rule)
  const timeZone = await tenantTimeZone(trx, tenantId)
  const period = periodKey(rule.reset, at, timeZone)
  const counted = await sql<{ value: number }>`
    insert into order_number_counter as c (tenant_id, rule_key, period, value)
    values (${tenantId}, ${counterKey(rule)}, ${period}, 1)
    on conflict (tenant_id, rule_key, period) do update set value = c.value + 1
    returning value`.execute(trx)
  return formatOrderNo(rule, Number(counted.rows[0]?.value), at, timeZone)
}

/**
 * A bill's or an invoice's number: the tenant's rule for the document (/OrderNoManagement), else the built-in
 * daily one (BILL2612310001, INV2612310001).
 */
export async function nextDocumentNo(
  trx: Transaction<DB>,
  tenantId: number,
  document: Exclude<NumberedDocument, 'order'>,
  fallbackPrefix: string,
  at: Date,
): Promise<string> {
  return (await nextOrderNo(trx, tenantId, 0, at, document)) ?? nextDailyNo(trx, tenantId, fallbackPrefix, at)
}

/**
 * Inquiry and quote numbers: a fixed rule per kind (INQ2611220001, QT2611220001), drawn from the same
 * counters as order numbers, daily, in the tenant's time zone.
 */
export async function nextDailyNo(trx: Transaction<DB>, tenantId: number, prefix: string, at: Date): Promise<string> {
  return nextFixedNo(trx, tenantId, { prefix, datePattern: 'YYMMDD', sequenceLength: 4, reset: 'daily' }, at)
}

/**
 * The next number of a fixed rule (inquiries' and quotes' daily ones, job files' monthly ones per port and line
 * of business), drawn from the same counters as order numbers, in the tenant's time zone.
 */
export async function nextFixedNo(trx: Transaction<DB>, tenantId: number, rule: NumberRule, at: Date): Promise<string> {
  const timeZone = await tenantTimeZone(trx, tenantId)
  const counted = await sql<{ value: number }>`
    insert into order_number_counter as c (tenant_id, rule_key, period, value)
    values (${tenantId}, ${counterKey(rule)}, ${periodKey(rule.reset, at, timeZone)}, 1)
    on conflict (tenant_id, rule_key, period) do update set value = c.value + 1
    returning value`.execute(trx)
  const value = Number(counted.rows[0]?.value)
  // Past its length (9999 a day) the sequence grows a digit rather than refusing the record.
  return formatOrderNo(
    { ...rule, sequenceLength: Math.max(rule.sequenceLength, String(value).length) },
    value,
    at,
    timeZone,
  )
}
