import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { EVENT_NAMES, notifyEvent } from '../../server/domain/letters/events.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { directFcl } from '../support/booking.ts'
import { bearerCalls } from '../support/calls.ts'
import { today } from '../support/clock.ts'
import { seaInquiry, seaQuote } from '../support/fixtures.ts'

/**
 * Issue #22: business events write in-app letters (and mail in the outbox) in the transaction of the change,
 * to the right people in their language, as each chose in /letterManage.
 */

const test = setupTestApp()

const { call, ok } = bearerCalls(test)

interface Letter {
  id: number
  title: string
  content: string
  link: string
  event: string
  status: number
}

let demo = 0
let acme = 0
const ids: Record<string, number> = {}

async function userOf(tenant: number, username: string) {
  return withTenant(test.database.db, tenant, (trx) =>
    trx.selectFrom('app_user').select(['id', 'email']).where('username', '=', username).executeTakeFirstOrThrow(),
  )
}

beforeAll(async () => {
  const db = test.database.db
  demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  acme = (await db.selectFrom('tenant').select('id').where('code', '=', 'acme').executeTakeFirstOrThrow()).id
  for (const name of ['entadmin', 'entop', 'opadmin', 'opcs', 'nbclerk', 'personal', 'platform'])
    ids[name] = (await userOf(demo, name)).id
  ids.acmeEntadmin = (await userOf(acme, 'entadmin')).id
  // entadmin reads English; entop chose nothing, so the tenant's default (Chinese) is theirs.
  await withTenant(db, demo, (trx) =>
    trx
      .updateTable('app_user')
      .set({ language: 'en' })
      .where('id', '=', ids.entadmin as number)
      .execute(),
  )
})

/** The letters a user got of an event since an id (the seed's letters have none). */
async function lettersOf(tenant: number, user: number, event: string, after = 0): Promise<Letter[]> {
  const { rows } = await withTenant(test.database.db, tenant, (trx) =>
    sql<Letter>`select id, title, content, link, event, status from letter
      where recipient = ${user} and event = ${event} and id > ${after} order by id`.execute(trx),
  )
  return rows
}

async function mailsTo(tenant: number, email: string, event: string): Promise<Record<string, unknown>[]> {
  const { rows } = await withTenant(test.database.db, tenant, (trx) =>
    sql<{ payload: Record<string, unknown> }>`select payload from outbox
      where kind = 'mail' and payload->>'to' = ${email} and payload->>'event' = ${event} order by id`.execute(trx),
  )
  return rows.map((row) => row.payload)
}

/** Everybody of both tenants who got a letter of the event after an id. */
async function everyoneOf(event: string, after: number): Promise<number[]> {
  const all: number[] = []
  for (const tenant of [demo, acme]) {
    const { rows } = await withTenant(test.database.db, tenant, (trx) =>
      sql<{ recipient: number }>`select recipient from letter where event = ${event} and id > ${after}`.execute(trx),
    )
    all.push(...rows.map((row) => row.recipient))
  }
  return all.sort((a, b) => a - b)
}

async function lastLetterId(): Promise<number> {
  let max = 0
  for (const tenant of [demo, acme]) {
    const { rows } = await withTenant(test.database.db, tenant, (trx) =>
      sql<{ max: number | null }>`select max(id) as max from letter`.execute(trx),
    )
    max = Math.max(max, rows[0]?.max ?? 0)
  }
  return max
}

const sorted = (...users: (number | undefined)[]) => (users as number[]).sort((a, b) => a - b)

