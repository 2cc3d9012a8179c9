import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Session } from '../http/context.ts'

/**
 * The session of a request, from the b2b_token cookie or the Authorization header, or null.
 * (Filled in by the accounts work: token lookup by hash, expiry, revocation.)
 */
export async function loadSession(_db: Kysely<DB>, _request: FastifyRequest): Promise<Session | null> {
  return null
}
