import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EffectContext, EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { readToken } from './token.ts'

/**
 * Push lists (schemas/push.yaml, schemas/pushRecipient.yaml; SPEC §4 "Notification push"). `send` resolves
 * the chosen enterprises and users to customer users, writes one recipient row and one outbox message per
 * user in the send's own transaction; `suspend` and `abort` take back the messages the worker has not sent
 * (deleting their outbox rows, so none is sent later), `resume` queues them again. A push reads
 * `completed` once no recipient is still waiting for its message (computed when read).
 */

/** At most this many recipient users per push: a bigger audience is a campaign, not a push list. */
export const MAX_PUSH_RECIPIENTS = 500

const CUSTOMER_TYPES = [2, 3]
const LANGUAGES = new Set(['zh', 'en', 'ja', 'es'])

interface Recipient {
  id: number
  email: string | null
  openid: string | null
  realName: string
  company: number | null
  language: string | null
}

async function audience(trx: Transaction<DB>, tenantId: number, push: Record<string, unknown>): Promise<Recipient[]> {
  const companies = (Array.isArray(push.companies) ? push.companies : []).map(Number)
  const users = (Array.isArray(push.users) ? push.users : []).map(Number)
  const rows = await sql<Recipient>`
    select u.id, u.email, u.wechat_openid as openid, u.real_name as "realName", u.company_id as company, u.language
    from app_user u
    where u.tenant_id = ${tenantId} and u.company_user_type = any(${CUSTOMER_TYPES})
      and (u.company_id = any(${companies}::int[]) or u.id = any(${users}::int[]))
    order by u.id
    limit ${MAX_PUSH_RECIPIENTS + 1}`.execute(trx)
  return rows.rows
}

async function tenantHost(trx: Transaction<DB>, tenantId: number): Promise<string> {
  const row = await trx
    .selectFrom('tenant_domain')
    .select('domain')
    .where('tenant_id', '=', tenantId)
    .orderBy('domain')
    .executeTakeFirst()
  return row?.domain ?? 'localhost'
}

interface Pushed {
  title: string
  text: string
  informationItem: number | null
}

async function whatIsPushed(trx: Transaction<DB>, tenantId: number, push: Record<string, unknown>): Promise<Pushed> {
  if (push.contentType === 'news' && push.informationItem != null) {
    const item = await sql<{ title: string; summary: string | null }>`
      select title, summary from information_item where tenant_id = ${tenantId} and id = ${Number(push.informationItem)}`
      .execute(trx)
      .then((r) => r.rows[0])
    if (!item)
      throw new ApiError('validation', {}, [{ field: 'informationItem', message: 'push.itemRequired', params: {} }])
    return { title: item.title, text: item.summary ?? '', informationItem: Number(push.informationItem) }
  }
  const html = String(push.content ?? '')
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return { title: String(push.title ?? ''), text, informationItem: null }
}

/** Queues the message of one recipient row and records its outbox id. */
async function queue(
  trx: Transaction<DB>,
  tenantId: number,
  channel: string,
  host: string,
  pushed: Pushed,
  recipient: { id: number; address: string | null; name: string; language?: string | null },
  delayMs = 0,
): Promise<number> {
  const link = `https://${host}/api/b2b/public/push/read?t=${readToken(tenantId, recipient.id)}`
  const outboxId =
    channel === 'wechat'
      ? await enqueue(
          trx,
          tenantId,
          'wechat',
          {
            to: recipient.address ?? '',
            // The tenant's notice template (/operationSet), in WeChat's keyword form; there is no "push" template.
            template: 'notice',
            params: { first: pushed.title, keyword1: recipient.name, keyword2: pushed.text.slice(0, 200) },
            url: link,
          },
          { delayMs },
        )
      : await enqueue(
          trx,
          tenantId,
          'mail',
          {
            to: recipient.address ?? '',
            subject: pushed.title,
            text: `${recipient.name}\n\n${pushed.title}\n\n${pushed.text}\n\n${link}`,
            ...(recipient.language && LANGUAGES.has(recipient.language) ? { language: recipient.language } : {}),
          },
          { delayMs },
        )
  await sql`update push_recipient set outbox_id = ${outboxId} where tenant_id = ${tenantId} and id = ${recipient.id}`.execute(
    trx,
  )
  return outboxId
}

