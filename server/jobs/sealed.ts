import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * An outbox message that carries a secret (a verification code, an initial password) is stored sealed:
 * AES-256-GCM under a key derived from WAYBILL_AUTH_SECRET, bound to the message's kind and recipient. The
 * recipient stays readable (the worker addresses the message, support finds it); what it says is readable
 * only with the secret, so a copy of the database holds no usable code (issue #17, finding 9;
 * docs/SECURITY.md). The delivery worker opens it right before it hands the message to the gateway.
 */

const DEVELOPMENT_SECRET = 'waybill-development-code-secret'
const VERSION = 'v1'

/** The same secret the verification-code hashes are keyed by (server/auth/codes.ts). */
export function authSecret(): string {
  return process.env.WAYBILL_AUTH_SECRET || DEVELOPMENT_SECRET
}

let cached: { secret: string; key: Buffer } | undefined
function key(): Buffer {
  const secret = authSecret()
  if (cached?.secret !== secret)
    cached = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'waybill', 'outbox message v1', 32)) }
  return cached.key
}

/** What a sealed message says: an SMS's text, or a mail's subject and text. */
export interface MessageBody {
  text: string
  subject?: string
  /** A provider template's parameters (an SMS code's {1} {2}), sealed with the text they repeat. */
  params?: string[]
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url) of the body, for `kind` to `to` only. */
export function sealMessage(kind: string, to: string, body: MessageBody): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key(), iv)
  cipher.setAAD(Buffer.from(`${kind}\u0000${to}`))
  const data = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.')
}

/** The body of a sealed message; throws when it was sealed for another kind or recipient, or altered. */
export function openMessage(kind: string, to: string, sealed: string): MessageBody {
  const [version, iv, tag, data] = sealed.split('.')
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed outbox message')
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'))
  decipher.setAAD(Buffer.from(`${kind}\u0000${to}`))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
  return JSON.parse(text) as MessageBody
}

/** The body of an outbox row's payload as the worker sends it: sealed, or in clear (letters, older rows). */
export function outboxBody(kind: string, payload: unknown): MessageBody {
  const row = (payload ?? {}) as { to?: unknown; sealed?: unknown; text?: unknown; subject?: unknown }
  if (typeof row.sealed === 'string') return openMessage(kind, String(row.to ?? ''), row.sealed)
  return { text: String(row.text ?? ''), ...(typeof row.subject === 'string' ? { subject: row.subject } : {}) }
}
