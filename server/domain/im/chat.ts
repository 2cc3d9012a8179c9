import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { ErrorCode } from '../../http/errors.ts'
import { type Channel, delivered, registerChannel, retry } from '../../jobs/channels.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { now, tenantTimeZone } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import { type CustomerMessageEvent, onCustomerMessage, setChatFilter } from '../chat/hooks.ts'
import { sendSystemMessage, stillAwaiting } from '../chat/store.ts'
import { type AutoReplySettings, autoReplyFor, type WaitUnit } from './autoReply.ts'
import { applyChatFilters, type ChatFilter } from './filter.ts'
import { installUnreadLetter } from './unreadLetter.ts'

/**
 * The IM administration's rules at work in the chat (issue #27): the tenant's chat filter on every message's
 * text before it is stored (masked, or refused with 381003), and its auto-reply — a customer's message that
 * starts a wait schedules an outbox row (kind `chatAutoReply`) due when the reply is, whose delivery sends it as
 * the system side if no operator has answered since. Through the outbox, the reply survives a restart and is
 * sent once however many processes run (the worker leases each row).
 */

/** The outbox kind of a due auto-reply. */
export const AUTO_REPLY_KIND = 'chatAutoReply'

async function tenantFilters(trx: Transaction<DB>, tenantId: number): Promise<ChatFilter[]> {
  const { rows } = await sql<ChatFilter>`select kind, text, action from im_chat_filter
    where tenant_id = ${tenantId} and enabled is not false order by id limit 500`.execute(trx)
  return rows
}

async function autoReplySettings(trx: Transaction<DB>, tenantId: number): Promise<AutoReplySettings | null> {
  const { rows } = await sql<{
    enabled: boolean | null
    message: string
    wait_value: number
    wait_unit: WaitUnit
    service_days: unknown
    service_start: string
    service_end: string
    outside_hours_message: string | null
  }>`select enabled, message, wait_value, wait_unit, service_days, service_start, service_end, outside_hours_message
    from im_auto_reply where tenant_id = ${tenantId} limit 1`.execute(trx)
  const row = rows[0]
  if (!row) return null
  const days = typeof row.service_days === 'string' ? JSON.parse(row.service_days) : row.service_days
  return {
    enabled: row.enabled !== false,
    message: row.message,
    waitValue: row.wait_value,
    waitUnit: row.wait_unit,
    serviceDays: Array.isArray(days) ? days.map(Number) : [],
    serviceStart: row.service_start,
    serviceEnd: row.service_end,
    outsideHoursMessage: row.outside_hours_message ?? '',
  }
}

/** The reply due for a wait that began at `since`, decided now; null when none is (off, answered, empty). */
async function replyFor(trx: Transaction<DB>, tenantId: number, since: Date, answered: boolean) {
  const settings = await autoReplySettings(trx, tenantId)
  if (!settings) return null
  const timeZone = await tenantTimeZone(trx, tenantId)
  return autoReplyFor({ settings, arrivedAt: since, now: now(), timeZone, answered })
}

/** Only the message that starts a wait schedules the reply: the next ones of the same wait share it. */
async function scheduleAutoReply(trx: Transaction<DB>, event: CustomerMessageEvent): Promise<void> {
  const { rows } = await sql<{ created_at: Date }>`select created_at from im_message
    where tenant_id = ${event.tenantId} and id = ${event.messageId}`.execute(trx)
  const created = rows[0]?.created_at
  if (!created || new Date(created).getTime() !== event.awaitingSince.getTime()) return
  const reply = await replyFor(trx, event.tenantId, event.awaitingSince, false)
  if (!reply) return
  await enqueue(
    trx,
    event.tenantId,
    AUTO_REPLY_KIND,
    { to: `conversation:${event.conversationId}`, conversationId: event.conversationId, since: event.awaitingSince },
    { delayMs: reply.at.getTime() - now().getTime() },
  )
}

/** Delivers a due auto-reply: the wait still open and the reply still due (settings read again, now). */
const autoReplyChannel: Channel = {
  async send(message, ctx) {
    const conversationId = Number(message.payload.conversationId)
    const since = new Date(String(message.payload.since))
    if (!Number.isInteger(conversationId) || Number.isNaN(since.getTime())) return delivered
    return withTenant(ctx.db, message.tenantId, async (trx) => {
      if (!(await stillAwaiting(trx, message.tenantId, conversationId, since))) return delivered
      const reply = await replyFor(trx, message.tenantId, since, false)
      if (!reply) return delivered
      // Early — another process's clock, a changed wait, or the row's due time, which is reckoned from the start
      // of the transaction that stored the message (the database's now()) and so falls a little before the
      // reply's: try again when it is due, not after the worker's back-off (30 s and more).
      if (!reply.due) return retry('auto-reply not yet due', reply.at.getTime() - now().getTime())
      await sendSystemMessage(trx, message.tenantId, conversationId, reply.text)
      return delivered
    })
  },
}

let installed = false

/**
 * Installs the filter, the auto-reply's hook and its channel, and the unread letter's (./unreadLetter.ts),
 * once per process (every app of a test worker shares them).
 */
export function installImChatRules(): void {
  if (installed) return
  installed = true
  setChatFilter(async (trx, message) => {
    const outcome = applyChatFilters(message.text, await tenantFilters(trx, message.tenantId))
    return 'refused' in outcome ? { refuse: outcome.refused as ErrorCode } : { text: outcome.text }
  })
  onCustomerMessage(scheduleAutoReply)
  registerChannel(AUTO_REPLY_KIND, autoReplyChannel)
  installUnreadLetter()
}
