import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'

/**
 * SPEC §7's remaining order calls (issue #23): the GET order lists, the state changes of withdraw, reapplyOrder,
 * onlineOrders/reEdit and order/approve, an order by job number, the order-number look-up, charge lines,
 * documents by type within SPEC §5's limits, requirements, special operation codes, the public SOP and SPEC's
 * paths of calls served elsewhere — each held to its permission and to the caller's tenant.
 */

const test = setupTestApp()

type Method = 'GET' | 'POST'
interface Envelope {
  code: string
  message: string
  content: Record<string, unknown> & { list?: Record<string, unknown>[]; total?: number }
}

const call = async (
  method: Method,
  url: string,
  token: string | null,
  payload?: object,
  options: { host?: string; language?: string } = {},
) => {
  const response = await test.app.inject({
    method,
    url,
    headers: {
      host: options.host ?? 'localhost',
      language: options.language ?? 'en_US',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(payload ? { payload } : {}),
  })
  return { status: response.statusCode, body: response.json() as Envelope }
}

async function ok(method: Method, url: string, token: string | null, payload?: object) {
  const { body } = await call(method, url, token, payload)
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

/** The seeded orders of a tenant in a state, oldest first. */
async function ordersIn(state: string, tenant = 'demo') {
  const { rows } = await sql<{ id: number; version: number; job_no: string | null; order_no: string }>`
    select o.id, o.version, o.job_no, o.order_no from booking_order o join tenant t on t.id = o.tenant_id
    where t.code = ${tenant} and o.state = ${state} order by o.id`.execute(test.database.db)
  return rows
}

describe('the GET order lists (SPEC §7)', () => {
  it('take the search in the query string and answer as their POST twins do', async () => {
    const operator = await test.login('opadmin')
    const viaGet = await ok(
      'GET',
      '/api/booking/order/queryOrderListByOperator?state=submitted&state=bargaining&pageSize=5&sort=etd&order=desc',
      operator,
    )
    const viaPost = await ok('POST', '/api/booking/order/queryOrderListByOperator', operator, {
      searchParams: { state: ['submitted', 'bargaining'] },
      pageSize: 5,
      sort: { field: 'etd', order: 'desc' },
    })
    expect(viaGet.total).toBeGreaterThan(0)
    expect(viaGet.list?.map((o) => o.id)).toEqual(viaPost.list?.map((o) => o.id))
    expect(viaGet.total).toBe(viaPost.total)
    expect(viaGet.list?.every((o) => ['submitted', 'bargaining'].includes(o.state as string))).toBe(true)
    // One value of an `in` key is a list of one.
    const one = await ok('GET', '/api/booking/order/queryOrderListByOperator?state=booked', operator)
    expect(one.list?.every((o) => o.state === 'booked')).toBe(true)
  })

  it('refuse an unknown key, a page too large and a bad date, in the caller language, never a 5xx', async () => {
    const operator = await test.login('opadmin')
    for (const query of ['colour=red', 'pageSize=201', 'beginDate=2026-02-30', 'pageNum=0', 'state=flying']) {
      const { status, body } = await call('GET', `/api/booking/order/queryOrderListByOperator?${query}`, operator)
      expect(status, query).toBe(400)
      expect(body.code, query).toBe('validation')
    }
    const zh = await call('GET', '/api/booking/order/queryOrderListByOperator?pageSize=201', operator, undefined, {
      language: 'zh_CN',
    })
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/)
  })

  it("keep a customer to their company's orders, and each tenant to its own", async () => {
    const customer = await test.login('entadmin')
    const mine = await ok('GET', '/api/booking/order/queryOrderListByCompany?pageSize=100', customer)
    const { rows } = await sql<{ id: number }>`select o.id from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'acme'`.execute(test.database.db)
    const acme = new Set(rows.map((r) => r.id))
    expect(mine.total).toBeGreaterThan(0)
    expect(mine.list?.some((o) => acme.has(o.id as number))).toBe(false)
    // The customer has no operator list.
    const refused = await call('GET', '/api/booking/order/queryOrderListByOperator', customer)
    expect(refused.body.code).toBe('220000')
  })
})

describe('the order state calls', () => {
  it('withdraw and reapplyOrder (GET) move the order through its state machine, with the version check', async () => {
    const customer = await test.login('entadmin')
    const [order] = await ordersIn('submitted')
    if (!order) throw new Error('no submitted order seeded')
    const withdrawn = await ok(
      'GET',
      `/api/booking/order/withdraw?id=${order.id}&version=${order.version}&remark=wrong%20ETD`,
      customer,
    )
    expect(withdrawn).toMatchObject({ id: order.id, state: 'withdrawn' })
    // The version seen before is stale now.
    const stale = await call('GET', `/api/booking/order/withdraw?id=${order.id}&version=${order.version}`, customer)
    expect(stale.body.code).toBe('330002')
    const again = await ok(
      'GET',
      `/api/booking/order/reapplyOrder?id=${order.id}&version=${withdrawn.version}`,
      customer,
    )
    expect(again).toMatchObject({ state: 'submitted' })
    // A state the transition does not leave: 320001.
    const wrong = await call('GET', `/api/booking/order/reapplyOrder?id=${order.id}&version=${again.version}`, customer)
    expect(wrong.body.code).toBe('320001')
  })

  it('a state-changing GET needs the portal header beside a session cookie', async () => {
    const customer = await test.login('entadmin')
    const [order] = await ordersIn('bargaining')
    if (!order) throw new Error('no bargaining order seeded')
    const url = `/api/booking/order/withdraw?id=${order.id}&version=${order.version}`
    const forged = await test.app.inject({
      method: 'GET',
      url,
      headers: { host: 'localhost', cookie: `b2b_token=${customer}` },
    })
    expect(forged.statusCode).toBe(403)
    const fromPortal = await test.app.inject({
      method: 'GET',
      url,
      headers: { host: 'localhost', cookie: `b2b_token=${customer}`, resource: '1' },
    })
    expect(fromPortal.json().content.state).toBe('withdrawn')
  })

  it('order/approve is the operator accepting; onlineOrders/reEdit takes a rejected order back to edit', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const [first, second] = await ordersIn('submitted')
    if (!first || !second) throw new Error('two submitted orders needed')
    // A customer may not approve.
    const refused = await call('POST', '/api/booking/order/approve', customer, { id: first.id, version: first.version })
    expect(refused.body.code).toBe('220000')
    const approved = await ok('POST', '/api/booking/order/approve', operator, {
      id: first.id,
      version: first.version,
      remark: 'Space confirmed',
    })
    expect(approved.state).toBe('accepted')
    const rejected = await ok('POST', '/api/order/transition', operator, {
      id: second.id,
      version: second.version,
      transition: 'reject',
    })
    const reEdited = await ok('POST', '/api/booking/onlineOrders/reEdit', customer, {
      id: second.id,
      version: rejected.version,
    })
    expect(reEdited.state).toBe('unsubmitted')
    // Another tenant's operator does not find it.
    const acme = await test.login('opadmin', 'acme.localhost')
    const other = await call(
      'POST',
      '/api/booking/order/approve',
      acme,
      { id: first.id, version: approved.version },
      { host: 'acme.localhost' },
    )
    expect(other.body.code).toBe('404')
  })
})

