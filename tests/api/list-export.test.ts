import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { readXlsx, XLSX_MIME } from '../support/xlsx.ts'

/**
 * Issue #24: every list's export is an .xlsx of what the user sees, downloaded over HTTP and read back with
 * exceljs — the same rows as the list, the columns in the user's order, headers and labels in their language,
 * numbers as numbers and dates as dates, the tenant's hidden columns absent, only the caller's tenant's rows —
 * and the portal can follow how many rows are written.
 */

const test = setupTestApp()
const RATE_EXPORT = '/api/price/rate/export'
const RATE_LIST = '/api/price/rate/list'
const ORDER_EXPORT = '/api/booking/order/exportOrderListByOperator'
const ORDER_LIST = '/api/booking/order/queryOrderListByOperator'
const PROGRESS = '/api/b2b/user/exportProgress'
const ACME = 'acme.localhost'

function post(token: string, url: string, payload: object, language = 'ja', host = 'localhost') {
  return test.app.inject({
    method: 'POST',
    url,
    headers: { host, cookie: `b2b_token=${token}`, resource: '1', language },
    payload,
  })
}

function get(token: string, url: string, host = 'localhost') {
  return test.app.inject({ method: 'GET', url, headers: { host, cookie: `b2b_token=${token}`, language: 'en' } })
}

/** Every row of a list, in its order, read a page of 100 at a time. */
async function listAll(token: string, url: string, request: object, language = 'ja', host = 'localhost') {
  const rows: Record<string, unknown>[] = []
  for (let pageNum = 1; ; pageNum++) {
    const answer = (await post(token, url, { ...request, pageNum, pageSize: 100 }, language, host)).json()
    expect(answer.code, JSON.stringify(answer)).toBe('0000')
    rows.push(...answer.content.list)
    if (rows.length >= answer.content.total) return rows
  }
}

