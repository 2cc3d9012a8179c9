import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { envelopeCalls } from '../support/calls.ts'
import { pdfText } from '../support/pdf-text.ts'

/**
 * Bills (issue #24, schemas/bill.yaml, screens/billing.yaml): an operator makes a bill from a confirmed order's
 * charges, in exact decimals per currency; prints and confirms it (a second confirmation refused); the customer
 * sees it in /billList and /DebitNote and downloads its PDF once printed. Bad input answers in the caller's
 * language and changes nothing.
 */

const test = setupTestApp()

const { call, ok } = envelopeCalls(test)

/** A confirmed order of the demo tenant's customer, with no bill yet (the seed bills the booked ones). */
async function confirmedOrder() {
  const { rows } = await sql<{ id: number; order_no: string; mbl: string | null; pol: string }>`
    select o.id, o.order_no, o.mbl, o.pol from booking_order o join tenant t on t.id = o.tenant_id
    join company c on c.id = o.customer_company
    where t.code = 'demo' and o.state = 'accepted' and c.name = (
      select c2.name from app_user u join company c2 on c2.id = u.company_id where u.username = 'entadmin' and u.tenant_id = t.id)
    order by o.id limit 1`.execute(test.database.db)
  const order = rows[0]
  if (!order) throw new Error('the seed has no unbilled confirmed order of the customer')
  return order
}