/**
 * How long a push's messages wait for its `scheduledAt` (0 when it is due): measured on the server's clock, the
 * outbox makes them due that much later on the database's, where the worker looks (server/jobs/outbox.ts).
 */
function delayOf(push: Record<string, unknown>, at: Date): number {
  const scheduled = push.scheduledAt ? new Date(String(push.scheduledAt)).getTime() : Number.NaN
  return Number.isFinite(scheduled) ? Math.max(0, scheduled - at.getTime()) : 0
}

async function pushSend({ trx, call, after, at }: EffectContext): Promise<void> {
  const tenantId = call.tenantId
  const pushId = Number(after.id)
  const people = await audience(trx, tenantId, after)
  if (people.length === 0)
    throw new ApiError('validation', {}, [{ field: 'companies', message: 'push.recipientsRequired', params: {} }])
  if (people.length > MAX_PUSH_RECIPIENTS)
    throw new ApiError('validation', { max: MAX_PUSH_RECIPIENTS }, [
      { field: 'companies', message: 'validation.maxItems', params: { limit: MAX_PUSH_RECIPIENTS } },
    ])
  const pushed = await whatIsPushed(trx, tenantId, after)
  const host = await tenantHost(trx, tenantId)
  const channel = String(after.channel)
  const delayMs = delayOf(after, at)
  for (const person of people) {
    // A WeChat recipient is addressed by the openid they bound on /bindWechat; one who bound none is queued
    // all the same with an empty address, and the channel fails it with its reason (docs/DECISIONS.md).
    const address = channel === 'mail' ? person.email : person.openid
    const inserted = await sql<{ id: number }>`
      insert into push_recipient (tenant_id, push, recipient, company, address, state, created_at, updated_at, created_by, version)
      values (${tenantId}, ${pushId}, ${person.id}, ${person.company}, ${address}, 'notified', ${at}, ${at}, ${call.session.userId}, 1)
      returning id`.execute(trx)
    const id = inserted.rows[0]?.id as number
    await queue(
      trx,
      tenantId,
      channel,
      host,
      pushed,
      { id, address, name: person.realName, language: person.language },
      delayMs,
    )
  }
  // Sent at: when its messages leave, the scheduled time for a push scheduled later.
  const sentAt = new Date(at.getTime() + delayMs)
  await sql`update push_message set recipient_count = ${people.length}, sent_at = ${sentAt}
    where tenant_id = ${tenantId} and id = ${pushId}`.execute(trx)
}

/** Takes back the unsent messages of a push's waiting recipients and sets those recipients to `state`. */
async function holdUnsent(trx: Transaction<DB>, tenantId: number, pushId: number, state: string, from: string[]) {
  await sql`delete from outbox o using push_recipient r
    where r.tenant_id = ${tenantId} and r.push = ${pushId} and r.state = any(${from})
      and o.tenant_id = r.tenant_id and o.id = r.outbox_id and o.sent_at is null`.execute(trx)
  await sql`update push_recipient r set state = ${state}, version = r.version + 1, updated_at = now()
    where r.tenant_id = ${tenantId} and r.push = ${pushId} and r.state = any(${from})
      and not exists (select 1 from outbox o where o.tenant_id = r.tenant_id and o.id = r.outbox_id)`.execute(trx)
}

async function pushSuspend({ trx, call, after }: EffectContext): Promise<void> {
  await holdUnsent(trx, call.tenantId, Number(after.id), 'suspended', ['notified'])
}

async function pushAbort({ trx, call, after }: EffectContext): Promise<void> {
  await holdUnsent(trx, call.tenantId, Number(after.id), 'aborted', ['notified', 'suspended'])
}

/** One recipient stopped by the operator: its message is taken back unless the worker has sent it. */
async function pushRecipientAbort({ trx, call, after }: EffectContext): Promise<void> {
  await sql`delete from outbox where tenant_id = ${call.tenantId} and id = ${Number(after.outboxId)} and sent_at is null`.execute(
    trx,
  )
}

