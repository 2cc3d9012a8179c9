import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EntityDef, SearchDef } from '../../model/definitions.ts'
import { entitySchema } from '../../model/jsonschema.ts'
import type { ManifestEndpoint, ManifestEntity, ManifestScreen } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { toFieldErrors } from '../../rules/messages.ts'
import type { Database } from '../../server/db/database.ts'
import { DEMO_ORDER_COUNT } from '../../server/db/seed/orders.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import {
  type BodyValidator,
  createEngine,
  type Engine,
  type ExportSource,
  type ListContent,
} from '../../server/engine/core.ts'
import { syncEntityTables } from '../../server/engine/storage.ts'
import type { Session } from '../../server/http/context.ts'
import { ApiError } from '../../server/http/errors.ts'
import { validateBody } from '../../server/http/validation.ts'
import { loadManifest, type Manifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { freshDatabase } from '../support/database.ts'
import { sessionOf as sessionFor } from '../support/session.ts'

/**
 * The engine core against a real database (PGlite, or PostgreSQL with TEST_DB=postgres), with the real
 * order endpoints of the manifest plus a few test-only endpoints: create/update for orders, and a full set
 * for a charge entity with a money field (no entity of the product has both yet).
 */

const CHARGE: EntityDef = {
  entity: 'engineTestCharge',
  label: 'entity.order',
  storage: { table: 'engine_test_charge', indexes: [{ fields: ['chargeCode'], unique: true }, { fields: ['amount'] }] },
  dataScope: { owner: 'createdBy' },
  fields: {
    chargeCode: { type: 'string', required: true, maxLength: 20 },
    name: { type: 'string', required: true, maxLength: 80 },
    amount: { type: 'money', required: true, decimals: 3 },
    currency: { type: 'ref', ref: 'currency' },
    quantity: { type: 'integer', minimum: 1 },
    weight: { type: 'number', decimals: 3 },
    validFrom: { type: 'date' },
    postedAt: { type: 'datetime' },
    taxable: { type: 'boolean' },
  },
}

const chargeSearch: SearchDef[] = [
  { field: 'chargeCode', op: 'eq' },
  { field: 'name', op: 'like' },
  { field: 'currency', op: 'in' },
  { field: 'amount', op: 'between' },
  { field: 'quantity', op: 'gte', params: ['minQuantity'] },
  { field: 'quantity', op: 'lte', params: ['maxQuantity'] },
  { field: 'validFrom', op: 'dateRange', params: ['validFromBegin', 'validFromEnd'] },
  { field: 'postedAt', op: 'dateRange' },
  { field: 'postedAt', op: 'between', params: ['postedFrom', 'postedTo'], appendTime: true },
  { field: 'taxable', op: 'eq' },
]

const endpoint = (
  e: Partial<ManifestEndpoint> & Pick<ManifestEndpoint, 'kind' | 'path' | 'entity'>,
): ManifestEndpoint => ({
  id: `test.${e.kind}`,
  method: 'POST',
  permissions: ['orderList'],
  public: false,
  screens: [],
  ...e,
})

function testManifest(): Manifest {
  const manifest = structuredClone(loadManifest())
  manifest.entities.engineTestCharge = {
    ...CHARGE,
    stored: true,
    table: 'engine_test_charge',
    scope: 'tenant',
    schema: entitySchema(CHARGE, manifest.entities),
  } as ManifestEntity
  manifest.screens.push({
    name: 'engineTestCharges',
    route: '/engineTestCharges',
    title: 'route.orderList',
    access: 'permission',
    status: 'built',
    kind: 'list',
    entity: 'engineTestCharge',
    area: 'operatorOrders',
    layout: 'workbench',
    permissions: ['orderList'],
    columns: [
      { field: 'chargeCode' },
      { field: 'name', label: 'field.orderNo' },
      { field: 'amount', sortable: true },
      { field: 'createdAt', sortable: true },
    ],
    paging: { pageSize: 5, pageSizes: [5, 10] },
  } as ManifestScreen)
  const screens = ['engineTestCharges']
  manifest.endpoints.push(
    endpoint({ kind: 'list', path: '/test/charge/list', entity: 'engineTestCharge', search: chargeSearch, screens }),
    endpoint({
      kind: 'export',
      path: '/test/charge/export',
      entity: 'engineTestCharge',
      search: chargeSearch,
      screens,
    }),
    endpoint({ kind: 'detail', method: 'GET', path: '/test/charge/detail', entity: 'engineTestCharge' }),
    endpoint({ kind: 'create', path: '/test/charge/add', entity: 'engineTestCharge' }),
    endpoint({ kind: 'update', path: '/test/charge/update', entity: 'engineTestCharge' }),
    endpoint({ kind: 'delete', path: '/test/charge/delete', entity: 'engineTestCharge' }),
    endpoint({ kind: 'create', path: '/test/order/add', entity: 'order', permissions: ['myOrders'] }),
    endpoint({ kind: 'update', path: '/test/order/update', entity: 'order', permissions: ['myOrders', 'orderList'] }),
  )
  return manifest
}

/** The generated validators for the product's entities; the test entity compiled here with the same ajv setup. */
function testValidator(manifest: Manifest): BodyValidator {
  const charge = manifest.entities.engineTestCharge as ManifestEntity
  const check = createAjv().compile(charge.schema)
  return (entity, body) => {
    if (entity.entity !== charge.entity) return validateBody(entity, body)
    const data = Object.fromEntries(
      Object.entries(body as Record<string, unknown>).filter(
        ([key, value]) => !((value === null || value === '') && !entity.fields[key]?.required),
      ),
    )
    if (!check(data)) throw new ApiError('validation', {}, toFieldErrors(check.errors, { fields: entity.fields }))
    return data
  }
}

let database: Database
let manifest: Manifest
let engine: Engine
const tenants: Record<string, number> = {}

beforeAll(async () => {
  database = await freshDatabase()
  manifest = testManifest()
  await syncEntityTables(database.db, manifest)
  engine = createEngine(manifest, { registry: domainRegistry(), validate: testValidator(manifest) })
  for (const t of await database.db.selectFrom('tenant').select(['id', 'code']).execute()) tenants[t.code] = t.id
})
afterAll(async () => {
  await database?.close()
})

const sessionOf = (tenant: string, username: string, override: Partial<Session> = {}) =>
  sessionFor(database.db, tenants[tenant] as number, username, override)

function endpointAt(path: string): ManifestEndpoint {
  const found = manifest.endpoints.find((e) => e.path === path)
  if (!found) throw new Error(`no endpoint ${path}`)
  return found
}

async function call<T = Record<string, unknown>>(session: Session, path: string, input: unknown): Promise<T> {
  return withTenant(database.db, session.tenantId, (trx) =>
    engine.handle(trx, endpointAt(path), { tenantId: session.tenantId, session, language: 'en' }, input),
  ) as Promise<T>
}

/** The ApiError a call fails with (its code and field errors), or a failure when it succeeds. */
async function refusal(
  work: Promise<unknown>,
): Promise<{ code: string; fields: { field: string; message: string }[] }> {
  try {
    await work
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { code: error.code, fields: (error.fieldErrors ?? []).map(({ field, message }) => ({ field, message })) }
  }
  throw new Error('expected the call to be refused')
}

const list = (session: Session, path: string, body: unknown) => call<ListContent>(session, path, body)
const codes = (content: ListContent) => content.list.map((r) => r.chargeCode).sort()

/** Counts booking orders as the superuser (no row-level security): the ground truth for the engine's answers. */
async function countOrders(where: (q: ReturnType<typeof ordersOf>) => ReturnType<typeof ordersOf>) {
  const row = await where(ordersOf()).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
  return row.n
}
function ordersOf() {
  return (database.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom('booking_order')
    .where('tenant_id', '=', tenants.demo as number)
}

describe('charges: create, money and the search operators', () => {
  let operator: Session
  beforeAll(async () => {
    operator = await sessionOf('demo', 'opadmin')
    const charges = [
      {
        chargeCode: 'C1',
        name: 'Ocean freight 100% prepaid',
        amount: '1234.56',
        currency: 'USD',
        quantity: 2,
        validFrom: '2026-03-01',
        postedAt: '2026-03-01T08:00:00Z',
        taxable: true,
        weight: 12.5,
      },
      {
        chargeCode: 'C2',
        name: 'THC_Shanghai',
        amount: '350',
        currency: 'CNY',
        quantity: 5,
        validFrom: '2026-03-10',
        postedAt: '2026-03-10T23:59:59Z',
        taxable: false,
      },
      {
        chargeCode: 'C3',
        name: 'Documentation fee',
        amount: '45.5',
        currency: 'USD',
        quantity: 1,
        validFrom: '2026-03-11',
        postedAt: '2026-03-11T00:00:00Z',
      },
      {
        chargeCode: 'C4',
        name: "Bunker O'Brien surcharge",
        amount: '0.001',
        currency: 'EUR',
        quantity: 10,
        validFrom: '2026-04-01',
        postedAt: '2026-04-01T12:00:00Z',
      },
      {
        chargeCode: 'C5',
        name: 'THCXShanghai',
        amount: '999.999',
        currency: 'CNY',
        quantity: 3,
        validFrom: '2026-02-28',
      },
      { chargeCode: 'C6', name: 'Customs clearance', amount: '350', currency: 'HKD', quantity: 4 },
    ]
    for (const charge of charges) await call(operator, '/test/charge/add', charge)
  })

  it('creates with version 1, the creator, system fields, and money as an exact string', async () => {
    const row = await call(operator, '/test/charge/add', {
      chargeCode: 'M1',
      name: 'Money check',
      amount: '1234.56',
      weight: 0.1,
      id: 999,
      version: 7,
      createdBy: 1,
    })
    expect(row).toMatchObject({ version: 1, createdBy: operator.userId, amount: '1234.560', weight: 0.1 })
    expect(row.id).not.toBe(999)
    expect(typeof row.createdAt).toBe('string')
    expect(new Date(row.createdAt as string).toISOString()).toBe(row.createdAt)
    const detail = await call(operator, '/test/charge/detail', { id: String(row.id) })
    expect(detail.amount).toBe('1234.560')
    await call(operator, '/test/charge/delete', { id: row.id })
  })

  it('answers every money value with all its places, never a float', async () => {
    const content = await list(operator, '/test/charge/list', { searchParams: { currency: ['USD', 'EUR'] } })
    const amounts = Object.fromEntries(content.list.map((r) => [r.chargeCode, r.amount]))
    expect(amounts).toEqual({ C1: '1234.560', C3: '45.500', C4: '0.001' })
  })

  it('eq matches exactly', async () => {
    expect(codes(await list(operator, '/test/charge/list', { searchParams: { chargeCode: 'C2' } }))).toEqual(['C2'])
    expect(codes(await list(operator, '/test/charge/list', { searchParams: { taxable: false } }))).toEqual(['C2'])
  })

  it('like is contains, case-insensitive, and % and _ match themselves', async () => {
    const like = async (name: string) => codes(await list(operator, '/test/charge/list', { searchParams: { name } }))
    expect(await like('OCEAN')).toEqual(['C1'])
    expect(await like('100%')).toEqual(['C1'])
    expect(await like('%')).toEqual(['C1'])
    expect(await like('THC_')).toEqual(['C2'])
    expect(await like('_')).toEqual(['C2'])
    expect(await like('shanghai')).toEqual(['C2', 'C5'])
    expect(await like('\\')).toEqual([])
  })

  it('keeps SQL metacharacters in a search as plain text', async () => {
    const before = await countCharges()
    for (const name of ["'; drop table engine_test_charge; --", "O'Brien", '") or 1=1 --', '$1', '\\%']) {
      const content = await list(operator, '/test/charge/list', { searchParams: { name, chargeCode: "C1' or '1'='1" } })
      expect(content.total).toBe(0)
    }
    expect(codes(await list(operator, '/test/charge/list', { searchParams: { name: "O'Brien" } }))).toEqual(['C4'])
    expect(await countCharges()).toBe(before)
  })

  it('in takes a list of values', async () => {
    const content = await list(operator, '/test/charge/list', { searchParams: { currency: ['USD', 'HKD'] } })
    expect(codes(content)).toEqual(['C1', 'C3', 'C6'])
  })

  it('between includes both ends and compares money as numbers, not text', async () => {
    const between = async (params: Record<string, string>) =>
      codes(await list(operator, '/test/charge/list', { searchParams: params }))
    expect(await between({ amountBegin: '45.5', amountEnd: '999.999' })).toEqual(['C2', 'C3', 'C5', 'C6'])
    expect(await between({ amountBegin: '1000' })).toEqual(['C1'])
    expect(await between({ amountEnd: '45.5' })).toEqual(['C3', 'C4'])
  })

  it('gte and lte under their own keys', async () => {
    expect(codes(await list(operator, '/test/charge/list', { searchParams: { minQuantity: 4 } }))).toEqual([
      'C2',
      'C4',
      'C6',
    ])
    expect(
      codes(await list(operator, '/test/charge/list', { searchParams: { minQuantity: 2, maxQuantity: 3 } })),
    ).toEqual(['C1', 'C5'])
  })

  it('dateRange on a date includes the end day', async () => {
    const content = await list(operator, '/test/charge/list', {
      searchParams: { validFromBegin: '2026-03-01', validFromEnd: '2026-03-10' },
    })
    expect(codes(content)).toEqual(['C1', 'C2'])
  })

  it('dateRange on a datetime includes the whole end day and nothing after it', async () => {
    const content = await list(operator, '/test/charge/list', {
      searchParams: { postedAtBegin: '2026-03-10', postedAtEnd: '2026-03-10' },
    })
    expect(codes(content)).toEqual(['C2'])
  })

  it('dateRange takes days: a time part (as appendTime lists send) does not cut the end day short', async () => {
    const content = await list(operator, '/test/charge/list', {
      searchParams: { postedAtBegin: '2026-03-10 00:00:00', postedAtEnd: '2026-03-10 00:00:00' },
    })
    expect(codes(content)).toEqual(['C2'])
  })

  it('reads numbers and booleans sent as text, as the portal keeps them in the address', async () => {
    const content = await list(operator, '/test/charge/list', { searchParams: { minQuantity: '4', taxable: 'false' } })
    expect(codes(content)).toEqual(['C2'])
    const customer = await sessionOf('demo', 'entadmin')
    const orders = await list(operator, '/booking/order/queryOrderListByOperator', {
      searchParams: { customerCompany: String(customer.companyId), state: ['submitted', ''] },
    })
    expect(orders.total).toBeGreaterThan(0)
    expect(orders.total).toBe(
      await countOrders((q) => q.where('customer_company', '=', customer.companyId).where('state', '=', 'submitted')),
    )
  })

  it('appendTime: a bare date is that day at 00:00:00', async () => {
    const content = await list(operator, '/test/charge/list', {
      searchParams: { postedFrom: '2026-03-10', postedTo: '2026-03-11' },
    })
    expect(codes(content)).toEqual(['C2', 'C3'])
  })

  it('pages with a total, in a stable order (id descending by default)', async () => {
    const first = await list(operator, '/test/charge/list', {})
    expect(first.pageSize).toBe(5) // the screen's paging
    expect(first.pageNum).toBe(1)
    expect(first.total).toBe(6)
    const pages = [first, await list(operator, '/test/charge/list', { pageNum: 2 })]
    const ids = pages.flatMap((p) => p.list.map((r) => r.id as number))
    expect(ids).toHaveLength(6)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(pages[1]?.total).toBe(6)
    const beyond = await list(operator, '/test/charge/list', { pageNum: 9 })
    expect(beyond).toMatchObject({ list: [], total: 6, pageNum: 9 })
  })

  it('sorts by a sortable column, ties broken by id, the same across pages', async () => {
    const pages = []
    for (const pageNum of [1, 2, 3])
      pages.push(
        await list(operator, '/test/charge/list', { pageNum, pageSize: 2, sort: { field: 'amount', order: 'asc' } }),
      )
    const rows = pages.flatMap((p) => p.list)
    expect(rows.map((r) => r.chargeCode)).toEqual(['C4', 'C3', 'C6', 'C2', 'C5', 'C1'])
    const desc = await list(operator, '/test/charge/list', { sort: { field: 'amount', order: 'desc' }, pageSize: 6 })
    expect(desc.list.map((r) => r.chargeCode)).toEqual(['C1', 'C5', 'C6', 'C2', 'C3', 'C4'])
  })

  it('refuses what the endpoint does not declare', async () => {
    const r = (body: unknown) => refusal(list(operator, '/test/charge/list', body))
    expect(await r({ searchParams: { bogus: 1 } })).toEqual({
      code: 'validation',
      fields: [{ field: 'searchParams.bogus', message: 'validation.unknownField' }],
    })
    expect((await r({ pageSize: 201 })).fields).toEqual([{ field: 'pageSize', message: 'validation.maximum' }])
    expect((await r({ pageSize: 0 })).fields).toEqual([{ field: 'pageSize', message: 'validation.minimum' }])
    expect((await r({ pageNum: 0 })).fields).toEqual([{ field: 'pageNum', message: 'validation.minimum' }])
    expect((await r({ sort: { field: 'name' } })).fields[0]?.field).toBe('sort.field')
    expect((await r({ searchParams: { minQuantity: 'many' } })).fields).toEqual([
      { field: 'searchParams.minQuantity', message: 'validation.type_integer' },
    ])
    expect((await r({ searchParams: { validFromBegin: '2026-02-30' } })).fields).toEqual([
      { field: 'searchParams.validFromBegin', message: 'validation.format_date' },
    ])
    expect((await r({ searchParams: { amountBegin: '12.3456' } })).code).toBe('validation')
  })

  it('treats empty filters as absent', async () => {
    const content = await list(operator, '/test/charge/list', {
      searchParams: { name: '', currency: [], chargeCode: null, validFromBegin: '  ' },
    })
    expect(content.total).toBe(6)
  })

  it('creation failures name the field', async () => {
    const missing = await refusal(call(operator, '/test/charge/add', { chargeCode: 'X1', name: 'No amount' }))
    expect(missing).toEqual({ code: 'validation', fields: [{ field: 'amount', message: 'validation.required' }] })
    const float = await refusal(call(operator, '/test/charge/add', { chargeCode: 'X1', name: 'Float', amount: 12.5 }))
    expect(float.fields).toContainEqual({ field: 'amount', message: 'validation.type_string' })
  })

  it('answers a duplicate with 400003', async () => {
    const duplicate = await refusal(
      call(operator, '/test/charge/add', { chargeCode: 'C1', name: 'Again', amount: '1' }),
    )
    expect(duplicate.code).toBe('400003')
  })

  it('exports the screen columns as typed cells with the same filters, a page at a time', async () => {
    const source = await call<ExportSource>(operator, '/test/charge/export', {
      searchParams: { currency: ['EUR', 'CNY'] },
      sort: { field: 'amount', order: 'asc' },
    })
    expect(source.columns.map((c) => c.header)).toEqual(['Charge code', 'Order no.', 'Amount', 'Created at'])
    expect(source.columns.map((c) => c.kind)).toEqual(['text', 'text', 'money', 'datetime'])
    expect(source.total).toBe(3)
    expect(source.fileName).toMatch(/^engineTestCharges-\d{4}-\d{2}-\d{2}\.xlsx$/)
    // Two pages of two: the same rows, in the same order, as one read of all.
    const read = (offset: number, limit: number) =>
      withTenant(database.db, operator.tenantId, (trx) => source.page(trx, offset, limit))
    const rows = [...(await read(0, 2)), ...(await read(2, 2))]
    expect(rows.map((cells) => cells[0]?.value)).toEqual(['C4', 'C2', 'C5'])
    expect(rows.map((cells) => cells[1]?.value)).toEqual(["Bunker O'Brien surcharge", 'THC_Shanghai', 'THCXShanghai'])
    // Money: a number, shown with its own places and its row's currency code.
    expect(rows.map((cells) => cells[2])).toEqual([
      { value: 0.001, numFmt: '#,##0.000 "EUR"' },
      { value: 350, numFmt: '#,##0.000 "CNY"' },
      { value: 999.999, numFmt: '#,##0.000 "CNY"' },
    ])
    expect(rows[0]?.[3]?.value).toBeInstanceOf(Date)
    expect(rows[0]?.[3]?.numFmt).toBe('yyyy-mm-dd hh:mm')
  })

  it('refuses an export of more rows than its limit, naming how many match, and exports up to it', async () => {
    const small = createEngine(manifest, {
      registry: domainRegistry(),
      validate: testValidator(manifest),
      exportLimit: 2,
    })
    const exportOf = (currency: string[]) =>
      withTenant(database.db, operator.tenantId, (trx) =>
        small.handle(
          trx,
          endpointAt('/test/charge/export'),
          { tenantId: operator.tenantId, session: operator, language: 'ja' },
          { searchParams: { currency } },
        ),
      )
    const over = await refusal(exportOf(['EUR', 'CNY']))
    expect(over).toEqual({
      code: 'validation',
      fields: [{ field: 'searchParams', message: 'validation.exportTooLarge' }],
    })
    expect(((await exportOf(['CNY'])) as ExportSource).total).toBe(2)
  })

  async function countCharges() {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from engine_test_charge`.execute(database.db)
    return rows[0]?.n
  }
})

describe('charges: update, delete and their audit trail', () => {
  let operator: Session
  let id: number
  beforeAll(async () => {
    operator = await sessionOf('demo', 'opadmin')
    const row = await call(operator, '/test/charge/add', {
      chargeCode: 'U1',
      name: 'Seal fee',
      amount: '12',
      quantity: 1,
    })
    id = row.id as number
  })

  it('updates what the body carries, bumps the version and records only the change', async () => {
    const after = await call(operator, '/test/charge/update', { id, version: 1, amount: '15.25', chargeCode: 'U1' })
    expect(after).toMatchObject({ id, version: 2, amount: '15.250', name: 'Seal fee', quantity: 1 })
    const detail = await call<{ history: { action: string; before: unknown; after: unknown; userName: string }[] }>(
      operator,
      '/test/charge/detail',
      { id },
    )
    expect(detail.history[0]).toMatchObject({
      action: 'update',
      userName: 'Li Wei',
      before: { amount: '12.000', version: 1 },
      after: { amount: '15.250', version: 2 },
    })
    expect(detail.history.map((h) => h.action)).toEqual(['update', 'create'])
  })

  it('clears an optional field sent as null', async () => {
    const after = await call(operator, '/test/charge/update', { id, version: 2, quantity: null })
    expect(after).toMatchObject({ version: 3, quantity: null })
  })

  it('refuses a stale version with 330002 and leaves the row alone', async () => {
    expect((await refusal(call(operator, '/test/charge/update', { id, version: 1, amount: '1' }))).code).toBe('330002')
    expect((await call(operator, '/test/charge/detail', { id })).version).toBe(3)
  })

  it('refuses an update without id or version, and an invalid value, naming the field', async () => {
    expect((await refusal(call(operator, '/test/charge/update', { id, amount: '1' }))).fields).toEqual([
      { field: 'version', message: 'validation.required' },
    ])
    expect(
      (await refusal(call(operator, '/test/charge/update', { id, version: 3, name: 'x'.repeat(81) }))).fields,
    ).toEqual([{ field: 'name', message: 'validation.maxLength' }])
  })

  it('hides the rows of others from a self-scoped user, as if missing', async () => {
    const cs = await sessionOf('demo', 'opcs')
    expect(cs.dataScope).toBe('self')
    expect((await refusal(call(cs, '/test/charge/detail', { id }))).code).toBe('404')
    expect((await refusal(call(cs, '/test/charge/update', { id, version: 3, amount: '1' }))).code).toBe('404')
    const own = await call(cs, '/test/charge/add', { chargeCode: 'CS1', name: 'Own charge', amount: '5' })
    const seen = await list(cs, '/test/charge/list', {})
    expect(seen.list.map((r) => r.id)).toEqual([own.id])
    const all = await list(operator, '/test/charge/list', { searchParams: { chargeCode: 'CS1' } })
    expect(all.total).toBe(1)
  })

  it('deletes (version optional but checked), writing the record into the audit log', async () => {
    expect((await refusal(call(operator, '/test/charge/delete', { id, version: 2 }))).code).toBe('330002')
    await call(operator, '/test/charge/delete', { id, version: 3 })
    expect((await refusal(call(operator, '/test/charge/detail', { id }))).code).toBe('404')
    expect((await refusal(call(operator, '/test/charge/delete', { id }))).code).toBe('404')
    const audit = await withTenant(database.db, operator.tenantId, (trx) =>
      sql<{ action: string; before: Record<string, unknown> | null; after: unknown; user_id: number }>`
        select action, before, after, user_id from audit_log where entity = 'engineTestCharge' and record_id = ${id}
        order by id`.execute(trx),
    )
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'update', 'update', 'delete'])
    const deleted = audit.rows[3]
    expect(deleted?.after).toBeNull()
    expect(deleted?.before).toMatchObject({ id, chargeCode: 'U1', amount: '15.250', version: 3 })
    expect(deleted?.user_id).toBe(operator.userId)
  })
})

describe('booking orders: lists, data scope and tenants', () => {
  it('shows the operator every order of the tenant, and only of the tenant', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const content = await list(operator, '/booking/order/queryOrderListByOperator', { pageSize: 200 })
    expect(content.total).toBe(await countOrders((q) => q))
    expect(content.total).toBeGreaterThanOrEqual(DEMO_ORDER_COUNT)
    expect(new Set(content.list.map((r) => r.customerCompany)).size).toBe(1)
    const acme = await list(await sessionOf('acme', 'opadmin'), '/booking/order/queryOrderListByOperator', {})
    const acmeIds = new Set(acme.list.map((r) => r.id))
    expect(content.list.some((r) => acmeIds.has(r.id))).toBe(false)
  })

  it('answers rows in the API shape: camelCase, state, dates as days', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const [row] = (await list(operator, '/booking/order/queryOrderListByOperator', { pageSize: 1 })).list
    expect(Object.keys(row ?? {})).toEqual(
      expect.arrayContaining([
        'id',
        'version',
        'createdAt',
        'updatedAt',
        'orderNo',
        'containerLoadType',
        'state',
        'etd',
      ]),
    )
    expect(row?.etd).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(row).not.toHaveProperty('tenant_id')
    expect(row).not.toHaveProperty('tenantId')
  })

  it('filters with the declared operators: eq, in, like, dateRange on etd', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const path = '/booking/order/queryOrderListByOperator'
    const total = async (searchParams: Record<string, unknown>) => (await list(operator, path, { searchParams })).total
    expect(await total({ pol: 'CNSHA' })).toBe(await countOrders((q) => q.where('pol', '=', 'CNSHA')))
    expect(await total({ state: ['submitted', 'bargaining'] })).toBe(
      await countOrders((q) => q.where('state', 'in', ['submitted', 'bargaining'])),
    )
    expect(await total({ orderNo: 'hy26031' })).toBe(await countOrders((q) => q.where('order_no', 'like', 'HY26031%')))
    expect(await total({ beginDate: '2026-03-01', endDate: '2026-03-31' })).toBe(
      await countOrders((q) => q.where('etd', '>=', '2026-03-01').where('etd', '<=', '2026-03-31')),
    )
    expect(await total({ containerLoadType: 'LCL', pod: 'USLAX' })).toBe(
      await countOrders((q) => q.where('container_load_type', '=', 'LCL').where('pod', '=', 'USLAX')),
    )
    expect((await refusal(list(operator, path, { searchParams: { state: ['shipped'] } }))).code).toBe('validation')
    expect((await refusal(list(operator, path, { searchParams: { businessRefNo: 'PO' } }))).fields).toEqual([
      { field: 'searchParams.businessRefNo', message: 'validation.unknownField' },
    ])
  })

  it('keeps enterprise users inside their company; data scope self narrows to their own orders', async () => {
    const admin = await sessionOf('demo', 'entadmin')
    const operator = await sessionOf('demo', 'entop')
    expect([admin.dataScope, operator.dataScope]).toEqual(['all', 'self'])
    const path = '/booking/order/queryOrderListByCompany'
    const all = await list(admin, path, { pageSize: 200 })
    const own = await list(operator, path, { pageSize: 200 })
    expect(all.total).toBe(await countOrders((q) => q.where('customer_company', '=', admin.companyId)))
    expect(own.total).toBe(await countOrders((q) => q.where('created_by', '=', operator.userId)))
    expect(own.total).toBeGreaterThan(0)
    expect(own.total).toBeLessThan(all.total)
    expect(own.list.every((r) => r.createdBy === operator.userId)).toBe(true)
    const others = all.list.find((r) => r.createdBy !== operator.userId)
    expect((await refusal(call(operator, '/booking/order/getOrderDetail', { id: others?.id }))).code).toBe('404')

    // An enterprise user of another company sees none of them, whatever their scope.
    const stranger = { ...admin, companyId: admin.companyId === null ? 1 : admin.companyId + 1000 }
    expect((await list(stranger, path, {})).total).toBe(0)
    // A provider-side user with data scope self owns no customer order.
    expect((await list(await sessionOf('demo', 'opcs'), '/booking/order/queryOrderListByOperator', {})).total).toBe(0)
  })

  it("answers not-found for another tenant's order and leaves it unchanged", async () => {
    const demoOperator = await sessionOf('demo', 'opadmin')
    const [order] = (
      await list(demoOperator, '/booking/order/queryOrderListByOperator', { searchParams: { state: ['submitted'] } })
    ).list
    const acme = await sessionOf('acme', 'opadmin')
    const acmeCustomer = await sessionOf('acme', 'entadmin')
    expect((await refusal(call(acme, '/booking/order/getOrderDetail', { id: order?.id }))).code).toBe('404')
    expect((await refusal(call(acmeCustomer, '/booking/order/getOrderDetail', { id: order?.id }))).code).toBe('404')
    const attempt = { id: order?.id, version: order?.version, transition: 'accept' }
    expect((await refusal(call(acme, '/order/transition', attempt))).code).toBe('404')
    expect(
      (await refusal(call(acme, '/test/order/update', { id: order?.id, version: order?.version, jobNo: 'X' }))).code,
    ).toBe('404')
    const now = await call(demoOperator, '/booking/order/getOrderDetail', { id: order?.id })
    expect(now).toMatchObject({ version: order?.version, state: 'submitted', jobNo: order?.jobNo ?? null })
  })

  it('shows the application role nothing when no tenant is set', async () => {
    const rows = await database.db.transaction().execute(async (trx) => {
      await sql`set local role waybill_app`.execute(trx)
      const orders = await sql`select id from booking_order`.execute(trx)
      const audit = await sql`select id from audit_log`.execute(trx)
      return [...orders.rows, ...audit.rows]
    })
    expect(rows).toHaveLength(0)
    expect(await countOrders((q) => q)).toBeGreaterThan(0)
  })

  it('refuses ids that are not positive integers', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    for (const id of ['abc', '0', '-1', '1.5', "1' or '1'='1", ''])
      expect((await refusal(call(operator, '/booking/order/getOrderDetail', { id }))).code).toBe('validation')
    expect((await refusal(call(operator, '/booking/order/getOrderDetail', {}))).fields).toEqual([
      { field: 'id', message: 'validation.required' },
    ])
    expect((await refusal(call(operator, '/booking/order/getOrderDetail', { id: 2_000_000_000 }))).code).toBe('404')
  })

  it('checks the endpoint permission in the core too', async () => {
    const customer = await sessionOf('demo', 'entadmin')
    expect((await refusal(list(customer, '/booking/order/queryOrderListByOperator', {}))).code).toBe('220000')
  })
})

describe('booking orders: create, update and transitions', () => {
  let customer: Session
  let operator: Session
  const valid = {
    transportMode: 1,
    containerLoadType: 'FCL',
    containers: [{ containerType: '45G1', quantity: 1 }],
    pol: 'CNSHA',
    pod: 'USLAX',
    carrier: 'MAEU',
    etd: '2026-05-10',
    eta: '2026-05-28',
    grossWeight: 18500.5,
    shipper: 'HANGZHOU MINGHUI TEXTILE\nHANGZHOU CHINA',
    consignee: 'PACIFIC HOME GOODS INC.\nLONG BEACH CA USA',
  }
  beforeAll(async () => {
    customer = await sessionOf('demo', 'entadmin')
    operator = await sessionOf('demo', 'opadmin')
  })

  it('creates a draft owned by the customer and their company; read-only fields are ignored', async () => {
    const row = await call(customer, '/test/order/add', {
      ...valid,
      orderNo: 'FORGED-1',
      state: 'booked',
      customerCompany: 999,
      createdBy: 1,
    })
    expect(row).toMatchObject({
      state: 'draft',
      version: 1,
      // Not the caller's: the tenant's order-number rule gives it (tests/api/order-numbers.test.ts).
      orderNo: expect.stringMatching(/^HY\d{10}$/),
      customerCompany: customer.companyId,
      createdBy: customer.userId,
      grossWeight: 18500.5,
      etd: '2026-05-10',
    })
  })

  it('refuses an invalid order with the rule that failed, by field', async () => {
    const early = await refusal(call(customer, '/test/order/add', { ...valid, eta: '2026-05-01' }))
    expect(early).toEqual({ code: 'validation', fields: [{ field: 'eta', message: 'rule.etaAfterEtd' }] })
    // The shared date format lets 30 February through; the database does not, and that is still the caller's error.
    expect((await refusal(call(customer, '/test/order/add', { ...valid, etd: '2026-02-30', eta: null }))).code).toBe(
      'validation',
    )
    const { pol: _pol, ...noPol } = valid
    expect((await refusal(call(customer, '/test/order/add', noPol))).fields).toContainEqual({
      field: 'pol',
      message: 'validation.required',
    })
  })

  it('updates an order; the check sees the whole record, stale versions answer 330002', async () => {
    const row = await call(customer, '/test/order/add', valid)
    const updated = await call(customer, '/test/order/update', { id: row.id, version: 1, vessel: 'MAERSK ESSEN' })
    expect(updated).toMatchObject({ version: 2, vessel: 'MAERSK ESSEN', pol: 'CNSHA', state: 'draft' })
    const rule = await refusal(call(customer, '/test/order/update', { id: row.id, version: 2, eta: '2026-05-01' }))
    expect(rule.fields).toEqual([{ field: 'eta', message: 'rule.etaAfterEtd' }])
    expect((await refusal(call(customer, '/test/order/update', { id: row.id, version: 1, voyage: '1E' }))).code).toBe(
      '330002',
    )
    // The form sends back what the detail answered, history and system fields included.
    const shown = await call(customer, '/booking/order/getOrderDetail', { id: row.id })
    const resent = await call(customer, '/test/order/update', { ...shown, voyage: '2W' })
    expect(resent).toMatchObject({ version: 3, voyage: '2W', vessel: 'MAERSK ESSEN' })
    // The state is not the update's business: only transitions move it.
    const same = await call(operator, '/test/order/update', { id: row.id, version: 3, state: 'booked' })
    expect(same).toMatchObject({ state: 'draft', version: 4 })
  })

  it('moves an order through its state machine, recording each step', async () => {
    const row = await call(customer, '/test/order/add', valid)
    const submitted = await call(customer, '/order/transition', { id: row.id, version: 1, transition: 'submit' })
    expect(submitted).toMatchObject({ state: 'submitted', version: 2 })
    const accepted = await call(operator, '/order/transition', {
      id: row.id,
      version: 2,
      transition: 'accept',
      remark: 'Space confirmed with Maersk',
    })
    expect(accepted).toMatchObject({ state: 'accepted', version: 3 })
    const detail = await call<{ history: Record<string, unknown>[] }>(customer, '/booking/order/getOrderDetail', {
      id: row.id,
    })
    expect(detail.history.map((h) => [h.action, h.transition])).toEqual([
      ['transition', 'accept'],
      ['transition', 'submit'],
      ['create', null],
    ])
    expect(detail.history[0]).toMatchObject({
      remark: 'Space confirmed with Maersk',
      userId: operator.userId,
      userName: 'Li Wei',
      before: { state: 'submitted', version: 2 },
      after: { state: 'accepted', version: 3 },
    })
    expect(detail.history[2]?.after).toMatchObject({ state: 'draft', pol: 'CNSHA', version: 1 })
  })

  it('refuses a transition the state does not allow (320001), a stale one (330002), an unknown one', async () => {
    const row = await call(customer, '/test/order/add', valid)
    const t = (session: Session, body: Record<string, unknown>) => refusal(call(session, '/order/transition', body))
    expect((await t(operator, { id: row.id, version: 1, transition: 'book' })).code).toBe('320001')
    expect((await t(customer, { id: row.id, version: 1, transition: 'withdraw' })).code).toBe('320001')
    expect((await t(customer, { id: row.id, version: 5, transition: 'submit' })).code).toBe('330002')
    expect((await t(customer, { id: row.id, version: 1, transition: 'teleport' })).fields).toEqual([
      { field: 'transition', message: 'validation.enum' },
    ])
    expect((await call(customer, '/booking/order/getOrderDetail', { id: row.id })).state).toBe('draft')
  })

  it("refuses a transition without the transition's own permission (220000)", async () => {
    const row = await call(customer, '/test/order/add', valid)
    await call(customer, '/order/transition', { id: row.id, version: 1, transition: 'submit' })
    // entadmin may call the endpoint (myOrders) but accepting is the provider's (orderList).
    expect(
      (await refusal(call(customer, '/order/transition', { id: row.id, version: 2, transition: 'accept' }))).code,
    ).toBe('220000')
    expect(
      (await refusal(call(operator, '/order/transition', { id: row.id, version: 2, transition: 'withdraw' }))).code,
    ).toBe('220000')
    const detail = await call(customer, '/booking/order/getOrderDetail', { id: row.id })
    expect(detail).toMatchObject({ state: 'submitted', version: 2 })
  })

  it('writes the audit row in the same transaction as the change', async () => {
    const row = await call(customer, '/test/order/add', valid)
    const failing = withTenant(database.db, customer.tenantId, async (trx) => {
      await engine.handle(
        trx,
        endpointAt('/order/transition'),
        { tenantId: customer.tenantId, session: customer },
        {
          id: row.id,
          version: 1,
          transition: 'submit',
        },
      )
      throw new Error('rolled back')
    })
    await expect(failing).rejects.toThrow('rolled back')
    const detail = await call<{ state: string; history: unknown[] }>(customer, '/booking/order/getOrderDetail', {
      id: row.id,
    })
    expect(detail.state).toBe('draft')
    expect(detail.history).toHaveLength(1)
  })
})

describe('entity tables from the manifest', () => {
  it('adds a new field as a column, and running twice changes nothing', async () => {
    const grown = structuredClone(manifest)
    const charge = grown.entities.engineTestCharge as ManifestEntity
    charge.fields = { ...charge.fields, remark: { type: 'textBlock', lineLength: 35, maxLines: 3 } }
    expect(await syncEntityTables(database.db, grown)).toEqual([])
    await syncEntityTables(database.db, grown)
    const { rows } = await sql<{ data_type: string }>`
      select data_type from information_schema.columns where table_name = 'engine_test_charge' and column_name = 'remark'
    `.execute(database.db)
    expect(rows).toEqual([{ data_type: 'text' }])
  })

  it('stops with a clear message when a field changed type', async () => {
    const retyped = structuredClone(manifest)
    const charge = retyped.entities.engineTestCharge as ManifestEntity
    charge.fields = { ...charge.fields, amount: { type: 'money', decimals: 4 } }
    await expect(syncEntityTables(database.db, retyped)).rejects.toThrow(
      /engine_test_charge.*amount is numeric\(13,3\), the manifest says numeric\(14,4\).*migration/,
    )
  })

  it('keeps money exact, indexes tenant-first and forces row-level security', async () => {
    const { rows: types } = await sql<{ name: string; type: string }>`
      select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = 'engine_test_charge'::regclass and attname in ('amount', 'weight', 'valid_from', 'posted_at')
      order by attname
    `.execute(database.db)
    expect(types).toEqual([
      { name: 'amount', type: 'numeric(13,3)' },
      { name: 'posted_at', type: 'timestamp with time zone' },
      { name: 'valid_from', type: 'date' },
      { name: 'weight', type: 'numeric' },
    ])
    const { rows: indexes } = await sql<{ def: string }>`
      select indexdef as def from pg_indexes where tablename = 'booking_order' and indexname like '%order_no%'
    `.execute(database.db)
    expect(indexes[0]?.def).toMatch(/UNIQUE INDEX .* \(tenant_id, order_no\)/)
    const { rows: rls } = await sql<{ on: boolean; forced: boolean }>`
      select relrowsecurity as on, relforcerowsecurity as forced from pg_class where relname = 'booking_order'
    `.execute(database.db)
    expect(rls).toEqual([{ on: true, forced: true }])
  })

  it('leaves views and core tables alone', async () => {
    const { rows } = await sql<{ name: string }>`
      select to_regclass('operation_account')::text as name union all select to_regclass('user_profile')::text
    `.execute(database.db)
    expect(rows.map((r) => r.name)).toEqual([null, null])
  })
})
