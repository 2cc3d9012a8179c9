import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectApi, type Database, openDatabase, UnsafeDatabaseRoleError } from '../../server/db/database.ts'
import { currentRole, unsafeBecause } from '../../server/db/roles.ts'
import { DEMO_USERS } from '../../server/db/seed/demo.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { freshDatabase } from '../support/database.ts'
import { itOnPostgres } from '../support/only-on.ts'

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

describe('the API database role', () => {
  itOnPostgres('is one row-level security binds: no superuser, no BYPASSRLS, no tables', async () => {
    const role = await currentRole(database.api as never)
    expect(role).toEqual({ name: 'waybill_api', superuser: false, bypassRls: false, ownedTables: 0 })
    const rows = await database.api.selectFrom('app_user').select('id').execute()
    expect(rows).toHaveLength(0)
  })

  it('is, on PGlite, the one in-process connection, which switches roles per transaction', async () => {
    const pglite = await openDatabase({ databaseUrl: 'memory://' })
    try {
      await connectApi(pglite)
      expect(pglite.kind).toBe('pglite')
      expect(pglite.api).toBe(pglite.db)
    } finally {
      await pglite.close()
    }
  })

  it('refuses to serve through a superuser or table-owning role', () => {
    expect(unsafeBecause({ name: 'postgres', superuser: true, bypassRls: false, ownedTables: 0 })).toMatch(/superuser/)
    expect(unsafeBecause({ name: 'app', superuser: false, bypassRls: true, ownedTables: 0 })).toMatch(/BYPASSRLS/)
    expect(unsafeBecause({ name: 'owner', superuser: false, bypassRls: false, ownedTables: 3 })).toMatch(/owns 3 table/)
    expect(unsafeBecause({ name: 'waybill_api', superuser: false, bypassRls: false, ownedTables: 0 })).toBeNull()
  })

  itOnPostgres('stops the boot when DATABASE_URL names the owner beside DATABASE_OWNER_URL', async () => {
    const url = process.env.DATABASE_URL as string
    const unsafe = await openDatabase({ databaseUrl: url, ownerUrl: `${url}?application_name=owner` })
    try {
      await expect(connectApi(unsafe)).rejects.toThrow(UnsafeDatabaseRoleError)
    } finally {
      await unsafe.close()
    }
  })
})
