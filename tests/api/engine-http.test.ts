import { describe, expect, it } from 'vitest'
import { DEMO_ORDER_COUNT } from '../../server/db/seed/orders.ts'
import { setupTestApp } from '../support/app.ts'

/** The engine's routes through HTTP, signed in as the demo users: envelope, status codes, tenants. */

const test = setupTestApp()
const DEMO = 'localhost:3000'
const ACME = 'acme.localhost'

const tokens = new Map<string, string>()
async function login(username: string, host = DEMO): Promise<string> {
  const key = `${host}/${username}`
  const known = tokens.get(key)
  if (known) return known
  const token = await test.login(username, host)
  tokens.set(key, token)
  return token
}

async function api(
  who: string | null,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  { host = DEMO, language = 'en_US' } = {},
) {
  const headers: Record<string, string> = { host, language }
  if (who) headers.authorization = await login(who, host)
  const response = await test.app.inject({
    method,
    url: `/api${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
  return { status: response.statusCode, body: response.json() }
}

const OPERATOR_LIST = '/booking/order/queryOrderListByOperator'
const COMPANY_LIST = '/booking/order/queryOrderListByCompany'

describe('engine routes over HTTP', () => {
  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['POST', OPERATOR_LIST],
      ['GET', '/booking/order/getOrderDetail?id=1'],
      ['POST', '/order/transition'],
    ] as const) {
      const { status, body } = await api(null, method, url, method === 'POST' ? {} : undefined)
      expect(status).toBe(401)
      expect(body).toMatchObject({ code: '401', content: null })
    }
  })

  it("lists the operator's orders in the envelope", async () => {
    const { status, body } = await api('opadmin', 'POST', OPERATOR_LIST, { searchParams: {}, pageNum: 1, pageSize: 10 })
    expect(status).toBe(200)
    expect(body.code).toBe('0000')
    expect(body.content).toMatchObject({ total: DEMO_ORDER_COUNT, pageNum: 1, pageSize: 10 })
    expect(body.content.list).toHaveLength(10)
    expect(body.content.list[0]).toMatchObject({
      orderNo: expect.stringMatching(/^HY\d{10}$/),
      state: expect.any(String),
    })
  })

  it('refuses a caller without the permission with 220000', async () => {
    const { status, body } = await api('entadmin', 'POST', OPERATOR_LIST, {})
    expect(status).toBe(403)
    expect(body).toMatchObject({ code: '220000', content: null })
  })

  it('refuses an undeclared search parameter, naming it in the caller’s language', async () => {
    const { status, body } = await api('entadmin', 'POST', COMPANY_LIST, { searchParams: { customerCompany: 1 } })
    expect(status).toBe(400)
    expect(body.code).toBe('validation')
    expect(body.content.fieldErrors).toEqual([
      { field: 'searchParams.customerCompany', key: 'validation.unknownField', message: 'This field is not allowed' },
    ])
  })

  it('shows an order with its history, and hides another tenant’s exactly like a missing one', async () => {
    const { body: listed } = await api('opadmin', 'POST', OPERATOR_LIST, { pageSize: 1 })
    const id = listed.content.list[0].id
    const { body } = await api('opadmin', 'GET', `/booking/order/getOrderDetail?id=${id}`)
    expect(body.code).toBe('0000')
    expect(body.content).toMatchObject({ id, history: expect.any(Array) })

    const foreign = await api('opadmin', 'GET', `/booking/order/getOrderDetail?id=${id}`, undefined, { host: ACME })
    const missing = await api('opadmin', 'GET', '/booking/order/getOrderDetail?id=2000000000', undefined, {
      host: ACME,
    })
    expect(foreign.status).toBe(404)
    expect(foreign).toEqual(missing)
    const bad = await api('opadmin', 'GET', '/booking/order/getOrderDetail?id=1%20or%201=1')
    expect(bad.status).toBe(400)
  })

  it('moves an order: the customer submits, a stale retry and the operator’s step are refused', async () => {
    const { body: drafts } = await api('entadmin', 'POST', COMPANY_LIST, { searchParams: { state: ['draft'] } })
    const order = drafts.content.list[0]
    expect(order).toBeDefined()
    const submit = { id: order.id, version: order.version, transition: 'submit' }
    const done = await api('entadmin', 'POST', '/order/transition', submit)
    expect(done.body).toMatchObject({ code: '0000', content: { state: 'submitted', version: order.version + 1 } })
    const stale = await api('entadmin', 'POST', '/order/transition', submit)
    expect(stale).toMatchObject({ status: 200, body: { code: '330002' } })
    const accept = { id: order.id, version: order.version + 1, transition: 'accept' }
    expect((await api('entadmin', 'POST', '/order/transition', accept)).body.code).toBe('220000')
    const accepted = await api('opadmin', 'POST', '/order/transition', accept)
    expect(accepted.body.content.state).toBe('accepted')
    const detail = await api('entadmin', 'GET', `/booking/order/getOrderDetail?id=${order.id}`)
    expect(detail.body.content.history.map((h: { transition: string }) => h.transition)).toEqual(['accept', 'submit'])
  })
})
