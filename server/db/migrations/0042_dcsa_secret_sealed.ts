import { type Kysely, sql } from 'kysely'
import { sealSubscriptionSecret } from '../../domain/dcsa/secrets.ts'

/**
 * DCSA subscription secrets sealed (issue #29, server/domain/dcsa/secrets.ts): the ones stored in clear by 0036 are
 * sealed in place, tenant by tenant (row-level security is forced, even on the owner). A sealed value starts `v1.`,
 * which a Base64 secret never does (no dot), so the migration seals each secret once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows: tenants } = await sql<{ id: number }>`select id from tenant order by id`.execute(db)
  for (const tenant of tenants) {
    await sql`select set_config('app.tenant_id', ${String(tenant.id)}, false)`.execute(db)
    const { rows } = await sql<{ id: string; secret: string }>`
      select id::text as id, secret from dcsa_event_subscription
      where tenant_id = ${tenant.id} and secret not like 'v1.%'`.execute(db)
    for (const row of rows)
      await sql`
        update dcsa_event_subscription set secret = ${sealSubscriptionSecret(tenant.id, row.id, row.secret)}
        where tenant_id = ${tenant.id} and id = ${row.id}::uuid`.execute(db)
  }
  await sql`select set_config('app.tenant_id', '', false)`.execute(db)
}
