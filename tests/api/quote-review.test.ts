import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { setupTestApp } from '../support/app.ts'
import { inDays } from '../support/clock.ts'
import { seaInquiry } from '../support/fixtures.ts'

/**
 * Issue #25's quote review and display modes, through the site settings an administrator saves on /operationSet:
 * with quoteReview on, an operator's quote is submitted, approved or turned back by a second operator (never its
 * author or its submitter) and only then sent; off, it is sent directly. The customer's quote answers carry only
 * what quoteDisplayItems / quoteDisplayCharges show.
 */

const test = setupTestApp()
const ACME = 'acme.localhost'

/**
 * The quote's writer: a second operations administrator, made as the tenant's administrator makes one (its
 * initial password from the invitation mail). opadmin (Li Wei) is the reviewer; opcs holds no quoteReview.
 */
let writerPassword = ''
beforeAll(async () => {
  const admin = await test.login('opadmin')
  const { rows } = await sql<{ id: number }>`
    select r.id from role r join tenant t on t.id = r.tenant_id
    where t.code = 'demo' and r.code = 'OperationAdministrator'`.execute(test.database.db)
  await ok(admin, 'POST', '/b2b/user/operationAccount/add', {
    username: 'opquote',
    realName: 'Zhou Jie',
    email: 'zhou.jie@demo.example',
    mobile: '13900007781',
    companyAppRoleId: rows[0]?.id,
    isUsed: true,
  })
  const mail = await sql<{ payload: unknown }>`
    select payload from outbox where kind = 'mail' and payload->>'to' = 'zhou.jie@demo.example'`.execute(
    test.database.db,
  )
  const text = outboxBody('mail', mail.rows[0]?.payload).text
  writerPassword = /initial password: (\S+?)\. Please/.exec(text)?.[1] ?? ''
  expect(writerPassword, text).toHaveLength(12)
})

let address = 0
async function writerToken(): Promise<string> {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/b2b/user/login',
    headers: { host: 'localhost', 'x-forwarded-for': `10.77.0.${++address}`, resource: '1' },
    payload: { username: 'opquote', password: writerPassword },
  })
  expect(response.json().code, response.body).toBe('0000')
  return response.json().token as string
}

type Method = 'GET' | 'POST'
type Envelope = { code: string; message: string; content: Record<string, unknown> }

async function api(token: string, method: Method, url: string, payload?: object, host = 'localhost') {
  const response = await test.app.inject({
    method,
    url: `/api${url}`,
    headers: { host, language: 'en_US', authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  })
  expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500)
  return response.json() as Envelope
}

