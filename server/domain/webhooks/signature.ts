import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * How a webhook delivery is signed (issue #29; docs/SECURITY.md "Webhooks"), and the check a receiver runs.
 * The sender puts `Waybill-Signature: t=<unix seconds>,v1=<hex>` on the request, where the hex is
 * HMAC-SHA256(secret, `${t}.${rawBody}`). The timestamp is inside what is signed, so a receiver that refuses a
 * stale `t` refuses a replayed request: nobody without the secret can make a fresh one. Pure: no clock but the
 * one passed in, no I/O — the tests verify real deliveries with `verifyWebhook`, and receivers may copy it.
 */

export const SIGNATURE_HEADER = 'waybill-signature'
export const DELIVERY_HEADER = 'waybill-delivery'
export const EVENT_HEADER = 'waybill-event'

/** How old a delivery's timestamp may be, by default, before a receiver refuses it (seconds; either side). */
export const DEFAULT_TOLERANCE_S = 300

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

/** The header's value for a body sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' }

/**
 * A receiver's check of one request: the header parses, its timestamp is within `toleranceS` of `nowS`, and one
 * of its v1 signatures (several while a secret is being replaced) is the HMAC of `${t}.${rawBody}` under
 * `secret`, compared in constant time. `rawBody` is the bytes as received, before any JSON parsing.
 */
export function verifyWebhook(
  header: string | undefined,
  rawBody: string,
  secret: string,
  { nowS, toleranceS = DEFAULT_TOLERANCE_S }: { nowS: number; toleranceS?: number },
): VerifyResult {
  if (!header || header.length > 1000) return { ok: false, reason: 'malformed' }
  const parts = header.split(',').map((part) => part.trim().split('='))
  const t = parts.find(([key]) => key === 't')?.[1]
  const signatures = parts.filter(([key, value]) => key === 'v1' && value && /^[0-9a-f]{64}$/.test(value))
  const timestamp = Number(t)
  if (!t || !/^\d{1,12}$/.test(t) || !signatures.length) return { ok: false, reason: 'malformed' }
  if (Math.abs(nowS - timestamp) > toleranceS) return { ok: false, reason: 'stale' }
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), 'hex')
  const matches = signatures.some(([, value]) => timingSafeEqual(Buffer.from(value as string, 'hex'), expected))
  return matches ? { ok: true, timestamp } : { ok: false, reason: 'mismatch' }
}

/**
 * DCSA Track & Trace 2.2's notification signature (TNT_v2.2.0.yaml, the event-subscriptions callback):
 * `Notification-Signature: sha256=<hex HMAC-SHA256 of the whole request body, as UTF-8 bytes>`, keyed with the
 * subscription's secret — a Base64 value the subscriber chose (`format: byte`), so the key is its decoded bytes.
 * No timestamp is signed (the standard has none); the Subscription-ID header says which subscription it is.
 */
export const DCSA_SIGNATURE_HEADER = 'notification-signature'
export const DCSA_SUBSCRIPTION_HEADER = 'subscription-id'

export function dcsaNotificationSignature(secretBase64: string, body: string): string {
  const key = Buffer.from(secretBase64, 'base64')
  return `sha256=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`
}

/** A subscriber's check of one notification: the header's sha256 signature is the body's, in constant time. */
export function verifyDcsaNotification(header: string | undefined, rawBody: string, secretBase64: string): boolean {
  const match = /^\s*sha256=([0-9a-fA-F]{64})\s*$/.exec(header ?? '')
  if (!match) return false
  const expected = Buffer.from(dcsaNotificationSignature(secretBase64, rawBody).slice('sha256='.length), 'hex')
  return timingSafeEqual(Buffer.from((match[1] as string).toLowerCase(), 'hex'), expected)
}
