import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { WebSocket } from 'ws'
import type { Database } from '../db/database.ts'
import type { DB } from '../db/schema.ts'
import { sendAs } from '../domain/chat/handlers.ts'
import {
  CHAT_CHANNEL,
  type ChatEvent,
  CUSTOMER,
  conversationById,
  conversationRow,
  markDelivered,
  markRead,
  messageById,
  messagePage,
  sideOf,
  unreadTotal,
  visibleConversation,
} from '../domain/chat/store.ts'
import type { Session } from '../http/context.ts'
import { ApiError, type Language, messageFor } from '../http/errors.ts'
import { withTenant } from '../tenancy/scope.ts'

/**
 * The chat's sockets in this process (issue #27), and what every process tells them.
 *
 * A socket is opened on GET /api/b2b/im/socket (screens/chat.yaml, imSocket) by a signed-in user: the session
 * cookie, the tenant of the host and the endpoint's permissions are checked before the upgrade, as for every
 * call. It hears only its tenant's conversations, and a customer only their own.
 *
 * Fan-out: a change writes NOTIFY on the chat channel in its transaction (server/domain/chat/store.ts), ids
 * only; every process LISTENs (Database.listen — PostgreSQL's LISTEN/NOTIFY, or PGlite's own within its one
 * process), reads the rows under its tenant's row-level security and sends each of its sockets what that
 * socket may see. Nothing is kept here that another process needs: a socket that was away asks with `resume`.
 */

/** A frame in is at most this many bytes (the ws server closes a bigger one with 1009). */
export const MAX_FRAME_BYTES = 8192
const ID_MAX = 2_147_483_647
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface Client {
  socket: WebSocket
  session: Session
  side: number
  language: Language
}

type Frame =
  | { type: 'send'; conversationId: number; text?: string; attachment?: string; ref?: string }
  | { type: 'read'; conversationId: number; ref?: string }
  | { type: 'resume'; conversationId: number; after: number; ref?: string }

export class ChatHub {
  private readonly clients = new Set<Client>()
  private stopListening: (() => Promise<void>) | undefined

  constructor(
    private readonly database: Database,
    private readonly textMax: number,
  ) {}

  private get api(): Kysely<DB> {
    return this.database.api
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(CHAT_CHANNEL, (payload) => {
      this.dispatch(payload).catch((error) => console.error('chat event', error))
    })
  }

  async stop(): Promise<void> {
    await this.stopListening?.()
    for (const client of this.clients) client.socket.close(1001)
    this.clients.clear()
  }

  /** The socket route's handler: the session is there (checked before the upgrade). */
  attach(socket: WebSocket, request: FastifyRequest): void {
    // Another site's page may not open a socket on the user's cookie (cross-site WebSocket hijacking).
    const origin = request.headers.origin
    if (origin !== undefined && hostOf(origin) !== request.headers.host) {
      socket.close(1008, 'origin')
      return
    }
    const session = request.session as Session
    const client: Client = { socket, session, side: sideOf(session), language: request.language }
    this.clients.add(client)
    socket.on('close', () => this.clients.delete(client))
    socket.on('message', (data, isBinary) => {
      this.receive(client, isBinary ? null : data.toString()).catch((error) => this.refuse(client, error, undefined))
    })
    void this.sendUnread([client])
  }

  /** One frame in: checked and bounded before anything reads the database. */
  private async receive(client: Client, raw: string | null): Promise<void> {
    const frame = parseFrame(raw, this.textMax)
    const { session } = client
    if (frame.type === 'send') {
      const message = await withTenant(this.api, session.tenantId, (trx) =>
        sendAs(trx, session, frame.conversationId, { text: frame.text, attachment: frame.attachment }),
      )
      send(client, { type: 'ack', ref: frame.ref ?? null, id: message.id, message })
    } else if (frame.type === 'read') {
      await withTenant(this.api, session.tenantId, async (trx) => {
        await visibleConversation(trx, session, frame.conversationId)
        await markRead(trx, session.tenantId, frame.conversationId, client.side)
      })
      send(client, { type: 'ack', ref: frame.ref ?? null })
    } else {
      const page = await withTenant(this.api, session.tenantId, async (trx) => {
        await visibleConversation(trx, session, frame.conversationId)
        return messagePage(trx, session.tenantId, frame.conversationId, { after: frame.after, pageSize: 100 })
      })
      send(client, { type: 'resume', ref: frame.ref ?? null, conversationId: frame.conversationId, ...page })
    }
  }

  private refuse(client: Client, error: unknown, ref: string | undefined): void {
    const apiError = error instanceof ApiError ? error : undefined
    if (!apiError) console.error('chat frame', error)
    const code = apiError?.code ?? '200000'
    const key = apiError?.key ?? 'error.200000'
    const fieldErrors = apiError?.fieldErrors?.map((e) => ({
      field: e.field,
      message: messageFor(e.message, client.language, e.params),
    }))
    send(client, {
      type: 'error',
      ref: ref ?? null,
      code,
      message: messageFor(key, client.language, apiError?.params),
      ...(fieldErrors ? { fieldErrors } : {}),
    })
  }