const count = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from bill`.execute(test.database.db)).rows[0]?.n)

const lines = [
  { chargeName: 'Ocean freight', unit: '40HQ', quantity: 2, unitPrice: '1850.00', currency: 'USD' },
  { chargeName: 'BAF', unit: '40HQ', quantity: 2, unitPrice: '120.125', currency: 'USD' },
  { chargeName: 'THC', unit: '40HQ', quantity: 2, unitPrice: '1260.00', currency: 'CNY', taxRate: 6 },
  { chargeName: 'Document fee', unit: 'BL', quantity: 1, unitPrice: '450.50', currency: 'CNY' },
]

describe('a bill made from a confirmed order', () => {
  it('numbers it, copies the order, prices each line in its currency and totals per currency', async () => {
    const operator = await test.login('opadmin')
    const order = await confirmedOrder()
    // USD 120.125 has three decimals: refused, nothing written.
    const before = await count()
    const refused = await call('POST', '/api/booking/billing/add', operator, {
      order: order.id,
      billingType: 'receivable',
      lines,
    })
    expect(refused.body.code).toBe('validation')
    expect(refused.body.fieldErrors).toContainEqual({
      field: 'lines',
      message: 'The amount has more decimals than its currency allows (JPY and KRW: none; other currencies: 2)',
    })
    expect(await count()).toBe(before)

    const fixed = lines.map((line) => (line.chargeName === 'BAF' ? { ...line, unitPrice: '120.13' } : line))
    const bill = await ok('POST', '/api/booking/billing/add', operator, {
      order: order.id,
      billingType: 'receivable',
      lines: fixed,
    })
    expect(bill.billingNo).toMatch(/^BILL\d{6}\d{4}$/)
    expect(bill.state).toBe('notPrinted')
    expect(bill.mbl).toBe(order.mbl)
    expect(bill.port).toBe(order.pol)
    expect((bill.lines as Record<string, unknown>[]).map((line) => [line.tax, line.amount])).toEqual([
      ['0.00', '3700.00'],
      ['0.00', '240.26'],
      ['151.20', '2671.20'],
      ['0.00', '450.50'],
    ])
    expect(bill.totals).toEqual([
      { currency: 'USD', amount: '3940.26', paid: '0.00', open: '3940.26' },
      { currency: 'CNY', amount: '3121.70', paid: '0.00', open: '3121.70' },
    ])
  })

  it("takes the order's charge lines when none are given; JPY keeps no decimals", async () => {
    const operator = await test.login('opadmin')
    const order = await confirmedOrder()
    const bill = await ok('POST', '/api/booking/billing/add', operator, { order: order.id, billingType: 'receivable' })
    const { rows } = await sql<{
      n: string
    }>`select count(*) as n from order_charge where "order" = ${order.id}`.execute(test.database.db)
    expect((bill.lines as unknown[]).length).toBe(Number(rows[0]?.n))
    const jpy = await call('POST', '/api/booking/billing/add', operator, {
      order: order.id,
      billingType: 'payable',
      lines: [{ chargeName: 'Handling', unit: 'BL', quantity: 1, unitPrice: '5000.5', currency: 'JPY' }],
    })
    expect(jpy.body.code).toBe('validation')
    const whole = await ok('POST', '/api/booking/billing/add', operator, {
      order: order.id,
      billingType: 'payable',
      lines: [{ chargeName: 'Handling', unit: 'BL', quantity: 3, unitPrice: '5000', currency: 'JPY', taxRate: 10 }],
    })
    expect(whole.totals).toEqual([{ currency: 'JPY', amount: '16500', paid: '0', open: '16500' }])
    expect(whole.port).not.toBe(null)
  })

  it('refuses an unconfirmed order and a negative quantity, in the caller language, writing nothing', async () => {
    const operator = await test.login('opadmin')
    const { rows } = await sql<{ id: number }>`
      select o.id from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'demo' and o.state = 'submitted' order by o.id limit 1`.execute(test.database.db)
    const before = await count()
    const draft = await call(
      'POST',
      '/api/booking/billing/add',
      operator,
      { order: rows[0]?.id, billingType: 'receivable' },
      'zh_CN',
    )
    expect(draft.body.code).toBe('validation')
    expect(draft.body.fieldErrors).toContainEqual({ field: 'order', message: '只能为已确认的订单出账单' })
    const order = await confirmedOrder()
    const negative = await call(
      'POST',
      '/api/booking/billing/add',
      operator,
      { order: order.id, billingType: 'receivable', lines: [{ ...lines[0], quantity: -2 }] },
      'ja_JP',
    )
    expect(negative.status).toBe(400)
    expect(negative.body.fieldErrors?.[0]?.field).toBe('lines[0].quantity')
    expect(negative.body.fieldErrors?.[0]?.message).toMatch(/0/)
    expect(await count()).toBe(before)
  })
})

describe('printing, confirming and downloading a bill', () => {
  it('downloads only once printed, confirms once, tells the customer and shows it in their lists', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const order = await confirmedOrder()
    const bill = await ok('POST', '/api/booking/billing/add', operator, {
      order: order.id,
      billingType: 'receivable',
      lines: lines.map((line) => (line.chargeName === 'BAF' ? { ...line, unitPrice: '120.13' } : line)),
    })
    const id = bill.id as number

    // Not printed: the customer cannot download it, in their language; confirming first is refused too.
    const early = await call('GET', `/api/booking/billing/downloadBilling?id=${id}`, customer, undefined, 'es_ES')
    expect(early.body.code).toBe('360004')
    expect(early.body.message).toBe('La factura debe imprimirse antes de poder descargarse')
    const tooSoon = await call('POST', '/api/booking/billing/updateBillStatus', operator, {
      id,
      version: bill.version,
      status: 'confirm',
    })
    expect(tooSoon.body.code).toBe('320001')

    const printed = await ok('POST', '/api/booking/billing/updateBillStatus', operator, {
      id,
      version: bill.version,
      status: 'print',
    })
    expect(printed.state).toBe('printed')
    const confirmed = await ok('POST', '/api/booking/billing/updateBillStatus', operator, {
      id,
      version: printed.version,
      status: 'confirm',
    })
    expect(confirmed.state).toBe('confirmed')
    const again = await call('POST', '/api/booking/billing/updateBillStatus', operator, {
      id,
      version: confirmed.version,
      status: 'confirm',
    })
    expect(again.body.code).toBe('360003')
    expect(again.body.message).toBe('This bill has already been confirmed and cannot be confirmed again')
    const state = await sql<{
      state: string
      version: number
    }>`select state, version from bill where id = ${id}`.execute(test.database.db)
    expect(state.rows[0]).toEqual({ state: 'confirmed', version: confirmed.version })

    // The customer heard of it.
    const letters = await sql<{ title: string; link: string }>`
      select l.title, l.link from letter l join app_user u on u.id = l.recipient
      where u.username = 'entadmin' and l.event = 'billIssued' order by l.id desc limit 1`.execute(test.database.db)
    expect(letters.rows[0]?.link).toBe(`/billDetail?id=${id}`)

    // In the customer's /billList and /DebitNote, found by its number.
    const list = await ok('POST', '/api/booking/billing/list', customer, {
      searchParams: { billingNo: bill.billingNo },
    })
    expect(list.list?.map((row) => row.id)).toEqual([id])
    const debit = await ok('POST', '/api/booking/billing/debitNote/list', customer, {
      searchParams: { billingNo: bill.billingNo },
    })
    expect(debit.list?.map((row) => row.id)).toEqual([id])
    const viaGet = await ok('GET', `/api/booking/billing/list?billingNo=${bill.billingNo}&state=confirmed`, customer)
    expect(viaGet.total).toBe(1)

    // The PDF, in the customer's language and the tenant's name.
    const pdf = await test.app.inject({
      method: 'GET',
      url: `/api/booking/billing/downloadBilling?id=${id}`,
      headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${customer}` },
    })
    expect(pdf.headers['content-type']).toBe('application/pdf')
    const text = pdfText(pdf.rawPayload)
    expect(text).toContain(String(bill.billingNo))
    expect(text).toContain('Totals per currency')
    // Amounts with their digits grouped, as the lists show them.
    expect(text).toContain('3,940.26')
    expect(text).toContain('3,121.70')
    const zh = await test.app.inject({
      method: 'POST',
      url: '/api/booking/billing/downloadBilling',
      headers: { host: 'localhost', language: 'zh_CN', authorization: `Bearer ${customer}`, resource: '1' },
      payload: { id: String(id) },
    })
    expect(pdfText(zh.rawPayload)).toContain('币种合计')
  })

  it('hides a bill from another tenant and keeps customers from making bills', async () => {
    const operator = await test.login('opadmin')
    const order = await confirmedOrder()
    const bill = await ok('POST', '/api/booking/billing/add', operator, { order: order.id, billingType: 'receivable' })
    const acme = await test.login('opadmin', 'acme.localhost')
    const hidden = await test.app.inject({
      method: 'GET',
      url: `/api/booking/billing/detail?id=${bill.id}`,
      headers: { host: 'acme.localhost', language: 'en_US', authorization: `Bearer ${acme}` },
    })
    expect(hidden.statusCode).toBe(404)
    const customer = await test.login('entadmin')
    const refused = await call('POST', '/api/booking/billing/add', customer, {
      order: order.id,
      billingType: 'receivable',
    })
    expect(refused.body.code).toBe('220000')
  })
})

