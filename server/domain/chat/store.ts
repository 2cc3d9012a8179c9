import { createHash, randomBytes } from 'node:crypto'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { ImConversationRow, ImMessageRow } from '../../../generated/content.ts'
import type { DB } from '../../db/schema.ts'
import type { Session } from '../../http/context.ts'
import { ApiError } from '../../http/errors.ts'
import { now } from '../../tenancy/clock.ts'
import { chatFilter, runCustomerMessageHooks, runOperatorMessageHooks } from './hooks.ts'

/**
 * The chat's rows (issue #27): conversations and messages (engine tables of schemas/imConversation.yaml and
 * imMessage.yaml) and the one-time open keys (migration 0030). Every function runs in a transaction opened for
 * the caller's tenant (row-level security holds the tenant too) and takes the tenant explicitly besides.
 *
 * What happened is told to every server process by NOTIFY on CHAT_CHANNEL, in the writing transaction, so it
 * is sent only once committed: ids only, each process reads the rows itself (server/realtime/chatHub.ts).
 */

export const CHAT_CHANNEL = 'waybill_chat'
export const OPEN = 1
export const ASSIGNED = 2
export const CLOSED = 3
export const CUSTOMER = 1
export const OPERATOR = 2
export const SYSTEM = 3
/** How long an open call's key lets a chat tab in. */
export const OPEN_KEY_SECONDS = 60

type DynamicDB = Record<string, Record<string, unknown>>
const dyn = (trx: Transaction<DB> | Kysely<DB>) => trx as unknown as Kysely<DynamicDB>

export type ChatEventKind = 'message' | 'delivered' | 'read' | 'assigned' | 'closed'
export interface ChatEvent {
  /** tenant, conversation, message (message and delivered), kind, side (read: the side that read). */
  t: number
  c: number
  m?: number
  k: ChatEventKind
  s?: number
}

/** Tells every process, once the transaction commits. */
export async function notifyChat(trx: Transaction<DB>, event: ChatEvent): Promise<void> {
  await sql`select pg_notify(${CHAT_CHANNEL}, ${JSON.stringify(event)})`.execute(trx)
}

/** The forwarder's staff with the chat desk serve every conversation of the tenant; everyone else is a customer. */
export function isOperator(session: Pick<Session, 'companyUserType' | 'permissions'>): boolean {
  return session.companyUserType === 1 && session.permissions.has('imServiceDesk')
}

export const sideOf = (session: Pick<Session, 'companyUserType' | 'permissions'>) =>
  isOperator(session) ? OPERATOR : CUSTOMER

export interface ConversationRecord {
  id: number
  tenant_id: number
  customer: number
  customer_company: number | null
  context_type: string
  context_ref: string | null
  state: number
  operator: number | null
  tags: number[] | null
  customer_tags: number[] | null
  last_message_at: Date | null
  customer_unread: number | null
  operator_unread: number | null
  awaiting_since: Date | null
}

/**
 * Names in the chat are display names, never a user name or an id, the same on both sides: an operator's is
 * their /OperationAccountManagementList display name (im_account), a customer's their enterprise's
 * /EnterpriseAccountManagementList chat name (company.im_display_name, else the company's name) and a personal
 * user's their own name. CONVERSATION_FROM joins what CONVERSATION_COLUMNS reads.
 */
const CONVERSATION_COLUMNS = sql`c.id, c.tenant_id, c.customer, c.customer_company, c.context_type, c.context_ref,
  c.state, c.operator, c.tags, ct.tags as customer_tags, c.last_message_at, c.customer_unread, c.operator_unread,
  c.awaiting_since, coalesce(nullif(cc.im_display_name, ''), cc.name, cu.real_name) as customer_name,
  coalesce(nullif(oa.display_name, ''), op.real_name, '') as operator_name`

const CONVERSATION_FROM = sql`im_conversation c
  join app_user cu on cu.id = c.customer and cu.tenant_id = c.tenant_id
  left join company cc on cc.id = cu.company_id and cc.tenant_id = c.tenant_id and cc.company_type = 2
  left join app_user op on op.id = c.operator and op.tenant_id = c.tenant_id
  left join im_account oa on oa."user" = c.operator and oa.tenant_id = c.tenant_id
  left join im_customer_tags ct on ct.customer = c.customer and ct.tenant_id = c.tenant_id`

