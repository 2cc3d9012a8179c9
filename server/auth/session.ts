import type { FastifyRequest } from 'fastify'
import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Session } from '../http/context.ts'
import { withTenant } from '../tenancy/scope.ts'
import { accessOf, rolesOf } from './accounts.ts'
import { hashSecret, presentedToken, SESSION_DAYS, SESSION_TOUCH_SECONDS } from './tokens.ts'

/**
 * The session of a request, from the Authorization header or the b2b_token cookie, or null.
 * A session belongs to the tenant it was opened on: the lookup runs under that tenant's row-level
 * security, so another tenant's token finds nothing. Revoked, expired and disabled-user sessions are
 * no sessions. Use slides the expiry forward, written at most once a minute. The user and their roles come
 * in the same query: every authenticated call pays for this lookup.
 */
export async function loadSession(db: Kysely<DB>, request: FastifyRequest): Promise<Session | null> {
  const token = presentedToken(request)
  if (!token) return null
  const tenantId = request.tenant.id
  return withTenant(db, tenantId, async (trx) => {
    const row = await trx
      .selectFrom('session')
      .innerJoin('app_user', 'app_user.id', 'session.user_id')
      .select([
        'session.id as sessionId',
        'app_user.id as userId',
        'app_user.username',
        'app_user.real_name',
        'app_user.company_id',
        'app_user.company_user_type',
        sql<boolean>`session.last_seen_at < now() - make_interval(secs => ${SESSION_TOUCH_SECONDS})`.as('stale'),
        rolesOf(sql.ref('session.tenant_id'), sql.ref('app_user.id')).as('roles'),
      ])
      .where('session.tenant_id', '=', tenantId)
      .where('session.token_hash', '=', hashSecret(token))
      .where('session.revoked_at', 'is', null)
      .where('session.expires_at', '>', sql<Date>`now()`)
      .where('app_user.state', '=', 1)
      .executeTakeFirst()
    if (!row) return null
    if (row.stale) {
      await trx
        .updateTable('session')
        .set({
          last_seen_at: sql<Date>`now()`,
          expires_at: sql<Date>`now() + make_interval(days => ${SESSION_DAYS})`,
        })
        .where('id', '=', row.sessionId)
        .execute()
    }
    const access = accessOf(row.roles)
    return {
      sessionId: row.sessionId,
      userId: row.userId,
      tenantId,
      username: row.username,
      realName: row.real_name,
      companyId: row.company_id,
      companyUserType: row.company_user_type,
      roles: access.roles,
      permissions: new Set(access.permissions),
      dataScope: access.dataScope,
    }
  })
}
