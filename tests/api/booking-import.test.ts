import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { IMPORT_LIMITS } from '../../rules/fileLimits.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { type Cell, type ImportEnvelope as Envelope, workbook as sheetOf } from '../support/workbook.ts'

/**
 * Booking import (issue #23, screens/customerOrders.yaml myOrders `endpoints.import`): the customer's booking
 * orders from a real xlsx, through the engine's generic import (server/engine/import/) and so the order's
 * own create: every row checked as the booking form's create checks it, every bad cell named by row and
 * column in the caller's language, all rows stored in one transaction or none. Orders land as drafts of
 * the caller's company, whatever company a row names.
 */

const test = setupTestApp()

interface OrderRow {
  businessRefNo: string | null
  state: string
  customerCompany: number | null
  containers: { containerType: string; quantity: number }[] | null
}

const PATH = '/api/booking/order/importOrders'

const workbook = (rows: Cell[][]) => sheetOf(rows, 'orders')

async function upload(token: string, bytes: Buffer, options: { host?: string; language?: string; url?: string } = {}) {
  const { url = PATH, ...rest } = options
  const response = await bearerCalls(test).upload(url, token, { name: 'orders.xlsx', bytes }, rest)
  return { status: response.statusCode, body: response.json() as Envelope }
}

async function ordersRef(token: string, businessRefNo: string, host = 'localhost') {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/booking/order/queryOrderListByCompany',
    headers: { host, authorization: `Bearer ${token}`, language: 'en_US' },
    payload: { searchParams: { businessRefNo }, pageSize: 100 },
  })
  const body = response.json()
  expect(body.code, response.body.slice(0, 300)).toBe('0000')
  return body.content as { list: OrderRow[]; total: number }
}

// Field names and labels as a customer writes them; the container columns by type (pivot of containers).
const HEADER: Cell[] = [
  'businessRefNo',
  'transportMode',
  'Load type',
  'pol',
  'pod',
  'etd',
  'eta',
  'shipper',
  'consignee',
  'containers',
]
const col = (name: string) => String.fromCharCode(65 + HEADER.indexOf(name))

const fcl = (ref: string, overrides: Record<string, Cell> = {}): Cell[] => {
  const row: Record<string, Cell> = {
    businessRefNo: ref,
    transportMode: 1,
    'Load type': 'FCL',
    pol: 'CNSHA',
    pod: 'USLAX',
    etd: '2027-01-20',
    eta: '2027-02-05',
    shipper: 'NINGBO BRIGHT HOME CO., LTD.',
    consignee: 'PACIFIC HOME GOODS INC.',
    // The compact form of a list: type|quantity|gross weight, lines split by ';'.
    containers: '45G1|2',
    ...overrides,
  }
  return HEADER.map((name) => row[name as string] ?? null)
}

