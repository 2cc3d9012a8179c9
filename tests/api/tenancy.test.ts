import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../server/db/database.ts'
import { DEMO_USERS } from '../../server/db/seed/demo.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { freshDatabase } from '../support/database.ts'

let database: Database
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database?.close()
})

const tenantId = async (code: string) =>
  (await database.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id

describe('row-level security', () => {
  it('shows a tenant only its own users, even with no where clause', async () => {
    const demo = await withTenant(database.db, await tenantId('demo'), (trx) =>
      trx.selectFrom('app_user').select('username').execute(),
    )
    const acme = await withTenant(database.db, await tenantId('acme'), (trx) =>
      trx.selectFrom('app_user').select('username').execute(),
    )
    expect(demo.map((u) => u.username).sort()).toEqual(DEMO_USERS.map((u) => u.username).sort())
    expect(acme.map((u) => u.username).sort()).toEqual(['entadmin', 'opadmin'])
  })

  it('returns nothing to the application role when no tenant is set', async () => {
    const rows = await database.db.transaction().execute(async (trx) => {
      await sql`set local role waybill_app`.execute(trx)
      return trx.selectFrom('app_user').select('id').execute()
    })
    expect(rows).toHaveLength(0)
  })

  it('refuses to write a row into another tenant', async () => {
    const acmeId = await tenantId('acme')
    const attempt = withTenant(database.db, await tenantId('demo'), (trx) =>
      trx.insertInto('company').values({ tenant_id: acmeId, name: 'Smuggled Ltd', company_type: 2 }).execute(),
    )
    await expect(attempt).rejects.toThrow(/row-level security/)
  })
})