describe('an order confirmed', () => {
  it("tells the customer's users in their language, with a link, and queues a mail in the same transaction", async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const before = await lastLetterId()
    const unread = (await ok('POST', '/api/b2b/letter/list', customer, {})).unread as number
    const order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    const accepted = await ok('POST', '/api/booking/order/fcl/comfirm', operator, {
      id: order.id,
      version: order.version,
    })
    expect(accepted.state).toBe('accepted')

    // The customer's company (entadmin and entop) hears it; the operator who confirmed, another company's
    // user and another tenant's users do not.
    expect(await everyoneOf('orderAccepted', before)).toEqual(sorted(ids.entadmin, ids.entop))
    const page = await ok('POST', '/api/b2b/letter/list', customer, {})
    expect(page.unread).toBe(unread + 1)
    expect(page.list[0]).toMatchObject({
      title: `Order ${order.orderNo} confirmed`,
      contentWithoutBR: `Your order ${order.orderNo} has been confirmed. We will book the space for you shortly.`,
      link: `/orderDetails?id=${order.id}`,
      status: 0,
    })
    const [chinese] = await lettersOf(demo, ids.entop as number, 'orderAccepted', before)
    expect(chinese?.title).toBe(`订单 ${order.orderNo} 已受理`)

    // Mail is on by default for a confirmed order: one rendered mail per recipient with an address.
    const entadmin = await userOf(demo, 'entadmin')
    const mails = await mailsTo(demo, entadmin.email as string, 'orderAccepted')
    expect(mails.at(-1)).toMatchObject({
      to: entadmin.email,
      subject: `Order ${order.orderNo} confirmed`,
      language: 'en',
      link: `/orderDetails?id=${order.id}`,
    })
    expect(String(mails.at(-1)?.text)).toContain('has been confirmed.\nWe will book')
  })

  it('writes neither letter nor mail when the change rolls back', async () => {
    const before = await lastLetterId()
    const entadmin = await userOf(demo, 'entadmin')
    const mailsBefore = (await mailsTo(demo, entadmin.email as string, 'orderRejected')).length
    const company = await withTenant(test.database.db, demo, (trx) =>
      trx
        .selectFrom('app_user')
        .select('company_id')
        .where('id', '=', ids.entadmin as number)
        .executeTakeFirstOrThrow(),
    )
    await expect(
      withTenant(test.database.db, demo, async (trx) => {
        const written = await notifyEvent(trx, 'orderRejected', {
          tenantId: demo,
          record: { id: 1, orderNo: 'HY0000000001', customerCompany: company.company_id, transportMode: 1 },
        })
        expect(written.letters).toContain(ids.entadmin)
        expect(written.outbox.length).toBeGreaterThan(0)
        throw new Error('the change fails after the letters were written')
      }),
    ).rejects.toThrow('the change fails')
    expect(await everyoneOf('orderRejected', before)).toEqual([])
    expect(await mailsTo(demo, entadmin.email as string, 'orderRejected')).toHaveLength(mailsBefore)
  })

  it('sends no mail to a user who turned mail off, and still the letter', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const settings = await ok('POST', '/api/b2b/letter/setting/list', customer, {})
    const row = settings.list.find((r: { event: string }) => r.event === 'orderAccepted')
    expect(row).toMatchObject({ inApp: true, mail: true, weChat: false })
    const saved = await ok('POST', '/api/b2b/letter/setting/save', customer, { id: row.id, mail: false })
    expect(saved).toMatchObject({ event: 'orderAccepted', inApp: true, mail: false, weChat: false })

    const entadmin = await userOf(demo, 'entadmin')
    const entop = await userOf(demo, 'entop')
    const mine = (await mailsTo(demo, entadmin.email as string, 'orderAccepted')).length
    const theirs = (await mailsTo(demo, entop.email as string, 'orderAccepted')).length
    const before = await lastLetterId()
    const order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    await ok('POST', '/api/booking/order/fcl/comfirm', operator, { id: order.id, version: order.version })
    expect(await lettersOf(demo, ids.entadmin as number, 'orderAccepted', before)).toHaveLength(1)
    expect(await mailsTo(demo, entadmin.email as string, 'orderAccepted')).toHaveLength(mine)
    // entop kept the default.
    expect(await mailsTo(demo, entop.email as string, 'orderAccepted')).toHaveLength(theirs + 1)

    // In-app off too: no letter either.
    await ok('POST', '/api/b2b/letter/setting/save', customer, { id: row.id, inApp: false })
    const again = await lastLetterId()
    const next = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    await ok('POST', '/api/booking/order/fcl/comfirm', operator, { id: next.id, version: next.version })
    expect(await everyoneOf('orderAccepted', again)).toEqual(sorted(ids.entop))
    await ok('POST', '/api/b2b/letter/setting/save', customer, { id: row.id, inApp: true, mail: true })
  })
})

