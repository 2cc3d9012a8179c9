import { type Kysely, sql } from 'kysely'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The certification behind each seeded enterprise that a user certified (origin 0, schemas/company.yaml):
 * its administrator's application, approved, with the enterprise's data as the licence gave it — what
 * /enterpriseInfo shows them and the operators' /clientEnterpriseList lists (schemas/enterpriseApplication.yaml).
 * Hangzhou Minghui's for the demo tenant, Dongguan Hengda's for acme; Ningbo Haitong was created by an
 * operator and has none. Deterministic: dated with the enterprise.
 */
export async function seedCertifications(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  const tenants = await db.selectFrom('tenant').select('id').orderBy('id').execute()
  for (const tenant of tenants)
    await withTenant(db, tenant.id, async (trx) => {
      await sql`
        insert into enterprise_application (tenant_id, created_by, created_at, updated_at, state, company,
          name, name_en, enterprise_type, certificate_type, unique_number, registered_capital, founding_date,
          corporate_name, contact_name, contact_mobile, contact_email, address, business_start_date,
          business_end_date, origin, inviter, fba_status, sales_branch, salesman)
        select c.tenant_id, u.id, c.created_at, c.created_at, 'approved', c.id,
          c.name, c.name_en, c.enterprise_type, c.certificate_type, c.unique_number, c.registered_capital,
          c.founding_date, c.corporate_name, c.contact_name, c.contact_mobile, c.contact_email, c.address,
          c.business_start_date, c.business_end_date, c.origin, c.inviter, c.fba_status, c.sales_branch, c.salesman
        from company c
        join app_user u on u.company_id = c.id and u.username = 'entadmin'
        where c.tenant_id = ${tenant.id} and c.company_type = 2 and c.origin = 0
        order by c.id`.execute(trx)
    })
}
