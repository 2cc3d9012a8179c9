import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { ManifestEntity } from '../../../model/resolve.ts'
import type { DB } from '../../db/schema.ts'
import { type Column, columnsOf, selection, toApiRow } from '../../engine/columns.ts'
import { type ListPlan, planList } from '../../engine/search.ts'
import type { Manifest } from '../../manifest.ts'

/**
 * In-app letters (SPEC §3 "Notification letter"): the table the engine keeps for schemas/letter.yaml,
 * read and written only here, always for one recipient. The list reuses the engine's list request and
 * search operators, so /letterList is a generic list screen over a call that can only see its caller's rows.
 */

export const LETTER_TABLE = 'letter'
/** SPEC §3: status 0 is unread. */
export const UNREAD = 0
export const READ = 1

export type LetterRow = Record<string, unknown> & { id: number; status: number; updateTime: string }

type DynamicDB = Record<string, Record<string, unknown>>
export const dynamic = (trx: Transaction<DB> | Kysely<DB>) => trx as unknown as Kysely<DynamicDB>

/** The content on one line: every `<br>` (any spelling) a space, runs of spaces one. */
export function withoutBreaks(content: string): string {
  return content
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

export interface LetterModel {
  entity: ManifestEntity
  columns: Column[]
  /** The list request the screens bound to the letter list call may send (their search and sort). */
  list: ListPlan
}

const models = new WeakMap<Manifest, LetterModel>()

/** The letter entity, its columns and its list plan, from the manifest (once per manifest). */
export function letterModel(manifest: Manifest): LetterModel {
  let model = models.get(manifest)
  if (model) return model
  const entity = manifest.entities.letter
  const endpoint = manifest.endpoints.find((e) => e.id === 'letterList')
  if (!entity || !endpoint)
    throw new Error('the manifest has no letter entity or letterList endpoint: run `waybill generate`')
  // A hand-written endpoint carries no search of its own: the screens that bind it declare it.
  const search = manifest.screens.filter((s) => endpoint.screens.includes(s.name)).flatMap((s) => s.search ?? [])
  model = {
    entity,
    columns: columnsOf(entity, manifest.entities),
    list: planList(manifest, { ...endpoint, search }, entity),
  }
  models.set(manifest, model)
  return model
}

/** The rows one user may see: their own letters in their tenant (row-level security holds the tenant too). */
export function ownLetters(tenantId: number, userId: number): RawBuilder<SqlBool>[] {
  return [
    sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.tenant_id`)} = ${tenantId}`,
    sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.recipient`)} = ${userId}`,
  ]
}

/** A selected row in the answer's shape: the entity's fields plus SPEC §3's updateTime and the engine's labels. */
export function letterRow(model: LetterModel, row: Record<string, unknown>): LetterRow {
  const api = toApiRow(model.columns, row)
  return { ...api, id: api.id as number, status: api.status as number, updateTime: api.updatedAt as string, labels: {} }
}

export function letterSelection(model: LetterModel) {
  return selection(model.columns, LETTER_TABLE)
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
    ...(letter.sentAt ? { created_at: letter.sentAt, updated_at: letter.sentAt } : {}),
  }))
  const inserted = await dynamic(trx).insertInto(LETTER_TABLE).values(rows).returning('id').execute()
  return inserted.map((row) => row.id as number)
}
