import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import type { Database } from '../../server/db/database.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngine, type Engine, type ListContent } from '../../server/engine/core.ts'
import { engineEntities } from '../../server/engine/storage.ts'
import { tallyColumn } from '../../server/engine/tally.ts'
import type { Session } from '../../server/http/context.ts'
import { loadManifest, type Manifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { freshDatabase } from '../support/database.ts'
import { sessionOf } from '../support/session.ts'

/**
 * Totals from the row tally and pages read from either end (issue #9): whatever the way a row is written
 * (the engine, a bulk statement across tenants, an update that moves states, a delete), the tally equals a
 * count of the rows; and every page of a list, read forwards or backwards, is the same slice of the whole
 * ordered list, with and without a sort, with filters the tally answers and filters it cannot.
 */

let database: Database
let manifest: Manifest
let engine: Engine
let demo: number
let operator: Session
let customer: Session

const LIST = '/booking/order/queryOrderListByOperator'
const owner = () => database.db as unknown as Kysely<Record<string, Record<string, unknown>>>

beforeAll(async () => {
  database = await freshDatabase()
  manifest = loadManifest()
  engine = createEngine(manifest, { registry: domainRegistry() })
  const tenant = await database.db
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', 'demo')
    .executeTakeFirstOrThrow()
  demo = tenant.id
  operator = await sessionOf(database.db, demo, 'opadmin')
  customer = await sessionOf(database.db, demo, 'entadmin')
  // 60 more demo orders, some without an ETD, so pages and sorts have something to get wrong.
  await sql`
    insert into booking_order (tenant_id, created_by, customer_company, order_no, transport_mode, container_load_type,
      pol, pod, etd, state, entrust_type, source)
    select tenant_id, created_by, customer_company, 'PG' || lpad(g::text, 6, '0'), transport_mode, container_load_type,
      pol, pod, case when g % 7 = 0 then null else date '2026-01-01' + (g % 13) end,
      (array['submitted', 'accepted', 'booked', 'draft'])[1 + g % 4], entrust_type, source
    from booking_order, generate_series(1, 60) g
    where id = (select min(id) from booking_order where tenant_id = ${demo})`.execute(database.db)
})
afterAll(async () => {
  await database?.close()
})

function endpointAt(path: string): ManifestEndpoint {
  const found = manifest.endpoints.find((e) => e.path === path)
  if (!found) throw new Error(`no endpoint ${path}`)
  return found
}

const list = (session: Session, body: unknown, path = LIST) =>
  withTenant(database.db, session.tenantId, (trx) =>
    engine.handle(trx, endpointAt(path), { tenantId: session.tenantId, session, language: 'en' }, body),
  ) as Promise<ListContent>

/** Every tally row next to a count of the rows it stands for (as the superuser, no row-level security). */
async function tallyAgainstRows(): Promise<{ tally: string[]; rows: string[] }> {
  const tally: string[] = []
  const rows: string[] = []
  for (const entity of engineEntities(manifest).filter((e) => e.scope === 'tenant')) {
    const column = tallyColumn(entity)
    const { rows: counted } = await sql<{ tenant: number; state: string; n: number }>`
      select tenant_id as tenant, ${column ? sql.ref(column) : sql.lit('')} as state, count(*)::int as n
      from ${sql.table(entity.table)} group by 1, 2`.execute(database.db)
    rows.push(...counted.map((r) => `${entity.table} ${r.tenant} ${r.state} ${r.n}`))
    const { rows: kept } = await sql<{ line: string }>`
      select tenant_id || ' ' || state || ' ' || n as line from row_tally
      where table_name = ${entity.table} and n <> 0 order by 1`.execute(database.db)
    tally.push(...kept.map((r) => `${entity.table} ${r.line}`))
  }
  return { tally: tally.sort(), rows: rows.sort() }
}

describe('the row tally', () => {
  it('equals a count of every engine table, per tenant and state, after the seed', async () => {
    const { tally, rows } = await tallyAgainstRows()
    expect(rows.length).toBeGreaterThan(20)
    expect(tally).toEqual(rows)
  })

  it('follows bulk statements across tenants: inserts, state moves, deletes', async () => {
    await sql`
      insert into booking_order (tenant_id, order_no, transport_mode, container_load_type, pol, pod, state,
        entrust_type, source)
      select t.id, 'TL' || t.id || '-' || g, 1, 'FCL', 'CNSHA', 'USLAX', case when g % 2 = 0 then 'draft' else 'submitted' end,
        'entrusted', 'direct'
      from tenant t, generate_series(1, 9) g`.execute(database.db)
    await sql`update booking_order set state = 'accepted' where order_no like 'TL%' and state = 'submitted'`.execute(
      database.db,
    )
    await sql`update booking_order set remarks = 'no state change' where order_no like 'TL%'`.execute(database.db)
    await sql`delete from booking_order where order_no like 'TL%' and state = 'draft'`.execute(database.db)
    const { tally, rows } = await tallyAgainstRows()
    expect(tally).toEqual(rows)
  })

  it('follows the engine: an order moved to another state', async () => {
    const before = await list(operator, { searchParams: { state: ['rejected'] } })
    const order = await owner()
      .selectFrom('booking_order')
      .select(['id', 'version'])
      .where('tenant_id', '=', demo)
      .where('state', '=', 'submitted')
      .executeTakeFirstOrThrow()
    await withTenant(database.db, demo, (trx) =>
      engine.handle(
        trx,
        endpointAt('/order/transition'),
        { tenantId: demo, session: operator, language: 'en' },
        { id: order.id, version: order.version, transition: 'reject' },
      ),
    )
    const after = await list(operator, { searchParams: { state: ['rejected'] } })
    expect(after.total).toBe(before.total + 1)
    const { tally, rows } = await tallyAgainstRows()
    expect(tally).toEqual(rows)
  })
})

describe('pages from either end', () => {
  /** The whole list in one page: what every smaller page must be a slice of. */
  async function whole(session: Session, body: Record<string, unknown>): Promise<number[]> {
    const all = await list(session, { ...body, pageNum: 1, pageSize: 200 })
    expect(all.total).toBeLessThanOrEqual(200)
    return all.list.map((r) => r.id as number)
  }

  async function expectSlices(session: Session, body: Record<string, unknown>, pageSize: number) {
    const ids = await whole(session, body)
    expect(ids.length).toBeGreaterThan(pageSize * 3)
    const pages = Math.ceil(ids.length / pageSize)
    for (let pageNum = 1; pageNum <= pages; pageNum++) {
      const page = await list(session, { ...body, pageNum, pageSize })
      expect(page.total).toBe(ids.length)
      expect(page.list.map((r) => r.id)).toEqual(ids.slice((pageNum - 1) * pageSize, pageNum * pageSize))
    }
    const beyond = await list(session, { ...body, pageNum: pages + 1, pageSize })
    expect(beyond).toMatchObject({ list: [], total: ids.length })
  }

  it('answers the operator list, newest first, page by page', async () => {
    const ids = await whole(operator, {})
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const { n } = await owner()
      .selectFrom('booking_order')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', demo)
      .executeTakeFirstOrThrow()
    expect(ids).toHaveLength(n)
    await expectSlices(operator, {}, 7)
  })

  it('keeps a sort with empty values last across pages, both directions', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const body = { sort: { field: 'etd', order } }
      const rows = (await list(operator, { ...body, pageSize: 200 })).list
      const etds = rows.map((r) => r.etd as string | null)
      const firstEmpty = etds.indexOf(null)
      expect(firstEmpty).toBeGreaterThan(0)
      expect(etds.slice(firstEmpty).every((e) => e === null)).toBe(true)
      const dated = etds.slice(0, firstEmpty) as string[]
      expect(dated).toEqual([...dated].sort((a, b) => (order === 'asc' ? a.localeCompare(b) : b.localeCompare(a))))
      await expectSlices(operator, body, 9)
    }
  })

  it('pages a state filter (counted by the tally) and a port filter (counted by rows) alike', async () => {
    await expectSlices(operator, { searchParams: { state: ['submitted', 'booked'] } }, 5)
    await expectSlices(operator, { searchParams: { pol: 'CNSHA' } }, 6)
  })

  it("counts an enterprise user's own rows, not the tenant's", async () => {
    const mine = await list(customer, { pageSize: 200 }, '/booking/order/queryOrderListByCompany')
    const all = await list(operator, { pageSize: 1 })
    const { n } = await owner()
      .selectFrom('booking_order')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', demo)
      .where('customer_company', '=', customer.companyId)
      .executeTakeFirstOrThrow()
    expect(mine.total).toBe(n)
    expect(mine.list).toHaveLength(n)
    expect(all.total).toBeGreaterThan(0)
  })

  it('finds a page from the list index: tenant, id, state and the data-scope columns', async () => {
    const { rows } = await sql<{ def: string }>`
      select indexdef as def from pg_indexes where indexname = 'booking_order_list_idx'`.execute(database.db)
    expect(rows[0]?.def).toMatch(/\(tenant_id, id\) INCLUDE \(state, created_by, customer_company\)/)
  })
})
