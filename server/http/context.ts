import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Tenant } from '../tenancy/resolve.ts'
import { withTenant } from '../tenancy/scope.ts'
import { ApiError, type Language } from './errors.ts'

/** Who is calling: filled by the auth module from the b2b_token cookie or the Authorization header. */
export interface Session {
  /** The session row's id (not the token: that is only ever stored hashed); 0 for an API key's call. */
  sessionId: number
  /** The API key the call came with (issue #29): the permissions are its scopes its maker still holds. */
  apiKeyId?: number
  userId: number
  tenantId: number
  username: string
  realName: string
  companyId: number | null
  /** SPEC §6: 1 provider side, 2 enterprise side, 3 order-list-only. */
  companyUserType: number
  roles: string[]
  permissions: ReadonlySet<string>
  /** 'all' when any of the user's roles sees all rows, else 'self'. */
  dataScope: 'all' | 'self'
  /** The tenant's newest screen-overlay row when the session was read: overlays are re-read when it moves. */
  overlayStamp?: number
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant the request's host belongs to; every /api call but /api/health has one. */
    tenant: Tenant
    language: Language
    session: Session | null
  }
}

/** Everything a handler needs besides the request: the database, scoped to the caller's tenant. */
export interface HandlerContext {
  request: FastifyRequest
  reply: FastifyReply
  db: Kysely<DB>
  /** Runs work in a transaction that can see only this request's tenant (row-level security). */
  inTenant<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T>
}

export function handlerContext(db: Kysely<DB>, request: FastifyRequest, reply: FastifyReply): HandlerContext {
  return { request, reply, db, inTenant: (work) => withTenant(db, request.tenant.id, work) }
}

/** The caller's session: checkAccess has already answered 401 for an endpoint that needs one, so this only narrows. */
export function sessionOf(ctx: HandlerContext): Session {
  if (!ctx.request.session) throw new ApiError('401')
  return ctx.request.session
}
