import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { messageFor } from '../../server/http/errors.ts'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { setupTestApp } from '../support/app.ts'
import { directFcl } from '../support/booking.ts'
import { today } from '../support/clock.ts'

/**
 * Issue #28's page-visit records (server/domain/analytics/visits.ts): a batch the portal posts is stored and
 * tallied in one go, the visitor is a first-party cookie the server sets, a signed-in visit is the session's, and
 * nothing crosses from one host's tenant to another.
 */
const test = setupTestApp()
const ADD = '/api/b2b/user/behaviorRecord/add'
const COOKIE = 'waybill_visitor'
let demo = 0
let acme = 0

beforeAll(async () => {
  const { rows } = await sql<{ id: number; code: string }>`select id, code from tenant`.execute(test.database.db)
  demo = rows.find((r) => r.code === 'demo')?.id as number
  acme = rows.find((r) => r.code === 'acme')?.id as number
})

const visits = (...pages: [string, string][]) => ({
  visits: pages.map(([pageName, pageRoute]) => ({ pageName, pageRoute })),
})

function post(body: object, headers: Record<string, string> = {}) {
  return test.app.inject({
    method: 'POST',
    url: ADD,
    headers: { host: 'localhost', resource: '1', ...headers },
    payload: body,
  })
}

const visitorCookie = (response: LightMyRequestResponse) => response.cookies.find((c) => c.name === COOKIE)

/** The day's roll-up of a metric for a tenant, as the superuser sees it (the tests' look, not the API's). */
async function rollup(tenantId: number, metric: string, dim1?: string) {
  const { rows } = await sql<{ dim1: string; dim2: string; events: string; actors: string }>`
    select dim1, dim2, events::text, actors::text from analytics_daily
    where tenant_id = ${tenantId} and metric = ${metric} and day = ${today()}::date
      and (${dim1 ?? null}::text is null or dim1 = ${dim1 ?? null})
    order by dim1, dim2`.execute(test.database.db)
  return rows.map((r) => ({ dim1: r.dim1, dim2: r.dim2, events: Number(r.events), actors: Number(r.actors) }))
}

async function visitRows(tenantId: number, visitor: string) {
  const { rows } = await sql<{
    page_name: string
    page_route: string
    user_id: number | null
    user_type: number | null
    company_id: number | null
    custom_company_id: number | null
  }>`select page_name, page_route, user_id, user_type, company_id, custom_company_id from page_visit
    where tenant_id = ${tenantId} and visitor = ${visitor}::uuid order by id`.execute(test.database.db)
  return rows
}

