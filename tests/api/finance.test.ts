import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { groupDigits } from '../../rules/decimal.ts'
import { setupTestApp } from '../support/app.ts'
import { envelopeCalls } from '../support/calls.ts'
import { inDays, today } from '../support/clock.ts'
import { pdfText } from '../support/pdf-text.ts'

/**
 * Finance management (issue #24): payments and write-offs against confirmed bills, held to the open amount; the
 * ageing of open amounts per customer, type and currency on the tenant's calendar; the customer's own ageing and
 * statement, which balances to the cent and is converted only at a named day's rates.
 */

const test = setupTestApp()

const { call, ok } = envelopeCalls(test)

const payments = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from bill_payment`.execute(test.database.db)).rows[0]?.n)

/** The customer's company and one of its confirmed orders (an order may have several bills). */
async function customerOrder() {
  const { rows } = await sql<{ id: number; company: number }>`
    select o.id, o.customer_company as company from booking_order o join tenant t on t.id = o.tenant_id
    join app_user u on u.tenant_id = t.id and u.username = 'entadmin' and u.company_id = o.customer_company
    where t.code = 'demo' and o.state in ('accepted', 'booked') order by o.id limit 1`.execute(test.database.db)
  const order = rows[0]
  if (!order) throw new Error('the seed has no confirmed order of the customer')
  return order
}

/** A confirmed bill of USD 3,940.26 and CNY 3,121.70 dated `age` days back. */
async function confirmedBill(operator: string, age: number): Promise<Record<string, unknown> & { company: number }> {
  const order = await customerOrder()
  const bill = await ok('POST', '/api/booking/billing/add', operator, {
    order: order.id,
    billingType: 'receivable',
    inputDate: inDays(-age),
    lines: [
      { chargeName: 'Ocean freight', unit: '40HQ', quantity: 2, unitPrice: '1850.00', currency: 'USD' },
      { chargeName: 'BAF', unit: '40HQ', quantity: 2, unitPrice: '120.13', currency: 'USD' },
      { chargeName: 'THC', unit: '40HQ', quantity: 2, unitPrice: '1260.00', currency: 'CNY', taxRate: 6 },
      { chargeName: 'Document fee', unit: 'BL', quantity: 1, unitPrice: '450.50', currency: 'CNY' },
    ],
  })
  const printed = await ok('POST', '/api/booking/billing/updateBillStatus', operator, {
    id: bill.id,
    version: bill.version,
    status: 'print',
  })
  const confirmed = await ok('POST', '/api/booking/billing/updateBillStatus', operator, {
    id: bill.id,
    version: printed.version,
    status: 'confirm',
  })
  return { ...(confirmed as Record<string, unknown>), company: order.company }
}

type AgeingRow = Record<string, string | number | null>

async function ageing(token: string, url = '/api/booking/finance/ageing/list', company?: number) {
  const page = await ok('POST', url, token, {
    searchParams: { billingType: 'receivable', currency: 'USD', ...(company ? { customerCompany: company } : {}) },
    pageSize: 50,
  })
  return (page.list ?? []) as AgeingRow[]
}

const cents = (value: unknown) => Math.round(Number(value) * 100)

describe('payments against a bill and the ageing', () => {
  it('a partial payment leaves only the open remainder, in the bucket of the bill’s age', async () => {
    const operator = await test.login('opadmin')
    const { company } = await customerOrder()
    const [before] = await ageing(operator, undefined, company)
    const bill = await confirmedBill(operator, 45)
    const paid = await ok('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'USD',
      amount: '1000.00',
      paidOn: today(),
      reference: 'TT-88120',
    })
    expect(paid.customerCompany).toBe(bill.company)
    const detail = await ok('GET', `/api/booking/billing/detail?id=${bill.id}`, operator)
    expect(detail.totals).toEqual([
      { currency: 'USD', amount: '3940.26', paid: '1000.00', open: '2940.26' },
      { currency: 'CNY', amount: '3121.70', paid: '0.00', open: '3121.70' },
    ])
    const [after] = await ageing(operator, undefined, bill.company)
    expect(cents(after?.total) - cents(before?.total ?? 0)).toBe(394026)
    expect(cents(after?.paid) - cents(before?.paid ?? 0)).toBe(100000)
    expect(cents(after?.days31to60) - cents(before?.days31to60 ?? 0)).toBe(294026)
    for (const bucket of ['days0to30', 'days61to90', 'daysOver90'])
      expect(cents(after?.[bucket]), bucket).toBe(cents(before?.[bucket] ?? 0))
    // The buckets add up to the open amount, to the cent.
    expect(
      cents(after?.days0to30) + cents(after?.days31to60) + cents(after?.days61to90) + cents(after?.daysOver90),
    ).toBe(cents(after?.open))
  })

  it('refuses a payment above the open amount, a write-off without a reason and a yen with decimals', async () => {
    const operator = await test.login('opadmin')
    const bill = await confirmedBill(operator, 10)
    const count = await payments()
    const above = await call('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'USD',
      amount: '3940.27',
      paidOn: today(),
    })
    expect(above.body.code).toBe('validation')
    expect(above.body.fieldErrors).toContainEqual({
      field: 'amount',
      message: 'The amount is more than the open amount, USD 3940.26',
    })
    const reasonless = await call(
      'POST',
      '/api/booking/finance/payment/add',
      operator,
      { bill: bill.id, kind: 'writeOff', currency: 'CNY', amount: '0.70', paidOn: today() },
      'zh_CN',
    )
    expect(reasonless.body.fieldErrors).toContainEqual({ field: 'reason', message: '核销必须填写原因' })
    const yen = await call('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'JPY',
      amount: '100.5',
      paidOn: today(),
    })
    expect(yen.body.fieldErrors?.map((e) => e.field)).toContain('amount')
    const notOnBill = await call('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'EUR',
      amount: '10.00',
      paidOn: today(),
    })
    expect(notOnBill.body.fieldErrors).toContainEqual({
      field: 'currency',
      message: 'The bill has no amount in this currency',
    })
    expect(await payments()).toBe(count)
    const detail = await ok('GET', `/api/booking/billing/detail?id=${bill.id}`, operator)
    expect((detail.totals as { paid: string }[]).map((t) => t.paid)).toEqual(['0.00', '0.00'])

    // Paid in full, written off to the cent: nothing open, and nothing more can be paid.
    await ok('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'CNY',
      amount: '3121.00',
      paidOn: today(),
    })
    await ok('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'writeOff',
      currency: 'CNY',
      amount: '0.70',
      paidOn: today(),
      reason: 'Bank charges deducted by the remitting bank',
    })
    const settled = await ok('GET', `/api/booking/billing/detail?id=${bill.id}`, operator)
    expect((settled.totals as { open: string }[])[1]).toEqual({
      currency: 'CNY',
      amount: '3121.70',
      paid: '3121.70',
      open: '0.00',
    })
    const more = await call('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'CNY',
      amount: '0.01',
      paidOn: today(),
    })
    expect(more.body.code).toBe('validation')
  })

  it('refuses a payment against a bill not confirmed yet', async () => {
    const operator = await test.login('opadmin')
    const order = await customerOrder()
    const bill = await ok('POST', '/api/booking/billing/add', operator, { order: order.id, billingType: 'receivable' })
    const refused = await call('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'USD',
      amount: '1.00',
      paidOn: today(),
    })
    expect(refused.body.fieldErrors).toContainEqual({
      field: 'bill',
      message: 'Payments are recorded only against a confirmed bill',
    })
  })
})

describe("the customer's ageing and statement", () => {
  it('shows the customer their own ageing only, and a statement that balances to the cent', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const bill = await confirmedBill(operator, 3)
    await ok('POST', '/api/booking/finance/payment/add', operator, {
      bill: bill.id,
      kind: 'payment',
      currency: 'USD',
      amount: '940.26',
      paidOn: today(),
    })
    const mine = await ok('POST', '/api/booking/finance/myAgeing/list', customer, { pageSize: 50 })
    expect(mine.total).toBeGreaterThan(0)
    expect(new Set(mine.list?.map((row) => row.customerCompany))).toEqual(new Set([bill.company]))
    const refused = await call('POST', '/api/booking/finance/ageing/list', customer, {})
    expect(refused.body.code).toBe('220000')

    // The statement's balance per currency is the open receivables less the open payables, to the cent.
    const { rows } = await sql<{ currency: string; open: string }>`
      select t.value ->> 'currency' as currency,
        sum(case when b.billing_type = 'payable' then -1 else 1 end * (t.value ->> 'open')::numeric)::text as open
      from bill b cross join lateral jsonb_array_elements(b.totals) t
      where b.customer_company = ${bill.company} and b.state = 'confirmed' group by 1`.execute(test.database.db)
    const usd = rows.find((row) => row.currency === 'USD')
    const pdf = await test.app.inject({
      method: 'GET',
      url: '/api/booking/finance/statement?customerCompany=999999',
      headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${customer}` },
    })
    expect(pdf.headers['content-type']).toBe('application/pdf')
    const text = pdfText(pdf.rawPayload)
    expect(text).toContain('Statement')
    expect(text).toContain(String(bill.billingNo))
    expect(text).toContain(groupDigits(Number(usd?.open).toFixed(2)))

    // Converted only at a named day's rates, each rate shown; a day without rates is refused.
    const { rows: rates } = await sql<{ rate: string }>`
      select e.rate_to_cny::text as rate from exchange_rate e join tenant t on t.id = e.tenant_id
      where t.code = 'demo' and e.currency = 'USD' and e.effective_date <= ${today()}::date
      order by e.effective_date desc limit 1`.execute(test.database.db)
    const convertedPdf = await test.app.inject({
      method: 'GET',
      url: `/api/booking/finance/statement?rateDate=${today()}&targetCurrency=CNY`,
      headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${customer}` },
    })
    const convertedText = pdfText(convertedPdf.rawPayload)
    expect(convertedText).toContain(`Converted → CNY (Rate date ${today()})`)
    expect(convertedText).toContain(String(rates[0]?.rate))
    const early = await call('GET', '/api/booking/finance/statement?rateDate=1990-01-01&targetCurrency=CNY', customer)
    expect(early.body.code).toBe('validation')
    expect(early.body.fieldErrors?.[0]?.field).toBe('rateDate')
  })
})

describe('invoices', () => {
  it('are issued for a confirmed bill in one of its currencies, with its figures, and listed for the customer', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const bill = await confirmedBill(operator, 5)
    const invoice = await ok('POST', '/api/booking/invoice/add', operator, {
      bill: bill.id,
      currency: 'CNY',
      title: 'Hangzhou Minghui Textile Imp & Exp Co., Ltd.',
      invoiceDate: today(),
    })
    expect(invoice.invoiceNo).toMatch(/^INV\d{10}$/)
    expect([invoice.amount, invoice.tax, invoice.mbl, invoice.customerCompany]).toEqual([
      '3121.70',
      '151.20',
      bill.mbl,
      bill.company,
    ])
    const mine = await ok('POST', '/api/booking/invoice/list', customer, {
      searchParams: { invoiceNo: invoice.invoiceNo, title: 'minghui' },
    })
    expect(mine.list?.map((row) => row.id)).toEqual([invoice.id])
    const viaGet = await ok('GET', `/api/booking/invoice/list?invoiceNo=${invoice.invoiceNo}`, customer)
    expect(viaGet.total).toBe(1)

    const order = await customerOrder()
    const draft = await ok('POST', '/api/booking/billing/add', operator, { order: order.id, billingType: 'receivable' })
    const refused = await call('POST', '/api/booking/invoice/add', operator, {
      bill: draft.id,
      currency: 'USD',
      title: 'Hangzhou Minghui',
      invoiceDate: today(),
    })
    expect(refused.body.fieldErrors).toContainEqual({
      field: 'bill',
      message: 'An invoice is issued only for a confirmed bill',
    })
    const noCurrency = await call('POST', '/api/booking/invoice/add', operator, {
      bill: bill.id,
      currency: 'JPY',
      title: 'Hangzhou Minghui',
      invoiceDate: today(),
    })
    expect(noCurrency.body.fieldErrors).toContainEqual({
      field: 'currency',
      message: 'The bill has no amount in this currency',
    })
  })
})

describe('the bill look-up of the payment form', () => {
  it('finds the bills the caller sees by billing number or id, and none of another company', async () => {
    const operator = await test.login('opadmin')
    const bill = await confirmedBill(operator, 1)
    const lookup = async (token: string, query: string) =>
      (
        (await ok('GET', `/api/b2b/basicData/bill/fuzzyQuery?${query}`, token)) as {
          list: { value: string; label: string }[]
        }
      ).list
    const found = [expect.objectContaining({ value: String(bill.id), label: bill.billingNo })]
    expect(await lookup(operator, `keyword=${bill.billingNo}`)).toEqual(found)
    expect(await lookup(await test.login('entadmin'), `codes=${bill.id}`)).toEqual(found)
    // Another company's booking clerk holds no myBilling; another tenant's operator finds nothing.
    expect(
      (await call('GET', `/api/b2b/basicData/bill/fuzzyQuery?codes=${bill.id}`, await test.login('nbclerk'))).body.code,
    ).toBe('220000')
    const acme = await test.app.inject({
      method: 'GET',
      url: `/api/b2b/basicData/bill/fuzzyQuery?codes=${bill.id}`,
      headers: { host: 'acme.localhost', authorization: `Bearer ${await test.login('opadmin', 'acme.localhost')}` },
    })
    expect(acme.json().content.list).toEqual([])
  })
})

describe('bill and invoice numbers (issue #24: per-tenant rules like order numbers)', () => {
  it("come from the tenant's rules on /OrderNoManagement once it has them, beside its order rule", async () => {
    const operator = await test.login('opadmin')
    const rule = (document: string, prefix: string) => ({
      document,
      transportMode: 0,
      prefix,
      datePattern: 'YYYYMM',
      sequenceLength: 5,
      reset: 'monthly',
      enabled: true,
    })
    await ok('POST', '/api/b2b/orderNo/rule/add', operator, rule('invoice', 'FP'))
    await ok('POST', '/api/b2b/orderNo/rule/add', operator, rule('bill', 'ZD'))
    // One rule per document and mode: a second invoice rule for every mode is refused.
    expect((await call('POST', '/api/b2b/orderNo/rule/add', operator, rule('invoice', 'FP2'))).body.code).toBe('400003')
    const listed = await ok('POST', '/api/b2b/orderNo/rule/list', operator, { searchParams: { document: 'order' } })
    expect(listed.list?.map((r) => [r.document, r.prefix])).toEqual([['order', 'HY']])

    const bill = await confirmedBill(operator, 3)
    // The tenant's month (Asia/Shanghai) on the server's clock.
    const month = today().slice(0, 7).replace('-', '')
    expect(bill.billingNo).toBe(`ZD${month}00001`)
    const invoice = await ok('POST', '/api/booking/invoice/add', operator, {
      bill: bill.id,
      currency: 'USD',
      title: 'Hangzhou Minghui Textile Imp & Exp Co., Ltd.',
      invoiceDate: today(),
    })
    expect(invoice.invoiceNo).toBe(`FP${month}00001`)
    expect((await confirmedBill(operator, 2)).billingNo).toBe(`ZD${month}00002`)
  })
})
