import type { Kysely } from 'kysely'
import type { Manifest } from '../../manifest.ts'
import type { DB } from '../schema.ts'
import { insertAll } from './rates.ts'

/**
 * Each tenant's customer has registered its ERP's webhook endpoint (issue #29) and left it switched off, without a
 * secret, until its IT team is ready: the administrator finds it on /webhookList, issues the secret and enables it.
 * Inert as seeded — no deliveries are made for it — so a newcomer's server sends nothing anywhere.
 */
const ENDPOINTS: Record<string, { url: string; description: string }> = {
  demo: { url: 'https://erp.minghui-textile.example/hooks/waybill', description: 'SAP order sync (pending go-live)' },
  acme: { url: 'https://it.dg-hengda.example/api/waybill-events', description: 'Logistics dashboard' },
}

export async function seedWebhooks(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  for (const [code, endpoint] of Object.entries(ENDPOINTS)) {
    const customer = await db
      .selectFrom('app_user')
      .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
      .select(['app_user.tenant_id as tenantId', 'app_user.company_id as company', 'app_user.id as user'])
      .where('tenant.code', '=', code)
      .where('app_user.username', '=', 'entadmin')
      .executeTakeFirst()
    if (!customer?.company) continue
    await insertAll(db, manifest, customer.tenantId, 'webhookEndpoint', [
      { ...endpoint, events: ['orderState', 'billIssued'], enabled: false, company: customer.company },
    ])
  }
}
