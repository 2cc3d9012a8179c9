import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { SUCCESS } from '../http/envelope.ts'
import { now } from '../tenancy/clock.ts'

/** SPEC §6: the login token is kept in a cookie named b2b_token. */
export const SESSION_COOKIE = 'b2b_token'
/**
 * Beside the HttpOnly token, a cookie the portal's script may read, saying only that this browser holds a
 * session: a visitor's pages then never ask for the current user (and log no 401). It carries no secret and
 * authorises nothing; the token decides.
 */
export const SIGNED_IN_COOKIE = 'b2b_signed_in'
/** Sessions slide: each use (noted at most once a minute) pushes expiry this far ahead. */
export const SESSION_DAYS = 7
/** How stale last_seen_at may get before a request writes it again. */
export const SESSION_TOUCH_SECONDS = 60

/** 32 random bytes, base64url: 43 characters. Session tokens, handoffs and reset tickets all look like this. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/

export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

/** A token has 256 random bits, so a plain SHA-256 is enough to store it: nothing to brute-force. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The token a request presents: `Authorization: Bearer <t>` or a bare `Authorization: <t>`, else the cookie. */
export function presentedToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization?.trim()
  const fromHeader = header ? /^(?:Bearer\s+)?(\S+)$/i.exec(header)?.[1] : undefined
  const token = fromHeader ?? request.cookies[SESSION_COOKIE]
  return token && SECRET_PATTERN.test(token) ? token : null
}

/** Opens a session for the user and answers its token; only the hash is stored. */
export async function startSession(
  trx: Transaction<DB>,
  tenantId: number,
  userId: number,
  request: FastifyRequest,
): Promise<string> {
  const token = newSecret()
  await trx
    .insertInto('session')
    .values({
      tenant_id: tenantId,
      user_id: userId,
      token_hash: hashSecret(token),
      expires_at: sql<Date>`now() + make_interval(days => ${SESSION_DAYS})`,
      user_agent: request.headers['user-agent']?.slice(0, 512) ?? null,
      ip: request.ip ?? null,
    })
    .execute()
  await trx
    .updateTable('app_user')
    // The application's clock (WAYBILL_NOW in tests), as the analytics tallies take it: UserPortrait bands the
    // last sign-in against the tenant's today on that clock.
    .set({ last_login_at: now() })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute()
  return token
}

function cookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  }
}

/**
 * Answers a new session the way SPEC §7 describes the password login: the token at the top level of the
 * envelope, beside content, and the same token as the b2b_token cookie.
 */
export function sendSession(request: FastifyRequest, reply: FastifyReply, token: string, content: unknown) {
  const maxAge = SESSION_DAYS * 24 * 60 * 60
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge })
  reply.setCookie(SIGNED_IN_COOKIE, '1', { ...cookieOptions(request), httpOnly: false, maxAge })
  return reply.send({ code: SUCCESS, message: 'success', content, token })
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request))
  reply.clearCookie(SIGNED_IN_COOKIE, { ...cookieOptions(request), httpOnly: false })
}
