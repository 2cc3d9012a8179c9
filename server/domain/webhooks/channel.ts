import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { sql } from 'kysely'
import {
  type Channel,
  type ChannelContext,
  delivered,
  fail,
  type OutboxMessage,
  registerChannel,
  retry,
  type SendResult,
} from '../../jobs/channels.ts'
import { now } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import { openSubscriptionSecret } from '../dcsa/secrets.ts'
import { TNT_VERSION } from '../dcsa/tnt.ts'
import { addressAllowed, guardedLookup, loopbackAllowed } from './address.ts'
import { WEBHOOK_KIND } from './events.ts'
import { openSecret } from './secrets.ts'
import {
  DCSA_SIGNATURE_HEADER,
  DCSA_SUBSCRIPTION_HEADER,
  DELIVERY_HEADER,
  dcsaNotificationSignature,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signatureHeader,
} from './signature.ts'

/**
 * The outbox channel of webhook deliveries (issue #29). Each attempt reads the delivery, its endpoint and the
 * endpoint's current secret, makes the body `{ id, type, occurredAt, data }`, signs `${t}.${body}` with a fresh
 * timestamp and POSTs it, bounded in time (WEBHOOK_TIMEOUT_MS), to an address the SSRF rules admit
 * (./address.ts), following no redirect. A 2xx answer delivers it; any other answer, a timeout or a refused
 * connection is tried again after the worker's back-off until the outbox's attempts run out (OUTBOX_MAX_ATTEMPTS),
 * then it is failed; a disabled or deleted endpoint, or an address that is not public, fails it at once. Each
 * attempt's HTTP status and time are kept on the delivery for its log.
 *
 * The same channel carries DCSA Track & Trace notifications (payload `{ to, subscription, notification }`, made by
 * ../dcsa/tntNotifications.ts): the notification's stored body, the standard's JSON array of events, POSTed to the
 * subscription's current callbackUrl with its Subscription-ID, API-Version and Notification-Signature
 * (./signature.ts) made then with its current secret — the same timeout, SSRF rules, retries and failures, each
 * attempt noted on the notification for its log; a deleted subscription fails it at once.
 */

const DEFAULT_TIMEOUT_MS = 10_000
const MAX_TIMEOUT_MS = 30_000
/** What is read of a receiver's answer: its status matters, its body does not. */
const MAX_ANSWER_BYTES = 4096

export function webhookTimeoutMs(env: NodeJS.ProcessEnv): number {
  const asked = Number(env.WEBHOOK_TIMEOUT_MS)
  return Number.isFinite(asked) && asked > 0 ? Math.min(asked, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS
}

interface DeliveryToSend {
  eventId: string
  eventType: string
  occurredAt: Date
  data: unknown
  url: string
  enabled: boolean
  sealed: string | null
}

class AddressRefused extends Error {}

/** POSTs the body; answers the receiver's status. */
function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, allowLoopback: boolean) {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  // A host written as an address is not looked up: it is checked here (a name is checked as it is resolved).
  if (isIP(host) && !addressAllowed(host, allowLoopback))
    return Promise.reject(new AddressRefused(`webhook address refused: ${host} is not public`))
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<number>((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(allowLoopback) as never,
      agent: false,
      timeout: timeoutMs,
    })
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline)
      reject(error.code === 'EWEBHOOKADDRESS' ? new AddressRefused(error.message) : error)
    })
    req.on('response', (res: IncomingMessage) => {
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read > MAX_ANSWER_BYTES) res.destroy()
      })
      const settle = () => {
        clearTimeout(deadline)
        resolve(res.statusCode ?? 0)
      }
      res.on('end', settle)
      res.on('close', settle)
    })
    req.end(body)
  })
}

async function loadDelivery(ctx: ChannelContext, tenantId: number, id: number): Promise<DeliveryToSend | undefined> {
  return withTenant(ctx.db, tenantId, async (trx) => {
    const { rows } = await sql<DeliveryToSend>`
      select d.event_id as "eventId", d.event_type as "eventType", d.occurred_at as "occurredAt", d.data,
        e.url, e.enabled, s.sealed
      from webhook_delivery d
      join webhook_endpoint e on e.tenant_id = d.tenant_id and e.id = d.endpoint
      left join webhook_secret s on s.tenant_id = d.tenant_id and s.endpoint = d.endpoint
      where d.tenant_id = ${tenantId} and d.id = ${id}`.execute(trx)
    return rows[0]
  })
}

