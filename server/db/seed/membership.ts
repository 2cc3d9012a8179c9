import { type Kysely, sql } from 'kysely'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * Issue #21's demo data: every seeded enterprise-side user's work account (the enterprise they are bound to,
 * with the roles they hold, visible inside the enterprise), and a few contacts per customer enterprise, so
 * /memberDirectory and /contactList open on real rows. Deterministic: fixed names, numbers and times.
 */

interface ContactSeed {
  name: string
  position: string
  mobile: string
  email: string
  phone?: string
  qq?: string
  wechat?: string
  remark?: string
}

/** By tenant code and the customer's seed key (server/db/seed/demo.ts); written as the company's administrator or first user. */
const CONTACTS: Record<string, Record<string, ContactSeed[]>> = {
  demo: {
    杭州明辉纺织品进出口有限公司: [
      {
        name: '周丽',
        position: '采购经理',
        mobile: '13957112345',
        email: 'zhou.li@hzminghui.cn',
        phone: '0571-86752210',
        qq: '583920147',
        remark: '面料采购，每周三下午对账',
      },
      {
        name: '黄志强',
        position: '报关主管',
        mobile: '13806527781',
        email: 'huang.zq@hzminghui.cn',
        wechat: 'hzq_customs',
      },
    ],
    宁波海通汽车零部件有限公司: [
      {
        name: '陆佳',
        position: '物流专员',
        mobile: '15888462730',
        email: 'lu.jia@nbhaitong.com',
        phone: '0574-87351026',
      },
    ],
  },
  acme: {
    东莞恒达电子有限公司: [
      {
        name: '李敏',
        position: 'Shipping coordinator',
        mobile: '13925571864',
        email: 'li.min@dghengda.com',
        phone: '0769-22418830',
      },
    ],
  },
}

const SEEDED_AT = '2026-01-05T09:00:00+08:00'

export async function seedMembership(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  const tenants = await db.selectFrom('tenant').select(['id', 'code']).orderBy('id').execute()
  for (const tenant of tenants) {
    await withTenant(db, tenant.id, async (trx) => {
      await sql`
        insert into company_member (tenant_id, "user", company, enterprise_code, roles, visibility, joined_via, state,
          version, created_by, created_at, updated_at)
        select u.tenant_id, u.id, u.company_id, c.join_code,
          coalesce((select jsonb_agg(ur.role_id order by ur.role_id) from user_role ur
            where ur.tenant_id = u.tenant_id and ur.user_id = u.id), '[]'::jsonb),
          2, 'bound', 'current', 1, u.id, ${SEEDED_AT}::timestamptz, ${SEEDED_AT}::timestamptz
        from app_user u join company c on c.tenant_id = u.tenant_id and c.id = u.company_id
        where u.tenant_id = ${tenant.id} and u.company_user_type <> 1
        order by u.id`.execute(trx)
      for (const [companyName, contacts] of Object.entries(CONTACTS[tenant.code] ?? {})) {
        const owner = (
          await sql<{ company: number; user: number }>`
            select c.id as company, u.id as "user" from company c
            join app_user u on u.tenant_id = c.tenant_id and u.company_id = c.id
            where c.tenant_id = ${tenant.id} and c.name = ${companyName} order by u.id limit 1`.execute(trx)
        ).rows[0]
        if (!owner) continue
        for (const contact of contacts)
          await sql`
            insert into contact (tenant_id, name, position, mobile, email, phone, qq, wechat, remark, notice_confirmed,
              company, created_by, version, created_at, updated_at)
            values (${tenant.id}, ${contact.name}, ${contact.position}, ${contact.mobile}, ${contact.email},
              ${contact.phone ?? null}, ${contact.qq ?? null}, ${contact.wechat ?? null}, ${contact.remark ?? null}, false,
              ${owner.company}, ${owner.user}, 1, ${SEEDED_AT}::timestamptz, ${SEEDED_AT}::timestamptz)`.execute(trx)
      }
    })
  }
}