type ConversationWithNames = ConversationRecord & { customer_name: string; operator_name: string }

/** A conversation the caller may see: an operator any of the tenant's, a customer only their own; else 404. */
export async function visibleConversation(
  trx: Transaction<DB>,
  session: Session,
  id: number,
): Promise<ConversationWithNames> {
  const row = await conversationById(trx, session.tenantId, id)
  if (!row || (!isOperator(session) && row.customer !== session.userId)) throw new ApiError('404')
  return row
}

export async function conversationById(
  trx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<ConversationWithNames | undefined> {
  const { rows } = await sql<ConversationWithNames>`
    select ${CONVERSATION_COLUMNS}
    from ${CONVERSATION_FROM}
    where c.tenant_id = ${tenantId} and c.id = ${id}
  `.execute(trx)
  return rows[0]
}

/** A conversation as the caller's side sees it: its unread count is the caller's side's; the tags are the desk's. */
export function conversationRow(row: ConversationWithNames, side: number): ImConversationRow {
  return {
    id: row.id,
    customer: row.customer,
    customerName: row.customer_name,
    contextType: row.context_type,
    contextRef: row.context_ref ?? '',
    state: row.state,
    operator: row.operator,
    operatorName: row.operator_name,
    tags: side === CUSTOMER ? [] : (row.tags ?? []),
    customerTags: side === CUSTOMER ? [] : (row.customer_tags ?? []),
    lastMessageAt: row.last_message_at ? new Date(row.last_message_at).toISOString() : null,
    unread: (side === CUSTOMER ? row.customer_unread : row.operator_unread) ?? 0,
  }
}

/** An operator of the tenant who has the chat desk, by user name (the open call's contactUsername, SPEC §7). */
export async function operatorByUsername(trx: Transaction<DB>, tenantId: number, username: string) {
  const { rows } = await sql<{ id: number }>`
    select u.id from app_user u
    where u.tenant_id = ${tenantId} and u.username = ${username} and u.company_user_type = 1 and u.state = 1
  `.execute(trx)
  return rows[0]?.id
}

/** `%`, `_` and `\` in a keyword match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
const idsOf = (codes: string | undefined) =>
  (codes ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => /^\d{1,10}$/.test(c))
    .map(Number)
    .filter((n) => n <= 2147483647)

export interface OptionQuery {
  keyword?: string
  codes?: string
  limit: number
}

/**
 * The operators who chat (imOperatorOptions, the transfer's pick-list): the tenant's /OperationAccountManagementList
 * accounts with chat on, whose user is an enabled operation account holding the chat desk through a role in use;
 * by display name (contains) or by user ids. Value the user id, label the display name.
 */
export async function chatOperators(trx: Transaction<DB>, tenantId: number, query: OptionQuery) {
  const ids = idsOf(query.codes)
  if (query.codes && !ids.length) return []
  const keyword = (query.keyword ?? '').trim()
  const name = sql`coalesce(nullif(a.display_name, ''), u.real_name)`
  const { rows } = await sql<{ id: number; name: string }>`
    select u.id, ${name} as name
    from im_account a
    join app_user u on u.id = a."user" and u.tenant_id = a.tenant_id
    where a.tenant_id = ${tenantId} and a.chat_state = 1 and u.state = 1 and u.company_user_type = 1
      and exists (select 1 from user_role ur join role r on r.id = ur.role_id
        where ur.tenant_id = u.tenant_id and ur.user_id = u.id and r.status = 1 and r.permissions ? 'imServiceDesk')
      ${ids.length ? sql`and u.id in (${sql.join(ids)})` : sql``}
      ${!ids.length && keyword ? sql`and ${name} ilike ${`%${escapeLike(keyword)}%`}` : sql``}
    order by name, u.id
    limit ${ids.length ? Math.min(ids.length, 50) : query.limit}
  `.execute(trx)
  return rows.map((row) => ({ value: String(row.id), name: row.name, label: row.name }))
}

/** The tenant's IM tags, read only (imTagOptions: the desk's tag picker and queue filter), each with its colour. */
export async function chatTags(trx: Transaction<DB>, tenantId: number, query: OptionQuery) {
  const ids = idsOf(query.codes)
  if (query.codes && !ids.length) return []
  const keyword = (query.keyword ?? '').trim()
  const { rows } = await sql<{ id: number; name: string; color: string | null }>`
    select id, name, color from im_tag
    where tenant_id = ${tenantId}
      ${ids.length ? sql`and id in (${sql.join(ids)})` : sql``}
      ${!ids.length && keyword ? sql`and name ilike ${`%${escapeLike(keyword)}%`}` : sql``}
    order by name, id
    limit ${ids.length ? Math.min(ids.length, 50) : query.limit}
  `.execute(trx)
  return rows.map((row) => ({
    value: String(row.id),
    name: row.name,
    label: row.name,
    fields: row.color ? { color: row.color } : {},
  }))
}

/** Which of these ids are not tags of the tenant (a conversation carries the tenant's own tags only). */
export async function unknownTags(trx: Transaction<DB>, tenantId: number, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return []
  const { rows } = await sql<{ id: number }>`
    select id from im_tag where tenant_id = ${tenantId} and id in (${sql.join([...ids])})`.execute(trx)
  const known = new Set(rows.map((row) => row.id))
  return ids.filter((id) => !known.has(id))
}

/** The customer's conversation about a context: the open one, or a new one (one open per customer and context). */
export async function openConversation(
  trx: Transaction<DB>,
  session: Session,
  context: { type: string; ref: string; operator?: number },
): Promise<number> {
  const openKey = `${session.userId}:${context.type}:${context.ref}`
  const at = now()
  const inserted = await dyn(trx)
    .insertInto('im_conversation')
    .values({
      tenant_id: session.tenantId,
      customer: session.userId,
      customer_company: session.companyId,
      context_type: context.type,
      context_ref: context.ref,
      open_key: openKey,
      state: context.operator ? ASSIGNED : OPEN,
      operator: context.operator ?? null,
      tags: JSON.stringify([]),
      customer_unread: 0,
      operator_unread: 0,
      created_by: session.userId,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'open_key']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) {
    await notifyChat(trx, { t: session.tenantId, c: inserted.id as number, k: 'assigned' })
    return inserted.id as number
  }
  const found = await dyn(trx)
    .selectFrom('im_conversation')
    .select('id')
    .where('tenant_id', '=', session.tenantId)
    .where('open_key', '=', openKey)
    .executeTakeFirstOrThrow()
  return found.id as number
}

/** A new one-time key for the chat tab; only its hash is stored. */
export async function issueOpenKey(trx: Transaction<DB>, session: Session, conversationId: number): Promise<string> {
  const key = randomBytes(32).toString('base64url')
  await dyn(trx)
    .insertInto('im_open_key')
    .values({
      tenant_id: session.tenantId,
      key_hash: hashKey(key),
      user_id: session.userId,
      conversation_id: conversationId,
      expires_at: new Date(now().getTime() + OPEN_KEY_SECONDS * 1000),
    })
    .execute()
  // Spent and stale keys of the tenant go as new ones come.
  await dyn(trx)
    .deleteFrom('im_open_key')
    .where('tenant_id', '=', session.tenantId)
    .where('expires_at', '<', new Date(now().getTime() - 3600_000))
    .execute()
  return key
}

/** The conversation of a key, spending it: a used, stale, unknown or another user's key answers 381002. */
export async function spendOpenKey(trx: Transaction<DB>, session: Session, key: string): Promise<number> {
  const spent = await dyn(trx)
    .updateTable('im_open_key')
    .set({ used_at: now() })
    .where('tenant_id', '=', session.tenantId)
    .where('key_hash', '=', hashKey(key))
    .where('user_id', '=', session.userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now())
    .returning('conversation_id')
    .executeTakeFirst()
  if (!spent) throw new ApiError('381002')
  return spent.conversation_id as number
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex')

export interface NewMessage {
  text?: string
  attachment?: string | null
}

/**
 * Stores a message in the caller's transaction: refused in a closed conversation (381001) or by the chat filter;
 * the other side's unread count goes up, and the waiting clock starts (a customer's) or stops (anyone else's).
 */
export async function storeMessage(
  trx: Transaction<DB>,
  conversation: ConversationRecord,
  sender: { userId: number | null; side: number },
  message: NewMessage,
): Promise<number> {
  if (conversation.state === CLOSED) throw new ApiError('381001')
  let text = message.text ?? ''
  if (text) {
    const verdict = await chatFilter()(trx, {
      tenantId: conversation.tenant_id,
      conversationId: conversation.id,
      side: sender.side,
      text,
    })
    if ('refuse' in verdict) throw new ApiError(verdict.refuse)
    text = verdict.text
  }
  const at = now()
  const inserted = await dyn(trx)
    .insertInto('im_message')
    .values({
      tenant_id: conversation.tenant_id,
      conversation: conversation.id,
      text,
      attachment: message.attachment ?? null,
      sender: sender.userId,
      side: sender.side,
      created_by: sender.userId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const id = inserted.id as number
  const fromCustomer = sender.side === CUSTOMER
  const { rows } = await sql<{ awaiting_since: Date | null }>`
    update im_conversation set
      last_message_at = ${at},
      updated_at = ${at},
      version = version + 1,
      customer_unread = coalesce(customer_unread, 0) + ${fromCustomer ? 0 : 1},
      operator_unread = coalesce(operator_unread, 0) + ${fromCustomer ? 1 : 0},
      awaiting_since = ${fromCustomer ? sql`coalesce(awaiting_since, ${at})` : sql`null`}
    where tenant_id = ${conversation.tenant_id} and id = ${conversation.id}
    returning awaiting_since
  `.execute(trx)
  await notifyChat(trx, { t: conversation.tenant_id, c: conversation.id, m: id, k: 'message' })
  if (fromCustomer) {
    await runCustomerMessageHooks(trx, {
      tenantId: conversation.tenant_id,
      conversationId: conversation.id,
      messageId: id,
      awaitingSince: new Date(rows[0]?.awaiting_since ?? at),
    })
  } else if (sender.side === OPERATOR) {
    // A read marks every message before it: whether the latest earlier operator's message is unread tells.
    const { rows: earlier } = await sql<{ read_at: Date | null }>`select read_at from im_message
      where tenant_id = ${conversation.tenant_id} and conversation = ${conversation.id} and side = ${OPERATOR}
        and id < ${id} order by id desc limit 1`.execute(trx)
    await runOperatorMessageHooks(trx, {
      tenantId: conversation.tenant_id,
      conversationId: conversation.id,
      messageId: id,
      startsBurst: !earlier[0] || earlier[0].read_at !== null,
    })
  }
  return id
}

/** The auto-reply's way in (./hooks.ts): a message of the system side, in a conversation that is not closed. */
export async function sendSystemMessage(
  trx: Transaction<DB>,
  tenantId: number,
  conversationId: number,
  text: string,
): Promise<number | undefined> {
  const conversation = await conversationById(trx, tenantId, conversationId)
  if (!conversation || conversation.state === CLOSED) return undefined
  return storeMessage(trx, conversation, { userId: null, side: SYSTEM }, { text })
}

/** Whether a conversation still waits for an operator since that time (the auto-reply checks before it sends). */
export async function stillAwaiting(
  trx: Transaction<DB>,
  tenantId: number,
  conversationId: number,
  since: Date,
): Promise<boolean> {
  const row = await conversationById(trx, tenantId, conversationId)
  return (
    !!row && row.state !== CLOSED && !!row.awaiting_since && new Date(row.awaiting_since).getTime() <= since.getTime()
  )
}

/** The attachment's file id as a uuid, so the join finds the file by its key (send stores only file ids). */
const ATTACHED_FILE = sql`case when m.attachment ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  then m.attachment::uuid end`

type MessageRecord = {
  id: number
  conversation: number
  sender: number | null
  sender_name: string | null
  side: number
  text: string | null
  attachment: string | null
  attachment_name: string | null
  attachment_type: string | null
  attachment_size: number | null
  created_at: Date
  delivered_at: Date | null
  read_at: Date | null
}

/**
 * A message's sender by display name, as the conversation's names (CONVERSATION_COLUMNS; the system's has none),
 * and its attachment's name, type and size (the file row, never its bytes).
 */
const MESSAGE_COLUMNS = sql`m.id, m.conversation, m.sender, m.side, m.text, m.attachment, m.created_at,
  m.delivered_at, m.read_at,
  f.name as attachment_name, f.content_type as attachment_type, f.size as attachment_size,
  case when m.side = ${OPERATOR} then coalesce(nullif(sa.display_name, ''), u.real_name)
    else coalesce(nullif(sc.im_display_name, ''), sc.name, u.real_name) end as sender_name`

const MESSAGE_FROM = sql`im_message m
  left join app_user u on u.id = m.sender and u.tenant_id = m.tenant_id
  left join company sc on sc.id = u.company_id and sc.tenant_id = m.tenant_id and sc.company_type = 2
  left join im_account sa on sa."user" = m.sender and sa.tenant_id = m.tenant_id
  left join file f on f.id = ${ATTACHED_FILE} and f.tenant_id = m.tenant_id`

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null)

function messageRow(row: MessageRecord): ImMessageRow {
  return {
    id: row.id,
    conversation: row.conversation,
    sender: row.sender,
    senderName: row.sender_name ?? '',
    side: row.side,
    text: row.text ?? '',
    attachment: row.attachment,
    attachmentName: row.attachment_name,
    attachmentType: row.attachment_type,
    attachmentSize: row.attachment_size === null ? null : Number(row.attachment_size),
    createdAt: iso(row.created_at) as string,
    deliveredAt: iso(row.delivered_at),
    readAt: iso(row.read_at),
  }
}

/** Messages of a conversation: before an id newest first, or after one oldest first; one more tells hasMore. */
export async function messagePage(
  trx: Transaction<DB>,
  tenantId: number,
  conversationId: number,
  page: { before?: number; after?: number; pageSize: number },
): Promise<{ list: ImMessageRow[]; hasMore: boolean }> {
  const forward = page.after !== undefined && page.before === undefined
  const { rows } = await sql<MessageRecord>`
    select ${MESSAGE_COLUMNS}
    from ${MESSAGE_FROM}
    where m.tenant_id = ${tenantId} and m.conversation = ${conversationId}
      ${page.before !== undefined ? sql`and m.id < ${page.before}` : sql``}
      ${forward ? sql`and m.id > ${page.after}` : sql``}
    order by m.id ${forward ? sql`asc` : sql`desc`}
    limit ${page.pageSize + 1}
  `.execute(trx)
  return { list: rows.slice(0, page.pageSize).map(messageRow), hasMore: rows.length > page.pageSize }
}

export async function messageById(trx: Transaction<DB>, tenantId: number, id: number) {
  const { rows } = await sql<MessageRecord>`
    select ${MESSAGE_COLUMNS}
    from ${MESSAGE_FROM}
    where m.tenant_id = ${tenantId} and m.id = ${id}
  `.execute(trx)
  return rows[0] ? messageRow(rows[0]) : undefined
}

/** Marks a message delivered (the first socket of its other side got it); tells everyone once. */
export async function markDelivered(trx: Transaction<DB>, tenantId: number, conversationId: number, id: number) {
  const { rows } = await sql`
    update im_message set delivered_at = ${now()}
    where tenant_id = ${tenantId} and id = ${id} and delivered_at is null returning id
  `.execute(trx)
  if (rows.length) await notifyChat(trx, { t: tenantId, c: conversationId, m: id, k: 'delivered' })
}

/** Everything the other side sent is read by this side: its messages are marked, this side's count is zero. */
export async function markRead(trx: Transaction<DB>, tenantId: number, conversationId: number, side: number) {
  const at = now()
  const others = side === CUSTOMER ? sql`m.side <> ${CUSTOMER}` : sql`m.side = ${CUSTOMER}`
  const { rows } = await sql<{ id: number }>`
    update im_message m set read_at = ${at}, delivered_at = coalesce(m.delivered_at, ${at})
    where m.tenant_id = ${tenantId} and m.conversation = ${conversationId} and m.read_at is null and ${others}
    returning m.id
  `.execute(trx)
  await sql`
    update im_conversation set ${side === CUSTOMER ? sql`customer_unread` : sql`operator_unread`} = 0
    where tenant_id = ${tenantId} and id = ${conversationId}
  `.execute(trx)
  const upTo = Math.max(0, ...rows.map((r) => r.id))
  if (upTo) await notifyChat(trx, { t: tenantId, c: conversationId, m: upTo, k: 'read', s: side })
}

/**
 * The top bar's count: a customer's unread messages in their own conversations; an operator's in the
 * conversations they hold and the waiting (unassigned) ones.
 */
export async function unreadTotal(trx: Transaction<DB>, tenantId: number, userId: number, side: number) {
  const { rows } =
    side === CUSTOMER
      ? await sql<{ n: number }>`
          select coalesce(sum(customer_unread), 0)::int as n from im_conversation
          where tenant_id = ${tenantId} and customer = ${userId}`.execute(trx)
      : await sql<{ n: number }>`
          select coalesce(sum(operator_unread), 0)::int as n from im_conversation
          where tenant_id = ${tenantId} and state <> ${CLOSED} and (operator = ${userId} or operator is null)`.execute(
          trx,
        )
  return rows[0]?.n ?? 0
}

/** A page of conversations, the latest message first: the queue (operators) or the caller's own (a customer). */
export async function conversationPage(
  trx: Transaction<DB>,
  tenantId: number,
  filter: { customer?: number; operator?: number; state?: number; tag?: number; pageNum: number; pageSize: number },
  side: number,
) {
  const where = sql`c.tenant_id = ${tenantId}
    ${filter.customer !== undefined ? sql`and c.customer = ${filter.customer}` : sql``}
    ${filter.operator !== undefined ? sql`and c.operator = ${filter.operator}` : sql``}
    ${filter.state !== undefined ? sql`and c.state = ${filter.state}` : filter.customer === undefined ? sql`and c.state <> ${CLOSED}` : sql``}
    ${filter.tag !== undefined ? sql`and (c.tags @> ${JSON.stringify([filter.tag])}::jsonb or ct.tags @> ${JSON.stringify([filter.tag])}::jsonb)` : sql``}`
  const { rows } = await sql<ConversationWithNames>`
    select ${CONVERSATION_COLUMNS}
    from ${CONVERSATION_FROM}
    where ${where}
    order by c.last_message_at desc nulls last, c.id desc
    limit ${filter.pageSize} offset ${(filter.pageNum - 1) * filter.pageSize}
  `.execute(trx)
  const { rows: count } = await sql<{
    n: number
  }>`select count(*)::int as n from im_conversation c
    left join im_customer_tags ct on ct.customer = c.customer and ct.tenant_id = c.tenant_id
    where ${where}`.execute(trx)
  return {
    list: rows.map((row) => conversationRow(row, side)),
    total: count[0]?.n ?? 0,
    pageNum: filter.pageNum,
    pageSize: filter.pageSize,
  }
}

/**
 * A customer's tags (all of them at once), shown on every conversation of theirs at the desk; the conversation
 * the operator changed them from is told to everyone, as a tag change is.
 */
export async function setCustomerTags(
  trx: Transaction<DB>,
  conversation: ConversationRecord,
  tags: number[],
  by: number,
): Promise<void> {
  const at = now()
  await dyn(trx)
    .insertInto('im_customer_tags')
    .values({
      tenant_id: conversation.tenant_id,
      customer: conversation.customer,
      tags: JSON.stringify(tags),
      created_by: by,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'customer']).doUpdateSet({ tags: JSON.stringify(tags), updated_at: at }),
    )
    .execute()
  await notifyChat(trx, { t: conversation.tenant_id, c: conversation.id, k: 'assigned' })
}

/** Take, transfer, close, tag: one change to a conversation that is not closed, told to everyone. */
export async function changeConversation(
  trx: Transaction<DB>,
  conversation: ConversationRecord,
  change: { operator?: number; close?: boolean; tags?: number[] },
): Promise<void> {
  if (conversation.state === CLOSED) throw new ApiError('381001')
  const at = now()
  await sql`
    update im_conversation set version = version + 1, updated_at = ${at}
      ${change.operator !== undefined ? sql`, operator = ${change.operator}, state = ${ASSIGNED}` : sql``}
      ${change.close ? sql`, state = ${CLOSED}, open_key = null, closed_at = ${at}, awaiting_since = null` : sql``}
      ${change.tags ? sql`, tags = ${JSON.stringify(change.tags)}::jsonb` : sql``}
    where tenant_id = ${conversation.tenant_id} and id = ${conversation.id}
  `.execute(trx)
  await notifyChat(trx, { t: conversation.tenant_id, c: conversation.id, k: change.close ? 'closed' : 'assigned' })
}
