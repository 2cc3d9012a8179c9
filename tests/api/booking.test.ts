import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { directFcl as directBooking } from '../support/booking.ts'
import { bearerCalls } from '../support/calls.ts'
import { inDays, today as tenantToday } from '../support/clock.ts'
import { OCEAN_FREIGHT, seaInquiry, seaQuote } from '../support/fixtures.ts'

const test = setupTestApp()

const { answer, ok } = bearerCalls(test)

// The tenant's day (Asia/Shanghai) on the server's clock, as the server judges validity.
const today = tenantToday()

const PARTIES = {
  shipper: 'NINGBO BRIGHT HOME CO., LTD.\nNO. 88 JIANGNAN ROAD\nNINGBO 315000 CHINA',
  consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
  notifyParty: 'SAME AS CONSIGNEE',
}

/** A complete direct FCL booking Shanghai → Los Angeles, ready to confirm: furniture, with customs clearance. */
const directFcl = (extra: object = {}) =>
  directBooking({
    containers: [
      { containerType: '45G1', quantity: 2 },
      { containerType: '22G1', quantity: 1 },
    ],
    goodsDescription: 'FURNITURE',
    hsCode: '940360',
    services: ['customs'],
    ...PARTIES,
    ...extra,
  })

interface RateRow {
  id: number
  mode: string
  carrier: string
  pol: string | null
  pod: string | null
  valid_from: string
  valid_to: string
  container_prices: { containerType: string }[] | null
}

// Read as text: the PostgreSQL driver makes a date a Date at local midnight, which is the day before in UTC
// when TZ is east of it (Asia/Shanghai), and PGlite makes it UTC midnight.
const DAYS = [
  sql<string>`to_char(valid_from, 'YYYY-MM-DD')`.as('valid_from'),
  sql<string>`to_char(valid_to, 'YYYY-MM-DD')`.as('valid_to'),
]

async function fclRates() {
  const rows = (await test.database.db
    .selectFrom('freight_rate' as never)
    .select(['id', 'mode', 'carrier', 'pol', 'pod', 'container_prices', ...DAYS] as never[])
    .where('mode' as never, '=', 'FCL' as never)
    .where('pol' as never, '=', 'CNSHA' as never)
    .where('pod' as never, '=', 'USLAX' as never)
    .orderBy('id' as never)
    .execute()) as unknown as RateRow[]
  const current = rows.find((r) => r.valid_from <= today && r.valid_to >= today)
  const expired = rows.find((r) => r.valid_to < today)
  if (!current || !expired) throw new Error('seed: no current or no expired FCL rate on CNSHA-USLAX')
  return { current, expired }
}

const fromRate = (rate: RateRow, extra: object = {}) => ({
  rateId: rate.id,
  entrustType: 'entrusted',
  transportMode: 1,
  containerLoadType: 'FCL',
  pol: rate.pol,
  pod: rate.pod,
  carrier: rate.carrier,
  etd: inDays(12),
  containers: [{ containerType: rate.container_prices?.[0]?.containerType ?? '45G1', quantity: 1 }],
  ...PARTIES,
  ...extra,
})

async function stateOf(table: 'quote' | 'inquiry', id: number): Promise<string> {
  const row = (await test.database.db
    .selectFrom(table as never)
    .select('state' as never)
    .where('id' as never, '=', id as never)
    .executeTakeFirstOrThrow()) as { state: string }
  return row.state
}

/** entadmin's sea inquiry and opadmin's quote on it, sent: what the customer books from. */
async function sentQuote(customer: string, operator: string) {
  const inquiry = await ok(
    'POST',
    '/api/booking/inquiry/save',
    customer,
    seaInquiry({
      tradeTerm: 'FOB',
      packages: [
        {
          description: 'WOODEN FURNITURE',
          packageCount: 120,
          grossWeight: 9800,
          goodsCount: 480,
          length: 120,
          width: 80,
          height: 90,
        },
      ],
    }),
  )
  const quote = await ok(
    'POST',
    '/api/b2b/quote/add',
    operator,
    seaQuote(inquiry.id, {
      charges: [
        OCEAN_FREIGHT,
        { chargeType: 'origin', name: 'THC', quantity: 3, unit: 'container', unitPrice: '180.00', currency: 'USD' },
        { chargeType: 'origin', name: 'Documentation', quantity: 1, unit: 'bl', unitPrice: '45.00', currency: 'USD' },
      ],
    }),
  )
  const sent = await ok('POST', '/api/quote/transition', operator, {
    id: quote.id,
    version: quote.version,
    transition: 'send',
  })
  expect(sent.state).toBe('quoted')
  return { inquiry: inquiry.id as number, quote: quote.id as number }
}

