import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { inDays } from '../support/clock.ts'
import { seaInquiry } from '../support/fixtures.ts'

const test = setupTestApp()
const ACME = 'acme.localhost'

type Method = 'GET' | 'POST' | 'DELETE'

async function api(token: string, method: Method, url: string, payload?: object, host = 'localhost') {
  const response = await test.app.inject({
    method,
    url: `/api${url}`,
    headers: { host, language: 'en_US', authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  })
  return { status: response.statusCode, body: response.json() }
}

async function ok(token: string, method: Method, url: string, payload?: object, host = 'localhost') {
  const { body } = await api(token, method, url, payload, host)
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

/** A customer's inquiry through the inquiry call (POST /booking/inquiry/save). */
function inquiry(destination: string, transportModes: number[]) {
  return seaInquiry({ destination, transportModes, contactName: 'Chen Jing' })
}

/** Three lines in two currencies: 2 × 1850.50 USD, 3 × 850 CNY, 1.5 × 333.333 USD (= 499.9995 → 500.00). */
const THREE_LINES = [
  {
    chargeType: 'freight',
    name: 'Ocean freight 40HQ',
    quantity: 2,
    unit: 'container',
    unitPrice: '1850.50',
    currency: 'USD',
  },
  {
    chargeType: 'origin',
    name: 'Terminal handling',
    quantity: 3,
    unit: 'container',
    unitPrice: '850',
    currency: 'CNY',
  },
  {
    chargeType: 'destination',
    name: 'Destination delivery',
    quantity: 1.5,
    unit: 'cbm',
    unitPrice: '333.333',
    currency: 'USD',
  },
]

function quote(inquiryId: number, charges: object[], extra: object = {}) {
  return {
    inquiry: inquiryId,
    transportMode: 1,
    clientType: 'formal',
    contactName: 'Li Wei',
    contactEmail: 'li.wei@demo-logistics.com',
    validUntil: inDays(14),
    currency: 'USD',
    charges,
    carrier: 'COSU',
    transitDays: 18,
    departure: inDays(5),
    arrival: inDays(23),
    ...extra,
  }
}

/** quantity × unit price in whole cents, worked out apart from the server's decimals: 2 × "1990.5" → "3981.00". */
function usdAmount(quantity: number, unitPrice: string): string {
  const [whole = '', fraction = ''] = unitPrice.split('.')
  const cents = fraction.replace(/0+$/, '')
  expect(cents.length, `${unitPrice} has no more than cents`).toBeLessThanOrEqual(2)
  const total = BigInt(`${whole}${cents.padEnd(2, '0')}`) * BigInt(quantity)
  return `${total / 100n}.${String(total % 100n).padStart(2, '0')}`
}

async function quotesOf(token: string, inquiryId: number) {
  const content = await ok(token, 'POST', '/b2b/quote/list', { searchParams: { inquiry: inquiryId }, pageSize: 100 })
  return content.list as Record<string, unknown>[]
}

describe('quotes', () => {
  it('writes an automatic quote for a sea inquiry on a seeded lane, and none on a lane without rates', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const seeded = await ok(customer, 'POST', '/booking/inquiry/save', inquiry('USLAX', [1, 2]))
    const auto = await quotesOf(operator, seeded.id)
    // Sea has autoQuote on in the demo configuration, air off: one quote, for sea.
    expect(auto).toHaveLength(1)
    expect(auto[0]).toMatchObject({ type: 'auto', state: 'automatic', transportMode: 1, currency: 'USD' })
    const detail = await ok(operator, 'GET', `/b2b/quote/getItem?id=${auto[0]?.id}`)
    const charges = detail.charges as { name: string; quantity: number; unitPrice: string; amount: string }[]
    expect(charges.map((c) => c.name)).toEqual(expect.arrayContaining(['Ocean freight 45G1', 'Ocean freight 22G1']))
    const freight = charges.find((c) => c.name === 'Ocean freight 45G1')
    expect(freight?.quantity).toBe(2)
    // Every line's amount is exactly its quantity × unit price, in cents (the quote is in USD).
    for (const c of charges) expect(c.amount, c.name).toBe(usdAmount(c.quantity, c.unitPrice))
    expect(detail).toMatchObject({
      carrier: expect.any(String),
      transitDays: expect.any(Number),
      contactName: 'Lily Chen',
    })
    expect(detail.inquiry).toMatchObject({ origin: 'CNSHA', destination: 'USLAX' })

    const bare = await ok(customer, 'POST', '/booking/inquiry/save', inquiry('BRSSZ', [1]))
    expect(await quotesOf(operator, bare.id)).toEqual([])
  })

  it('saves three lines in two currencies with exact amounts, subtotals and total; sends; withdraws; deletes', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { id: inquiryId } = await ok(customer, 'POST', '/booking/inquiry/save', inquiry('BRSSZ', [1]))

    const saved = await ok(operator, 'POST', '/b2b/quote/add', quote(inquiryId, THREE_LINES))
    expect(saved).toMatchObject({ state: 'draft', type: 'manual', lowFeeConfirmed: false })
    expect(saved.quoteNo).toMatch(/^QT\d{6}\d+$/)
    expect(saved.charges.map((c: { amount: string }) => c.amount)).toEqual(['3701.00', '2550.00', '500.00'])
    expect(saved.subtotals).toEqual([
      { currency: 'USD', amount: '4201.00' },
      { currency: 'CNY', amount: '2550.00' },
    ])
    // 2550.00 CNY at 1 : 7.12 is 358.146… → 358.15 USD; 4201.00 + 358.15.
    expect(saved.total).toBe('4559.150')
    expect(saved.customerCompany).toBe(
      (await ok(operator, 'GET', `/booking/inquiry/detail?id=${inquiryId}`)).customerCompany,
    )

    // A zero price (written either way) and a missing currency: the rule's messages, nothing stored.
    const before = (await quotesOf(operator, inquiryId)).length
    for (const zero of ['0', '0.00']) {
      const bad = THREE_LINES.map((line, i) =>
        i === 0 ? { ...line, unitPrice: zero } : i === 1 ? { ...line, currency: undefined } : line,
      )
      const { status, body } = await api(operator, 'POST', '/b2b/quote/add', quote(inquiryId, bad))
      expect(status).toBe(400)
      expect(body.content.fieldErrors).toEqual(
        expect.arrayContaining([
          { field: 'charges[0].unitPrice', key: 'validation.exclusiveMinimum', message: 'Must be greater than 0' },
          { field: 'charges[1].currency', key: 'validation.required', message: expect.any(String) },
        ]),
      )
    }
    expect(await quotesOf(operator, inquiryId)).toHaveLength(before)

    // The editor asks first: the amount due, the same figure the save checks, in the quote's currency.
    expect(await ok(operator, 'GET', `/b2b/quote/amountDue?inquiry=${inquiryId}&transportMode=1&currency=USD`)).toEqual(
      { amount: '300.00', currency: 'USD' },
    )
    const dueInCny = await ok(operator, 'GET', `/b2b/quote/amountDue?inquiry=${inquiryId}&transportMode=1&currency=CNY`)
    expect(dueInCny).toEqual({ amount: expect.stringMatching(/^2136\.0\d*$/), currency: 'CNY' })
    expect(
      (await api(operator, 'GET', '/b2b/quote/amountDue?inquiry=99999999&transportMode=1&currency=USD')).body.code,
    ).toBe('404')
    const badMode = await api(operator, 'GET', `/b2b/quote/amountDue?inquiry=${inquiryId}&transportMode=9&currency=USD`)
    expect(badMode.status).toBe(400)
    expect(badMode.body.content.fieldErrors[0]).toMatchObject({ field: 'transportMode' })
    // A customer does not read the forwarder's floor.
    expect(
      (await api(customer, 'GET', `/b2b/quote/amountDue?inquiry=${inquiryId}&transportMode=1&currency=USD`)).body.code,
    ).toBe('220000')

    // Low fee: 1 × 100 USD is under the configured minimum (300 USD): refused until confirmed, then kept.
    const cheap = [{ ...THREE_LINES[0], quantity: 1, unitPrice: '100' }]
    const refused = await api(operator, 'POST', '/b2b/quote/add', quote(inquiryId, cheap))
    expect(refused.status).toBe(400)
    expect(refused.body.content.fieldErrors).toEqual([
      {
        field: 'lowFeeConfirmed',
        key: 'rule.quoteLowFee',
        message: 'The total 100.00 USD is below the amount due 300.00 USD: confirm the low fee to save',
      },
    ])
    expect(await quotesOf(operator, inquiryId)).toHaveLength(before)
    const low = await ok(
      operator,
      'POST',
      '/b2b/quote/add',
      quote(inquiryId, cheap, { lowFeeConfirmed: true, transitDays: 25 }),
    )
    expect(low).toMatchObject({ total: '100.000', lowFeeConfirmed: true })
    const lowDetail = await ok(operator, 'GET', `/b2b/quote/detail?id=${low.id}`)
    expect(lowDetail.history[0]).toMatchObject({ action: 'create', after: { lowFeeConfirmed: true, total: '100.000' } })

    // Send: the inquiry becomes quoted. A sent quote is no longer edited or deleted.
    const sent = await ok(operator, 'POST', '/quote/transition', {
      id: saved.id,
      version: saved.version,
      transition: 'send',
    })
    expect(sent.state).toBe('quoted')
    expect((await ok(operator, 'GET', `/booking/inquiry/detail?id=${inquiryId}`)).state).toBe('quoted')
    const edit = await api(operator, 'POST', '/b2b/quote/save', { id: sent.id, version: sent.version, remarks: 'x' })
    expect(edit.body.code).toBe('320001')
    const deleteSent = await api(operator, 'DELETE', `/b2b/quote/delete?id=${sent.id}`)
    expect(deleteSent.status).toBe(200)
    expect(deleteSent.body.code).toBe('320001')
    expect((await ok(operator, 'GET', `/b2b/quote/detail?id=${sent.id}`)).state).toBe('quoted')

    // Withdraw the low one after sending it; a withdrawn quote may be deleted.
    const lowSent = await ok(operator, 'POST', '/quote/transition', {
      id: low.id,
      version: low.version,
      transition: 'send',
    })
    const withdrawn = await ok(operator, 'POST', '/quote/transition', {
      id: low.id,
      version: lowSent.version,
      transition: 'withdraw',
    })
    expect(withdrawn.state).toBe('withdrawn')
    await ok(operator, 'DELETE', `/b2b/quote/delete?id=${low.id}`)
    const gone = await api(operator, 'GET', `/b2b/quote/detail?id=${low.id}`)
    expect(gone.status).toBe(404)
  })

  it('keeps yen and won whole: each line, subtotal and a yen total rounded half up to no decimals', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { id: inquiryId } = await ok(customer, 'POST', '/booking/inquiry/save', inquiry('BRSSZ', [1]))
    const lines = [
      { ...THREE_LINES[0], quantity: 3, unitPrice: '1234.5', currency: 'JPY' },
      { ...THREE_LINES[1], quantity: 1, unitPrice: '100', currency: 'USD' },
      { ...THREE_LINES[2], quantity: 1.5, unitPrice: '33333', currency: 'KRW' },
    ]
    const saved = await ok(
      operator,
      'POST',
      '/b2b/quote/add',
      quote(inquiryId, lines, { currency: 'JPY', lowFeeConfirmed: true }),
    )
    // 3 × 1234.5 = 3703.5 → 3704 yen; 1.5 × 33333 = 49999.5 → 50000 won.
    expect(saved.charges.map((c: { amount: string }) => c.amount)).toEqual(['3704', '100.00', '50000'])
    expect(saved.subtotals).toEqual([
      { currency: 'JPY', amount: '3704' },
      { currency: 'USD', amount: '100.00' },
      { currency: 'KRW', amount: '50000' },
    ])
    // At the demo rates to CNY (USD 7.12, JPY 0.04735, KRW 0.00512): 3704 + 712 ÷ 0.04735 = 15036.96 → 15037
    // + 256 ÷ 0.04735 = 5406.55 → 5407. The total column answers with its three places, as for USD above.
    expect(saved.total).toBe('24148.000')
  })

  it('refuses a quote for a mode the inquiry does not ask for, or for a closed inquiry', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { id: inquiryId, version } = await ok(customer, 'POST', '/booking/inquiry/save', inquiry('BRSSZ', [1]))
    const air = await api(operator, 'POST', '/b2b/quote/add', quote(inquiryId, THREE_LINES, { transportMode: 2 }))
    expect(air.body.content.fieldErrors).toEqual([
      { field: 'transportMode', key: 'rule.quoteModeNotInInquiry', message: expect.any(String) },
    ])
    await ok(customer, 'POST', '/inquiry/transition', { id: inquiryId, version, transition: 'withdraw' })
    const closed = await api(operator, 'POST', '/b2b/quote/add', quote(inquiryId, THREE_LINES))
    expect(closed.body.content.fieldErrors).toEqual([
      { field: 'inquiry', key: 'rule.quoteInquiryClosed', message: 'This inquiry no longer takes quotes' },
    ])
  })

  it('shows the customer only the sent quotes of their own company, sorted three ways; another tenant sees none', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { id: inquiryId } = await ok(customer, 'POST', '/booking/inquiry/save', inquiry('USLAX', [1]))
    const [auto] = await quotesOf(operator, inquiryId)
    const confirm = { lowFeeConfirmed: true }
    // Cheap but slow and late; dear but quick; middle, earliest.
    const a = await ok(
      operator,
      'POST',
      '/b2b/quote/add',
      quote(inquiryId, [{ ...THREE_LINES[0], unitPrice: '1500' }], {
        ...confirm,
        transitDays: 30,
        departure: inDays(9),
        arrival: inDays(39),
      }),
    )
    const b = await ok(
      operator,
      'POST',
      '/b2b/quote/add',
      quote(inquiryId, [{ ...THREE_LINES[0], unitPrice: '9000' }], {
        ...confirm,
        transitDays: 12,
        departure: inDays(6),
        arrival: inDays(18),
      }),
    )
    const c = await ok(
      operator,
      'POST',
      '/b2b/quote/add',
      quote(inquiryId, [{ ...THREE_LINES[0], unitPrice: '4000' }], {
        ...confirm,
        transitDays: 20,
        departure: inDays(2),
        arrival: inDays(22),
      }),
    )
    const draft = await ok(operator, 'POST', '/b2b/quote/add', quote(inquiryId, THREE_LINES, confirm))
    for (const q of [a, b, c])
      await ok(operator, 'POST', '/quote/transition', { id: q.id, version: q.version, transition: 'send' })

    const order = async (sort: string) => {
      const content = await ok(customer, 'GET', `/b2b/quote/listByInquiry?id=${inquiryId}&sort=${sort}`)
      expect(content.inquiry).toMatchObject({ id: inquiryId, origin: 'CNSHA', destination: 'USLAX' })
      return (content.list as { id: number }[]).map((q) => q.id)
    }
    expect(await order('cheapest')).toEqual([a.id, c.id, b.id])
    expect(await order('quickest')).toEqual([b.id, c.id, a.id])
    expect(await order('earliest')).toEqual([c.id, b.id, a.id])

    // A draft and an automatic quote not yet sent stay hidden from the customer.
    for (const hidden of [draft.id, auto?.id]) {
      const read = await api(customer, 'GET', `/b2b/quote/getItem?id=${hidden}`)
      expect(read.status).toBe(404)
    }
    const item = await ok(customer, 'GET', `/b2b/quote/getItem?id=${a.id}`)
    expect(item).toMatchObject({ id: a.id, state: 'quoted', total: '3000.000', expired: false })
    expect(item.inquiry).toMatchObject({
      tradeTerm: 'FCA',
      containers: [
        { containerType: '45G1', quantity: 2 },
        { containerType: '22G1', quantity: 1 },
      ],
      goodsDescription: 'Porcelain floor tiles',
    })
    expect(item.history).toEqual([])

    // The customer declines one: it leaves the sorted list as rejected, still shown.
    const declined = await ok(customer, 'POST', '/quote/transition', {
      id: b.id,
      version: (await ok(operator, 'GET', `/b2b/quote/detail?id=${b.id}`)).version,
      transition: 'reject',
    })
    expect(declined.state).toBe('rejected')
    const after = await ok(customer, 'GET', `/b2b/quote/listByInquiry?id=${inquiryId}&sort=cheapest`)
    expect(after.list.find((q: { id: number }) => q.id === b.id)).toMatchObject({ state: 'rejected', bookable: false })

    // Another tenant: the same ids answer 404, as missing ones do.
    const acme = await test.login('opadmin', ACME)
    expect((await api(acme, 'GET', `/b2b/quote/getItem?id=${a.id}`, undefined, ACME)).status).toBe(404)
    expect((await api(acme, 'GET', `/b2b/quote/detail?id=${a.id}`, undefined, ACME)).status).toBe(404)
    const acmeCustomer = await test.login('entadmin', ACME)
    expect((await api(acmeCustomer, 'GET', `/b2b/quote/listByInquiry?id=${inquiryId}`, undefined, ACME)).status).toBe(
      404,
    )
  })

  it('answers the public quote configuration', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/public/api/quote/configuration/view',
      headers: { host: 'localhost' },
    })
    const body = response.json()
    expect(body.code).toBe('0000')
    expect(body.content).toEqual([
      expect.objectContaining({ transportMode: 1, autoQuote: true, validDays: 14, currency: 'USD' }),
      expect.objectContaining({ transportMode: 2, autoQuote: false }),
    ])
    expect(body.content[0]).not.toHaveProperty('markupPercent')
  })
})
