import { RequestError } from '../../api.ts'

/**
 * What a shareable tracking link's page (/sharedTracking/<token>, issue #29) can meet besides the shipment: a token
 * nobody made (or one cut short in the copying), one past its day, one its sender revoked. Each has its own
 * sentence (tracking.linkUnknown, tracking.linkExpired, tracking.linkRevoked); anything else is no verdict on the link.
 */
export type LinkRefusal = 'unknown' | 'expired' | 'revoked'

/** A token as the server makes them: 32 random bytes, base64url (schemas/trackingLinkQuery.yaml). */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** The server's refusal of a link as one of the three, or null for a failure that says nothing about it. */
export function linkRefusal(error: unknown): LinkRefusal | null {
  if (!(error instanceof RequestError)) return null
  if (error.status === 404 || error.code === '404') return 'unknown'
  const key = error.fieldErrors.find((fieldError) => fieldError.field === 'token')?.key
  if (key === 'tracking.linkExpired') return 'expired'
  if (key === 'tracking.linkRevoked') return 'revoked'
  // A token the server's pattern refuses is one nobody made.
  if (key) return 'unknown'
  return null
}

export const REFUSAL_TEXT: Readonly<Record<LinkRefusal, string>> = {
  unknown: 'tracking.linkUnknown',
  expired: 'tracking.linkExpired',
  revoked: 'tracking.linkRevoked',
}
