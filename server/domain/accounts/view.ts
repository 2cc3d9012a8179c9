import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

/** SPEC §6: company user type 1 is the provider side, the forwarder's own staff. */
export const PROVIDER = 1

/**
 * The operation accounts of a tenant (schemas/operationAccount.yaml): its provider-side users of app_user, one row
 * each, with the entity's column names and the system columns the engine reads a view by (./register.ts) but the
 * creator, which an account does not keep. isUsed is the account's `state` (1 enabled, 0 disabled).
 */
export function operationAccounts(trx: Transaction<DB>, tenantId: number) {
  return trx
    .selectFrom('app_user as u')
    .select([
      'u.tenant_id',
      'u.id',
      'u.version',
      'u.created_at',
      'u.updated_at',
      'u.username',
      'u.real_name',
      'u.email',
      'u.mobile',
      'u.qq',
      // An operation account has one role; should an account hold several, the first is shown.
      sql<number | null>`(select min(ur.role_id) from user_role ur
        where ur.tenant_id = u.tenant_id and ur.user_id = u.id)`.as('company_app_role_id'),
      sql<boolean>`u.state = 1`.as('is_used'),
      'u.last_login_at',
    ])
    .where('u.tenant_id', '=', tenantId)
    .where('u.company_user_type', '=', PROVIDER)
}