describe('an order by job number, by order numbers, its charges and business log', () => {
  it('getOrderDetailByJobNo answers the order the caller may see, 404 elsewhere', async () => {
    const [order] = (await ordersIn('booked')).filter((o) => o.job_no)
    if (!order?.job_no) throw new Error('no booked order with a job number')
    const operator = await test.login('opadmin')
    const found = await ok('GET', `/api/booking/order/getOrderDetailByJobNo?jobNo=${order.job_no}`, operator)
    expect(found).toMatchObject({ id: order.id, jobNo: order.job_no })
    // The history is getBusinessLog's.
    expect(found.history).toBeUndefined()
    const acme = await test.login('opadmin', 'acme.localhost')
    const hidden = await call(
      'GET',
      `/api/booking/order/getOrderDetailByJobNo?jobNo=${order.job_no}`,
      acme,
      undefined,
      {
        host: 'acme.localhost',
      },
    )
    expect(hidden.body.code).toBe('404')
    const bad = await call('GET', '/api/booking/order/getOrderDetailByJobNo?jobNo=A%20B', operator)
    expect(bad.body.code).toBe('validation')
  })

  it('the order-number look-up takes up to 20 lines and says which numbers it did not find', async () => {
    const operator = await test.login('opadmin')
    const orders = await ordersIn('booked')
    const [acmeOrder] = await ordersIn('booked', 'acme')
    const asked = [orders[0]?.order_no, 'HY0000000000', acmeOrder?.order_no, orders[1]?.order_no.toLowerCase()]
    const found = await ok('POST', '/api/booking/order/queryOrderByOrderNos', operator, { orderNos: asked.join('\n') })
    expect(found.list?.map((o) => o.orderNo)).toEqual([orders[0]?.order_no, orders[1]?.order_no])
    expect(found.notFound).toEqual(['HY0000000000', acmeOrder?.order_no])
    const tooMany = Array.from({ length: 21 }, (_, i) => `HY26010${String(i).padStart(5, '0')}`).join('\n')
    const refused = await call('POST', '/api/booking/order/queryOrderByOrderNos', operator, { orderNos: tooMany })
    expect(refused.body.code).toBe('validation')
  })

  it('getChargeListVos answers the seeded charge lines with their currencies; none for another tenant', async () => {
    const [order] = await ordersIn('booked')
    if (!order) throw new Error('no booked order')
    const customer = await test.login('entadmin')
    const lines = (await ok('GET', `/api/booking/order/getChargeListVos?orderId=${order.id}`, customer)) as unknown as {
      chargeCode: string
      currency: string
      amount: string
      quantity: number
      unitPrice: string
    }[]
    expect(lines.map((l) => l.chargeCode)).toEqual(expect.arrayContaining(['OFR', 'THC', 'DOC']))
    expect(new Set(lines.map((l) => l.currency))).toEqual(new Set(['USD', 'CNY']))
    for (const line of lines) expect(Number(line.amount)).toBeCloseTo(line.quantity * Number(line.unitPrice), 2)
    const acme = await test.login('entadmin', 'acme.localhost')
    const hidden = await call('GET', `/api/booking/order/getChargeListVos?orderId=${order.id}`, acme, undefined, {
      host: 'acme.localhost',
    })
    expect(hidden.body.code).toBe('404')
  })

  it('getBusinessLog answers the order history, newest first', async () => {
    const operator = await test.login('opadmin')
    const [order] = await ordersIn('submitted')
    if (!order) throw new Error('no submitted order')
    const changed = await ok('POST', '/api/order/transition', operator, {
      id: order.id,
      version: order.version,
      transition: 'bargain',
      remark: 'Counter rate sent',
    })
    expect(changed.state).toBe('bargaining')
    const log = (await ok('POST', '/api/booking/forecastOrderDetails/getBusinessLog', operator, {
      orderId: order.id,
    })) as unknown as { transition: string; remark: string }[]
    expect(log[0]).toMatchObject({ transition: 'bargain', remark: 'Counter rate sent' })
  })
})