async function ok(token: string, method: Method, url: string, payload?: object, host = 'localhost') {
  const body = await api(token, method, url, payload, host)
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

/** Saves site settings through /operationSet's own calls, as the tenant's administrator does. */
async function settings(values: Record<string, unknown>, host = 'localhost') {
  const admin = await test.login('opadmin', host)
  const page = await ok(admin, 'POST', '/b2b/site/settings/list', { pageNum: 1, pageSize: 1 }, host)
  const record = (page.list as Record<string, unknown>[])[0] as Record<string, unknown>
  await ok(admin, 'POST', '/b2b/site/settings/save', { ...record, ...values }, host)
}

const FREIGHT = {
  chargeType: 'freight',
  name: 'Ocean freight 40HQ',
  quantity: 2,
  unit: 'container',
  unitPrice: '1850.50',
  currency: 'USD',
}

function quote(inquiryId: number, charges: object[] = [FREIGHT], extra: object = {}) {
  return {
    inquiry: inquiryId,
    transportMode: 1,
    clientType: 'formal',
    contactName: 'Zhang Min',
    validUntil: inDays(14),
    currency: 'USD',
    charges,
    carrier: 'COSU',
    transitDays: 18,
    lowFeeConfirmed: true,
    ...extra,
  }
}

async function newInquiry(host = 'localhost'): Promise<number> {
  const customer = await test.login('entadmin', host)
  const saved = await ok(
    customer,
    'POST',
    '/booking/inquiry/save',
    seaInquiry({ destination: 'BRSSZ', transportModes: [1], contactName: 'Chen Jing' }),
    host,
  )
  return saved.id as number
}

const fire = (token: string, row: Record<string, unknown>, transition: string, input?: object, host = 'localhost') =>
  api(token, 'POST', '/quote/transition', { id: row.id, version: row.version, transition, input }, host)

async function customerQuotes(inquiryId: number, host = 'localhost') {
  const customer = await test.login('entadmin', host)
  const content = await ok(customer, 'GET', `/b2b/quote/listByInquiry?id=${inquiryId}`, undefined, host)
  return content.list as Record<string, unknown>[]
}

describe('quote review by a second operator', () => {
  it('with the setting off, a quote is sent directly and submitting one is refused', async () => {
    await settings({ quoteReview: false })
    const writer = await writerToken()
    const inquiryId = await newInquiry()
    const draft = await ok(writer, 'POST', '/b2b/quote/add', quote(inquiryId))
    const refused = await fire(writer, draft, 'submit')
    expect([refused.code, refused.message]).toEqual([
      '320005',
      'Quotes are not reviewed on this site: send the quote directly',
    ])
    const sent = (await fire(writer, draft, 'send')).content
    expect(sent).toMatchObject({ state: 'quoted', review: null })
    expect((await customerQuotes(inquiryId)).map((q) => q.quoteNo)).toEqual([draft.quoteNo])
  })

  it('with it on: not sent unapproved; approved by a second operator, never by its author or submitter', async () => {
    await settings({ quoteReview: true })
    const writer = await writerToken()
    const reviewer = await test.login('opadmin')
    const inquiryId = await newInquiry()
    const draft = await ok(writer, 'POST', '/b2b/quote/add', quote(inquiryId))

    const unapproved = await fire(writer, draft, 'send')
    expect([unapproved.code, unapproved.message]).toEqual([
      '320004',
      'This quote must be approved by a second operator before it is sent',
    ])
    const submitted = (await fire(writer, draft, 'submit')).content
    expect(submitted).toMatchObject({ state: 'submitted', review: 'pending' })
    // The editor is told the site asks for reviews; the customer sees nothing under review.
    expect(await ok(writer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)).toMatchObject({ reviewRequired: true })
    expect(await customerQuotes(inquiryId)).toEqual([])
    // Without quoteReview no one approves; sending a submitted quote is not a move of its state machine.
    expect((await fire(await test.login('opcs'), submitted, 'approve')).code).toBe('220000')
    expect((await fire(writer, submitted, 'approve')).code).toBe('320006')
    expect((await fire(writer, submitted, 'send')).code).toBe('320001')

    // The review queue lists it, and only quotes under review.
    const queue = async () =>
      (await ok(reviewer, 'POST', '/b2b/quote/reviewList', { pageSize: 200 })).list as {
        quoteNo: string
        state: string
      }[]
    expect((await queue()).map((q) => q.quoteNo)).toContain(draft.quoteNo)
    expect(new Set((await queue()).map((q) => q.state))).toEqual(new Set(['submitted']))
    expect((await api(await test.login('opcs'), 'POST', '/b2b/quote/reviewList', {})).code).toBe('220000')

    const approved = (await fire(reviewer, submitted, 'approve')).content
    expect(approved).toMatchObject({ state: 'approved', review: 'approved' })
    expect((await queue()).map((q) => q.quoteNo)).not.toContain(draft.quoteNo)
    const sent = (await fire(writer, approved, 'send')).content
    expect(sent).toMatchObject({ state: 'quoted', review: 'approved' })
    expect((await customerQuotes(inquiryId)).map((q) => q.state)).toEqual(['quoted'])

    // Who did what is the quote's history, newest first.
    const item = await ok(writer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)
    const steps = (item.history as { transition: string | null; userName: string }[])
      .filter((h) => h.transition)
      .map((h) => `${h.transition} ${h.userName}`)
    expect(steps).toEqual(['send Zhou Jie', 'approve Li Wei', 'submit Zhou Jie'])

    // The reviewer's own quote, and a quote the reviewer submitted, are someone else's to approve.
    const own = await ok(reviewer, 'POST', '/b2b/quote/add', quote(inquiryId))
    const ownSubmitted = (await fire(reviewer, own, 'submit')).content
    const refused = await fire(reviewer, ownSubmitted, 'approve')
    expect([refused.code, refused.message]).toEqual([
      '320006',
      'A quote is reviewed by a second operator, not by its author or the operator who submitted it',
    ])
    const theirs = await ok(writer, 'POST', '/b2b/quote/add', quote(inquiryId))
    const submittedByReviewer = (await fire(reviewer, theirs, 'submit')).content
    expect((await fire(reviewer, submittedByReviewer, 'decline', { remark: 'x' })).code).toBe('320006')
    // Nothing moved: both still await review.
    expect((await ok(writer, 'GET', `/b2b/quote/getItem?id=${own.id}`)).state).toBe('submitted')
    expect((await ok(writer, 'GET', `/b2b/quote/getItem?id=${theirs.id}`)).state).toBe('submitted')
  })

  it('turned back with a reason: hidden from the customer, edited and submitted again', async () => {
    await settings({ quoteReview: true })
    const writer = await writerToken()
    const reviewer = await test.login('opadmin')
    const inquiryId = await newInquiry()
    const draft = await ok(writer, 'POST', '/b2b/quote/add', quote(inquiryId))
    const submitted = (await fire(writer, draft, 'submit')).content

    const noReason = await fire(reviewer, submitted, 'decline', {})
    expect(noReason.code).toBe('validation')
    expect(noReason.content.fieldErrors).toEqual([expect.objectContaining({ field: 'remark' })])
    const declined = (await fire(reviewer, submitted, 'decline', { remark: 'Origin charges are missing the THC' }))
      .content
    expect(declined).toMatchObject({ state: 'rejected', review: 'rejected' })
    // Rejected, but never sent: the customer neither lists it nor reads it.
    expect(await customerQuotes(inquiryId)).toEqual([])
    const customer = await test.login('entadmin')
    expect((await api(customer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)).code).toBe('404')

    const item = await ok(writer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)
    expect((item.history as { transition: string; remark: string; userName: string }[])[0]).toMatchObject({
      transition: 'decline',
      remark: 'Origin charges are missing the THC',
      userName: 'Li Wei',
    })
    const edited = await ok(writer, 'POST', '/b2b/quote/save', {
      id: declined.id,
      version: declined.version,
      charges: [
        FREIGHT,
        { ...FREIGHT, chargeType: 'origin', name: 'THC Shanghai', quantity: 2, unitPrice: '850', currency: 'CNY' },
      ],
    })
    expect(edited.subtotals).toEqual([
      { currency: 'USD', amount: '3701.00' },
      { currency: 'CNY', amount: '1700.00' },
    ])
    expect((await fire(writer, edited, 'submit')).content).toMatchObject({ state: 'submitted', review: 'pending' })
  })

  it('a quote the customer rejected stays theirs to see and is not edited; another tenant reviews none of ours', async () => {
    await settings({ quoteReview: true })
    const writer = await writerToken()
    const reviewer = await test.login('opadmin')
    const inquiryId = await newInquiry()
    const draft = await ok(writer, 'POST', '/b2b/quote/add', quote(inquiryId))
    const submitted = (await fire(writer, draft, 'submit')).content
    // acme's reviewer cannot find demo's quote; acme's own setting is its own (off: it sends directly).
    const acmeReviewer = await test.login('opadmin', ACME)
    expect((await fire(acmeReviewer, submitted, 'approve', undefined, ACME)).code).toBe('404')
    const acmeInquiry = await newInquiry(ACME)
    const acmeQuote = await ok(acmeReviewer, 'POST', '/b2b/quote/add', quote(acmeInquiry), ACME)
    expect((await fire(acmeReviewer, acmeQuote, 'send', undefined, ACME)).content).toMatchObject({ state: 'quoted' })

    const approved = (await fire(reviewer, submitted, 'approve')).content
    const sent = (await fire(writer, approved, 'send')).content
    const customer = await test.login('entadmin')
    const rejected = (await fire(customer, sent, 'reject')).content
    expect(rejected).toMatchObject({ state: 'rejected', review: null })
    expect((await ok(writer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)).review).toBe('approved')
    expect((await customerQuotes(inquiryId)).map((q) => q.state)).toEqual(['rejected'])
    const edit = await api(writer, 'POST', '/b2b/quote/save', {
      id: rejected.id,
      version: rejected.version,
      transitDays: 20,
    })
    expect(edit.code).toBe('320001')
  })
})

describe('quote display modes: what the customer is answered', () => {
  /** Freight in yen (two lines), an origin charge in dollars and a destination charge in won; the quote in yen. */
  const LINES = [
    { ...FREIGHT, quantity: 3, unitPrice: '1234.5', currency: 'JPY' },
    { ...FREIGHT, name: 'Bunker surcharge', quantity: 1, unitPrice: '500', currency: 'JPY' },
    { ...FREIGHT, chargeType: 'origin', name: 'Terminal handling', quantity: 1, unitPrice: '100', currency: 'USD' },
    {
      ...FREIGHT,
      chargeType: 'destination',
      name: 'Delivery Santos',
      quantity: 1.5,
      unitPrice: '33333',
      currency: 'KRW',
    },
  ]

  async function sentQuote(): Promise<{ inquiryId: number; id: number }> {
    await settings({ quoteReview: false })
    const writer = await writerToken()
    const inquiryId = await newInquiry()
    const draft = await ok(writer, 'POST', '/b2b/quote/add', quote(inquiryId, LINES, { currency: 'JPY' }))
    // 3704 + 500 yen; 100 dollars and 50000 won converted at the demo rates: 24648 yen all-in, 4204 freight.
    expect([draft.total, draft.freightTotal]).toEqual(['24648.000', '4204.000'])
    await fire(writer, draft, 'send')
    return { inquiryId, id: draft.id as number }
  }

  async function seen(inquiryId: number, id: number) {
    const customer = await test.login('entadmin')
    const [listed] = await customerQuotes(inquiryId)
    const item = await ok(customer, 'GET', `/b2b/quote/getItem?id=${id}`)
    for (const row of [listed, item]) expect(row).not.toHaveProperty('freightTotal')
    return { listed: listed as Record<string, unknown>, item }
  }

  it('every item, all-in: every line and the stored total', async () => {
    const { inquiryId, id } = await sentQuote()
    await settings({ quoteDisplayItems: 'every', quoteDisplayCharges: 'allIn' })
    const { listed, item } = await seen(inquiryId, id)
    for (const row of [listed, item]) {
      expect((row.charges as { amount: string }[]).map((c) => c.amount)).toEqual(['3704', '500', '100.00', '50000'])
      expect([row.total, row.categories, row.displayItems, row.displayCharges]).toEqual([
        '24648.000',
        [],
        'every',
        'allIn',
      ])
    }
  })

  it('major category only: no line in the answer, one sum per category and currency', async () => {
    const { inquiryId, id } = await sentQuote()
    await settings({ quoteDisplayItems: 'category', quoteDisplayCharges: 'allIn' })
    const { listed, item } = await seen(inquiryId, id)
    for (const row of [listed, item]) {
      expect(row.charges).toEqual([])
      expect(row.categories).toEqual([
        { chargeType: 'freight', currency: 'JPY', amount: '4204' },
        { chargeType: 'origin', currency: 'USD', amount: '100.00' },
        { chargeType: 'destination', currency: 'KRW', amount: '50000' },
      ])
      expect(row.total).toBe('24648.000')
    }
  })

  it('none, freight only: no line nor category, only the freight lines’ subtotal and total', async () => {
    const { inquiryId, id } = await sentQuote()
    await settings({ quoteDisplayItems: 'none', quoteDisplayCharges: 'freightOnly' })
    const { listed, item } = await seen(inquiryId, id)
    for (const row of [listed, item]) {
      expect([row.charges, row.categories]).toEqual([[], []])
      expect(row.subtotals).toEqual([{ currency: 'JPY', amount: '4204' }])
      expect(row.total).toBe('4204.000')
      expect(JSON.stringify(row)).not.toContain('Terminal handling')
    }
    // The engine's answer to the customer's own reject carries no more than they are shown.
    const customer = await test.login('entadmin')
    const rejected = (await fire(customer, listed, 'reject')).content
    expect(rejected).toMatchObject({
      state: 'rejected',
      charges: [],
      subtotals: [{ currency: 'JPY', amount: '4204' }],
      total: '4204.000',
      freightTotal: null,
      review: null,
    })
    expect(JSON.stringify(rejected)).not.toMatch(/Terminal handling|24648/)
    // The operator still reads the whole quote.
    const operator = await ok(await test.login('opadmin'), 'GET', `/b2b/quote/getItem?id=${id}`)
    expect([(operator.charges as unknown[]).length, operator.total]).toEqual([4, '24648.000'])
  })
})
