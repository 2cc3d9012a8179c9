import type { Kysely } from 'kysely'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The customer side as the client-enterprise screens of issue #21 show it: how each demo account came
 * (origin, inviter), their contact data, and the services the provider enabled per enterprise.
 * - Minghui (the demo tenant's first client): online booking and chat on; its administrator Chen Jing gave
 *   her own mobile as the enterprise's contact, and invited Wang Fang.
 * - Ningbo Haitong: online booking on (as the tenant's direct-order service has served it so far), no
 *   chat; its order follower was created by an operator.
 * - acme's Dongguan Hengda: no online booking (acme takes no direct orders: the warm reminder).
 */
const ACCOUNTS: Record<string, { mobile?: string; qq?: string; origin: number; inviter?: string }> = {
  entadmin: { mobile: '13857112345', qq: '281937465', origin: 0 },
  entop: { mobile: '13857156789', qq: '1045872213', origin: 1, inviter: 'entadmin' },
  personal: { mobile: '13761234567', origin: 0 },
  nbclerk: { mobile: '13967845612', origin: 0 },
  nbtrack: { origin: 2 },
}

const SERVICES: Record<string, { onlineBooking: boolean; imService: boolean }> = {
  杭州明辉纺织品进出口有限公司: { onlineBooking: true, imService: true },
  宁波海通汽车零部件有限公司: { onlineBooking: true, imService: false },
  东莞恒达电子有限公司: { onlineBooking: false, imService: false },
}

export async function seedClients(db: Kysely<DB>): Promise<void> {
  const tenants = await db.selectFrom('tenant').select(['id', 'code']).orderBy('id').execute()
  for (const tenant of tenants) {
    await withTenant(db, tenant.id, async (trx) => {
      for (const [name, services] of Object.entries(SERVICES))
        await trx
          .updateTable('company')
          .set({ online_booking: services.onlineBooking, im_service: services.imService })
          .where('tenant_id', '=', tenant.id)
          .where('name', '=', name)
          .execute()
      if (tenant.code !== 'demo') return
      const users = await trx
        .selectFrom('app_user')
        .select(['id', 'username'])
        .where('tenant_id', '=', tenant.id)
        .execute()
      const idOf = (username: string) => users.find((u) => u.username === username)?.id ?? null
      for (const [username, account] of Object.entries(ACCOUNTS))
        await trx
          .updateTable('app_user')
          .set({
            mobile: account.mobile ?? null,
            qq: account.qq ?? null,
            origin: account.origin,
            inviter_id: account.inviter ? idOf(account.inviter) : null,
          })
          .where('tenant_id', '=', tenant.id)
          .where('username', '=', username)
          .execute()
    })
  }
}