describe('reference calls of an order', () => {
  it('queryRequirements by mode and load type, or by order', async () => {
    const customer = await test.login('entadmin')
    const fcl = (await ok('POST', '/api/booking/order/queryRequirements', customer, {
      transportMode: 1,
      containerLoadType: 'FCL',
    })) as unknown as { code: string }[]
    expect(fcl.map((r) => r.code)).toEqual(expect.arrayContaining(['SI', 'VGM', 'CY_CUTOFF']))
    expect(fcl.map((r) => r.code)).not.toContain('CFS_CUTOFF')
    const none = await call('POST', '/api/booking/order/queryRequirements', customer, {})
    expect(none.body.code).toBe('validation')
  })

  it('specialOperationCodeList answers the enabled codes; getSop is public and per tenant', async () => {
    const customer = await test.login('entadmin')
    const codes = (await ok('POST', '/api/booking/order/specialOperationCodeList', customer)) as unknown as {
      code: string
    }[]
    expect(codes.map((c) => c.code)).toContain('DG')
    expect(codes.map((c) => c.code)).not.toContain('TEMP')
    const sop = await ok('GET', '/api/booking/order/public/api/getSop?transportMode=1', null)
    expect(sop.titleEn).toMatch(/Sea freight/)
    expect((sop.stepsZh as string[]).length).toBeGreaterThan(3)
    const acme = await call('GET', '/api/booking/order/public/api/getSop?transportMode=1', null, undefined, {
      host: 'acme.localhost',
    })
    expect(acme.body).toMatchObject({ code: '0000', content: null })
    const bad = await call('GET', '/api/booking/order/public/api/getSop?transportMode=9', null)
    expect(bad.body.code).toBe('validation')
  })
})