describe('a list exported as .xlsx', () => {
  it("holds the list's rows in the user's columns and language, numbers as numbers and dates as dates", async () => {
    const admin = await test.login('opadmin')
    const request = { searchParams: {}, sort: { field: 'validFrom', order: 'desc' } }
    const columns = ['transitDays', 'rateNo', 'mode', 'validFrom', 'carrier']
    const response = await post(admin, RATE_EXPORT, { ...request, columns })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe(XLSX_MIME)
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="freightRateList-\d{4}-\d{2}-\d{2}\.xlsx"$/,
    )
    const file = await readXlsx(response.rawPayload)
    expect(file.sheet).toBe('運賃管理')
    expect(file.headers).toEqual(['輸送日数', '運賃番号', '輸送モード', '有効開始日', '船会社'])

    const list = await listAll(admin, RATE_LIST, request)
    expect(list.length).toBeGreaterThan(10)
    expect(file.rows.length).toBe(list.length)
    expect(Number(response.headers['x-export-rows'])).toBe(list.length)
    expect(file.rows.map((cells) => cells[1]?.value)).toEqual(list.map((row) => row.rateNo))
    // Transit days are numbers a spreadsheet can sum, not text.
    expect(file.rows.map((cells) => cells[0]?.value)).toEqual(list.map((row) => row.transitDays))
    expect(file.rows.every((cells) => typeof cells[0]?.value === 'number')).toBe(true)
    // The mode's label in Japanese, as the list shows it.
    const modes = { FCL: 'FCL', LCL: 'LCL', AIR: '航空' } as Record<string, string>
    expect(file.rows.map((cells) => cells[2]?.value)).toEqual(list.map((row) => modes[row.mode as string]))
    expect(file.rows.map((cells) => cells[2]?.value)).toContain('航空')
    // Dates as dates, shown as dates.
    for (const [index, cells] of file.rows.entries()) {
      const day = cells[3]?.value
      expect(day).toBeInstanceOf(Date)
      expect((day as Date).toISOString().slice(0, 10)).toBe(list[index]?.validFrom)
      expect(cells[3]?.numFmt).toBe('yyyy-mm-dd')
    }
    // A reference as the label the list shows (the carrier's name), never its code alone.
    const carriers = list.map((row) => (row.labels as Record<string, string>).carrier)
    expect(carriers.every((name) => typeof name === 'string' && name.length > 0)).toBe(true)
    expect(file.rows.map((cells) => cells[4]?.value)).toEqual(carriers)
  })

  it("leaves out the columns the tenant's overlay hides, for that tenant only", async () => {
    const demo = await test.login('opadmin')
    const acme = await test.login('opadmin', ACME)
    const saved = await post(demo, '/api/b2b/screen/overlay/save', {
      screen: 'freightRateList',
      source: 'columns: { hidden: [carrier, transitDays] }',
      after: 0,
    })
    expect(saved.json().code, saved.body).toBe('0000')

    const asked = await post(demo, RATE_EXPORT, { columns: ['transitDays', 'rateNo', 'carrier', 'mode'] }, 'en')
    expect((await readXlsx(asked.rawPayload)).headers).toEqual(['Rate no.', 'Mode'])
    const whole = await readXlsx((await post(demo, RATE_EXPORT, {}, 'en')).rawPayload)
    expect(whole.headers).not.toContain('Carrier')
    expect(whole.headers).not.toContain('Transit (days)')
    expect(whole.headers).toContain('Rate no.')

    const other = await readXlsx((await post(acme, RATE_EXPORT, {}, 'en', ACME)).rawPayload)
    expect(other.headers).toContain('Carrier')
    expect(other.headers).toContain('Transit (days)')
  })

  it("holds only the caller's tenant's orders, every one the list shows", async () => {
    const acme = await test.login('opadmin', ACME)
    const response = await post(acme, ORDER_EXPORT, { columns: ['orderNo', 'state', 'etd'] }, 'zh', ACME)
    const file = await readXlsx(response.rawPayload)
    expect(file.headers).toEqual(['订单号', '状态', '预计开船'])
    const exported = file.rows.map((cells) => String(cells[0]?.value))
    const list = await listAll(acme, ORDER_LIST, {}, 'zh', ACME)
    expect(exported.length).toBeGreaterThan(0)
    expect(exported).toEqual(list.map((row) => row.orderNo))
    const { rows } = await sql<{ order_no: string; code: string }>`
      select o.order_no, t.code from booking_order o join tenant t on t.id = o.tenant_id
      where o.order_no in (${sql.join(exported)})`.execute(test.database.db)
    expect(rows.length).toBeGreaterThanOrEqual(exported.length)
    expect(new Set(rows.filter((r) => exported.includes(r.order_no)).map((r) => r.code))).toEqual(new Set(['acme']))
    // The state as its label in the caller's language, never the stored value.
    expect(file.rows.every((cells) => !/^[a-z]+$/.test(String(cells[1]?.value)))).toBe(true)
  })

  it('refuses a column the screen lacks and a malformed progress id in the caller language, and writes nothing', async () => {
    const admin = await test.login('opadmin')
    const column = await post(admin, ORDER_EXPORT, { columns: ['passwordHash'] }, 'en')
    expect(column.statusCode).toBe(400)
    expect(column.headers['content-type']).toMatch(/^application\/json/)
    expect(column.json()).toMatchObject({ code: 'validation', content: { fieldErrors: [{ field: 'columns[0]' }] } })
    const id = await post(admin, ORDER_EXPORT, { progressId: '../../x' }, 'es')
    expect(id.json()).toMatchObject({ code: 'validation', content: { fieldErrors: [{ field: 'progressId' }] } })
  })
})

describe('an export followed while it streams', () => {
  it("tells its own user how many rows are written of how many, and nobody else's", async () => {
    const admin = await test.login('opadmin')
    const colleague = await test.login('opcs')
    const progressId = 'a1b2c3d4e5f6a7b8'
    const before = (await get(admin, `${PROGRESS}?progressId=${progressId}`)).json()
    expect(before).toMatchObject({ code: '0000', content: { progressId, known: false, written: 0, total: 0 } })
    const response = await post(admin, ORDER_EXPORT, { progressId })
    const rows = Number(response.headers['x-export-rows'])
    expect(rows).toBeGreaterThan(0)
    expect((await readXlsx(response.rawPayload)).rows.length).toBe(rows)
    const after = (await get(admin, `${PROGRESS}?progressId=${progressId}`)).json()
    expect(after.content).toEqual({ progressId, known: true, written: rows, total: rows, done: true })
    // Another user asking by the same id learns nothing.
    expect((await get(colleague, `${PROGRESS}?progressId=${progressId}`)).json().content).toMatchObject({
      known: false,
    })
    expect((await get(admin, `${PROGRESS}?progressId=short`)).json().code).toBe('validation')
  })
})
