import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import { addDays, DEFAULT_TIME_ZONE, dayIn } from '../../rules/calendar.ts'
import { buildApp } from '../../server/app.ts'
import { setupTestApp, TEST_PROXIES } from '../support/app.ts'
import { now as clockNow, today as tenantToday } from '../support/clock.ts'

const test = setupTestApp()

let address = 1
const inject = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  token?: string,
  payload?: unknown,
  options: { host?: string; ip?: string; app?: typeof test.app } = {},
) =>
  (options.app ?? test.app).inject({
    method,
    url,
    headers: {
      host: options.host ?? 'localhost',
      language: 'en_US',
      'x-forwarded-for': options.ip ?? `10.77.0.${address++ % 250}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  })

interface Priced {
  id: number
  rateNo: string
  carrier: string
  total: string
  currency: string
  transitDays: number
  nextDeparture: string | null
  validFrom: string
  validTo: string
  freight: { unitPrice: string; amount: string; currency: string }
  totalsByCurrency: Record<string, string>
  charges?: { code: string; converted: string; amount: string; currency: string }[]
  categories?: { category: string; amount: string }[]
}

async function search(payload: object, token?: string, options: Parameters<typeof inject>[4] = {}) {
  const body = (await inject('POST', '/api/price/public/api/rate/search', token, payload, options)).json()
  expect(body.code, JSON.stringify(body).slice(0, 300)).toBe('0000')
  return body.content as { list: Priced[]; total: number; currency: string | null; priceLevel: string | null }
}

const lane = { mode: 'FCL', origin: 'CNSHA', destination: 'USLAX', containerType: '45G1' }
// The tenant's day (Asia/Shanghai) on the server's clock, as the server judges validity.
const today = tenantToday()

describe('rate search', () => {
  it('finds the seeded lane for a visitor, only rates valid today, cheapest first and paged', async () => {
    const page = await search({ ...lane, pageSize: 100 })
    expect(page.total).toBeGreaterThan(3)
    expect(page.priceLevel).toBe('PUBLIC')
    for (const rate of page.list) {
      expect(rate.validFrom <= today && rate.validTo >= today).toBe(true)
    }
    const totals = page.list.map((r) => Number(r.total))
    expect(totals).toEqual([...totals].sort((a, b) => a - b))
    const second = await search({ ...lane, pageSize: 2, pageNum: 2 })
    expect(second.list.map((r) => r.id)).toEqual(page.list.slice(2, 4).map((r) => r.id))
  })

  it('sorts quickest and earliest, and filters by carrier', async () => {
    const quickest = await search({ ...lane, sort: 'quickest', pageSize: 100 })
    const days = quickest.list.map((r) => r.transitDays)
    expect(days).toEqual([...days].sort((a, b) => a - b))
    const earliest = await search({ ...lane, sort: 'earliest', pageSize: 100 })
    const departures = earliest.list.map((r) => r.nextDeparture ?? '9999')
    expect(departures).toEqual([...departures].sort())
    const carrier = quickest.list[0]?.carrier as string
    const one = await search({ ...lane, carrier: [carrier], pageSize: 100 })
    expect(one.total).toBeGreaterThan(0)
    expect(one.list.every((r) => r.carrier === carrier)).toBe(true)
  })

  it('shows charges as every item, major categories or none, all-in or freight only', async () => {
    const all = await search({ ...lane, chargeDisplay: 'all', currency: 'USD' })
    const first = all.list[0] as Priced
    expect(first.charges?.map((c) => c.code)).toContain('THC')
    const major = await search({ ...lane, chargeDisplay: 'major', currency: 'USD' })
    expect(major.list[0]?.categories?.map((c) => c.category)).toEqual(['origin', 'freight', 'destination'])
    expect(major.list[0]?.charges).toBeUndefined()
    const none = await search({ ...lane, chargeDisplay: 'none', allIn: false, currency: 'USD' })
    const same = none.list.find((r) => r.id === first.id) as Priced
    expect(same.charges).toBeUndefined()
    expect(same.total).toBe(same.freight.amount)
    expect(Number(first.total)).toBeGreaterThan(Number(same.total))
  })

  it('refuses a lane code that is not one', async () => {
    const response = await inject('POST', '/api/price/public/api/rate/search', undefined, {
      ...lane,
      origin: 'shanghai',
    })
    expect(response.json().code).toBe('validation')
  })
})

describe('price levels and exact conversion', () => {
  it("judges a rate valid today on the tenant's day: at 00:30 in Shanghai, when UTC is still yesterday", async () => {
    // The next half past midnight in Shanghai (UTC+8) on the server's clock: 16:30 UTC of the day before.
    const utcNow = clockNow()
    let at = Date.UTC(utcNow.getUTCFullYear(), utcNow.getUTCMonth(), utcNow.getUTCDate(), 16, 30)
    if (at <= utcNow.getTime()) at += 86_400_000
    const shanghaiDay = dayIn(new Date(at), DEFAULT_TIME_ZONE)
    expect(new Date(at).toISOString().slice(0, 10)).toBe(addDays(shanghaiDay, -1))
    const operator = await test.login('opadmin')
    const created = (
      await inject('POST', '/api/price/rate/add', operator, {
        rateNo: 'TEST-MIDNIGHT-1',
        mode: 'FCL',
        carrier: 'MAEU',
        pol: 'CNTAO',
        pod: 'USHNL',
        validFrom: shanghaiDay,
        validTo: shanghaiDay,
        currency: 'USD',
        chargeUnit: 'container',
        transitDays: 20,
        departureDays: '1,2,3,4,5,6,7',
        containerPrices: [{ containerType: '45G1', price: '2000' }],
      })
    ).json()
    expect(created.code, JSON.stringify(created)).toBe('0000')
    // The machine's time such that the server's clock (WAYBILL_NOW and on, or the machine's) reads `at`.
    vi.useFakeTimers({ toFake: ['Date'], now: at - (clockNow().getTime() - Date.now()) })
    try {
      const found = await search({ mode: 'FCL', origin: 'CNTAO', destination: 'USHNL', containerType: '45G1' })
      expect(found.list.map((rate) => rate.rateNo)).toEqual(['TEST-MIDNIGHT-1'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('prices by level and converts every line exactly (a total floats would get wrong)', async () => {
    const operator = await test.login('opadmin')
    const created = (
      await inject('POST', '/api/price/rate/add', operator, {
        rateNo: 'TEST-EXACT-1',
        mode: 'FCL',
        carrier: 'MAEU',
        pol: 'CNDLC',
        pod: 'USHNL',
        validFrom: today,
        validTo: today,
        currency: 'USD',
        chargeUnit: 'container',
        transitDays: 20,
        departureDays: '1,2,3,4,5,6,7',
        containerPrices: [{ containerType: '45G1', price: '2000' }],
        surcharges: [
          { code: 'THC', name: 'THC', category: 'origin', unit: 'container', amount: '1100', currency: 'CNY' },
          { code: 'DOC', name: 'DOC', category: 'origin', unit: 'shipment', amount: '0.10', currency: 'USD' },
          { code: 'ISP', name: 'ISPS', category: 'origin', unit: 'shipment', amount: '0.20', currency: 'USD' },
        ],
      })
    ).json()
    expect(created.code, JSON.stringify(created)).toBe('0000')
    const query = { mode: 'FCL', origin: 'CNDLC', destination: 'USHNL', containerType: '45G1' }

    // A visitor buys at the default level (PUBLIC, +10 %), the demo customer at KEY (+3 %).
    const visitor = await search({ ...query, currency: 'USD' })
    expect(visitor.list[0]?.freight.amount).toBe('2200.00')
    const customer = await test.login('entadmin')
    const mine = await search({ ...query, currency: 'EUR' }, customer)
    expect(mine.priceLevel).toBe('KEY')
    const rate = mine.list[0] as Priced
    expect(rate.freight).toEqual({ unitPrice: '2060.00', amount: '2060.00', currency: 'USD' })
    // 2060.00 USD × 7.12 / 7.785 = 1884.03; 1100 CNY / 7.785 = 141.30; 0.10 → 0.09; 0.20 → 0.18 EUR.
    expect(rate.charges?.map((c) => c.converted)).toEqual(['1884.03', '141.30', '0.09', '0.18'])
    expect(rate.total).toBe('2025.60')
    expect(rate.currency).toBe('EUR')
    // In its own currencies: 2060 + 0.1 + 0.2 is 2060.2999999999997 in floats.
    expect(rate.totalsByCurrency).toEqual({ USD: '2060.30', CNY: '1100.00' })

    // The caller's individuationCurrency applies when no currency is asked for.
    await test.database.db
      .updateTable('app_user')
      .set({ individuation_currency: 'JPY' })
      .where('username', '=', 'entadmin')
      .execute()
    const yen = await search(query, customer)
    expect(yen.currency).toBe('JPY')
    expect(yen.list[0]?.total).toMatch(/^\d+$/)
    await test.database.db
      .updateTable('app_user')
      .set({ individuation_currency: null })
      .where('username', '=', 'entadmin')
      .execute()
  })

  it('answers one rate priced for the caller', async () => {
    const page = await search({ ...lane, currency: 'USD' })
    const id = page.list[0]?.id as number
    const body = (
      await inject('GET', `/api/price/public/api/rate/detail?id=${id}&containerType=45G1&currency=USD`)
    ).json()
    expect(body.code).toBe('0000')
    expect(body.content.total).toBe(page.list[0]?.total)
  })
})

describe('visitor query allowance', () => {
  it('lets a visitor search visitorQueryLimit times a day, then refuses with 340002', async () => {
    const ip = '10.88.1.1'
    const allowance = (await inject('GET', '/api/price/public/api/rate/allowance', undefined, undefined, { ip })).json()
    expect(allowance.content).toMatchObject({ limited: true, limit: 20, used: 0 })
    for (let i = 0; i < 20; i++) {
      const response = await inject('POST', '/api/price/public/api/rate/search', undefined, lane, { ip })
      expect(response.json().code).toBe('0000')
    }
    const refused = (await inject('POST', '/api/price/public/api/rate/search', undefined, lane, { ip })).json()
    expect(refused.code).toBe('340002')
    expect(refused.message).toMatch(/queries/)
    // Another address still has its allowance; an enterprise user is never limited.
    expect(
      (await inject('POST', '/api/price/public/api/rate/search', undefined, lane, { ip: '10.88.1.2' })).json().code,
    ).toBe('0000')
    const customer = await test.login('entadmin')
    expect((await inject('POST', '/api/price/public/api/rate/search', customer, lane, { ip })).json().code).toBe('0000')
  })

  it('limits personal users when the tenant says so, and lets visitors search freely when unlimited', async () => {
    const db = test.database.db
    await sql`update tenant set settings = jsonb_set(jsonb_set(settings, '{configuration,personalQueryLimit}', '1'), '{configuration,visitorQueryLimit}', 'null') where code = 'demo'`.execute(
      db,
    )
    const app = await buildApp({ database: test.database, trustedProxies: TEST_PROXIES })
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/b2b/user/login',
        headers: { host: 'localhost', 'x-forwarded-for': '10.88.2.1', resource: '1' },
        payload: { username: 'personal', password: 'Demo@2026' },
      })
      const token = login.json().token as string
      expect((await inject('POST', '/api/price/public/api/rate/search', token, lane, { app })).json().code).toBe('0000')
      expect((await inject('POST', '/api/price/public/api/rate/search', token, lane, { app })).json().code).toBe(
        '340002',
      )
      for (let i = 0; i < 25; i++) {
        expect(
          (await inject('POST', '/api/price/public/api/rate/search', undefined, lane, { app, ip: '10.88.3.3' })).json()
            .code,
        ).toBe('0000')
      }
    } finally {
      await app.close()
    }
  })
})

describe('maintenance and isolation', () => {
  it('gates the rate list to operators who maintain rates', async () => {
    const customer = await test.login('entadmin')
    expect((await inject('POST', '/api/price/rate/list', customer, {})).statusCode).toBe(403)
    const operator = await test.login('opadmin')
    const list = (
      await inject('POST', '/api/price/rate/list', operator, { searchParams: { mode: 'AIR', originAirport: 'PVG' } })
    ).json()
    expect(list.code).toBe('0000')
    expect(list.content.total).toBeGreaterThan(10)
    expect(list.content.list.every((r: { originAirport: string }) => r.originAirport === 'PVG')).toBe(true)
  })

  it('acme sees none of the demo rates', async () => {
    const demo = await search({ ...lane, pageSize: 100 })
    const acme = await search({ ...lane, pageSize: 100 }, undefined, { host: 'acme.localhost' })
    expect(acme.total).toBe(3)
    expect(acme.list.every((r) => r.rateNo.startsWith('ACME-'))).toBe(true)
    const demoIds = new Set(demo.list.map((r) => r.id))
    expect(acme.list.some((r) => demoIds.has(r.id))).toBe(false)
    const id = demo.list[0]?.id as number
    expect(
      (
        await inject('GET', `/api/price/public/api/rate/detail?id=${id}`, undefined, undefined, {
          host: 'acme.localhost',
        })
      ).statusCode,
    ).toBe(404)
  })

  it('answers the home page special lines in order with their cheapest rate', async () => {
    const body = (await inject('GET', '/api/price/public/api/specialLines')).json()
    expect(body.code).toBe('0000')
    expect(body.content.map((l: { title: string }) => l.title)[0]).toBe('Shanghai → Los Angeles')
    expect(body.content.length).toBe(5)
    expect(body.content[0].cheapest.origin).toBe('CNSHA')
  })
})