async function pushResume({ trx, call, after, at }: EffectContext): Promise<void> {
  const tenantId = call.tenantId
  const pushed = await whatIsPushed(trx, tenantId, after)
  const host = await tenantHost(trx, tenantId)
  const held = await sql<{ id: number; address: string | null; name: string; language: string | null }>`
    select r.id, r.address, u.real_name as name, u.language from push_recipient r
    join app_user u on u.tenant_id = r.tenant_id and u.id = r.recipient
    where r.tenant_id = ${tenantId} and r.push = ${Number(after.id)} and r.state = 'suspended' order by r.id`.execute(
    trx,
  )
  for (const row of held.rows) {
    await queue(trx, tenantId, String(after.channel), host, pushed, row, delayOf(after, at))
    await sql`update push_recipient set state = 'notified', version = version + 1, updated_at = now()
      where tenant_id = ${tenantId} and id = ${row.id}`.execute(trx)
  }
}

export function register(engine: EngineRegistry): void {
  engine.effect('pushSend', pushSend)
  engine.effect('pushSuspend', pushSuspend)
  engine.effect('pushResume', pushResume)
  engine.effect('pushAbort', pushAbort)
  engine.effect('pushRecipientAbort', pushRecipientAbort)
  // Notified and nobody left waiting for a message: completed (every recipient's message delivered or finally
  // failed, or the recipient has read it, acted on it or been stopped).
  engine.computedState(
    'push',
    async ({ table }) => sql<string>`case
    when ${sql.ref(`${table}.state`)} = 'notified' and not exists (
      select 1 from push_recipient r left join outbox o on o.tenant_id = r.tenant_id and o.id = r.outbox_id
      where r.tenant_id = ${sql.ref(`${table}.tenant_id`)} and r.push = ${sql.ref(`${table}.id`)}
        and r.state = 'notified' and (o.id is null or (o.sent_at is null and o.failed_at is null)))
    then 'completed' else ${sql.ref(`${table}.state`)} end`,
  )
  // /PushView: each recipient with how its message fared at the outbox (schemas/pushDelivery.yaml).
  engine.view(
    'pushDelivery',
    ({ call }) => sql`
      select r.tenant_id, r.id, r.version, r.created_at, r.updated_at, r.created_by, r.push, r.recipient, r.company,
        r.address, r.outbox_id, r.read_at, r.executed_at, r.state,
        case when o.id is null then null when o.sent_at is not null then 'sent' when o.failed_at is not null then 'failed'
          when o.attempts > 0 then 'retrying' else 'pending' end as delivery,
        case when o.sent_at is null then left(o.last_error, 2000) end as delivery_error
      from push_recipient r left join outbox o on o.tenant_id = r.tenant_id and o.id = r.outbox_id
      where r.tenant_id = ${call.tenantId}`,
  )
  engine.listOrder('pushDelivery', { field: 'id', order: 'asc' })
  engine.listOrder('push', { field: 'updatedAt', order: 'desc' })
}

/**
 * The signed-in recipient opened the item a push sent them (the news detail, server/domain/news): SPEC §4's
 * `executed` for each of their recipient rows of a news push of that item still notified or read. A notice has
 * nothing to open beyond its mail, so read is as far as it goes (docs/DECISIONS.md). Answers how many moved.
 */
export async function markPushedItemOpened(
  trx: Transaction<DB>,
  tenantId: number,
  userId: number,
  informationItem: number,
): Promise<number> {
  const moved = await sql`
    update push_recipient r set state = 'executed', executed_at = now(), read_at = coalesce(r.read_at, now()),
      version = r.version + 1, updated_at = now()
    from push_message p
    where r.tenant_id = ${tenantId} and r.recipient = ${userId} and r.state in ('notified', 'read')
      and p.tenant_id = r.tenant_id and p.id = r.push and p.content_type = 'news'
      and p.information_item = ${informationItem}`.execute(trx)
  return Number(moved.numAffectedRows ?? 0)
}