  /** What a NOTIFY says happened, to this process's sockets that may see it. */
  private async dispatch(payload: string): Promise<void> {
    const event = JSON.parse(payload) as ChatEvent
    const audience = [...this.clients].filter((c) => c.session.tenantId === event.t)
    if (!audience.length) return
    const found = await withTenant(this.api, event.t, async (trx) => {
      const conversation = await conversationById(trx, event.t, event.c)
      const message = event.k === 'message' && event.m ? await messageById(trx, event.t, event.m) : undefined
      return { conversation, message }
    })
    const { conversation, message } = found
    if (!conversation) return
    const recipients = audience.filter((c) => c.side !== CUSTOMER || c.session.userId === conversation.customer)
    if (!recipients.length) return
    for (const client of recipients) {
      const row = conversationRow(conversation, client.side)
      if (event.k === 'message' && message) send(client, { type: 'message', message, conversation: row })
      else if (event.k === 'delivered') send(client, { type: 'delivered', conversationId: event.c, messageId: event.m })
      else if (event.k === 'read') send(client, { type: 'read', conversationId: event.c, upTo: event.m, side: event.s })
      else if (event.k === 'assigned' || event.k === 'closed') send(client, { type: event.k, conversation: row })
    }
    // Delivered: a socket of the side the message was for has it (the first process to mark it tells everyone).
    if (message && recipients.some((c) => (c.side === CUSTOMER) !== (message.side === CUSTOMER))) {
      await withTenant(this.api, event.t, (trx) => markDelivered(trx, event.t, event.c, message.id))
    }
    // A message or a read mark changes the count of those the conversation counts for (its customer; its operator,
    // or every operator while it waits); a take, transfer or close may change any operator's.
    if (event.k === 'message' || event.k === 'read')
      await this.sendUnread(recipients.filter((c) => countsFor(c, conversation)))
    else if (event.k === 'assigned' || event.k === 'closed') await this.sendUnread(recipients)
  }

  /** Each user's unread count, once per user, to each of their sockets here: one transaction per tenant. */
  private async sendUnread(clients: Client[]): Promise<void> {
    const byTenant = new Map<number, Map<number, Client[]>>()
    for (const client of clients) {
      const { tenantId, userId } = client.session
      const users = byTenant.get(tenantId) ?? new Map<number, Client[]>()
      byTenant.set(tenantId, users)
      users.set(userId, [...(users.get(userId) ?? []), client])
    }
    for (const [tenantId, users] of byTenant) {
      const counts = await withTenant(this.api, tenantId, async (trx) => {
        const answered: [Client[], number][] = []
        for (const [userId, group] of users)
          answered.push([group, await unreadTotal(trx, tenantId, userId, (group[0] as Client).side)])
        return answered
      })
      for (const [group, unread] of counts) for (const client of group) send(client, { type: 'unread', unread })
    }
  }
}

/** Whether a conversation is in the client's unread count (store.ts unreadTotal): a customer's own; an operator's held or waiting. */
function countsFor(client: Client, conversation: { customer: number; operator: number | null }): boolean {
  if (client.side === CUSTOMER) return client.session.userId === conversation.customer
  return conversation.operator === null || conversation.operator === client.session.userId
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host
  } catch {
    return undefined
  }
}

function send(client: Client, frame: object): void {
  if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(frame))
}

const isId = (value: unknown, min = 1): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= ID_MAX

/** A frame's shape, bounds and types; anything else is the frame's validation error, never a crash. */
export function parseFrame(raw: string | null, textMax: number): Frame {
  const wrong = (field: string, message = 'validation.invalidJson') =>
    new ApiError('validation', {}, [{ field, message, params: {} }])
  if (raw === null || raw.length > MAX_FRAME_BYTES) throw wrong('body')
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw wrong('body')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw wrong('body')
  const frame = value as Record<string, unknown>
  const allowed: Record<string, string[]> = {
    send: ['type', 'conversationId', 'text', 'attachment', 'ref'],
    read: ['type', 'conversationId', 'ref'],
    resume: ['type', 'conversationId', 'after', 'ref'],
  }
  const fields = typeof frame.type === 'string' && Object.hasOwn(allowed, frame.type) ? allowed[frame.type] : undefined
  if (!fields) throw wrong('type', 'validation.invalid')
  for (const key of Object.keys(frame)) if (!fields.includes(key)) throw wrong(key, 'validation.unknownField')
  if (frame.ref !== undefined && (typeof frame.ref !== 'string' || frame.ref.length > 40))
    throw wrong('ref', 'validation.maxLength')
  if (!isId(frame.conversationId)) throw wrong('conversationId', 'validation.minimum')
  if (frame.type === 'send') {
    if (frame.text !== undefined && (typeof frame.text !== 'string' || frame.text.length > textMax))
      throw new ApiError('validation', {}, [
        { field: 'text', message: 'validation.maxLength', params: { limit: textMax } },
      ])
    if (frame.attachment !== undefined && (typeof frame.attachment !== 'string' || !UUID.test(frame.attachment)))
      throw wrong('attachment', 'widget.fileIdFormat')
  }
  if (frame.type === 'resume' && !isId(frame.after, 0)) throw wrong('after', 'validation.minimum')
  return frame as unknown as Frame
}