describe('booking import', () => {
  it('creates every order of a good workbook as a draft of the caller company', async () => {
    const token = await test.login('entadmin')
    const rows = [
      HEADER,
      fcl('BKIMP-GOOD-1'),
      fcl('BKIMP-GOOD-2', { pol: 'CNNGB', pod: 'NLRTM', containers: '22G1|3; 45G1|1|9800.5' }),
      fcl('BKIMP-GOOD-3', { 'Load type': 'LCL', containers: null }),
    ]
    const { status, body } = await upload(token, workbook(rows))
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.code, JSON.stringify(body)).toBe('0000')
    expect(body.content).toEqual({ imported: 3, problems: [] })
    const stored = await ordersRef(token, 'BKIMP-GOOD-')
    expect(stored.total).toBe(3)
    for (const order of stored.list) expect(order.state).toBe('draft')
    const second = stored.list.find((o) => o.businessRefNo === 'BKIMP-GOOD-2')
    expect(second?.containers).toEqual([
      { containerType: '22G1', quantity: 3 },
      { containerType: '45G1', quantity: 1, grossWeight: 9800.5 },
    ])
  })

  it('reports every bad cell by row and column in the caller language and stores nothing', async () => {
    const token = await test.login('entadmin')
    const rows = [
      HEADER,
      fcl('BKIMP-BAD-1'),
      fcl('BKIMP-BAD-2', { pod: 'CNSHA' }),
      fcl('BKIMP-BAD-3', { containers: null }),
      fcl('BKIMP-BAD-4', { pol: 'XXNOP', eta: '2027-01-01' }),
      fcl('BKIMP-BAD-5', { 'Load type': 'AIR' }),
    ]
    const en = await upload(token, workbook(rows))
    expect(en.body.code).toBe('0000')
    expect(en.body.content.imported).toBe(0)
    const where = en.body.content.problems.map((p) => [p.row, p.column, p.key])
    expect(where).toEqual(
      expect.arrayContaining([
        [3, col('pod'), 'rule.podDiffersFromPol'],
        [4, col('containers'), 'rule.containersRequired'],
        [5, col('eta'), 'rule.etaAfterEtd'],
        [5, col('pol'), 'import.unknownReference'],
        [6, col('Load type'), 'rule.loadTypeOfMode'],
      ]),
    )
    expect(en.body.content.problems.some((p) => p.row === 2)).toBe(false)
    for (const problem of en.body.content.problems) expect(problem.message).not.toBe(problem.key)
    const zh = await upload(token, workbook(rows), { language: 'zh_CN' })
    expect(zh.body.content.problems.length).toBe(en.body.content.problems.length)
    const zhPod = zh.body.content.problems.find((p) => p.row === 3)
    const enPod = en.body.content.problems.find((p) => p.row === 3)
    expect(zhPod?.message).toMatch(/[\u4e00-\u9fff]/)
    expect(zhPod?.message).not.toBe(enPod?.message)
    expect((await ordersRef(token, 'BKIMP-BAD-')).total).toBe(0)
  })

  it('names the row the order source check refuses when storing, and keeps the rows stored before it out', async () => {
    const token = await test.login('entadmin')
    const today = '2026-12-31'
    const { rows: rates } = await sql<{ id: number }>`
      select id from freight_rate
      where mode = 'FCL' and pol = 'CNSHA' and pod = 'USLAX' and valid_from <= ${today}::date and valid_to >= ${today}::date
        and tenant_id = (select id from tenant where code = 'demo')
      order by id limit 1`.execute(test.database.db)
    const rateId = rates[0]?.id
    expect(rateId, 'seed: a current FCL rate CNSHA-USLAX').toBeTruthy()
    // The rate column takes the rate's id, as the booking form sends it.
    const header = [...HEADER, 'rate']
    const rows = [header, [...fcl('BKIMP-SRC-1'), null], [...fcl('BKIMP-SRC-2', { pod: 'NLRTM' }), rateId as number]]
    const { body } = await upload(token, workbook(rows))
    expect(body.code, JSON.stringify(body)).toBe('0000')
    expect(body.content.imported).toBe(0)
    expect(body.content.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [3, col('pod'), 'rule.orderMatchesRate'],
    ])
    expect((await ordersRef(token, 'BKIMP-SRC-')).total).toBe(0)
  })

  it('refuses a file over 10 MB', async () => {
    const token = await test.login('entadmin')
    const big = Buffer.concat([workbook([HEADER, fcl('BKIMP-BIG-1')]), Buffer.alloc(IMPORT_LIMITS.maxBytes, 0)])
    const large = await upload(token, big)
    expect(large.status).toBe(413)
    expect(large.body.content.fieldErrors?.[0]?.key).toBe('import.tooLarge')
    expect((await ordersRef(token, 'BKIMP-BIG-')).total).toBe(0)
  })

  it('keeps imported orders in the importer tenant and company, and refuses those who may not book', async () => {
    const demo = await test.login('entadmin')
    const imported = await upload(demo, workbook([HEADER, fcl('BKIMP-ISO-1')]))
    expect(imported.body.content.imported).toBe(1)
    // acme's enterprise administrator lists his company's orders but holds no booking permission.
    const acme = await test.login('entadmin', 'acme.localhost')
    expect((await ordersRef(acme, 'BKIMP-', 'acme.localhost')).total).toBe(0)
    const acmeImport = await upload(acme, workbook([HEADER, fcl('BKIMP-ACME-1')]), { host: 'acme.localhost' })
    expect(acmeImport.body.code).toBe('220000')
    // Another company of the same tenant does not see the import either.
    const nbclerk = await test.login('nbclerk')
    expect((await ordersRef(nbclerk, 'BKIMP-ISO-')).total).toBe(0)
    // The company is the caller's (read-only, set from the session): a column naming one is refused.
    const other = await upload(
      demo,
      workbook([
        [...HEADER, 'customerCompany'],
        [...fcl('BKIMP-OTHER-1'), 1],
      ]),
    )
    expect(other.body.content.imported).toBe(0)
    expect(other.body.content.problems).toContainEqual(expect.objectContaining({ row: 1, key: 'import.unknownColumn' }))
    const operator = await test.login('opadmin')
    const refused = await upload(operator, workbook([HEADER, fcl('BKIMP-OP-1')]))
    expect(refused.body.code).toBe('220000')
  })

  it('lets an operator import bookings for a chosen customer enterprise, whose drafts they become', async () => {
    const operator = await test.login('opadmin')
    const companyOf = async (username: string, tenant = 'demo') => {
      const { rows } = await sql<{ company_id: number }>`
        select u.company_id from app_user u join tenant t on t.id = u.tenant_id
        where t.code = ${tenant} and u.username = ${username}`.execute(test.database.db)
      return rows[0]?.company_id as number
    }
    const minghui = await companyOf('entadmin')
    const byOperator = (query: string) => ({ url: `/api/booking/order/importOrdersByOperator${query}` })
    const imported = await upload(
      operator,
      workbook([HEADER, fcl('BKIMP-FOR-1'), fcl('BKIMP-FOR-2', { pol: 'CNNGB', pod: 'NLRTM' })]),
      byOperator(`?customerCompany=${minghui}`),
    )
    expect(imported.body.code, JSON.stringify(imported.body)).toBe('0000')
    expect(imported.body.content).toEqual({ imported: 2, problems: [] })
    // Minghui's orders: its users list them as drafts of their company; the second customer does not see them.
    const stored = await ordersRef(await test.login('entadmin'), 'BKIMP-FOR-')
    expect(stored.total).toBe(2)
    for (const order of stored.list) {
      expect(order.customerCompany).toBe(minghui)
      expect(order.state).toBe('draft')
    }
    expect((await ordersRef(await test.login('nbclerk'), 'BKIMP-FOR-')).total).toBe(0)

    // The customer is required, and must be an enterprise of the tenant: not the forwarder, not acme's.
    const rows = workbook([HEADER, fcl('BKIMP-FOR-3')])
    const none = await upload(operator, rows, byOperator(''))
    expect(none.body.code).toBe('validation')
    const provider = await upload(operator, rows, { ...byOperator(`?customerCompany=${await companyOf('opadmin')}`) })
    expect(provider.body.code).toBe('validation')
    expect(provider.body.content.fieldErrors).toEqual([
      expect.objectContaining({
        field: 'customerCompany',
        message: 'Choose a customer enterprise of this site: the imported bookings become its orders',
      }),
    ])
    const foreign = await upload(operator, rows, {
      ...byOperator(`?customerCompany=${await companyOf('entadmin', 'acme')}`),
      language: 'zh_CN',
    })
    expect(foreign.body.content.fieldErrors).toEqual([
      expect.objectContaining({
        field: 'customerCompany',
        message: '请选择本站的客户企业：导入的订舱将成为该企业的订单',
      }),
    ])
    const { rows: none3 } = await sql`select 1 from booking_order where business_ref_no = 'BKIMP-FOR-3'`.execute(
      test.database.db,
    )
    expect(none3).toHaveLength(0)

    // A customer cannot target another company: the operators' import is not theirs, and their own takes no
    // customer — the rows stay their company's whatever the query names.
    const customer = await test.login('entadmin')
    const second = await companyOf('nbclerk')
    const theirs = await upload(customer, rows, byOperator(`?customerCompany=${second}`))
    expect(theirs.body.code).toBe('220000')
    const own = await upload(customer, workbook([HEADER, fcl('BKIMP-OWN-1')]), {
      url: `${PATH}?customerCompany=${second}`,
    })
    expect(own.body.content.imported).toBe(1)
    expect((await ordersRef(await test.login('nbclerk'), 'BKIMP-OWN-')).total).toBe(0)
    expect((await ordersRef(customer, 'BKIMP-OWN-')).list[0]?.customerCompany).toBe(minghui)
  })
})