describe('each event reaches its people and nobody else', () => {
  it('order submitted: the desk (users holding orderList), not the customer who submitted', async () => {
    const customer = await test.login('entadmin')
    const before = await lastLetterId()
    const order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    const desk = await everyoneOf('orderSubmitted', before)
    expect(desk).toContain(ids.opadmin)
    expect(desk).not.toContain(ids.entadmin)
    expect(desk).not.toContain(ids.entop)
    expect(desk).not.toContain(ids.nbclerk)
    expect(desk).not.toContain(ids.acmeEntadmin)
    const [letter] = await lettersOf(demo, ids.opadmin as number, 'orderSubmitted', before)
    expect(letter).toMatchObject({
      title: `订单 ${order.orderNo} 已提交`,
      link: `/orderDetailsOperator?id=${order.id}`,
    })
  })

  it('order rejected and returned: the customer, with the operator’s remark', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    for (const [transition, event, words] of [
      ['reject', 'orderRejected', 'has been rejected.'],
      ['sendBack', 'orderReturned', 'has been returned to you for changes.'],
    ] as const) {
      const before = await lastLetterId()
      const order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
      const done = await ok('POST', '/api/order/transition', operator, {
        id: order.id,
        version: order.version,
        transition,
        remark: 'Space is full on this sailing',
      })
      expect(done.state).toBe(transition === 'reject' ? 'rejected' : 'returned')
      expect(await everyoneOf(event, before)).toEqual(sorted(ids.entadmin, ids.entop))
      const [letter] = await lettersOf(demo, ids.entadmin as number, event, before)
      expect(letter?.content).toBe(`Your order ${order.orderNo} ${words}<br>Space is full on this sailing`)
    }
  })

  it('quote sent: the first answers the inquiry (inquiry quoted), a later one is a quote sent', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const inquiry = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry({ tradeTerm: 'FOB' }))
    const quoteOf = async () => ok('POST', '/api/b2b/quote/add', operator, seaQuote(inquiry.id))
    const before = await lastLetterId()
    const first = await quoteOf()
    await ok('POST', '/api/quote/transition', operator, { id: first.id, version: first.version, transition: 'send' })
    expect(await everyoneOf('inquiryQuoted', before)).toEqual(sorted(ids.entadmin, ids.entop))
    expect(await everyoneOf('quoteSent', before)).toEqual([])
    const [letter] = await lettersOf(demo, ids.entadmin as number, 'inquiryQuoted', before)
    expect(letter).toMatchObject({
      title: `Your inquiry has a quote: ${first.quoteNo}`,
      link: `/inquiryQuotes?inquiry=${inquiry.id}`,
    })
    const second = await quoteOf()
    const between = await lastLetterId()
    await ok('POST', '/api/quote/transition', operator, { id: second.id, version: second.version, transition: 'send' })
    expect(await everyoneOf('quoteSent', between)).toEqual(sorted(ids.entadmin, ids.entop))
    expect(await everyoneOf('inquiryQuoted', between)).toEqual([])
  })

  it('special rate countered, approved and rejected: the applicant’s company', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { rows } = await withTenant(test.database.db, demo, (trx) =>
      sql<{ id: number }>`select id from freight_rate where pol = 'CNSHA' and pod = 'USLAX' and mode = 'FCL'
        and valid_from <= ${today()}::date and valid_to >= ${today()}::date order by id limit 1`.execute(trx),
    )
    const rateId = rows[0]?.id as number
    const quote = await ok('GET', `/api/price/public/api/rate/detail?id=${rateId}&containerType=45G1`, customer)
    const apply = () =>
      ok('POST', '/api/booking/spa/spaApply', customer, {
        rateId,
        containerType: '45G1',
        targetPrice: (Number(quote.freight.unitPrice) - 300).toFixed(2),
      })
    const a = await apply()
    let before = await lastLetterId()
    const countered = await ok('POST', '/api/booking/spa/spaAudit', operator, {
      id: a.id,
      version: a.version,
      decision: 'counterOffer',
      price: (Number(quote.freight.unitPrice) - 150).toFixed(2),
      remark: 'Best we can do this month',
    })
    expect(await everyoneOf('spaCountered', before)).toEqual(sorted(ids.entadmin, ids.entop))
    const [letter] = await lettersOf(demo, ids.entadmin as number, 'spaCountered', before)
    expect(letter).toMatchObject({
      title: `Counter-offer on special rate ${a.applicationNo}`,
      content: `Your special rate application ${a.applicationNo} has a counter-offer.<br>Best we can do this month`,
      link: `/spaDetails?id=${a.id}`,
    })
    const accepted = await ok('POST', '/api/booking/spa/spaAccept', customer, { id: a.id, version: countered.version })
    before = await lastLetterId()
    await ok('POST', '/api/booking/spa/spaAudit', operator, {
      id: a.id,
      version: accepted.version,
      decision: 'approve',
    })
    expect(await everyoneOf('spaApproved', before)).toEqual(sorted(ids.entadmin, ids.entop))
    const b = await apply()
    before = await lastLetterId()
    await ok('POST', '/api/booking/spa/spaAudit', operator, {
      id: b.id,
      version: b.version,
      decision: 'reject',
      remark: 'No space',
    })
    expect(await everyoneOf('spaRejected', before)).toEqual(sorted(ids.entadmin, ids.entop))
  })
})

