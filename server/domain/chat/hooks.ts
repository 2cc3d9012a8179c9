import type { Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { ErrorCode } from '../../http/errors.ts'

/**
 * The chat's extension points (issue #27), for the IM administration (h11's chat filter and auto-reply) to
 * register at start, as the engine's effects are: the chat names no module of theirs.
 *
 * - `setChatFilter(filter)`: every message's text passes the filter in the sending transaction, before it is
 *   stored. It answers the text to store (masked, or as it was) or refuses with an error code (381003, the
 *   chat filter's, or one of its own); a refused text stores nothing and tells nobody.
 * - `onCustomerMessage(hook)`: runs in the transaction that stored a customer's message, with the time since
 *   which the conversation has waited for an operator (`awaitingSince`, the first unanswered customer message;
 *   an operator's or the system's message clears it). The auto-reply schedules its reply there (an outbox row
 *   due at awaitingSince + its wait) and, when due, sends it with `sendSystemMessage` (./store.ts) if
 *   `stillAwaiting` says no operator has answered since.
 * - `onOperatorMessage(hook)`: runs in the transaction that stored an operator's message (a person's: the
 *   system side's auto-reply is not one), with whether it is the first of the customer's unread burst (no
 *   other operator's message of the conversation is unread by the customer). The unread letter
 *   (server/domain/im/unreadLetter.ts) schedules its letter there.
 */

export type ChatFilterVerdict = { text: string } | { refuse: ErrorCode }
export type ChatFilter = (
  trx: Transaction<DB>,
  message: { tenantId: number; conversationId: number; side: number; text: string },
) => Promise<ChatFilterVerdict>

export interface CustomerMessageEvent {
  tenantId: number
  conversationId: number
  messageId: number
  /** Since when the conversation has waited for an operator's answer. */
  awaitingSince: Date
}
export type CustomerMessageHook = (trx: Transaction<DB>, event: CustomerMessageEvent) => Promise<void>

export interface OperatorMessageEvent {
  tenantId: number
  conversationId: number
  messageId: number
  /** No earlier operator's message of the conversation is unread by the customer: this one starts a burst. */
  startsBurst: boolean
}
export type OperatorMessageHook = (trx: Transaction<DB>, event: OperatorMessageEvent) => Promise<void>

const passThrough: ChatFilter = async (_trx, message) => ({ text: message.text })
let filter: ChatFilter = passThrough
const customerMessageHooks: CustomerMessageHook[] = []
const operatorMessageHooks: OperatorMessageHook[] = []

/** Installs the chat filter; with no argument, the filter that lets every text through. Answers the previous one. */
export function setChatFilter(next: ChatFilter = passThrough): ChatFilter {
  const previous = filter
  filter = next
  return previous
}

export function chatFilter(): ChatFilter {
  return filter
}

/** Adds a hook on every stored customer message; answers a function that removes it (tests restore what they add). */
export function onCustomerMessage(hook: CustomerMessageHook): () => void {
  customerMessageHooks.push(hook)
  return () => {
    const at = customerMessageHooks.indexOf(hook)
    if (at >= 0) customerMessageHooks.splice(at, 1)
  }
}

export async function runCustomerMessageHooks(trx: Transaction<DB>, event: CustomerMessageEvent): Promise<void> {
  for (const hook of customerMessageHooks) await hook(trx, event)
}

/** Adds a hook on every stored operator's message; answers a function that removes it. */
export function onOperatorMessage(hook: OperatorMessageHook): () => void {
  operatorMessageHooks.push(hook)
  return () => {
    const at = operatorMessageHooks.indexOf(hook)
    if (at >= 0) operatorMessageHooks.splice(at, 1)
  }
}

export async function runOperatorMessageHooks(trx: Transaction<DB>, event: OperatorMessageEvent): Promise<void> {
  for (const hook of operatorMessageHooks) await hook(trx, event)
}
