import type { Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { fileInfo, grantFile } from '../../files/store.ts'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseLimit } from '../reference/lookup.ts'
import { countMessage } from './limit.ts'
import {
  CUSTOMER,
  changeConversation,
  chatOperators,
  chatTags,
  conversationById,
  conversationPage,
  conversationRow,
  isOperator,
  issueOpenKey,
  markRead,
  messageById,
  messagePage,
  type NewMessage,
  OPERATOR,
  openConversation,
  operatorByUsername,
  setCustomerTags,
  sideOf,
  spendOpenKey,
  storeMessage,
  unknownTags,
  unreadTotal,
  visibleConversation,
} from './store.ts'

/** The file field a message's attachment is uploaded through (schemas/imMessage.yaml). */
const ATTACHMENT_FIELD = { entity: 'imMessage', field: 'attachment' }
/** A file id as the store makes them (the field itself takes any short text). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Operators' calls: the forwarder's staff with the chat desk only (a customer's session is refused as 220000). */
function operatorOf(ctx: HandlerContext): Session {
  const session = sessionOf(ctx)
  if (!isOperator(session)) throw new ApiError('220000')
  return session
}

/** A customer's calls: whoever is not at the chat desk (the forwarder's staff chat from the desk, not as customers). */
function customerOf(ctx: HandlerContext): Session {
  const session = sessionOf(ctx)
  if (isOperator(session)) throw new ApiError('220000')
  return session
}

/**
 * Sends one message for the caller: the way the send call and the socket's send frame both go (limit, the
 * conversation's visibility, the attachment's, the store). Answers the stored message.
 */
export async function sendAs(trx: Transaction<DB>, session: Session, conversationId: number, message: NewMessage) {
  countMessage(session.tenantId, session.userId)
  const conversation = await visibleConversation(trx, session, conversationId)
  if (message.attachment) {
    // Only a file the sender may read, uploaded through the message's own field (its types and size limit).
    const viewer = { userId: session.userId, companyId: session.companyId, operator: session.companyUserType === 1 }
    const [file] = UUID.test(message.attachment)
      ? await fileInfo(trx, session.tenantId, [message.attachment], viewer, ATTACHMENT_FIELD)
      : []
    if (!file)
      throw new ApiError('validation', {}, [{ field: 'attachment', message: 'widget.fileIdFormat', params: {} }])
    // The other side reads it too: the operators by the field's visibility, the customer by this grant.
    await grantFile(trx, {
      tenantId: session.tenantId,
      fileId: file.uuid,
      userId: conversation.customer,
      reason: 'imMessage',
    })
  }
  if (!message.text?.trim() && !message.attachment)
    throw new ApiError('validation', {}, [{ field: 'text', message: 'chat.textOrAttachment', params: {} }])
  const side = sideOf(session)
  // Answering a waiting conversation takes it.
  if (side === OPERATOR && conversation.operator === null)
    await changeConversation(trx, conversation, { operator: session.userId })
  const id = await storeMessage(trx, conversation, { userId: session.userId, side }, message)
  return (await messageById(trx, session.tenantId, id)) as NonNullable<Awaited<ReturnType<typeof messageById>>>
}

async function rowFor(trx: Transaction<DB>, session: Session, id: number) {
  return conversationRow((await conversationById(trx, session.tenantId, id)) as never, sideOf(session))
}

type Conversation = Awaited<ReturnType<typeof visibleConversation>>

/**
 * A tag call of the desk (imTag, imCustomerTag): the conversation the operator sees, its tags deduplicated and the
 * tenant's own only — another tenant's id, or a deleted tag's, is refused at the field — then `apply`; answers the
 * conversation as the desk draws it.
 */
async function tagging(
  ctx: HandlerContext & { input: { id: number; tags: number[] } },
  apply: (trx: Transaction<DB>, conversation: Conversation, tags: number[], session: Session) => Promise<void>,
) {
  const session = operatorOf(ctx)
  return ctx.inTenant(async (trx) => {
    const conversation = await visibleConversation(trx, session, ctx.input.id)
    const tags = [...new Set(ctx.input.tags)]
    if ((await unknownTags(trx, session.tenantId, tags)).length)
      throw new ApiError('validation', {}, [{ field: 'tags', message: 'chat.unknownTag', params: {} }])
    await apply(trx, conversation, tags, session)
    return rowFor(trx, session, conversation.id)
  })
}

