import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { now } from '../tenancy/clock.ts'

/** What an audit row records; `before` / `after` are API-shaped records or the changed part of them. */
export interface AuditEntry {
  tenantId: number
  userId: number
  entity: string
  recordId: number
  action: 'create' | 'update' | 'delete' | 'transition'
  transition?: string
  remark?: string
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  /** When the change happened: the server's clock by default (server/tenancy/clock.ts). */
  at?: Date
}

/** One line of a record's history, as the detail answer carries it (newest first). */
export interface HistoryEntry {
  id: number
  action: AuditEntry['action']
  transition: string | null
  remark: string | null
  userId: number | null
  userName: string | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  at: string
}

export const HISTORY_LIMIT = 50

/** Written in the transaction of the change it records. */
export async function writeAudit(trx: Transaction<DB>, entry: AuditEntry): Promise<void> {
  const json = (value: Record<string, unknown> | null) => (value === null ? null : JSON.stringify(value))
  await sql`
    insert into audit_log (tenant_id, user_id, entity, record_id, action, transition, remark, before, after, at)
    values (${entry.tenantId}, ${entry.userId}, ${entry.entity}, ${entry.recordId}, ${entry.action},
      ${entry.transition ?? null}, ${entry.remark ?? null}, ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb,
      ${entry.at ?? now()})
  `.execute(trx)
}

/**
 * A record's history as one JSON array, newest first: a column a detail's own query selects, so the history
 * costs no round trip of its own (issue #19: the order detail made six round trips to the baseline's four).
 */
export function historyColumn(tenantId: number, entity: string, recordId: number): RawBuilder<unknown> {
  return sql`(
    select coalesce(json_agg(h order by h.id desc), '[]'::json) from (
      select a.id, a.action, a.transition, a.remark, a.user_id as "userId", u.real_name as "userName",
        a.before, a.after, a.at
      from audit_log a
      left join app_user u on u.id = a.user_id and u.tenant_id = a.tenant_id
      where a.tenant_id = ${tenantId} and a.entity = ${entity} and a.record_id = ${recordId}
      order by a.id desc
      limit ${HISTORY_LIMIT}
    ) h)`
}

/** The history historyColumn read: ids as numbers, times as ISO text in milliseconds, as a Date prints them. */
export function historyOf(value: unknown): HistoryEntry[] {
  const rows = (Array.isArray(value) ? value : []) as (Omit<HistoryEntry, 'at'> & { at: string })[]
  return rows.map((r) => ({ ...r, id: Number(r.id), at: new Date(r.at).toISOString() }))
}

export async function readHistory(
  trx: Transaction<DB>,
  tenantId: number,
  entity: string,
  recordId: number,
): Promise<HistoryEntry[]> {
  const { rows } = await sql<{
    history: unknown
  }>`select ${historyColumn(tenantId, entity, recordId)} as history`.execute(trx)
  return historyOf(rows[0]?.history)
}

/** The fields that differ between two versions of a record, on each side; the version always. */
export function changes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> }
  for (const key of Object.keys(after)) {
    if (key === 'updatedAt') continue
    if (key !== 'version' && JSON.stringify(before[key]) === JSON.stringify(after[key])) continue
    out.before[key] = before[key] ?? null
    out.after[key] = after[key] ?? null
  }
  return out
}