describe("SPEC's paths of calls served elsewhere", () => {
  it('answer as the endpoint whose work they are', async () => {
    const seaEq = await ok('GET', '/api/b2b/basicData/public/api/seaEqData/list?keyword=45', null)
    const same = await ok('GET', '/api/booking/public/api/basic/containerType/fuzzyQuery?keyword=45', null)
    expect(seaEq).toEqual(same)
    const operator = await test.login('opadmin')
    const [order] = await ordersIn('booked')
    const forecast = await ok(
      'GET',
      `/api/booking/forecastOrderDetails/getForecastOrderDetail?id=${order?.id}`,
      operator,
    )
    expect(forecast.orderNo).toBe(order?.order_no)
    // A customer's spaCancel as SPEC's GET, beside the POST.
    const customer = await test.login('entadmin')
    const missing = await call('GET', '/api/booking/spa/spaCancel?id=999999&version=1', customer)
    expect(missing.body.code).toBe('404')
  })
})

// A PDF of the size asked for: the header the file store reads the type from, then padding.
const pdfOf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes - 9, 0x20)])
const MB = 1024 * 1024

async function upload(
  token: string,
  query: string,
  name: string,
  bytes: Buffer,
  options: { host?: string; language?: string } = {},
) {
  const file = { name, bytes, type: 'application/pdf' }
  const response = await bearerCalls(test).upload(`/api/booking/orderFile/upload?${query}`, token, file, options)
  return { status: response.statusCode, body: response.json() as Envelope }
}