/** SPEC §7 "IM open" and the chat's calls (screens/chat.yaml). */
export const chatHandlers = {
  async imOpen(ctx) {
    const session = customerOf(ctx)
    const { contactUsername, customMessage, contextType = 'none', contextRef = '' } = ctx.input
    return ctx.inTenant(async (trx) => {
      const operator = contactUsername ? await operatorByUsername(trx, session.tenantId, contactUsername) : undefined
      if (contactUsername && operator === undefined) throw new ApiError('381004')
      const ref = contextType === 'none' ? '' : contextRef
      const conversationId = await openConversation(trx, session, { type: contextType, ref, operator })
      if (customMessage?.trim()) await sendAs(trx, session, conversationId, { text: customMessage })
      return { cacheKey: await issueOpenKey(trx, session, conversationId), conversationId }
    })
  },

  async imEnter(ctx) {
    const session = sessionOf(ctx)
    return ctx.inTenant(async (trx) => {
      const id = await spendOpenKey(trx, session, ctx.input.cacheKey)
      await visibleConversation(trx, session, id)
      return rowFor(trx, session, id)
    })
  },

  async imConversation(ctx) {
    const session = sessionOf(ctx)
    return ctx.inTenant(async (trx) => {
      await visibleConversation(trx, session, ctx.input.id)
      return rowFor(trx, session, ctx.input.id)
    })
  },

  async imMine(ctx) {
    const session = customerOf(ctx)
    const { state, pageNum = 1, pageSize = 20 } = ctx.input
    return ctx.inTenant((trx) =>
      conversationPage(trx, session.tenantId, { customer: session.userId, state, pageNum, pageSize }, CUSTOMER),
    )
  },

  async imHistory(ctx) {
    const session = sessionOf(ctx)
    const { conversationId, before, after, pageSize = 30 } = ctx.input
    return ctx.inTenant(async (trx) => {
      await visibleConversation(trx, session, conversationId)
      return messagePage(trx, session.tenantId, conversationId, { before, after, pageSize })
    })
  },

  async imSend(ctx) {
    const session = sessionOf(ctx)
    const { conversation, text, attachment } = ctx.input
    return ctx.inTenant((trx) => sendAs(trx, session, conversation, { text, attachment }))
  },

  async imRead(ctx) {
    const session = sessionOf(ctx)
    return ctx.inTenant(async (trx) => {
      await visibleConversation(trx, session, ctx.input.id)
      await markRead(trx, session.tenantId, ctx.input.id, sideOf(session))
      return { unread: await unreadTotal(trx, session.tenantId, session.userId, sideOf(session)) }
    })
  },

  async imUnreadCount(ctx) {
    const session = sessionOf(ctx)
    return ctx.inTenant(async (trx) => ({
      unread: await unreadTotal(trx, session.tenantId, session.userId, sideOf(session)),
    }))
  },

  async imQueue(ctx) {
    const session = operatorOf(ctx)
    const { state, tag, mine, pageNum = 1, pageSize = 20 } = ctx.input
    return ctx.inTenant((trx) =>
      conversationPage(
        trx,
        session.tenantId,
        { state, tag, operator: mine ? session.userId : undefined, pageNum, pageSize },
        OPERATOR,
      ),
    )
  },

  async imTake(ctx) {
    const session = operatorOf(ctx)
    return ctx.inTenant(async (trx) => {
      const conversation = await visibleConversation(trx, session, ctx.input.id)
      await changeConversation(trx, conversation, { operator: session.userId })
      return rowFor(trx, session, conversation.id)
    })
  },

  async imTransfer(ctx) {
    const session = operatorOf(ctx)
    return ctx.inTenant(async (trx) => {
      const conversation = await visibleConversation(trx, session, ctx.input.id)
      // Only one the pick-list offers: an operator who chats (chat on, enabled, with the desk).
      const [operator] = await chatOperators(trx, session.tenantId, { codes: String(ctx.input.operator), limit: 1 })
      if (!operator) throw new ApiError('381004')
      await changeConversation(trx, conversation, { operator: Number(operator.value) })
      return rowFor(trx, session, conversation.id)
    })
  },

  async imClose(ctx) {
    const session = operatorOf(ctx)
    return ctx.inTenant(async (trx) => {
      const conversation = await visibleConversation(trx, session, ctx.input.id)
      await changeConversation(trx, conversation, { close: true })
      return rowFor(trx, session, conversation.id)
    })
  },

  async imTag(ctx) {
    return tagging(ctx, (trx, conversation, tags) => changeConversation(trx, conversation, { tags }))
  },

  /** The conversation's customer's tags, shown on each of their conversations; a closed one still tags them. */
  async imCustomerTag(ctx) {
    return tagging(ctx, (trx, conversation, tags, session) => setCustomerTags(trx, conversation, tags, session.userId))
  },

  async imOperatorOptions(ctx) {
    const session = operatorOf(ctx)
    const { keyword, codes, limit } = ctx.input
    return {
      list: await ctx.inTenant((trx) =>
        chatOperators(trx, session.tenantId, { keyword, codes, limit: parseLimit(limit) }),
      ),
    }
  },

  /** Read only, for the desk (imServiceDesk) as for the tag administration (imTagList). */
  async imTagOptions(ctx) {
    const session = sessionOf(ctx)
    const { keyword, codes, limit } = ctx.input
    return {
      list: await ctx.inTenant((trx) => chatTags(trx, session.tenantId, { keyword, codes, limit: parseLimit(limit) })),
    }
  },

  /** A plain GET of the socket's path (no upgrade): the caller's unread count, as imUnreadCount. */
  async imSocket(ctx) {
    const session = sessionOf(ctx)
    return ctx.inTenant(async (trx) => ({
      unread: await unreadTotal(trx, session.tenantId, session.userId, sideOf(session)),
    }))
  },
} satisfies Handlers
