import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { fromCurrentRate } from '../support/booking.ts'

/**
 * Issue #20: the company wall (server/engine/scope.ts) for the user type no test had — type 3, who has no
 * profile entry and whose workbench is the order list (SPEC §6). The seeded nbtrack follows the orders of
 * Ningbo Haitong, a second client of the demo tenant, with a custom role of data scope "all": only the wall
 * keeps Minghui's orders from them.
 */

const test = setupTestApp()

type Method = 'GET' | 'POST'
async function api(method: Method, path: string, token: string, payload?: object) {
  const response = await test.app.inject({
    method,
    url: `/api${path}`,
    headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  })
  return response.json()
}

const LIST = '/booking/order/queryOrderListByCompany'

let demoTenant = 0
let minghui = 0
let ningbo = 0
let minghuiOrders = 0

beforeAll(async () => {
  const db = test.database.db
  demoTenant = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  const companies = await db
    .selectFrom('company')
    .select(['id', 'name_en'])
    .where('tenant_id', '=', demoTenant)
    .where('company_type', '=', 2)
    .orderBy('id')
    .execute()
  minghui = companies.find((c) => c.name_en?.startsWith('Hangzhou Minghui'))?.id ?? 0
  ningbo = companies.find((c) => c.name_en?.startsWith('Ningbo Haitong'))?.id ?? 0
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from booking_order where tenant_id = ${demoTenant} and customer_company = ${minghui}`.execute(
    db,
  )
  minghuiOrders = rows[0]?.n ?? 0
})

describe('the company wall for a type-3 user', () => {
  it('is seeded: nbtrack is of type 3 at Ningbo Haitong, with a role that sees all the company’s orders', async () => {
    const user = await test.database.db
      .selectFrom('app_user as u')
      .innerJoin('user_role as ur', 'ur.user_id', 'u.id')
      .innerJoin('role as r', 'r.id', 'ur.role_id')
      .select(['u.company_user_type', 'u.company_id', 'r.data_scope', 'r.permissions'])
      .where('u.tenant_id', '=', demoTenant)
      .where('u.username', '=', 'nbtrack')
      .executeTakeFirstOrThrow()
    expect(user).toMatchObject({ company_user_type: 3, company_id: ningbo, data_scope: 'all' })
    expect(user.permissions).toContain('myOrders')
    expect(minghui).toBeGreaterThan(0)
    expect(minghuiOrders).toBeGreaterThan(10)
  })

  it("never shows a type-3 user another company's orders: not in the list, not by id", async () => {
    const track = await test.login('nbtrack')
    const list = await api('POST', LIST, track, { pageNum: 1, pageSize: 100, searchParams: {} })
    expect(list.code, JSON.stringify(list)).toBe('0000')
    expect(list.content.total).toBe(0)
    expect(list.content.list).toEqual([])
    // The enterprise administrator of Minghui sees them: the list is not empty for want of orders.
    const minghuiAdmin = await api('POST', LIST, await test.login('entadmin'), { pageNum: 1, pageSize: 100 })
    expect(minghuiAdmin.content.total).toBe(minghuiOrders)
    const theirs = minghuiAdmin.content.list[0].id
    const detail = await api('GET', `/booking/order/getOrderDetail?id=${theirs}`, track)
    expect(detail.code).toBe('404')
  })

  it('shows a type-3 user every order of their own company, whoever placed it', async () => {
    const clerk = await test.login('nbclerk')
    const booked = await api('POST', '/booking/order/add', clerk, await fromCurrentRate(test, demoTenant))
    expect(booked.code, JSON.stringify(booked)).toBe('0000')
    const track = await test.login('nbtrack')
    const list = await api('POST', LIST, track, { pageNum: 1, pageSize: 100, searchParams: {} })
    expect(list.content.total).toBe(1)
    expect(list.content.list.map((o: { id: number }) => o.id)).toEqual([booked.content.id])
    const detail = await api('GET', `/booking/order/getOrderDetail?id=${booked.content.id}`, track)
    expect(detail.code).toBe('0000')
    // And the wall holds the other way: Minghui does not see Ningbo's order.
    const minghuiAdmin = await api('POST', LIST, await test.login('entadmin'), { pageNum: 1, pageSize: 100 })
    expect(minghuiAdmin.content.total).toBe(minghuiOrders)
  })
})
