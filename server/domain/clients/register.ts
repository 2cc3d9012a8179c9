import { sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'

/** SPEC §6: company user types of the customer side (2 enterprise, 3 the order-list-only user). */
export const CUSTOMER_SIDE = [2, 3]

/**
 * The customer enterprises' accounts as the engine reads them (schemas/enterpriseUser.yaml): a view of
 * app_user — the customer-side accounts of the caller's tenant, with their enterprise's name, their role,
 * whether they are the enterprise's contact, their origin and inviter. The engine then serves both account
 * lists and their details with its own search, paging, labels and data scope: the entity's `dataScope`
 * company wall keeps an enterprise administrator to their own enterprise's accounts.
 */
export function register(engine: EngineRegistry): void {
  engine.view('enterpriseUser', ({ trx, call }) =>
    trx
      .selectFrom('app_user as u')
      .leftJoin('company as c', (join) =>
        join.onRef('c.id', '=', 'u.company_id').onRef('c.tenant_id', '=', 'u.tenant_id'),
      )
      .select([
        'u.tenant_id',
        'u.id',
        'u.version',
        'u.created_at',
        'u.updated_at',
        sql<number | null>`null::integer`.as('created_by'),
        'u.username',
        sql<string>`u.real_name`.as('user_real_name'),
        'u.email',
        'u.mobile',
        'u.qq',
        sql<number | null>`u.company_id`.as('company'),
        sql<string | null>`c.name`.as('company_name'),
        // An account has one role here; should it hold several, the first is shown (as operation accounts).
        sql<number | null>`(select min(ur.role_id) from user_role ur
          where ur.tenant_id = u.tenant_id and ur.user_id = u.id)`.as('company_app_role_id'),
        // The contact the enterprise gave (schemas/company.yaml contactMobile, contactEmail) is this account's.
        sql<boolean>`coalesce(c.contact_mobile = u.mobile or lower(c.contact_email) = lower(u.email), false)`.as(
          'is_contact',
        ),
        sql<boolean>`u.state = 1`.as('is_used'),
        'u.origin',
        sql<number | null>`u.inviter_id`.as('inviter'),
        'u.last_login_at',
      ])
      .where('u.tenant_id', '=', call.tenantId)
      .where('u.company_user_type', 'in', CUSTOMER_SIDE),
  )
}