describe('a request to join an enterprise', () => {
  it("tells the enterprise's reviewers, not its other users nor the forwarder's desk, and opens the request", async () => {
    const personal = await test.login('personal')
    const admin = await test.login('entadmin')
    const before = await lastLetterId()
    const unknown = (await call('POST', '/api/joinRequest/add', personal, { enterpriseCode: 'NO-SUCH-CO' })).json()
    expect(unknown.code).not.toBe('0000')
    // A refused request tells nobody.
    expect(await everyoneOf('joinRequest', before)).toEqual([])

    const asked = await ok('POST', '/api/joinRequest/add', personal, {
      enterpriseCode: '杭州明辉纺织品进出口有限公司',
      message: '我是刘洋',
    })
    // Minghui's administrator holds enterpriseInvite; entop (its operation user), the desk and the other
    // enterprises' users do not hear of it.
    expect(await everyoneOf('joinRequest', before)).toEqual([ids.entadmin])
    const [letter] = await lettersOf(demo, ids.entadmin as number, 'joinRequest', before)
    expect(letter).toMatchObject({
      title: 'Liu Yang asks to join your enterprise',
      link: `/joinRequestDetail?id=${asked.id}`,
      status: 0,
    })
    // The link opens the request for its reviewer, who may decide it there.
    const detail = await ok('GET', `/api/joinRequest/detail?id=${asked.id}`, admin)
    expect(detail).toMatchObject({ id: asked.id, state: 'pending' })
    // Asking again is refused, and tells nobody a second time.
    const again = (
      await call('POST', '/api/joinRequest/add', personal, { enterpriseCode: '杭州明辉纺织品进出口有限公司' })
    ).json()
    expect(again.code).not.toBe('0000')
    expect(await everyoneOf('joinRequest', before)).toEqual([ids.entadmin])
  })
})

describe('receiving settings (/letterManage)', () => {
  it('knows the same events as the catalogue, in its order, and numbers no row past it', () => {
    const manifest = loadManifest()
    const values = manifest.entities.letterSetting?.fields.event?.values?.map((v) => v.value)
    expect(values).toEqual(EVENT_NAMES)
    expect(manifest.entities.letterSettingChange?.fields.id?.maximum).toBe(EVENT_NAMES.length)
  })

  it('lists every event with its defaults, each user their own', async () => {
    const token = await test.login('opcs')
    const page = await ok('POST', '/api/b2b/letter/setting/list', token, {})
    expect(page.total).toBe(EVENT_NAMES.length)
    const byEvent = Object.fromEntries(
      page.list.map((r: { event: string; inApp: boolean; mail: boolean }) => [r.event, [r.inApp, r.mail]]),
    )
    expect(byEvent).toMatchObject({
      orderAccepted: [true, true],
      orderRejected: [true, true],
      quoteSent: [true, true],
      orderSubmitted: [true, false],
      spaApproved: [true, false],
    })
  })

  it('refuses an unknown event or a channel that is not on or off, and changes nothing', async () => {
    const token = await test.login('entop')
    const codes: string[] = []
    for (const bad of [
      { id: 0 },
      { id: EVENT_NAMES.length + 1, mail: true },
      { id: 'x' },
      { id: 4, mail: 'yes' },
      { mail: true },
    ]) {
      const response = await call('POST', '/api/b2b/letter/setting/save', token, bad)
      const body = response.json()
      expect(response.statusCode, JSON.stringify(bad)).toBeLessThan(500)
      expect(body.code, JSON.stringify(bad)).not.toBe('0000')
      codes.push(body.code)
    }
    // An event number past the catalogue, a field of the wrong type or none: each the validation answer.
    expect(codes).toEqual(['validation', 'validation', 'validation', 'validation', 'validation'])
    const { rows } = await withTenant(test.database.db, demo, (trx) =>
      sql<{ n: number }>`select count(*)::int as n from letter_setting where recipient = ${ids.entop}`.execute(trx),
    )
    expect(rows[0]?.n).toBe(0)
  })

  it("changes only the caller's row: another user and another tenant keep their defaults", async () => {
    const token = await test.login('opcs')
    await ok('POST', '/api/b2b/letter/setting/save', token, { id: 3, inApp: false, weChat: true })
    const mine = await ok('POST', '/api/b2b/letter/setting/list', token, {})
    expect(mine.list[2]).toMatchObject({ event: 'orderSubmitted', inApp: false, mail: false, weChat: true })
    const colleague = await ok('POST', '/api/b2b/letter/setting/list', await test.login('opadmin'), {})
    expect(colleague.list[2]).toMatchObject({ event: 'orderSubmitted', inApp: true, weChat: false })
    const acmeToken = await test.login('entadmin', 'acme.localhost')
    const other = await ok('POST', '/api/b2b/letter/setting/list', acmeToken, {}, { host: 'acme.localhost' })
    expect(other.list[2]).toMatchObject({ event: 'orderSubmitted', inApp: true, weChat: false })
    // And opcs no longer gets the desk's letter of a submitted order.
    const before = await lastLetterId()
    await ok('POST', '/api/booking/order/add', await test.login('entadmin'), { ...directFcl(), submit: true })
    const desk = await everyoneOf('orderSubmitted', before)
    expect(desk).toContain(ids.opadmin)
    expect(desk).not.toContain(ids.opcs)
  })
})
