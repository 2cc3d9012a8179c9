import type { Kysely } from 'kysely'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * Role groups (issue #21, schemas/roleGroup.yaml) as a forwarder files its roles: the operator side's and the
 * client enterprises', each preset role in the group of its side, the demo tenant's own roles with the
 * enterprise ones. Deterministic: the same groups, names and order every time.
 */
const GROUPS: Record<string, { operators: [string, string]; enterprises: [string, string] }> = {
  demo: {
    operators: ['运营管理组', '货代运营端的管理、客服与单证角色'],
    enterprises: ['客户企业组', '客户企业的管理员、操作、客服与销售角色'],
  },
  acme: {
    operators: ['Operations', 'The forwarder’s own administrators and customer service'],
    enterprises: ['Client enterprises', 'Roles of the client companies’ staff'],
  },
}

type Dynamic = Kysely<Record<string, Record<string, unknown>>>

export async function seedRoleGroups(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  for (const [code, groups] of Object.entries(GROUPS)) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      const ids: Record<number, number> = {}
      for (const [side, [name, remark]] of [
        [1, groups.operators],
        [2, groups.enterprises],
      ] as const) {
        const row = await (trx as unknown as Dynamic)
          .insertInto('role_group')
          .values({ tenant_id: tenant.id, name, remark })
          .returning('id')
          .executeTakeFirstOrThrow()
        ids[side] = row.id as number
      }
      for (const side of [1, 2])
        await trx
          .updateTable('role')
          .set({ group_id: ids[side] ?? null })
          .where('tenant_id', '=', tenant.id)
          .where('company_user_type', '=', side)
          .execute()
    })
  }
}
