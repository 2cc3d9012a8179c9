import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { authSecret } from '../../jobs/sealed.ts'

/**
 * The token of a push mail's read link: `<tenant>.<recipient>.<mac>`, the MAC an HMAC-SHA256 under a key
 * derived from WAYBILL_AUTH_SECRET over both ids. It names one recipient row of one tenant and cannot be
 * made for another without the secret (issue #22; docs/DECISIONS.md "Push: read and executed").
 */
let cached: { secret: string; key: Buffer } | undefined
function key(): Buffer {
  const secret = authSecret()
  if (cached?.secret !== secret)
    cached = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'waybill', 'push read link v1', 32)) }
  return cached.key
}

const mac = (tenantId: number, recipientId: number) =>
  createHmac('sha256', key()).update(`push-read\u0000${tenantId}\u0000${recipientId}`).digest('base64url')

export function readToken(tenantId: number, recipientId: number): string {
  return `${tenantId}.${recipientId}.${mac(tenantId, recipientId)}`
}

/** The tenant and recipient a token was made for, or null when it is malformed or forged. */
export function openReadToken(token: string): { tenantId: number; recipientId: number } | null {
  const match = /^([1-9][0-9]{0,9})\.([1-9][0-9]{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!match) return null
  const tenantId = Number(match[1])
  const recipientId = Number(match[2])
  const expected = Buffer.from(mac(tenantId, recipientId))
  const given = Buffer.from(match[3] as string)
  return expected.length === given.length && timingSafeEqual(expected, given) ? { tenantId, recipientId } : null
}
