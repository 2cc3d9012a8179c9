import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

/**
 * The roles of a tenant as the role calls answer them (schemas/role.yaml): one row each, with the entity's column
 * names and the system columns the engine reads a view by (./register.ts) but the creator, which the role table
 * does not keep — how many users hold each, the permissions in name order — and `list_rank`, the list's order after
 * `preset`: preset roles by id (the order the seed made them), the tenant's own newest first.
 */
export function tenantRoles(trx: Transaction<DB>, tenantId: number) {
  return trx
    .selectFrom('role as r')
    .select([
      'r.tenant_id',
      'r.id',
      'r.version',
      'r.created_at',
      'r.updated_at',
      'r.name',
      'r.code',
      'r.group_id',
      'r.company_user_type',
      'r.status',
      'r.data_scope',
      'r.branch',
      'r.personalization',
      'r.preset',
      sql<number>`(select count(*)::int from user_role ur where ur.tenant_id = r.tenant_id and ur.role_id = r.id)`.as(
        'users',
      ),
      // Byte order ("C"), as JavaScript's sort orders the names the role calls store.
      sql<string[]>`(select coalesce(jsonb_agg(p order by p collate "C"), '[]'::jsonb)
        from jsonb_array_elements_text(coalesce(r.permissions, '[]'::jsonb)) p)`.as('permissions'),
      sql<number>`case when r.preset then r.id else -r.id end`.as('list_rank'),
    ])
    .where('r.tenant_id', '=', tenantId)
}