describe('order documents by type (SPEC §5: 10 files, 5 MB each, 50 MB in all)', () => {
  it('stores, lists and refuses past each limit in the caller language', async () => {
    const customer = await test.login('entadmin')
    const [order] = await ordersIn('accepted')
    if (!order) throw new Error('no accepted order')
    const stored = await upload(customer, `orderId=${order.id}&fileType=packingList`, 'packing.pdf', pdfOf(2000))
    expect(stored.body.code, JSON.stringify(stored.body)).toBe('0000')
    expect(stored.body.content).toMatchObject({
      order: order.id,
      fileType: 'packingList',
      name: 'packing.pdf',
      size: 2000,
    })
    const { rows } = await sql<{
      size: number
    }>`select size from file where id = ${stored.body.content.file as string}`.execute(test.database.db)
    expect(Number(rows[0]?.size)).toBe(2000)

    // 6 MB: over the 5 MB a file, in English and in Chinese.
    const big = await upload(customer, `orderId=${order.id}&fileType=other`, 'big.pdf', pdfOf(6 * MB))
    expect(big.status).toBe(413)
    expect(big.body.message).toBe('File too large: big.pdf is over 5 MB')
    const bigZh = await upload(customer, `orderId=${order.id}&fileType=other`, 'big.pdf', pdfOf(6 * MB), {
      language: 'zh_CN',
    })
    expect(bigZh.body.message).toBe('文件过大：big.pdf 超过 5 MB')

    // The 11th file of a type.
    for (let i = 2; i <= 10; i++)
      expect(
        (await upload(customer, `orderId=${order.id}&fileType=packingList`, `p${i}.pdf`, pdfOf(1000))).body.code,
      ).toBe('0000')
    const eleventh = await upload(customer, `orderId=${order.id}&fileType=packingList`, 'p11.pdf', pdfOf(1000))
    expect(eleventh.body).toMatchObject({ code: 'validation', message: 'An order takes at most 10 files of one type' })
    const eleventhZh = await upload(customer, `orderId=${order.id}&fileType=packingList`, 'p11.pdf', pdfOf(1000), {
      language: 'zh_CN',
    })
    expect(eleventhZh.body.message).toBe('每种类型最多上传 10 个文件')

    const files = (await ok('GET', `/api/booking/orderFile/getFiles?orderId=${order.id}`, customer)) as unknown as {
      fileType: string
    }[]
    expect(files).toHaveLength(10)
    // The operator sees them too; another tenant neither lists nor adds any.
    const operator = await test.login('opadmin')
    expect(await ok('GET', `/api/booking/orderFile/getFiles?orderId=${order.id}`, operator)).toHaveLength(10)
    const acme = await test.login('entadmin', 'acme.localhost')
    const hidden = await call('GET', `/api/booking/orderFile/getFiles?orderId=${order.id}`, acme, undefined, {
      host: 'acme.localhost',
    })
    expect(hidden.body.code).toBe('404')
    const foreign = await upload(acme, `orderId=${order.id}&fileType=other`, 'x.pdf', pdfOf(1000), {
      host: 'acme.localhost',
    })
    expect(foreign.body.code).toBe('404')
    const badType = await upload(customer, `orderId=${order.id}&fileType=photo`, 'x.pdf', pdfOf(1000))
    expect(badType.body.code).toBe('validation')
  })

  it('refuses a file that takes the order past 50 MB in all (51 MB)', async () => {
    const customer = await test.login('entadmin')
    const [, order] = await ordersIn('booked')
    if (!order) throw new Error('two booked orders needed')
    // 50 MB exactly: one real 5 MB upload, and nine more 5 MB documents of other types already on file (written
    // as rows, so the test does not push 45 MB more through the database).
    const first = await upload(customer, `orderId=${order.id}&fileType=bookingNote`, 'booking.pdf', pdfOf(5 * MB))
    expect(first.body.code).toBe('0000')
    const types = ['commercialInvoice', 'customsDeclaration', 'billOfLading', 'other']
    for (let i = 0; i < 9; i++)
      await sql`insert into order_file (tenant_id, "order", file_type, file, name, size, content_type)
        select tenant_id, "order", ${types[i % types.length]}, file, ${`doc${i}.pdf`}, ${5 * MB}, content_type
        from order_file where id = ${first.body.content.id as number}`.execute(test.database.db)
    const over = await upload(customer, `orderId=${order.id}&fileType=packingList`, 'one-more.pdf', pdfOf(MB))
    expect(over.status).toBe(413)
    expect(over.body.message).toBe("one-more.pdf cannot be added: an order's files may total at most 50 MB")
    const overZh = await upload(customer, `orderId=${order.id}&fileType=packingList`, 'one-more.pdf', pdfOf(MB), {
      language: 'zh_CN',
    })
    expect(overZh.body.message).toBe('无法添加 one-more.pdf：订单附件总大小不能超过 50 MB')
  })
})