describe("adjusting an order's charges", () => {
  it('replaces the lines with exact amounts and keeps before, after and why in the order history', async () => {
    const operator = await test.login('opadmin')
    const order = await confirmedOrder()
    const charges = [
      {
        chargeCode: 'OFR',
        chargeName: 'Ocean freight',
        category: 'freight',
        unit: '40HQ',
        quantity: 2,
        unitPrice: '1950.50',
        currency: 'USD',
      },
      {
        chargeCode: 'DOC',
        chargeName: 'Documentation fee',
        category: 'origin',
        unit: 'B/L',
        quantity: 1,
        unitPrice: '500',
        currency: 'CNY',
      },
    ]
    const refused = await call(
      'POST',
      '/api/booking/orderCharge/adjustOrderCharge',
      operator,
      { orderId: order.id, remark: 'GRI', charges: [{ ...charges[0], quantity: -1 }] },
      'es_ES',
    )
    expect(refused.body.code).toBe('validation')
    expect(refused.body.fieldErrors?.[0]?.field).toBe('charges[0].quantity')
    const lines = (await ok('POST', '/api/booking/orderCharge/adjustOrderCharge', operator, {
      orderId: order.id,
      remark: 'Carrier GRI from the 15th',
      charges,
    })) as unknown as { chargeCode: string; amount: string; currency: string }[]
    expect(lines.map((line) => [line.chargeCode, line.amount, line.currency])).toEqual([
      ['OFR', '3901.000', 'USD'],
      ['DOC', '500.000', 'CNY'],
    ])
    const read = (await ok(
      'GET',
      `/api/booking/order/getChargeListVos?orderId=${order.id}`,
      operator,
    )) as unknown as unknown[]
    expect(read.length).toBe(2)
    const detail = await ok('GET', `/api/booking/order/getOrderDetail?id=${order.id}`, operator)
    const entry = (detail.history as { remark: string | null; after: { charges?: unknown[] } | null }[])[0]
    expect(entry?.remark).toBe('Carrier GRI from the 15th')
    expect(entry?.after?.charges?.length).toBe(2)
    const customer = await test.login('entadmin')
    const denied = await call('POST', '/api/booking/orderCharge/adjustOrderCharge', customer, {
      orderId: order.id,
      remark: 'cheaper please',
      charges,
    })
    expect(denied.body.code).toBe('220000')
  })
})
