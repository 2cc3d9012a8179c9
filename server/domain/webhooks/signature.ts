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