const transition = (token: string, order: { id: number; version: number }, name: string, remark?: string) =>
  answer('POST', '/api/order/transition', token, {
    id: order.id,
    version: order.version,
    transition: name,
    ...(remark ? { remark } : {}),
  })

describe('booking an order', () => {
  it('books from a sent quote: the quote and its inquiry become booked only once the order is submitted', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { inquiry, quote } = await sentQuote(customer, operator)
    const body = { quoteId: quote, ...directFcl({ carrier: 'MAEU' }) }

    const draft = await ok('POST', '/api/booking/order/add', customer, body)
    expect(draft).toMatchObject({ state: 'draft', source: 'quote', quote, rate: null })
    expect(await stateOf('quote', quote)).toBe('quoted')
    expect(await stateOf('inquiry', inquiry)).toBe('quoted')

    const submitted = await ok('POST', '/api/booking/order/add', customer, {
      ...body,
      id: draft.id,
      version: draft.version,
      submit: true,
    })
    expect(submitted).toMatchObject({ id: draft.id, state: 'submitted', source: 'quote', quote })
    expect(await stateOf('quote', quote)).toBe('booked')
    expect(await stateOf('inquiry', inquiry)).toBe('booked')

    // A booked quote cannot be booked again.
    const again = await answer('POST', '/api/booking/order/add', customer, { ...body, submit: true })
    expect(again.code).toBe('320001')
  })

  it('refuses a quote of another lane', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const { quote } = await sentQuote(customer, operator)
    const lane = await answer('POST', '/api/booking/order/add', customer, {
      quoteId: quote,
      ...directFcl({ pod: 'SGSIN' }),
    })
    expect(lane.code).toBe('validation')
    expect(lane.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'pod', key: 'rule.orderMatchesQuote' }),
    )
    // The provider side does not book.
    const other = await answer('POST', '/api/booking/order/add', operator, { quoteId: quote, ...directFcl() })
    expect(other.code).toBe('360002')
  })

  it('books from a rate valid today, keeps its lane and carrier, and refuses an expired one with 340001', async () => {
    const customer = await test.login('entadmin')
    const { current, expired } = await fclRates()
    const order = await ok('POST', '/api/booking/order/add', customer, { ...fromRate(current), submit: true })
    expect(order).toMatchObject({ state: 'submitted', source: 'rate', rate: current.id, carrier: current.carrier })
    expect(order.orderNo).toMatch(/\d{4,}$/)

    const stale = await answer('POST', '/api/booking/order/add', customer, fromRate(expired))
    expect(stale.code).toBe('340001')
    expect(stale.message).toBe('Freight rate has expired')

    const wrongLane = await answer('POST', '/api/booking/order/add', customer, fromRate(current, { pod: 'SGSIN' }))
    expect(wrongLane.code).toBe('validation')
    expect(wrongLane.content.fieldErrors[0]).toMatchObject({ field: 'pod', key: 'rule.orderMatchesRate' })
    const wrongMode = await answer(
      'POST',
      '/api/booking/order/add',
      customer,
      fromRate(current, { containerLoadType: 'LCL', containers: undefined }),
    )
    expect(wrongMode.content.fieldErrors[0]).toMatchObject({ field: 'containerLoadType' })
  })

  it('books directly, with the source, rate and quote set by the server whatever the caller sends', async () => {
    const customer = await test.login('entadmin')
    const order = await ok('POST', '/api/booking/order/add', customer, {
      ...directFcl(),
      source: 'rate',
      submit: true,
    })
    expect(order).toMatchObject({ source: 'direct', rate: null, quote: null, state: 'submitted' })
    expect(order.containers).toHaveLength(2)
    // The load type must belong to the mode (YAML rule, the browser runs it too).
    const air = await answer('POST', '/api/booking/order/add', customer, directFcl({ transportMode: 2 }))
    expect(air.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'containerLoadType', key: 'rule.loadTypeOfMode' }),
    )
    // Nothing half-written: a refused booking leaves no order behind.
    const drafts = await ok('POST', '/api/booking/orderDraft/list', customer, { searchParams: {} })
    expect(drafts.list.some((d: { transportMode: number }) => d.transportMode === 2)).toBe(false)
  })

  it('refuses a user without the booking permission with 360002', async () => {
    const personal = await test.login('personal')
    const refused = await answer('POST', '/api/booking/order/add', personal, { ...directFcl(), submit: true })
    expect(refused.code).toBe('360002')
    const operator = await test.login('opadmin')
    expect((await answer('POST', '/api/booking/order/add', operator, directFcl())).code).toBe('360002')
  })
})

