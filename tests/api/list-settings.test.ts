import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { readXlsx, XLSX_MIME } from '../support/xlsx.ts'

/** Column settings per user (SPEC §2) and the export of the columns a user sees. */

const test = setupTestApp()
const COLUMNS = '/api/b2b/user/listColumns'
const EXPORT = '/api/booking/order/exportOrderListByOperator'

function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return test.app.inject({
    method,
    url,
    headers: { host: 'localhost', cookie: `b2b_token=${token}`, resource: '1', language: 'en' },
    ...(payload ? { payload } : {}),
  })
}

describe('GET and POST /b2b/user/listColumns', () => {
  it("keeps each user's own columns, and an empty list restores the screen's", async () => {
    const admin = await test.login('opadmin')
    const cs = await test.login('opcs')
    expect((await call(admin, 'GET', `${COLUMNS}?screen=orderList`)).json().content).toEqual({
      screen: 'orderList',
      columns: [],
    })
    const columns = [{ field: 'pod' }, { field: 'jobNo', hidden: true }]
    const saved = await call(admin, 'POST', COLUMNS, { screen: 'orderList', columns })
    expect(saved.json()).toMatchObject({ code: '0000', content: { columns } })
    expect((await call(admin, 'GET', `${COLUMNS}?screen=orderList`)).json().content.columns).toEqual(columns)
    expect((await call(cs, 'GET', `${COLUMNS}?screen=orderList`)).json().content.columns).toEqual([])

    await call(admin, 'POST', COLUMNS, { screen: 'orderList', columns: [] })
    expect((await call(admin, 'GET', `${COLUMNS}?screen=orderList`)).json().content.columns).toEqual([])
  })

  it('refuses a column the screen does not have, a repeated one, and a screen that is no list', async () => {
    const admin = await test.login('opadmin')
    const unknown = await call(admin, 'POST', COLUMNS, { screen: 'orderList', columns: [{ field: 'shoeSize' }] })
    expect(unknown.json()).toMatchObject({
      code: 'validation',
      content: { fieldErrors: [{ field: 'columns[0].field' }] },
    })
    const twice = await call(admin, 'POST', COLUMNS, {
      screen: 'orderList',
      columns: [{ field: 'pod' }, { field: 'pod' }],
    })
    expect(twice.json().content.fieldErrors[0]).toMatchObject({
      field: 'columns[1].field',
      key: 'validation.uniqueItems',
    })
    const notList = await call(admin, 'POST', COLUMNS, { screen: 'personalInfo', columns: [] })
    expect(notList.json().content.fieldErrors[0]).toMatchObject({ field: 'screen' })
  })
})

describe('the order list export', () => {
  it('writes the columns the user sees, in their order, with every filtered row', async () => {
    const admin = await test.login('opadmin')
    const answer = await call(admin, 'POST', EXPORT, {
      searchParams: { state: ['submitted'] },
      columns: ['pod', 'orderNo', 'state'],
    })
    expect(answer.headers['content-type']).toBe(XLSX_MIME)
    const file = await readXlsx(answer.rawPayload)
    expect(file.headers).toEqual(['Port of discharge', 'Order no.', 'Status'])
    const list = await call(admin, 'POST', '/api/booking/order/queryOrderListByOperator', {
      searchParams: { state: ['submitted'] },
      pageNum: 1,
      pageSize: 100,
    })
    expect(file.rows.length).toBe(list.json().content.total)
    // Each row as the list shows it: the port by its name (the list's label), the order number, the state's label.
    const rows = list.json().content.list as { orderNo: string; labels: { pod?: string } }[]
    expect(rows.length).toBeGreaterThan(0)
    expect(file.rows.slice(0, rows.length).map((cells) => [cells[0]?.value, cells[1]?.value, cells[2]?.value])).toEqual(
      rows.map((row) => [row.labels.pod ?? null, row.orderNo, 'Awaiting confirmation']),
    )
  })

  it('refuses a column that is not on the screen', async () => {
    const admin = await test.login('opadmin')
    const answer = await call(admin, 'POST', EXPORT, { columns: ['passwordHash'] })
    expect(answer.json().code).toBe('validation')
  })
})