describe('recording page visits', () => {
  it('stores a batch and tallies it: page views per page and route, the visitor once a day, the cookie set once', async () => {
    const first = await post(
      visits(['dashboard', '/dashboard'], ['productService', '/productService'], ['dashboard', '/dashboard']),
    )
    expect(first.json()).toMatchObject({ code: '0000', content: { recorded: 3 } })
    const cookie = visitorCookie(first)
    expect(cookie?.value).toMatch(/^[0-9a-f-]{36}$/)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 365 * 24 * 60 * 60 })
    const visitor = cookie?.value as string
    expect((await visitRows(demo, visitor)).map((r) => [r.page_name, r.page_route, r.user_id])).toEqual([
      ['dashboard', '/dashboard', null],
      ['productService', '/productService', null],
      ['dashboard', '/dashboard', null],
    ])
    const viewsBefore = await rollup(demo, 'pageView', 'dashboard')
    const visitorsBefore = await rollup(demo, 'visitor', '0')

    // The same browser again: the cookie is kept (none set), views add up, the visitor is still one.
    const second = await post(visits(['dashboard', '/dashboard']), { cookie: `${COOKIE}=${visitor}` })
    expect(second.json().code).toBe('0000')
    expect(visitorCookie(second)).toBeUndefined()
    expect(await visitRows(demo, visitor)).toHaveLength(4)
    const views = await rollup(demo, 'pageView', 'dashboard')
    expect(views).toEqual([{ ...viewsBefore[0], events: (viewsBefore[0]?.events ?? 0) + 1 }])
    expect(await rollup(demo, 'visitor', '0')).toEqual(visitorsBefore)

    // Another browser: a cookie of its own, one more visitor and one more actor of the page.
    const other = await post(visits(['dashboard', '/dashboard']))
    expect(visitorCookie(other)?.value).not.toBe(visitor)
    const [after] = await rollup(demo, 'pageView', 'dashboard')
    expect(after?.actors).toBe((views[0]?.actors ?? 0) + 1)
    const [visitorsAfter] = await rollup(demo, 'visitor', '0')
    expect(visitorsAfter?.events).toBe((visitorsBefore[0]?.events ?? 0) + 1)
    expect(visitorsAfter?.actors).toBe((visitorsBefore[0]?.actors ?? 0) + 1)
  })

  it('takes who visited from the session, never from the body', async () => {
    const token = await test.login('entadmin')
    const { rows } = await sql<{ id: number; company_id: number; company_user_type: number }>`
      select id, company_id, company_user_type from app_user where tenant_id = ${demo} and username = 'entadmin'`.execute(
      test.database.db,
    )
    const user = rows[0]
    const response = await post(
      { visits: [{ pageName: 'myOrders', pageRoute: '/myOrders', userId: 1, companyId: 999 }] },
      { authorization: `Bearer ${token}` },
    )
    // Who visited is not the body's to say: a visit naming a user or a company is refused outright.
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('validation')

    const clean = await post(visits(['myOrders', '/myOrders']), { authorization: `Bearer ${token}` })
    expect(clean.json().code).toBe('0000')
    expect(await visitRows(demo, visitorCookie(clean)?.value as string)).toEqual([
      {
        page_name: 'myOrders',
        page_route: '/myOrders',
        user_id: user?.id,
        user_type: user?.company_user_type,
        company_id: user?.company_id,
        custom_company_id: user?.company_id,
      },
    ])
    expect((await rollup(demo, 'visitor', '2'))[0]?.actors).toBeGreaterThanOrEqual(1)
  })

  it('keeps a beacon without the portal header to a visitor unless the browser says it is same-origin', async () => {
    const token = await test.login('opadmin')
    const cookies = `b2b_token=${token}`
    // No Resource header and no fetch metadata: not refused, but the session cookie is not believed.
    const forged = await test.app.inject({
      method: 'POST',
      url: ADD,
      headers: { host: 'localhost', cookie: cookies },
      payload: visits(['dashboard', '/dashboard']),
    })
    expect(forged.json().code).toBe('0000')
    expect((await visitRows(demo, visitorCookie(forged)?.value as string))[0]?.user_id).toBeNull()
    const beacon = await test.app.inject({
      method: 'POST',
      url: ADD,
      headers: { host: 'localhost', cookie: cookies, 'sec-fetch-site': 'same-origin' },
      payload: visits(['dashboard', '/dashboard']),
    })
    expect(beacon.json().code).toBe('0000')
    expect((await visitRows(demo, visitorCookie(beacon)?.value as string))[0]?.user_id).not.toBeNull()
  })

  it("writes only for the host's tenant: acme's visits never show in demo's rows", async () => {
    const demoViews = await rollup(demo, 'pageView', 'aboutUs')
    const response = await post(visits(['aboutUs', '/aboutUs']), { host: 'acme.localhost' })
    expect(response.json().code).toBe('0000')
    const visitor = visitorCookie(response)?.value as string
    expect(await visitRows(acme, visitor)).toHaveLength(1)
    expect(await visitRows(demo, visitor)).toEqual([])
    expect(await rollup(demo, 'pageView', 'aboutUs')).toEqual(demoViews)
    expect((await rollup(acme, 'pageView', 'aboutUs'))[0]?.events).toBeGreaterThanOrEqual(1)
  })

  it('refuses an empty, oversized or malformed batch in the caller’s language', async () => {
    const tooMany = Array.from({ length: 51 }, () => ['dashboard', '/dashboard'] as [string, string])
    const cases: [object, string, string, Record<string, unknown>][] = [
      [{ visits: [] }, 'visits', 'validation.minItems', { limit: 1 }],
      [visits(...tooMany), 'visits', 'validation.maxItems', { limit: 50 }],
      [visits(['<script>', '/dashboard']), 'visits[0].pageName', 'validation.pattern', {}],
      [visits(['dashboard', `/${'a'.repeat(250)}`]), 'visits[0].pageRoute', 'validation.maxLength', { limit: 200 }],
    ]
    for (const [body, field, key, params] of cases) {
      const response = await post(body, { language: 'ja_JP' })
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400)
      const errors = response.json().content.fieldErrors as { field: string; key: string; message: string }[]
      const error = errors.find((e) => e.key === key)
      expect(error, response.body).toBeDefined()
      expect(error?.field.replace(/^\//, '').replace(/\//g, '.')).toContain(field.split('[')[0])
      expect(error?.message).toBe(messageFor(key, 'ja', params))
    }
  })
})

