import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { type Channel, delivered, registerChannel } from '../../jobs/channels.ts'
import { tenantName } from '../../jobs/mail/templates.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { withTenant } from '../../tenancy/scope.ts'
import { type OperatorMessageEvent, onOperatorMessage } from '../chat/hooks.ts'
import { CLOSED, CUSTOMER, conversationById, OPERATOR } from '../chat/store.ts'
import { notifyEvent } from '../letters/events.ts'

/**
 * A customer offline for a while hears of unread chat messages (issue #27): when an operator's message (a
 * person's: the system side's auto-reply starts nothing) stays unread by the customer for the wait, the
 * customer gets one letter (letter event `chatUnread`, in-app and, by default, mail — their /letterManage
 * choice decides) saying how many messages wait for them, with a link to the chat tab on the conversation.
 *
 * "Offline" is judged as "has not read it within the wait" (docs/DECISIONS.md): which sockets are open is
 * known only to each process, while a read mark is in the database for all of them.
 *
 * One letter per conversation and unread burst: the operator's message that starts a burst (no earlier
 * operator's message unread) schedules an outbox row (kind `chatUnreadLetter`) due after the wait; the next
 * messages of the burst schedule none. When due, the row tells the customer only if the burst's first message
 * is still unread, no earlier one is (two operators' messages racing to start a burst: the later one's row
 * stands down), and the conversation is not closed. Through the outbox it survives a restart and is delivered
 * once however many processes run; the row marks itself told in the transaction that writes the letter, so a
 * delivery repeated after a crash writes no second one.
 */

/** The outbox kind of a due unread letter. */
export const UNREAD_LETTER_KIND = 'chatUnreadLetter'

/** The wait when CHAT_UNREAD_LETTER_MINUTES says nothing (docs/CONFIGURATION.md). */
export const DEFAULT_UNREAD_LETTER_MINUTES = 15

/**
 * How long an operator's message may stay unread before the customer hears of it: CHAT_UNREAD_LETTER_MINUTES
 * (minutes, at most a week), 15 by default; 0 turns the letter off (null). Read when a burst starts.
 */
export function unreadLetterWaitMs(env: NodeJS.ProcessEnv = process.env): number | null {
  const value = env.CHAT_UNREAD_LETTER_MINUTES?.trim()
  const minutes = value ? Number(value) : DEFAULT_UNREAD_LETTER_MINUTES
  if (!Number.isFinite(minutes) || minutes < 0) return DEFAULT_UNREAD_LETTER_MINUTES * 60_000
  if (minutes === 0) return null
  return Math.min(minutes, 7 * 24 * 60) * 60_000
}

/** The operator's message that starts a burst schedules the burst's letter, due after the wait. */
async function scheduleUnreadLetter(trx: Transaction<DB>, event: OperatorMessageEvent): Promise<void> {
  if (!event.startsBurst) return
  const wait = unreadLetterWaitMs()
  if (wait === null) return
  await enqueue(
    trx,
    event.tenantId,
    UNREAD_LETTER_KIND,
    { to: `conversation:${event.conversationId}`, conversationId: event.conversationId, messageId: event.messageId },
    { delayMs: wait },
  )
}

/** The burst a due row names, as it stands now: still unread, its first message its own, and how many wait. */
async function unreadBurst(trx: Transaction<DB>, tenantId: number, conversationId: number, firstId: number) {
  const { rows } = await sql<{ first_unread: boolean; earlier_unread: boolean; unread: number }>`
    select
      exists (select 1 from im_message where tenant_id = ${tenantId} and conversation = ${conversationId}
        and id = ${firstId} and side = ${OPERATOR} and read_at is null) as first_unread,
      exists (select 1 from im_message where tenant_id = ${tenantId} and conversation = ${conversationId}
        and id < ${firstId} and side = ${OPERATOR} and read_at is null) as earlier_unread,
      (select count(*)::int from im_message where tenant_id = ${tenantId} and conversation = ${conversationId}
        and side <> ${CUSTOMER} and read_at is null) as unread`.execute(trx)
  const row = rows[0]
  return row?.first_unread && !row.earlier_unread ? row.unread : 0
}

/** Delivers a due unread letter: nothing when read meanwhile, closed, or already told. */
const unreadLetterChannel: Channel = {
  async send(message, ctx) {
    const conversationId = Number(message.payload.conversationId)
    const firstId = Number(message.payload.messageId)
    if (message.payload.told === true) return delivered
    if (!Number.isSafeInteger(conversationId) || !Number.isSafeInteger(firstId)) return delivered
    return withTenant(ctx.db, message.tenantId, async (trx) => {
      const conversation = await conversationById(trx, message.tenantId, conversationId)
      if (!conversation || conversation.state === CLOSED) return delivered
      const count = await unreadBurst(trx, message.tenantId, conversationId, firstId)
      if (!count) return delivered
      await notifyEvent(trx, 'chatUnread', {
        tenantId: message.tenantId,
        record: { id: conversationId, contextRef: conversation.context_ref ?? '', subscriber: conversation.customer },
        params: (language) => ({ count, tenant: tenantName(ctx.tenant, language) }),
        text: count === 1 ? 'chatUnreadOne' : 'chatUnread',
      })
      // Told, in the same transaction: a delivery repeated after a crash before the row was settled stands down.
      await sql`update outbox set payload = payload || '{"told": true}'::jsonb
        where tenant_id = ${message.tenantId} and id = ${message.id}`.execute(trx)
      return delivered
    })
  },
}

let installed = false

/** Installs the hook and the channel, once per process. */
export function installUnreadLetter(): void {
  if (installed) return
  installed = true
  onOperatorMessage(scheduleUnreadLetter)
  registerChannel(UNREAD_LETTER_KIND, unreadLetterChannel)
}
