import { sql } from 'kysely'
import { writeAudit } from '../../engine/index.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * Roles of the tenant (SPEC §6): preset roles come from screens/access.yaml and cannot be deleted
 * (360001); custom roles can, and their users lose them with them.
 */
export const roleHandlers = {
  async roleList(ctx) {
    const tenantId = ctx.request.tenant.id
    const rows = await ctx.inTenant((trx) =>
      trx
        .selectFrom('role')
        .leftJoin('user_role', (join) => join.onRef('user_role.role_id', '=', 'role.id'))
        .select([
          'role.id',
          'role.code',
          'role.name',
          'role.preset',
          'role.data_scope',
          'role.status',
          'role.permissions',
          sql<number>`count(user_role.user_id)::int`.as('users'),
        ])
        .where('role.tenant_id', '=', tenantId)
        .groupBy('role.id')
        .orderBy('role.id')
        .execute(),
    )
    return rows.map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      preset: r.preset,
      dataScope: r.data_scope,
      status: r.status,
      permissions: r.permissions,
      users: r.users,
    }))
  },

  async roleDelete(ctx) {
    const id = Number((ctx.request.query as { id?: string }).id)
    if (!Number.isInteger(id) || id < 1)
      throw new ApiError('validation', {}, [{ field: 'id', message: 'validation.required', params: {} }])
    const tenantId = ctx.request.tenant.id
    const session = ctx.request.session
    await ctx.inTenant(async (trx) => {
      const role = await trx
        .selectFrom('role')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
      if (!role) throw new ApiError('404')
      if (role.preset) throw new ApiError('360001')
      await trx.deleteFrom('role').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
      await writeAudit(trx, {
        tenantId,
        userId: session?.userId as number,
        entity: 'role',
        recordId: id,
        action: 'delete',
        before: { code: role.code, name: role.name, permissions: role.permissions },
        after: null,
      })
    })
    return null
  },
} satisfies Handlers