describe('the page-name list', () => {
  it('answers the route table’s pages with titles in the caller’s language, to who may read page views', async () => {
    const token = await test.login('opadmin')
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/user/behaviorRecord/pageNameList',
      headers: { host: 'localhost', language: 'es_ES', authorization: `Bearer ${token}` },
    })
    const list = response.json().content.list as { pageName: string; pageRoute: string; title: string }[]
    expect(list.find((p) => p.pageName === 'userBehavior')).toEqual({
      pageName: 'userBehavior',
      pageRoute: '/UserBehavior',
      title: messageFor('route.userBehavior', 'es'),
    })
    expect(messageFor('route.userBehavior', 'es')).not.toBe('route.userBehavior')
    const customer = await test.login('entadmin')
    const refused = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/user/behaviorRecord/pageNameList',
      headers: { host: 'localhost', authorization: `Bearer ${customer}` },
    })
    expect(refused.json().code).toBe('220000')
  })
})

describe('the events the charts count, each tallied in its own transaction', () => {
  /** The day's totals of a metric (all rows, or one dim1) for demo. */
  async function totals(metric: string, dim1?: string) {
    const rows = await rollup(demo, metric, dim1)
    return {
      events: rows.reduce((sum, r) => sum + r.events, 0),
      rows,
    }
  }
  async function amount(currency: string, mode: string) {
    const { rows } = await sql<{ amount: string }>`
      select amount::text from analytics_daily where tenant_id = ${demo} and metric = 'orderAmount'
        and day = ${today()}::date and dim1 = ${currency} and dim2 = ${mode}`.execute(test.database.db)
    return Number(rows[0]?.amount ?? 0)
  }
  const inject = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
    test.app.inject({
      method,
      url,
      headers: {
        host: 'localhost',
        resource: '1',
        'x-forwarded-for': '10.77.0.1',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(payload ? { payload } : {}),
    })

  it('a password login counts as a login of its user, actors once a day', async () => {
    const userId = await idOf('opcs')
    const before = await totals('login', 'password')
    await test.login('opcs')
    await test.login('opcs')
    const after = await totals('login', 'password')
    expect(after.events).toBe(before.events + 2)
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from analytics_daily_actor
      where tenant_id = ${demo} and metric = 'login' and day = ${today()}::date and dim1 = 'password' and actor = ${`user:${userId}`}`.execute(
      test.database.db,
    )
    expect(Number(rows[0]?.n)).toBe(1)
  })

  it('a registration counts under its channel', async () => {
    const mobile = '13912340028'
    const before = await totals('register', 'mobile')
    const sent = await inject('POST', '/api/b2b/user/sendRegisterSms', null, { key: mobile })
    expect(sent.json().code, sent.body).toBe('0000')
    const { rows } = await sql<{ kind: string; payload: Record<string, unknown> }>`
      select kind, payload from outbox where payload->>'to' = ${mobile} order by id desc limit 1`.execute(
      test.database.db,
    )
    const row = rows[0] as { kind: string; payload: Record<string, unknown> }
    const code = /(\d{6})/.exec(outboxBody(row.kind, row.payload).text)?.[1] as string
    const registered = await inject('POST', '/api/b2b/user/register', null, {
      username: 'visitor28',
      password: 'Freight@2026',
      confirmPassword: 'Freight@2026',
      mobile,
      code,
      agreement: true,
    })
    expect(registered.json().code, registered.body).toBe('0000')
    expect((await totals('register', 'mobile')).events).toBe(before.events + 1)
  })

  it("a signed-in user's rate search counts by mode; a visitor's does not", async () => {
    const lane = { mode: 'FCL', origin: 'CNSHA', destination: 'USLAX', containerType: '45G1' }
    const before = await totals('rateQuery', 'FCL')
    expect((await inject('POST', '/api/price/public/api/rate/search', null, lane)).json().code).toBe('0000')
    expect((await totals('rateQuery', 'FCL')).events).toBe(before.events)
    const token = await test.login('entop')
    expect((await inject('POST', '/api/price/public/api/rate/search', token, lane)).json().code).toBe('0000')
    expect((await totals('rateQuery', 'FCL')).events).toBe(before.events + 1)
  })

  it('an order counts when submitted (never as a draft), by mode and lane; its charges move orderAmount per currency', async () => {
    const customer = await test.login('entadmin')
    const before = await totals('order', 'FCL')
    const draft = await inject('POST', '/api/booking/order/add', customer, directFcl())
    expect(draft.json().code, draft.body).toBe('0000')
    expect((await totals('order', 'FCL')).events).toBe(before.events)
    const placed = await inject('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    expect(placed.json().code, placed.body).toBe('0000')
    const after = await totals('order', 'FCL')
    expect(after.events).toBe(before.events + 1)
    expect(after.rows.map((r) => r.dim2)).toContain('CNSHA-USLAX')

    const operator = await test.login('opadmin')
    const usd = await amount('USD', 'FCL')
    const cny = await amount('CNY', 'FCL')
    const line = { chargeCode: 'OFR', chargeName: 'Ocean freight', category: 'freight', unit: '40HQ', quantity: 2 }
    const adjust = (charges: object[]) =>
      inject('POST', '/api/booking/orderCharge/adjustOrderCharge', operator, {
        orderId: placed.json().content.id,
        remark: 'rates agreed',
        charges,
      })
    const first = await adjust([
      { ...line, unitPrice: '1950.50', currency: 'USD' },
      { ...line, chargeCode: 'DOC', quantity: 1, unitPrice: '500', currency: 'CNY' },
    ])
    expect(first.json().code, first.body).toBe('0000')
    expect(await amount('USD', 'FCL')).toBeCloseTo(usd + 3901, 4)
    expect(await amount('CNY', 'FCL')).toBeCloseTo(cny + 500, 4)
    // Replaced lines move the sums by the change only: USD down to one container, CNY gone.
    expect((await adjust([{ ...line, quantity: 1, unitPrice: '1950.50', currency: 'USD' }])).json().code).toBe('0000')
    expect(await amount('USD', 'FCL')).toBeCloseTo(usd + 1950.5, 4)
    expect(await amount('CNY', 'FCL')).toBeCloseTo(cny, 4)
  })

  it('moves FreightReview (freight charges) and BookingReview (every charge) per lane and customer, per currency', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const placed = await inject('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    expect(placed.json().code, placed.body).toBe('0000')
    const company = String(placed.json().content.customerCompany)
    type Review = { categories: { key: string; label: string }[]; series: { key: string; values: number[] }[] }
    const review = async (call: string, group: string) => {
      const answer = await inject('GET', `/api/b2b/count/${call}?window=30&group=${group}`, operator)
      expect(answer.json().code, answer.body).toBe('0000')
      return answer.json().content as Review
    }
    const amountOf = (chart: Review, category: string, currency: string) => {
      const at = chart.categories.findIndex((c) => c.key === category)
      return at < 0 ? 0 : (chart.series.find((s) => s.key === currency)?.values[at] ?? 0)
    }
    const before = {
      freightLane: amountOf(await review('freightReview', 'lane'), 'CNSHA-USLAX', 'USD'),
      bookingLane: amountOf(await review('bookingReview', 'lane'), 'CNSHA-USLAX', 'USD'),
      bookingCny: amountOf(await review('bookingReview', 'customer'), company, 'CNY'),
      freightCustomer: amountOf(await review('freightReview', 'customer'), company, 'USD'),
    }
    const line = { chargeCode: 'OFR', chargeName: 'Ocean freight', category: 'freight', unit: '40HQ', quantity: 1 }
    const adjusted = await inject('POST', '/api/booking/orderCharge/adjustOrderCharge', operator, {
      orderId: placed.json().content.id,
      remark: 'rates agreed',
      charges: [
        { ...line, unitPrice: '2000', currency: 'USD' },
        {
          ...line,
          chargeCode: 'THC',
          chargeName: 'Terminal handling',
          category: 'origin',
          unitPrice: '150',
          currency: 'USD',
        },
        { ...line, chargeCode: 'DOC', chargeName: 'Documents', category: 'origin', unitPrice: '450', currency: 'CNY' },
      ],
    })
    expect(adjusted.json().code, adjusted.body).toBe('0000')
    const freightByLane = await review('freightReview', 'lane')
    expect(amountOf(freightByLane, 'CNSHA-USLAX', 'USD')).toBeCloseTo(before.freightLane + 2000, 2)
    expect(amountOf(await review('bookingReview', 'lane'), 'CNSHA-USLAX', 'USD')).toBeCloseTo(
      before.bookingLane + 2150,
      2,
    )
    // Currencies are series of their own, never added; a customer is its company, shown by its name.
    const bookingByCustomer = await review('bookingReview', 'customer')
    expect(amountOf(bookingByCustomer, company, 'CNY')).toBeCloseTo(before.bookingCny + 450, 2)
    expect(bookingByCustomer.categories.find((c) => c.key === company)?.label).not.toBe(company)
    expect(amountOf(await review('freightReview', 'customer'), company, 'USD')).toBeCloseTo(
      before.freightCustomer + 2000,
      2,
    )
    // Another tenant's reviews never hold it.
    const acme = await test.login('opadmin', 'acme.localhost')
    const other = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/count/bookingReview?window=30&group=customer',
      headers: { host: 'acme.localhost', authorization: `Bearer ${acme}` },
    })
    expect(other.json().content.categories.map((c: { key: string }) => c.key)).not.toContain(company)
  })
})

async function idOf(username: string): Promise<number> {
  const { rows } = await sql<{
    id: number
  }>`select id from app_user where tenant_id = ${demo} and username = ${username}`.execute(test.database.db)
  return rows[0]?.id as number
}