describe('drafts and templates', () => {
  it('saves a draft, lists it by the draft search, edits it, then submits it; it leaves the drafts', async () => {
    const customer = await test.login('entadmin')
    const draft = await ok('POST', '/api/booking/orderDraft/addOrEditOrderDraft', customer, {
      ...directFcl({ carrier: 'COSU', entrustType: 'direct' }),
      submit: true,
    })
    expect(draft.state).toBe('draft')
    const search = async (searchParams: object) =>
      (await ok('POST', '/api/booking/orderDraft/list', customer, { searchParams })).list.map(
        (r: { id: number }) => r.id,
      )
    expect(await search({ carrierId: 'COSU', entrustedOrderType: 'direct', pol: 'CNSHA' })).toContain(draft.id)
    expect(await search({ carrierId: 'MAEU' })).not.toContain(draft.id)
    expect(await search({ containerLoadType: 'LCL' })).not.toContain(draft.id)

    const edited = await ok('POST', '/api/booking/orderDraft/addOrEditOrderDraft', customer, {
      id: draft.id,
      version: draft.version,
      marks: 'N/M',
    })
    expect(edited).toMatchObject({ id: draft.id, state: 'draft', marks: 'N/M', version: draft.version + 1 })
    // A stale version is refused.
    const stale = await answer('POST', '/api/booking/order/add', customer, { id: draft.id, version: draft.version })
    expect(stale.code).toBe('330002')

    const submitted = await ok('POST', '/api/booking/order/add', customer, {
      id: draft.id,
      version: edited.version,
      submit: true,
    })
    expect(submitted.state).toBe('submitted')
    expect(await search({})).not.toContain(draft.id)
    // A submitted order is not a draft: it can neither be edited nor deleted as one.
    expect((await answer('GET', `/api/booking/orderDraft/detail?id=${draft.id}`, customer)).code).toBe('404')
    expect((await answer('DELETE', `/api/booking/orderDraft/deleteOrderDraft?id=${draft.id}`, customer)).code).toBe(
      '404',
    )
    const edit = await answer('POST', '/api/booking/order/add', customer, {
      id: submitted.id,
      version: submitted.version,
      marks: 'LATE',
    })
    expect(edit.code).toBe('404')
  })

  it('deletes a draft', async () => {
    const customer = await test.login('entadmin')
    const draft = await ok('POST', '/api/booking/orderDraft/addOrEditOrderDraft', customer, directFcl())
    await ok('DELETE', `/api/booking/orderDraft/deleteOrderDraft?id=${draft.id}`, customer)
    expect((await answer('GET', `/api/booking/orderDraft/detail?id=${draft.id}`, customer)).code).toBe('404')
  })

  it('adds, finds, edits and deletes templates', async () => {
    const customer = await test.login('entadmin')
    const template = await ok('POST', '/api/booking/orderTemplate/addOrEditOrderTemplate', customer, {
      name: 'LA furniture weekly',
      containerLoadType: 'FCL',
      pol: 'CNSHA',
      pod: 'USLAX',
      carrier: 'MAEU',
      contactName: 'Chen Jing',
      containers: [{ containerType: '45G1', quantity: 2 }],
      ...PARTIES,
    })
    const find = async (searchParams: object) =>
      (await ok('POST', '/api/booking/orderTemplate/list', customer, { searchParams })).list.map(
        (r: { id: number }) => r.id,
      )
    expect(await find({ orderTemplateNameKey: 'furniture' })).toContain(template.id)
    expect(await find({ shipperLineKey: 'jiangnan', consigneeLineKey: 'pacific', pod: 'USLAX' })).toContain(template.id)
    expect(await find({ notifyLineKey: 'same as', contactKey: 'chen', containerLoadType: 'FCL' })).toContain(
      template.id,
    )
    expect(await find({ orderTemplateNameKey: 'rotterdam' })).not.toContain(template.id)

    const edited = await ok('POST', '/api/booking/orderTemplate/addOrEditOrderTemplate', customer, {
      id: template.id,
      version: template.version,
      name: 'LA furniture biweekly',
    })
    expect(edited).toMatchObject({ name: 'LA furniture biweekly', pol: 'CNSHA' })
    expect((await ok('GET', `/api/booking/orderTemplate/get?id=${template.id}`, customer)).name).toBe(
      'LA furniture biweekly',
    )
    // The same name twice in a company is refused.
    const twin = await answer('POST', '/api/booking/orderTemplate/addOrEditOrderTemplate', customer, {
      name: 'LA furniture biweekly',
      containerLoadType: 'FCL',
    })
    expect(twin.code).toBe('400003')
    await ok('DELETE', `/api/booking/orderTemplate/deleteOrderTemplateById?id=${template.id}`, customer)
    expect(await find({})).not.toContain(template.id)
  })
})

