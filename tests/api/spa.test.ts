import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { today as tenantToday } from '../support/clock.ts'

const test = setupTestApp()

const call = (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object, host = 'localhost') =>
  test.app.inject({
    method,
    url,
    headers: { host, language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  })

async function ok(method: 'GET' | 'POST', url: string, token: string, payload?: object, host = 'localhost') {
  const body = (await call(method, url, token, payload, host)).json()
  expect(body.code, JSON.stringify(body).slice(0, 300)).toBe('0000')
  return body.content
}

// The tenant's day (Asia/Shanghai) on the server's clock, as the server judges validity.
const today = tenantToday()

/** A current rate on Shanghai → Los Angeles with a 40'HQ price, and one whose validity has ended. */
async function rates() {
  const db = test.database.db
  const rows = await db
    .selectFrom('freight_rate' as never)
    // As text: a PostgreSQL date comes as local midnight (the day before in UTC under TZ=Asia/Shanghai).
    .select([
      'id',
      sql<string>`to_char(valid_from, 'YYYY-MM-DD')`.as('valid_from'),
      sql<string>`to_char(valid_to, 'YYYY-MM-DD')`.as('valid_to'),
    ] as never[])
    .where('pol' as never, '=', 'CNSHA' as never)
    .where('pod' as never, '=', 'USLAX' as never)
    .where('mode' as never, '=', 'FCL' as never)
    .orderBy('id' as never)
    .execute()
  const typed = rows as unknown as { id: number; valid_to: string; valid_from: string }[]
  const current = typed.find((r) => r.valid_from <= today && r.valid_to >= today)
  const expired = typed.find((r) => r.valid_to < today)
  if (!current || !expired) throw new Error('seed: no current or no expired rate on CNSHA-USLAX')
  return { current: current.id, expired: expired.id }
}

describe('special-rate applications', () => {
  it('runs apply → counter-offer → accept → approve, keeping the thread with who and when', async () => {
    const { current } = await rates()
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const quote = await ok('GET', `/api/price/public/api/rate/detail?id=${current}&containerType=45G1`, customer)
    const list = quote.freight.unitPrice as string
    const target = (Number(list) - 300).toFixed(2)

    expect((await ok('GET', `/api/booking/spa/verifyFreightRates?rateId=${current}`, customer)).valid).toBe(true)
    const applied = await ok('POST', '/api/booking/spa/spaApply', customer, {
      rateId: current,
      containerType: '45G1',
      targetPrice: target,
      remark: 'Weekly 5 x 40HQ',
    })
    expect(applied).toMatchObject({
      state: 'pending',
      listPrice: `${list}0`,
      rateNo: quote.rateNo,
      createdByName: 'Chen Jing',
    })
    expect(applied.applicationNo).toMatch(/^SPA\d{6}\d{5}$/)
    expect(Number(applied.targetPrice)).toBe(Number(target))

    // The operator sees it for review; the customer cannot fire the operator's decision.
    const review = await ok('POST', '/api/booking/spa/listSpaReview', operator, {
      searchParams: { state: ['pending'] },
    })
    expect(review.list.map((r: { id: number }) => r.id)).toContain(applied.id)
    expect(
      (await call('POST', '/api/booking/spa/spaAudit', customer, { id: applied.id, version: 1, decision: 'approve' }))
        .statusCode,
    ).toBe(403)

    const countered = await ok('POST', '/api/booking/spa/spaAudit', operator, {
      id: applied.id,
      version: applied.version,
      decision: 'counterOffer',
      price: (Number(list) - 150).toFixed(3),
      remark: 'Best we can do this month',
    })
    expect(countered.state).toBe('reapply')
    // Accepting from a stale version is refused; from the current one it goes through.
    expect(
      (await call('POST', '/api/booking/spa/spaAccept', customer, { id: applied.id, version: applied.version })).json()
        .code,
    ).toBe('330002')
    const accepted = await ok('POST', '/api/booking/spa/spaAccept', customer, {
      id: applied.id,
      version: countered.version,
    })
    expect(accepted.state).toBe('accepted')
    const approved = await ok('POST', '/api/booking/spa/spaAudit', operator, {
      id: applied.id,
      version: accepted.version,
      decision: 'approve',
    })
    expect(approved.state).toBe('approved')
    expect(approved.approvedPrice).toBe(countered.counterPrice)

    // The customer's list shows it approved; the detail carries the thread.
    const mine = await ok('POST', '/api/booking/spa/listSpaApply', customer, { searchParams: { state: 'approved' } })
    expect(mine.list.map((r: { id: number }) => r.id)).toContain(applied.id)
    const detail = await ok('GET', `/api/booking/spa/getSpaById?id=${applied.id}`, customer)
    expect(detail.usable).toBe(true)
    expect(detail.thread.map((t: { action: string }) => t.action)).toEqual([
      'apply',
      'counterOffer',
      'accept',
      'approve',
    ])
    expect(detail.thread.map((t: { userName: string }) => t.userName)).toEqual([
      'Chen Jing',
      'Li Wei',
      'Chen Jing',
      'Li Wei',
    ])
    expect(detail.thread[1].price).toBe(countered.counterPrice)
    for (const entry of detail.thread) expect(Date.parse(entry.at)).toBeGreaterThan(0)

    // Approved is final: another decision is an illegal transition.
    expect(
      (
        await call('POST', '/api/booking/spa/spaAudit', operator, {
          id: applied.id,
          version: approved.version,
          decision: 'reject',
        })
      ).json().code,
    ).toBe('320001')
    expect(
      (await call('POST', '/api/booking/spa/spaCancel', customer, { id: applied.id, version: approved.version })).json()
        .code,
    ).toBe('320001')
  })

  it('withdraws and re-applies; validSpaReapply says when', async () => {
    const { current } = await rates()
    const customer = await test.login('entop')
    const applied = await ok('POST', '/api/booking/spa/spaApply', customer, {
      rateId: current,
      containerType: '45G1',
      targetPrice: '1000',
    })
    expect((await ok('GET', `/api/booking/spa/validSpaReapply?id=${applied.id}`, customer)).allowed).toBe(false)
    const withdrawn = await ok('POST', '/api/booking/spa/spaCancel', customer, {
      id: applied.id,
      version: applied.version,
    })
    expect(withdrawn.state).toBe('withdrawn')
    expect((await ok('GET', `/api/booking/spa/validSpaReapply?id=${applied.id}`, customer)).allowed).toBe(true)
    const again = await ok('POST', '/api/booking/spa/spaReapply', customer, {
      id: applied.id,
      version: withdrawn.version,
      targetPrice: '1100.5',
    })
    expect(again).toMatchObject({ state: 'pending', targetPrice: '1100.500' })
  })

  it('refuses an expired rate with "freight rate has expired"', async () => {
    const { expired } = await rates()
    const customer = await test.login('entadmin')
    const verify = (await call('GET', `/api/booking/spa/verifyFreightRates?rateId=${expired}`, customer)).json()
    expect(verify).toMatchObject({ code: '340001', message: 'Freight rate has expired' })
    const apply = (
      await call('POST', '/api/booking/spa/spaApply', customer, {
        rateId: expired,
        containerType: '45G1',
        targetPrice: '100',
      })
    ).json()
    expect(apply.code).toBe('340001')
  })

  it('refuses a price with more than 3 decimals and a target not below the list price', async () => {
    const { current } = await rates()
    const customer = await test.login('entadmin')
    const tooFine = (
      await call('POST', '/api/booking/spa/spaApply', customer, {
        rateId: current,
        containerType: '45G1',
        targetPrice: '100.1234',
      })
    ).json()
    expect(tooFine.code).toBe('validation')
    const tooHigh = (
      await call('POST', '/api/booking/spa/spaApply', customer, {
        rateId: current,
        containerType: '45G1',
        targetPrice: '9999999',
      })
    ).json()
    expect(tooHigh.code).toBe('validation')
  })

  it('keeps applications within the company and the tenant', async () => {
    const { current } = await rates()
    const entadmin = await test.login('entadmin')
    const applied = await ok('POST', '/api/booking/spa/spaApply', entadmin, {
      rateId: current,
      containerType: '45G1',
      targetPrice: '900',
    })
    // entop (data scope self) sees only their own; acme's users see nothing of demo's.
    const entop = await test.login('entop')
    expect((await call('GET', `/api/booking/spa/getSpaById?id=${applied.id}`, entop)).statusCode).toBe(404)
    const acmeOperator = await test.login('opadmin', 'acme.localhost')
    const acmeReview = await ok('POST', '/api/booking/spa/listSpaReview', acmeOperator, {}, 'acme.localhost')
    expect(acmeReview.total).toBe(0)
    expect(
      (await call('GET', `/api/booking/spa/getSpaById?id=${applied.id}`, acmeOperator, undefined, 'acme.localhost'))
        .statusCode,
    ).toBe(404)
    expect(
      (
        await call(
          'POST',
          '/api/booking/spa/spaApply',
          await test.login('entadmin', 'acme.localhost'),
          { rateId: current, containerType: '45G1', targetPrice: '900' },
          'acme.localhost',
        )
      ).statusCode,
    ).toBe(404)
    // The operator's own CS desk (data scope self) still reviews the tenant's applications.
    const opcs = await test.login('opcs')
    const desk = await ok('POST', '/api/booking/spa/listSpaReview', opcs, {})
    expect(desk.list.map((r: { id: number }) => r.id)).toContain(applied.id)
  })

  it('searches as every engine list does: % and _ are literal, unknown keys and page sizes are refused', async () => {
    const { current } = await rates()
    const customer = await test.login('entadmin')
    const apply = () =>
      ok('POST', '/api/booking/spa/spaApply', customer, { rateId: current, containerType: '45G1', targetPrice: '800' })
    const [percent, plain] = [await apply(), await apply()]
    // Two numbers that a `%` or `_` taken as a wildcard would both match.
    const db = test.database.db
    const number = (id: number, value: string) =>
      db
        .updateTable('spa_application' as never)
        .set({ application_no: value } as never)
        .where('id' as never, '=', id as never)
        .execute()
    await number(percent.id, 'LIT50%OFF')
    await number(plain.id, 'LIT50XOFF')
    const found = async (applicationNo: string) =>
      (await ok('POST', '/api/booking/spa/listSpaApply', customer, { searchParams: { applicationNo } })).list.map(
        (r: { id: number }) => r.id,
      )
    expect(await found('50%')).toEqual([percent.id])
    expect(await found('50_OFF')).toEqual([])
    expect((await found('lit50')).sort()).toEqual([percent.id, plain.id].sort())

    for (const path of ['/api/booking/spa/listSpaApply', '/api/booking/spa/listSpaReview']) {
      const who = path.endsWith('Apply') ? customer : await test.login('opadmin')
      const unknown = await call('POST', path, who, { searchParams: { customerName: 'x' } })
      expect(unknown.statusCode).toBe(400)
      expect(unknown.json().content.fieldErrors).toEqual([
        { field: 'searchParams.customerName', key: 'validation.unknownField', message: 'This field is not allowed' },
      ])
      for (const pageSize of [0, 201, 'ten'])
        expect((await call('POST', path, who, { pageSize })).json().code).toBe('validation')
    }
    const page = await ok('POST', '/api/booking/spa/listSpaApply', customer, { pageSize: 200 })
    expect(page.pageSize).toBe(200)
    expect(page.total).toBeGreaterThanOrEqual(2)
  })

  it('lists an approved application past its rate as expired, and filters by the state a reader sees', async () => {
    const { current } = await rates()
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const applied = await ok('POST', '/api/booking/spa/spaApply', customer, {
      rateId: current,
      containerType: '45G1',
      targetPrice: '700',
    })
    await ok('POST', '/api/booking/spa/spaAudit', operator, {
      id: applied.id,
      version: applied.version,
      decision: 'approve',
    })
    await test.database.db
      .updateTable('spa_application' as never)
      .set({ valid_to: '2020-01-31' } as never)
      .where('id' as never, '=', applied.id as never)
      .execute()
    const ids = async (state: string[]) =>
      (await ok('POST', '/api/booking/spa/listSpaReview', operator, { searchParams: { state }, pageSize: 200 })).list
    const expired = await ids(['expired'])
    expect(expired.find((r: { id: number }) => r.id === applied.id)).toMatchObject({
      state: 'expired',
      storedState: 'approved',
      customerCompanyName: expect.any(String),
      createdByName: 'Chen Jing',
    })
    expect((await ids(['approved'])).map((r: { id: number }) => r.id)).not.toContain(applied.id)
    // The detail reads the same computed state: expired is final, nothing can be fired, and its history says why.
    const detail = await ok('GET', `/api/booking/spa/getSpaById?id=${applied.id}`, operator)
    expect(detail).toMatchObject({ state: 'expired', storedState: 'approved', usable: false, transitions: [] })
    expect(detail.history.map((h: { transition?: string }) => h.transition)).toContain('approve')
    expect(
      (
        await call('POST', '/api/booking/spa/spaAudit', operator, { id: applied.id, version: 2, decision: 'reject' })
      ).json().code,
    ).toBe('320001')
  })
})
