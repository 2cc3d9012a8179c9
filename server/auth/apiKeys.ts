import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Session } from '../http/context.ts'
import { ApiError } from '../http/errors.ts'
import { withTenant } from '../tenancy/scope.ts'
import { accessOf, type RoleGrant } from './accounts.ts'
import { type KeyLimit, takeKeyToken } from './limits.ts'
import { hashSecret, newSecret, SESSION_COOKIE } from './tokens.ts'

/**
 * API keys (issue #29, docs/SECURITY.md "API keys"). A key is `wb_` and 32 random bytes in base64url, shown once
 * when it is made or rotated; the database keeps its SHA-256 only. A key has 256 random bits, so nothing can be
 * guessed from the hash and a slow password hash would buy nothing (docs/DECISIONS.md "API keys"). The first
 * characters (`prefix`) are kept in clear to tell keys apart in the list.
 *
 * A call presents it as `Authorization: Bearer wb_…` or `X-Api-Key: wb_…`. It then acts as the user who made the
 * key, with the key's scopes that this user still holds — a role taken away, the key loses it too; a user
 * disabled or gone from the enterprise, the key stops. The key belongs to its tenant: another tenant's host does
 * not find it. A call may not carry the session cookie as well (which of the two would it be?), and the calls a
 * session only may make (sessionOnly: in screens/*.yaml: a password change, the keys themselves) refuse it.
 */
export const API_KEY_PATTERN = /^wb_[A-Za-z0-9_-]{43}$/
/** `wb_` and the secret's first eight characters: enough to tell keys apart, far too little to guess the rest. */
export const PREFIX_LENGTH = 11
export const API_KEY_HEADER = 'x-api-key'

/** 401 with why: an unknown, revoked or expired key, or one sent with a session cookie. */
export class ApiKeyRefused extends ApiError {
  constructor(readonly reason: 'unknown' | 'revokedKey' | 'expiredKey' | 'makerGone' | 'withCookie') {
    super('401')
  }
  override get key(): string {
    return `apiKey.${this.reason}`
  }
}

/** 429: the key's bucket is empty for `seconds` more (Retry-After says the same). */
export class ApiKeyLimited extends ApiError {
  constructor(readonly seconds: number) {
    super('429', { seconds })
  }
  override get key(): string {
    return 'apiKey.limited'
  }
}

/** A new key: what is shown once, what is stored, what the list shows. */
export function newApiKey(): { secret: string; hash: string; prefix: string } {
  const secret = `wb_${newSecret()}`
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, PREFIX_LENGTH) }
}

/**
 * The key a request presents (X-Api-Key, or an Authorization token starting wb_, with or without `Bearer`, as
 * session tokens may be sent), else null: then it is a session's call.
 */
export function presentedApiKey(request: FastifyRequest): string | null {
  const header = request.headers[API_KEY_HEADER]
  if (typeof header === 'string') return header.trim()
  if (Array.isArray(header)) return header.join(',')
  const bearer = /^(?:Bearer\s+)?(wb_\S*)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1]
  return bearer ?? null
}

interface KeyRow {
  id: number
  company_id: number | null
  scopes: string[]
  revoked: boolean
  expired: boolean
  user_id: number
  username: string
  real_name: string
  user_company_id: number | null
  company_user_type: number
  user_state: number
  roles: RoleGrant[]
}

/**
 * The session a key stands for, or a refusal: 401 for a key this tenant does not know, a revoked or expired one,
 * one whose maker can no longer use it, or one sent beside the session cookie; 429 with Retry-After when its
 * bucket is empty. One transaction: the key's row is held while its bucket is taken from.
 */
export async function apiKeySession(
  db: Kysely<DB>,
  request: FastifyRequest,
  reply: FastifyReply,
  presented: string,
  limit: KeyLimit,
): Promise<Session> {
  if (request.cookies[SESSION_COOKIE] !== undefined) throw new ApiKeyRefused('withCookie')
  if (!API_KEY_PATTERN.test(presented)) throw new ApiKeyRefused('unknown')
  const tenantId = request.tenant.id
  const hash = hashSecret(presented)
  return withTenant(db, tenantId, async (trx) => {
    const { rows } = await sql<KeyRow>`
      select k.id, k.company_id, k.scopes, k.revoked_at is not null as revoked,
        coalesce(k.expires_at <= now(), false) as expired,
        u.id as user_id, u.username, u.real_name, u.company_id as user_company_id, u.company_user_type,
        u.state as user_state,
        coalesce((
          select json_agg(json_build_object('code', r.code, 'permissions', r.permissions, 'data_scope', r.data_scope)
            order by r.code)
          from user_role ur join role r on r.id = ur.role_id
          where ur.tenant_id = ${tenantId} and ur.user_id = u.id and r.status = 1), '[]'::json) as roles
      from api_key k join app_user u on u.id = k.user_id
      where k.tenant_id = ${tenantId} and k.secret_hash = ${hash}
      for update of k`.execute(trx)
    const key = rows[0]
    if (!key) throw new ApiKeyRefused('unknown')
    if (key.revoked) throw new ApiKeyRefused('revokedKey')
    if (key.expired) throw new ApiKeyRefused('expiredKey')
    // The maker disabled, or no longer of the enterprise the key belongs to (an operator's key: no longer an operator).
    const ownerHolds = key.company_id === null ? key.company_user_type === 1 : key.user_company_id === key.company_id
    if (key.user_state !== 1 || !ownerHolds) throw new ApiKeyRefused('makerGone')
    const wait = await takeKeyToken(trx, tenantId, key.id, limit)
    if (wait > 0) {
      reply.header('retry-after', String(wait))
      throw new ApiKeyLimited(wait)
    }
    const access = accessOf(key.roles)
    const held = new Set(access.permissions)
    if (!request.tenant.platform) held.delete('walltechAdmin')
    return {
      sessionId: 0,
      apiKeyId: key.id,
      userId: key.user_id,
      tenantId,
      username: key.username,
      realName: key.real_name,
      companyId: key.user_company_id,
      companyUserType: key.company_user_type,
      roles: access.roles,
      // The key's scopes that its maker still holds: never more than either.
      permissions: new Set(key.scopes.filter((scope) => held.has(scope))),
      dataScope: access.dataScope,
    }
  })
}
