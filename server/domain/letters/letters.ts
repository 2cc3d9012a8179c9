import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

/**
 * In-app letters (SPEC §3 "Notification letter"): the table the engine keeps for schemas/letter.yaml,
 * written only here, always for one recipient. The list is the engine's (./handlers.ts), narrowed to the
 * caller's rows by the visibility rule of ./register.ts, so /letterList is a generic list screen.
 */

export const LETTER_TABLE = 'letter'
/** SPEC §3: status 0 is unread. */
export const UNREAD = 0
export const READ = 1

type DynamicDB = Record<string, Record<string, unknown>>
export const dynamic = (trx: Transaction<DB> | Kysely<DB>) => trx as unknown as Kysely<DynamicDB>

/** The content on one line: every `<br>` (any spelling) a space, runs of spaces one. */
export function withoutBreaks(content: string): string {
  return content
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The rows one user may see: their own letters in their tenant (row-level security holds the tenant too). */
export function ownLetters(tenantId: number, userId: number): RawBuilder<SqlBool>[] {
  return [
    sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.tenant_id`)} = ${tenantId}`,
    sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.recipient`)} = ${userId}`,
  ]
}

/** How many unread letters a user has. */
export async function unreadCount(trx: Transaction<DB>, tenantId: number, userId: number): Promise<number> {
  let query = dynamic(trx)
    .selectFrom(LETTER_TABLE)
    .select(sql<number>`count(*)::int`.as('n'))
    .where(sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.status`)} = ${UNREAD}`)
  for (const condition of ownLetters(tenantId, userId)) query = query.where(condition)
  return ((await query.executeTakeFirst()) as { n: number } | undefined)?.n ?? 0
}

export interface NewLetter {
  tenantId: number
  recipient: number
  title: string
  /** Lines separated by `<br>`. */
  content: string
  status?: number
  /** The business event that wrote it (./events.ts) and the route of its record. */
  event?: string
  link?: string
  /** When it was sent (updateTime); now unless given. */
  sentAt?: string
}

/**
 * Writes letters in the caller's transaction (one opened for their tenant). The way every letter is made:
 * the seed now, the outbox worker when business events send them.
 */
export async function writeLetters(trx: Transaction<DB>, letters: NewLetter[]): Promise<number[]> {
  if (!letters.length) return []
  const rows = letters.map((letter) => ({
    tenant_id: letter.tenantId,
    recipient: letter.recipient,
    title: letter.title,
    content: letter.content,
    content_without_br: withoutBreaks(letter.content),
    status: letter.status ?? UNREAD,
    event: letter.event ?? null,
    link: letter.link ?? null,
    ...(letter.sentAt ? { created_at: letter.sentAt, updated_at: letter.sentAt } : {}),
  }))
  const inserted = await dynamic(trx).insertInto(LETTER_TABLE).values(rows).returning('id').execute()
  return inserted.map((row) => row.id as number)
}