/** Keeps an attempt on the log's row: a webhook delivery or a DCSA notification. */
async function noteAttempt(
  ctx: ChannelContext,
  tenantId: number,
  log: 'webhook_delivery' | 'dcsa_notification',
  id: number,
  status: number | null,
): Promise<void> {
  await withTenant(ctx.db, tenantId, (trx) =>
    sql`
      update ${sql.table(log)} set attempts = attempts + 1, last_status = ${status}, last_attempt_at = now()
      where tenant_id = ${tenantId} and id = ${id}`.execute(trx),
  )
}

/** One attempt at a URL: delivered on a 2xx, tried again on any other answer or none, failed on a refused address. */
async function attempt(
  ctx: ChannelContext,
  url: string,
  headers: Record<string, string>,
  body: string,
  noted: (status: number | null) => Promise<unknown>,
): Promise<SendResult> {
  let status: number
  try {
    status = await post(new URL(url), headers, body, webhookTimeoutMs(ctx.env), loopbackAllowed(ctx.env))
  } catch (error) {
    await noted(null)
    if (error instanceof AddressRefused) return fail(error.message)
    return retry(error instanceof Error ? error.message : String(error))
  }
  await noted(status)
  return status >= 200 && status < 300 ? delivered : retry(`the receiver answered HTTP ${status}`)
}

/**
 * A DCSA notification as it is sent: where its subscription calls back now, the secret it is signed with now, and
 * the notification's body (none without a notification).
 */
async function loadNotification(ctx: ChannelContext, tenantId: number, subscription: string, id: number | null) {
  return withTenant(ctx.db, tenantId, async (trx) => {
    const { rows } = await sql<{ callbackUrl: string; secret: string; body: string | null }>`
      select s.callback_url as "callbackUrl", s.secret, n.body
      from dcsa_event_subscription s
      left join dcsa_notification n on n.tenant_id = s.tenant_id and n.subscription = s.id and n.id = ${id}
      where s.tenant_id = ${tenantId} and s.id = ${subscription}`.execute(trx)
    return rows[0]
  })
}

async function sendDcsaNotification(message: OutboxMessage, ctx: ChannelContext): Promise<SendResult> {
  const id = String(message.payload.subscription)
  const notification = message.payload.notification === undefined ? null : Number(message.payload.notification)
  const subscription = await loadNotification(ctx, message.tenantId, id, notification)
  if (!subscription) return fail('the DCSA subscription was deleted')
  // A message queued before notifications were kept (migration 0043) carries its events itself.
  const body = notification === null ? JSON.stringify(message.payload.events) : subscription.body
  if (body === null) return fail('the DCSA notification was deleted')
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Waybill-Webhooks/1',
    'api-version': TNT_VERSION,
    [DCSA_SUBSCRIPTION_HEADER]: id,
    [DCSA_SIGNATURE_HEADER]: dcsaNotificationSignature(
      openSubscriptionSecret(message.tenantId, id, subscription.secret),
      body,
    ),
  }
  return attempt(ctx, subscription.callbackUrl, headers, body, async (status) => {
    if (notification !== null) await noteAttempt(ctx, message.tenantId, 'dcsa_notification', notification, status)
  })
}

export const webhookChannel: Channel = {
  async send(message: OutboxMessage, ctx: ChannelContext): Promise<SendResult> {
    if (message.payload.subscription !== undefined) return sendDcsaNotification(message, ctx)
    const deliveryId = Number(message.payload.delivery)
    const endpointId = Number(message.payload.endpoint)
    const delivery = await loadDelivery(ctx, message.tenantId, deliveryId)
    if (!delivery) return fail('the delivery or its endpoint was deleted')
    if (!delivery.enabled) return fail('the endpoint is disabled')
    if (!delivery.sealed) return fail('the endpoint has no signing secret')
    const secret = openSecret(message.tenantId, endpointId, delivery.sealed)
    const body = JSON.stringify({
      id: delivery.eventId,
      type: delivery.eventType,
      occurredAt: new Date(delivery.occurredAt).toISOString(),
      data: delivery.data,
    })
    const timestamp = Math.floor(now().getTime() / 1000)
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Waybill-Webhooks/1',
      [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body),
      [DELIVERY_HEADER]: String(deliveryId),
      [EVENT_HEADER]: delivery.eventType,
    }
    return attempt(ctx, delivery.url, headers, body, (status) =>
      noteAttempt(ctx, message.tenantId, 'webhook_delivery', deliveryId, status),
    )
  },
}

/** Registers the channel with the outbox worker; called once at start (server/app.ts, the worker process). */
export function registerWebhookChannel(): void {
  registerChannel(WEBHOOK_KIND, webhookChannel)
}
