import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { servedByEngine } from '../../server/engine/core.ts'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'
import { databaseFingerprint } from '../support/fingerprint.ts'
import { checkProperty } from '../support/property.ts'
import { readXlsx, XLSX_MIME } from '../support/xlsx.ts'

/**
 * Issue #9's tenant-isolation guard, generated from the manifest. Users of acme.localhost, holding every
 * permission their side has, call every entity endpoint with the ids of the demo tenant's records and
 * get nothing and change nothing (the database is read afterwards); a fast-check property sends random
 * list, detail and export calls and checks every row answered belongs to the caller's tenant; and every
 * table with a tenant_id has row-level security enabled, forced and a policy.
 */

const test = setupTestApp()
const manifest = loadManifest()
const ACME = 'acme.localhost'

interface Caller {
  username: string
  token: string
}

let acmeTenant = 0
let demoTenant = 0
let callers: Caller[] = []
let fingerprint: () => Promise<string>

const engineEndpoints = manifest.endpoints.filter((e) => servedByEngine(manifest, e))
const tableOf = (endpoint: ManifestEndpoint) => manifest.entities[endpoint.entity]?.table as string
const tenantOwned = (endpoint: ManifestEndpoint) => manifest.entities[endpoint.entity]?.scope !== 'global'

function request(endpoint: ManifestEndpoint, input: Record<string, unknown>, token: string) {
  const read = endpoint.method === 'GET' || endpoint.method === 'DELETE'
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString()
  return test.app.inject({
    method: endpoint.method,
    url: read ? `/api${endpoint.path}?${query}` : `/api${endpoint.path}`,
    headers: { host: ACME, language: 'en_US', authorization: `Bearer ${token}` },
    ...(read ? {} : { payload: input }),
  })
}

/** The demo tenant's rows of a table (id and version), the ids an attacker from acme would try. */
async function demoRows(table: string, limit = 3) {
  const { rows } = await sql<{ id: number; version: number }>`
    select id, version from ${sql.table(table)} where tenant_id = ${demoTenant} order by id limit ${limit}`.execute(
    test.database.db,
  )
  return rows
}

/** Ids among these of a table that are not the given tenant's. */
async function foreignIds(table: string, ids: number[], tenant: number): Promise<number[]> {
  if (!ids.length) return []
  const { rows } = await sql<{ id: number }>`
    select id from ${sql.table(table)} where id in (${sql.join(ids)}) and tenant_id <> ${tenant}`.execute(
    test.database.db,
  )
  return rows.map((r) => r.id)
}

beforeAll(async () => {
  const db = test.database.db
  const tenants = await db.selectFrom('tenant').select(['id', 'code']).execute()
  acmeTenant = tenants.find((t) => t.code === 'acme')?.id as number
  demoTenant = tenants.find((t) => t.code === 'demo')?.id as number
  callers = [
    { username: 'opadmin', token: await test.login('opadmin', ACME) },
    { username: 'entadmin', token: await test.login('entadmin', ACME) },
  ]
  fingerprint = await databaseFingerprint(db as never)
})

/** By id: detail, update, delete and every transition with the demo tenant's ids; nothing found, nothing changed. */
async function sweepById(label: string) {
  const byId = engineEndpoints.filter(
    (e) => tenantOwned(e) && ['detail', 'update', 'delete', 'transition'].includes(e.kind),
  )
  const tried: string[] = []
  for (const endpoint of byId) {
    const rows = await demoRows(tableOf(endpoint))
    const transitions = Object.keys(manifest.entities[endpoint.entity]?.states?.transitions ?? {})
    const before = await fingerprint()
    for (const row of rows)
      for (const caller of callers)
        for (const transition of endpoint.kind === 'transition' ? transitions : [undefined]) {
          const response = await request(
            endpoint,
            { id: row.id, version: row.version, ...(transition ? { transition } : {}) },
            caller.token,
          )
          const body = response.json()
          const what = `${caller.username}@acme ${endpoint.method} ${endpoint.path} id ${row.id} ${transition ?? ''}`
          expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(500)
          expect(body.code, `${what}: ${response.body}`).not.toBe('0000')
        }
    expect(await fingerprint(), `${endpoint.method} ${endpoint.path} changed the database`).toBe(before)
    if (rows.length) tried.push(endpoint.id)
  }
  console.info(`tenant guard (${label}): ${tried.length} by-id endpoints refuse another tenant's records`)
  expect(tried.length).toBeGreaterThan(8)
}

/** Lists: every row of page 1 (200 rows) belongs to the caller's tenant. */
async function sweepLists(label: string) {
  const lists = engineEndpoints.filter((e) => tenantOwned(e) && e.kind === 'list')
  for (const endpoint of lists)
    for (const caller of callers) {
      const body = (await request(endpoint, { pageNum: 1, pageSize: 200 }, caller.token)).json()
      if (body.code !== '0000') {
        expect(body.code, `${endpoint.path}: ${JSON.stringify(body)}`).toBe('220000')
        continue
      }
      const ids = (body.content.list as { id: number }[]).map((r) => r.id)
      expect(await foreignIds(tableOf(endpoint), ids, acmeTenant), endpoint.path).toEqual([])
      // The total too (counted, or read from the row tally): never more than the caller's tenant has.
      const { rows } = await sql<{ count: number }>`
        select count(*)::int as count from ${sql.table(tableOf(endpoint))} where tenant_id = ${acmeTenant}`.execute(
        test.database.db,
      )
      expect(body.content.total, `${endpoint.path}: total`).toBeLessThanOrEqual(rows[0]?.count ?? 0)
    }
  console.info(`tenant guard (${label}): ${lists.length} list endpoints answer only the caller's tenant`)
  expect(lists.length).toBeGreaterThan(5)
}

