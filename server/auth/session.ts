import type { FastifyRequest } from 'fastify'
import { type Kysely, sql, type Transaction } from 'kysely'
import { HeldTransaction, holdFor, rollBackQuietly } from '../db/requestTransaction.ts'
import type { DB } from '../db/schema.ts'
import type { Session } from '../http/context.ts'
import { withTenant } from '../tenancy/scope.ts'
import { accessOf, type RoleGrant } from './accounts.ts'
import { hashSecret, presentedToken, SESSION_DAYS, SESSION_TOUCH_SECONDS } from './tokens.ts'

interface SessionRow {
  session_id: number
  user_id: number
  username: string
  real_name: string
  company_id: number | null
  company_user_type: number
  stale: boolean
  roles: RoleGrant[]
  overlay_stamp: string
}

/**
 * The session of a request, from the Authorization header or the b2b_token cookie, or null.
 * A session belongs to the tenant it was opened on: the lookup runs under that tenant's row-level
 * security, so another tenant's token finds nothing. Revoked, expired and disabled-user sessions are
 * no sessions. Every signed-in call pays for this lookup, so it is one statement: the database function
 * waybill_session (migration 0012) sets the tenant and role for its transaction and answers the session,
 * the user and their roles. Use slides the expiry forward, written at most once a minute.
 *
 * With `hold`, the lookup opens the request's transaction and stays in it: the function's settings are the
 * tenant's settings every tenant transaction starts with, and the statement has no parameters, so `begin` and
 * it travel in one message (server/db/prepared.ts) — the session, the transaction and its tenant in one round
 * trip, and the handler's first `withTenant` takes the transaction over (server/db/requestTransaction.ts).
 * Without (a body still arriving, a socket), it is a statement of its own, outside any transaction.
 */
export async function loadSession(
  db: Kysely<DB>,
  request: FastifyRequest,
  { hold = false }: { hold?: boolean } = {},
): Promise<Session | null> {
  const token = presentedToken(request)
  if (!token) return null
  const tenantId = request.tenant.id
  if (!hold) {
    const { rows } = await sql<SessionRow>`
      select * from waybill_session(${tenantId}, ${hashSecret(token)}, ${SESSION_TOUCH_SECONDS})`.execute(db)
    const row = rows[0]
    if (row?.stale) await withTenant(db, tenantId, (trx) => touch(trx, tenantId, row.session_id))
    return row ? sessionOf(row, request) : null
  }
  const trx = await db.startTransaction().execute()
  try {
    // Literals (an integer, a hex digest, a constant): no parameters, so no prepared statement to wait for.
    const tokenHash = hashSecret(token)
    if (!Number.isSafeInteger(tenantId) || !/^[0-9a-f]{64}$/.test(tokenHash)) throw new Error('loadSession: bad key')
    const { rows } = await sql<SessionRow>`
      select * from waybill_session(${sql.lit(tenantId)}, ${sql.lit(tokenHash)}, ${sql.lit(SESSION_TOUCH_SECONDS)})`.execute(
      trx,
    )
    const row = rows[0]
    if (row?.stale) await touch(trx, tenantId, row.session_id)
    holdFor(request, new HeldTransaction(db, tenantId, trx))
    return row ? sessionOf(row, request) : null
  } catch (error) {
    await rollBackQuietly(trx)
    throw error
  }
}

/**
 * Slides the session's expiry. Skipped when another request of the same session is touching it right now (its
 * row locked): that one's write is as good, and this request must not wait for the other's whole transaction.
 */
async function touch(trx: Transaction<DB>, tenantId: number, sessionId: number): Promise<void> {
  await sql`
    update session set last_seen_at = now(), expires_at = now() + make_interval(days => ${SESSION_DAYS})
    where id = (select id from session where tenant_id = ${tenantId} and id = ${sessionId} for update skip locked)
      and tenant_id = ${tenantId}`.execute(trx)
}

function sessionOf(row: SessionRow, request: FastifyRequest): Session {
  const access = accessOf(row.roles)
  const permissions = new Set(access.permissions)
  // walltechAdmin is the platform's: a tenant's system administrator holds every permission of the catalogue, but
  // this one only on the platform's own tenant (issue #25, docs/SECURITY.md "Platform tenants").
  if (!request.tenant.platform) permissions.delete('walltechAdmin')
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    tenantId: request.tenant.id,
    username: row.username,
    realName: row.real_name,
    companyId: row.company_id,
    companyUserType: row.company_user_type,
    roles: access.roles,
    permissions,
    dataScope: access.dataScope,
    overlayStamp: Number(row.overlay_stamp),
  }
}
