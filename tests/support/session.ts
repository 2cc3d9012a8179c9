import type { Kysely } from 'kysely'
import { sessionForUser } from '../../server/auth/accounts.ts'
import type { DB } from '../../server/db/schema.ts'
import type { Session } from '../../server/http/context.ts'
import { withTenant } from '../../server/tenancy/scope.ts'

/**
 * The session a demo user would have after logging in, built with the server's own role lookup
 * (`sessionForUser`), for tests that drive the engine core without HTTP.
 */
export function sessionOf(
  db: Kysely<DB>,
  tenantId: number,
  username: string,
  override: Partial<Session> = {},
): Promise<Session> {
  return withTenant(db, tenantId, async (trx) => ({ ...(await sessionForUser(trx, tenantId, username)), ...override }))
}
