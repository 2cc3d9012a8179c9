import type { FastifyRequest } from 'fastify'
import { type Kysely, sql } from 'kysely'
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
 * no sessions. Every signed-in call pays for this lookup, so it is one round trip: the database function
 * waybill_session (migration 0012) sets the tenant and role for its own statement and answers the session,
 * the user and their roles. Use slides the expiry forward, written at most once a minute.
 */
export async function loadSession(db: Kysely<DB>, request: FastifyRequest): Promise<Session | null> {
  const token = presentedToken(request)
  if (!token) return null
  const tenantId = request.tenant.id
  const { rows } = await sql<SessionRow>`
    select * from waybill_session(${tenantId}, ${hashSecret(token)}, ${SESSION_TOUCH_SECONDS})`.execute(db)
  const row = rows[0]
  if (!row) return null
  if (row.stale) {
    await withTenant(db, tenantId, (trx) =>
      trx
        .updateTable('session')
        .set({
          last_seen_at: sql<Date>`now()`,
          expires_at: sql<Date>`now() + make_interval(days => ${SESSION_DAYS})`,
        })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', row.session_id)
        .execute(),
    )
  }
  const access = accessOf(row.roles)
  const permissions = new Set(access.permissions)
  // walltechAdmin is the platform's: a tenant's system administrator holds every permission of the catalogue, but
  // this one only on the platform's own tenant (issue #25, docs/SECURITY.md "Platform tenants").
  if (!request.tenant.platform) permissions.delete('walltechAdmin')
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    tenantId,
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
