import { describe, expect, it } from 'vitest'
import {
  addInquiryContainers,
  addInquiryPackage,
  apiCall,
  apiContent,
  CHARGE_TYPE,
  CHARGE_UNIT,
  chooseInquiryRoute,
  confirmDialog,
  fillChargeLine,
  pickOption,
} from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #8's acceptance, end to end as its users do it in the browser: entadmin submits a sea inquiry with
 * two container types; opadmin quotes it with three charge lines (a zero price first: the rule's message,
 * nothing saved) and sends it; entadmin chooses the quote from the inquiry's quotes and books it; opadmin
 * confirms the order; the order is in /myOrders with its history and /orderTracking finds it by number.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

describe('from a cargo inquiry to a confirmed, tracked order', () => {
  it('inquiry → quote → booking → confirmation → my orders → tracking', async () => {
    // 1. The customer's sea inquiry with two container types, from the form.
    const customer = await portal.signIn('entadmin')
    const cpage = customer.page
    await cpage.goto(`${customer.base}/palletInquiry/sea`)
    await cpage.getByTestId('inquiry-form-sea').waitFor(WAIT)
    await chooseInquiryRoute(cpage, 'zh')
    await cpage.getByRole('textbox', { name: zh('field', 'pickUpAddress') }).fill('88 Wenyi West Road, Hangzhou')
    await addInquiryContainers(cpage, 'zh', [
      ['22G1', '2'],
      ['45G1', '1'],
    ])
    await addInquiryPackage(cpage, 'zh')
    await cpage.getByRole('button', { name: zh('inquiry', 'submit') }).click()
    await cpage.getByTestId('inquiry-saved').waitFor(WAIT)
    const quotesHref = (await cpage.getByTestId('inquiry-quotes-link').getAttribute('href')) as string
    const inquiryId = Number(new URL(quotesHref, customer.base).searchParams.get('id'))
    expect(inquiryId).toBeGreaterThan(0)

    // 2. The operator opens it from the inquiry list and writes a quote of three lines.
    const operator = await portal.signIn('opadmin')
    const opage = operator.page
    await opage.goto(`${operator.base}/viewInquiry?id=${inquiryId}`)
    await opage.getByRole('button', { name: zh('action', 'writeQuote') }).click()
    await opage.waitForURL(/\/inquiryQuoteDetails\?inquiry=\d+/, WAIT)
    await opage.getByTestId('quote-editor').waitFor(WAIT)
    await opage.locator('#root_contactName').fill('Li Wei')
    await pickOption(opage, opage, zh('field', 'carrier'), 'MAEU')
    await opage.locator('#root_transitDays').fill('16')
    const saves: string[] = []
    opage.on('request', (request) => {
      if (request.url().includes('/api/b2b/quote/add')) saves.push(request.postData() ?? '')
    })
    for (let i = 0; i < 2; i++) await opage.getByRole('button', { name: zh('widget', 'addRow') }).click()
    const lines = [
      { type: CHARGE_TYPE.freight, name: "Ocean freight 20'GP", quantity: '2', unit: CHARGE_UNIT.container },
      { type: CHARGE_TYPE.freight, name: "Ocean freight 40'HQ", quantity: '1', unit: CHARGE_UNIT.container },
      { type: CHARGE_TYPE.origin, name: 'Terminal handling', quantity: '3', unit: CHARGE_UNIT.container },
    ]
    await fillChargeLine(opage, 0, { ...(lines[0] as (typeof lines)[0]), price: '0', currency: 'USD' })
    await fillChargeLine(opage, 1, { ...(lines[1] as (typeof lines)[0]), price: '3450', currency: 'USD' })
    await fillChargeLine(opage, 2, { ...(lines[2] as (typeof lines)[0]), price: '850', currency: 'CNY' })
    await opage.getByTestId('quote-save').click()
    await expect
      .poll(() => opage.locator('tr', { has: opage.locator('#root_charges_0_unitPrice') }).textContent(), WAIT)
      .toContain(zh('validation', 'exclusiveMinimum').replace('{{limit}}', '0'))
    expect(saves).toEqual([])
    await opage.locator('#root_charges_0_unitPrice').fill('2150')
    await opage.getByTestId('quote-save').click()
    await opage.waitForURL(/inquiryQuoteDetails\?id=\d+/, WAIT)
    const quoteId = Number(new URL(opage.url()).searchParams.get('id'))
    await expect.poll(() => opage.getByTestId('quote-title').textContent(), WAIT).toMatch(/^QT\d+/)
    await opage.getByTestId('quote-send').click()
    await confirmDialog(opage, zh('action', 'sendQuote'))
    await expect.poll(() => opage.getByTestId('quote-state').textContent(), WAIT).toBe(zh('state', 'quoted'))
    const quote = await apiContent(opage, 'GET', `/b2b/quote/detail?id=${quoteId}`)
    // 2 × 2150 + 3450 USD, and 3 × 850 CNY at the tenant's rate: exact decimals, computed by the server.
    expect(quote.charges).toHaveLength(3)
    expect(quote.subtotals).toEqual([
      { currency: 'USD', amount: '7750.00' },
      { currency: 'CNY', amount: '2550.00' },
    ])

    // 3. The customer finds it under the inquiry's quotes, chooses it and books.
    await cpage.goto(`${customer.base}/myInquiries`)
    const inquiryRow = cpage
      .getByRole('row')
      .filter({ hasText: zh('state', 'quoted') })
      .first()
    await inquiryRow.waitFor(WAIT)
    await cpage.goto(`${customer.base}${quotesHref}`)
    await cpage.getByTestId('quote-comparison').waitFor(WAIT)
    await cpage.locator(`[data-testid="quote-card"][data-quote="${quote.quoteNo}"]`).getByTestId('quote-book').click()
    await cpage.waitForURL(new RegExp(`/fclCreateOrder\\?quoteId=${quoteId}$`), WAIT)
    await cpage.getByTestId('booking-source').waitFor(WAIT)
    expect(await cpage.getByTestId('booking-source').textContent()).toContain(String(quote.quoteNo))
    await cpage
      .getByLabel(zh('field', 'shipper'))
      .first()
      .fill('HANGZHOU MINGHUI TEXTILE CO., LTD.\n88 WENYI WEST ROAD\nHANGZHOU 310000 CHINA')
    await cpage
      .getByLabel(zh('field', 'consignee'))
      .first()
      .fill('PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA')
    await cpage.getByLabel(zh('field', 'etd')).first().fill(inDays(10))
    const submitted = cpage.waitForResponse((r) => r.url().includes('/api/booking/order/add'))
    await cpage.getByTestId('booking-submit').click()
    await confirmDialog(cpage, zh('ui', 'ok'))
    const placed = (await (await submitted).json()) as { code: string; content: { id: number; orderNo: string } }
    expect(placed.code, JSON.stringify(placed)).toBe('0000')
    const { id: orderId, orderNo } = placed.content
    await cpage.waitForURL(new RegExp(`/orderDetails\\?id=${orderId}`), WAIT)
    // Booked from the quote: the quote and its inquiry are booked too.
    expect((await apiContent(cpage, 'GET', `/b2b/quote/getItem?id=${quoteId}`)).state).toBe('booked')

    // 4. The operator confirms the order.
    await opage.goto(`${operator.base}/orderDetailsOperator?id=${orderId}`)
    await opage.getByRole('button', { name: zh('action', 'accept') }).click()
    await confirmDialog(opage, zh('ui', 'ok'))
    await expect
      .poll(
        async () => (await apiCall(opage, 'GET', `/booking/order/getOrderDetail?id=${orderId}`)).content.state,
        WAIT,
      )
      .toBe('accepted')

    // 5. The customer's orders show it, confirmed, with its history; public tracking finds it by number.
    await cpage.goto(`${customer.base}/myOrders`)
    const listed = cpage.getByRole('row').filter({ hasText: orderNo })
    await listed.waitFor(WAIT)
    expect(await listed.textContent()).toContain(zh('state', 'accepted'))
    await listed.getByRole('link', { name: orderNo }).click()
    await cpage.waitForURL(new RegExp(`/orderDetails\\?id=${orderId}`), WAIT)
    const detail = await apiContent(cpage, 'GET', `/booking/order/getOrderDetail?id=${orderId}`)
    expect((detail.history as { transition: string | null }[]).map((h) => h.transition)).toEqual(
      expect.arrayContaining(['submit', 'accept']),
    )
    await expect.poll(() => cpage.getByText(zh('action', 'accept')).count(), WAIT).toBeGreaterThan(0)

    const visitor = await portal.browser.newContext()
    const vpage = await visitor.newPage()
    await vpage.goto(`${portal.server.url}/orderTracking?numbers=${orderNo}`)
    await expect.poll(() => vpage.getByTestId('tracking-shipment').count(), WAIT).toBe(1)
    await visitor.close()
    await operator.context.close()
    await customer.context.close()
  })
})
