import type { Kysely } from 'kysely'
import { userAccess } from '../../server/auth/accounts.ts'
import type { DB } from '../../server/db/schema.ts'
import type { Session } from '../../server/http/context.ts'
import { withTenant } from '../../server/tenancy/scope.ts'

/**
 * The session a demo user would have after logging in, built with the server's own role lookup
 * (`userAccess`), for tests that drive the engine core without HTTP.
 */
export function sessionOf(
  db: Kysely<DB>,
  tenantId: number,
  username: string,
  override: Partial<Session> = {},
): Promise<Session> {
  return withTenant(db, tenantId, async (trx) => {
    const user = await trx.selectFrom('app_user').selectAll().where('username', '=', username).executeTakeFirstOrThrow()
    const access = await userAccess(trx, tenantId, user.id)
    return {
      sessionId: 0,
      userId: user.id,
      tenantId,
      username: user.username,
      realName: user.real_name,
      companyId: user.company_id,
      companyUserType: user.company_user_type,
      roles: access.roles,
      permissions: new Set(access.permissions),
      dataScope: access.dataScope,
      ...override,
    }
  })
}