describe('tenant isolation guard (every entity endpoint of the manifest)', () => {
  it('keeps row-level security enabled, forced and with a policy on every table that has a tenant_id', async () => {
    const { rows } = await sql<{ table: string; enabled: boolean; forced: boolean; policies: number }>`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
        (select count(*)::int from pg_policies p where p.tablename = c.relname) as policies
      from information_schema.columns col
      join pg_class c on c.relname = col.table_name and c.relkind = 'r'
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = col.table_schema
      where col.column_name = 'tenant_id' and col.table_schema = current_schema()
      order by c.relname`.execute(test.database.db)
    // tenant_domain maps a host to its tenant before any tenant is known: readable by all, writable by none.
    const unsafe = rows
      .filter((r) => r.table !== 'tenant_domain')
      .filter((r) => !r.enabled || !r.forced || r.policies < 1)
      .map((r) => r.table)
    const { rows: writable } = await sql<{ insert: boolean; update: boolean }>`
      select has_table_privilege('waybill_app', 'tenant_domain', 'INSERT') as insert,
        has_table_privilege('waybill_app', 'tenant_domain', 'UPDATE') as update`.execute(test.database.db)
    expect(writable[0]).toEqual({ insert: false, update: false })
    console.info(`tenant guard: ${rows.length} tenant tables under forced row-level security`)
    expect(unsafe).toEqual([])
    expect(rows.length).toBeGreaterThan(20)
  })

  it("finds and changes nothing of another tenant's records by id (detail, update, delete, transition)", async () => {
    await sweepById('row-level security and the engine')
  }, 300_000)

  it("lists only the caller's tenant rows", async () => {
    await sweepLists('row-level security and the engine')
  })

  it("answers only the caller's tenant rows, whatever list, page, id or export is asked (property, 1,000 runs)", async () => {
    const readable = engineEndpoints.filter((e) => tenantOwned(e) && ['list', 'detail', 'export'].includes(e.kind))
    let read = 0
    let exported = 0
    let refused = 0
    const maxId = Number(
      (await sql<{ max: number }>`select max(id)::int as max from booking_order`.execute(test.database.db)).rows[0]
        ?.max ?? 100,
    )
    await checkProperty(
      fc.asyncProperty(
        fc.constantFrom(...readable),
        fc.constantFrom(0, 1),
        fc.integer({ min: 1, max: Math.max(maxId, 50) }),
        fc.integer({ min: 1, max: 5 }),
        async (endpoint, who, id, pageNum) => {
          const caller = callers[who] as Caller
          const input = endpoint.kind === 'detail' ? { id } : { pageNum, pageSize: 20 }
          const response = await request(endpoint, input, caller.token)
          expect(response.statusCode).toBeLessThan(500)
          if (endpoint.kind === 'export') {
            // An .xlsx without ids: it may hold no more rows than the caller's tenant has, and exactly the rows it
            // announced. Anything but the file is a refusal, the usual envelope.
            if (!response.headers['content-type']?.toString().startsWith(XLSX_MIME)) {
              const answer = response.json()
              expect(answer.code, `${endpoint.path}: ${response.body}`).toBe('220000')
              refused++
              return
            }
            exported++
            const { rows: written } = await readXlsx(response.rawPayload)
            expect(written.length).toBe(Number(response.headers['x-export-rows']))
            const { rows } = await sql<{ count: number }>`
              select count(*)::int as count from ${sql.table(tableOf(endpoint))} where tenant_id = ${acmeTenant}`.execute(
              test.database.db,
            )
            expect(written.length).toBeLessThanOrEqual(rows[0]?.count ?? 0)
            return
          }
          const body = response.json()
          if (body.code !== '0000') {
            // Refused: no permission, or (by id) no such record in the caller's tenant — never another answer.
            const refusals = endpoint.kind === 'detail' ? ['220000', '404'] : ['220000']
            expect(refusals, `${endpoint.path}: ${response.body}`).toContain(body.code)
            refused++
            return
          }
          read++
          const rows = endpoint.kind === 'detail' ? [body.content] : body.content.list
          const ids = (rows as { id: number }[]).map((r) => r.id)
          expect(await foreignIds(tableOf(endpoint), ids, acmeTenant)).toEqual([])
        },
      ),
      1000,
    )
    console.info(
      `tenant guard: 1000 random reads over ${readable.length} endpoints (${read} read, ${exported} exported, ${refused} refused), every row the caller's tenant's`,
    )
    // The property holds on answers, not only on refusals.
    expect(read).toBeGreaterThan(100)
    expect(exported).toBeGreaterThan(0)
  }, 300_000)
})

/**
 * Row-level security hides a query that forgets its tenant: with it on, a missing `tenant_id = …` in the
 * engine would pass the sweeps above unseen. So they run again with row-level security switched off on every
 * tenant table of this test database (a database-local change, put back afterwards): the engine's own
 * filters alone must hold.
 */
describe("tenant isolation guard, the engine's own filters alone (row-level security off)", () => {
  let tables: string[] = []
  beforeAll(async () => {
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.columns
      where column_name = 'tenant_id' and table_schema = current_schema() and table_name <> 'tenant_domain'`.execute(
      test.database.db,
    )
    tables = rows.map((r) => r.table_name)
    for (const table of tables)
      await sql`alter table ${sql.table(table)} disable row level security`.execute(test.database.db)
  })
  afterAll(async () => {
    for (const table of tables)
      await sql`alter table ${sql.table(table)} enable row level security`.execute(test.database.db)
  })

  it("finds and changes nothing of another tenant's records by id", async () => {
    await sweepById('engine filters alone')
  }, 300_000)

  it("lists only the caller's tenant rows", async () => {
    await sweepLists('engine filters alone')
  })
})