describe('the order state machine', () => {
  it('submits, withdraws, re-edits, reapplies, rejects and cancels, each in the history; illegal moves 320001', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    let order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    const step = async (token: string, name: string) => {
      const body = await transition(token, order, name)
      expect(body.code, `${name}: ${JSON.stringify(body).slice(0, 200)}`).toBe('0000')
      order = body.content
      return order.state as string
    }
    expect(await step(customer, 'withdraw')).toBe('withdrawn')
    expect(await step(customer, 'reEdit')).toBe('unsubmitted')
    // A re-edited order is the customer's to change again (drafts folder), then to submit.
    const changed = await ok('POST', '/api/booking/order/add', customer, {
      id: order.id,
      version: order.version,
      marks: 'REVISED',
      submit: true,
    })
    order = changed
    expect(order.state).toBe('submitted')
    expect(await step(operator, 'reject')).toBe('rejected')
    expect(await step(customer, 'reapply')).toBe('submitted')
    expect(await step(customer, 'cancel')).toBe('cancelled')

    expect((await transition(customer, order, 'submit')).code).toBe('320001')
    expect((await transition(operator, order, 'accept')).code).toBe('320001')
    expect((await transition(customer, { ...order, version: order.version - 1 }, 'reapply')).code).toBe('330002')
    // The customer cannot fire the provider's transitions.
    expect((await transition(customer, order, 'accept')).code).toBe('220000')

    const detail = await ok('GET', `/api/booking/order/getOrderDetail?id=${order.id}`, customer)
    const moves = detail.history
      .filter((h: { action: string }) => h.action === 'transition')
      .map((h: { transition: string }) => h.transition)
      .reverse()
    expect(moves).toEqual(['submit', 'withdraw', 'reEdit', 'submit', 'reject', 'reapply', 'cancel'])
    expect(detail.history.at(-1).action).toBe('create')
  })

  it('confirms per mode: the path of another mode or a missing mode field is refused', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const fcl = await ok('POST', '/api/booking/order/add', customer, { ...directFcl({ etd: undefined }), submit: true })
    const lclPath = await answer('POST', '/api/booking/order/lcl/comfirm', operator, {
      id: fcl.id,
      version: fcl.version,
    })
    expect(lclPath.code).toBe('320001')
    const noEtd = await answer('POST', '/api/booking/order/fcl/comfirm', operator, { id: fcl.id, version: fcl.version })
    expect(noEtd.code).toBe('validation')
    expect(noEtd.content.fieldErrors).toEqual([expect.objectContaining({ field: 'etd', key: 'rule.confirmNeeds' })])
    // Refused means untouched: still submitted, no shipment.
    expect((await ok('GET', `/api/booking/order/getOrderDetail?id=${fcl.id}`, operator)).state).toBe('submitted')

    const air = await ok('POST', '/api/booking/order/add', customer, {
      entrustType: 'entrusted',
      transportMode: 2,
      containerLoadType: 'AIR',
      pol: 'CNSHA',
      pod: 'DEFRA',
      etd: inDays(3),
      boxes: 12,
      ...PARTIES,
      submit: true,
    })
    const noWeight = await answer('POST', '/api/booking/order/air/comfirm', operator, {
      id: air.id,
      version: air.version,
    })
    expect(noWeight.content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'grossWeight', key: 'rule.confirmNeeds' }),
    ])
    const lcl = await ok('POST', '/api/booking/order/add', customer, {
      entrustType: 'entrusted',
      transportMode: 1,
      containerLoadType: 'LCL',
      pol: 'CNSZX',
      pod: 'SGSIN',
      etd: inDays(5),
      boxes: 12,
      grossWeight: 3500,
      volume: 11.92,
      ...PARTIES,
      submit: true,
    })
    const confirmed = await ok('POST', '/api/booking/order/lcl/comfirm', operator, {
      id: lcl.id,
      version: lcl.version,
      remark: 'Space confirmed',
    })
    expect(confirmed.state).toBe('accepted')
    const rail = await ok('POST', '/api/booking/order/add', customer, {
      entrustType: 'entrusted',
      transportMode: 3,
      containerLoadType: 'RAILWAY',
      pol: 'CNXIY',
      pod: 'DEHAM',
      etd: inDays(8),
      ...PARTIES,
      submit: true,
    })
    const noBoxes = await answer('POST', '/api/booking/order/railway/comfirm', operator, {
      id: rail.id,
      version: rail.version,
    })
    expect(noBoxes.content.fieldErrors).toEqual([expect.objectContaining({ field: 'containers' })])
  })

  it('confirmation creates the shipment, which the public tracking finds by order number', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
    const accepted = await ok('POST', '/api/booking/order/fcl/comfirm', operator, {
      id: order.id,
      version: order.version,
    })
    expect(accepted.state).toBe('accepted')
    const history = (await ok('GET', `/api/booking/order/getOrderDetail?id=${order.id}`, customer)).history
    expect(history[0]).toMatchObject({ action: 'transition', transition: 'accept' })

    const visitor = await ok('POST', '/api/booking/public/api/tracking/query', undefined as unknown as string, {
      numbers: order.orderNo,
    })
    expect(visitor.results[0]).toMatchObject({ number: order.orderNo, found: true })
    expect(visitor.results[0].shipments).toEqual([expect.objectContaining({ view: 'public' })])
    const owner = await ok('POST', '/api/booking/public/api/tracking/query', customer, { numbers: order.orderNo })
    const [seen] = owner.results[0].shipments
    expect(seen).toMatchObject({ view: 'full', shipment: expect.objectContaining({ pol: 'CNSHA', pod: 'USLAX' }) })
    expect(seen.events.length).toBeGreaterThanOrEqual(1)

    // Sent back and accepted again: still one shipment.
    const back = (await transition(operator, accepted, 'sendBack')).content
    const reapplied = (await transition(customer, back, 'reapply')).content
    await ok('POST', '/api/booking/order/fcl/comfirm', operator, { id: reapplied.id, version: reapplied.version })
    const shipments = await test.database.db
      .selectFrom('shipment')
      .select('id')
      .where('booking_order', '=', order.id)
      .execute()
    expect(shipments).toHaveLength(1)
  })

  it('gives 50 orders booked in parallel 50 distinct numbers', async () => {
    const customer = await test.login('entadmin')
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        answer('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true }),
      ),
    )
    expect(answers.map((a) => a.code)).toEqual(Array(50).fill('0000'))
    const numbers = new Set(answers.map((a) => a.content.orderNo))
    expect(numbers.size).toBe(50)
  })
})
