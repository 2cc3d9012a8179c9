import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { messageFor } from '../../server/http/errors.ts'
import { setupTestApp } from '../support/app.ts'
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
