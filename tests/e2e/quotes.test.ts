import { describe, expect, it } from 'vitest'
import { inDays } from '../support/clock.ts'
import { apiContent, CHARGE_TYPE, CHARGE_UNIT, confirmDialog, fillChargeLine } from '../support/commercial.ts'
import { seaInquiry } from '../support/fixtures.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue 8's quote part in the browser: the operator writes a quote for a customer's sea inquiry with three
 * charge lines in two currencies (a zero price shows the rule's message at its cell and saves nothing), sees
 * the amounts and total worked out live, saves and sends it; the customer compares the inquiry's quotes,
 * sorts them and "Book" opens the booking page with the quote's id.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

describe('quotes (operator and customer)', () => {
  it('writes, checks, saves and sends a quote; the customer sorts the quotes and books one', async () => {
    const customer = await portal.signIn('entadmin')
    const inquiry = await apiContent(
      customer.page,
      'POST',
      '/booking/inquiry/save',
      seaInquiry({ destination: 'BRSSZ' }),
    )

    const operator = await portal.signIn('opadmin')
    const page = operator.page
    const saves: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/b2b/quote/add')) saves.push(request.postData() ?? '')
    })
    await page.goto(`${operator.base}/inquiryQuoteDetails?inquiry=${inquiry.id}`)
    await page.getByTestId('quote-editor').waitFor(WAIT)
    await expect.poll(() => page.getByTestId('inquiry-lane').textContent(), WAIT).toContain('Santos')
    expect(await page.getByTestId('inquiry-containers').textContent()).toContain("2 × 40'HQ")

    await page.locator('#root_contactName').fill('Li Wei')
    for (let i = 0; i < 2; i++) await page.getByRole('button', { name: zh('widget', 'addRow') }).click()
    await fillChargeLine(page, 0, {
      type: CHARGE_TYPE.freight,
      name: 'Ocean freight 40HQ',
      quantity: '2',
      unit: CHARGE_UNIT.container,
      price: '0',
      currency: 'USD',
    })
    await fillChargeLine(page, 1, {
      type: CHARGE_TYPE.origin,
      name: 'Terminal handling',
      quantity: '3',
      unit: CHARGE_UNIT.container,
      price: '850',
      currency: 'CNY',
    })
    await fillChargeLine(page, 2, {
      type: CHARGE_TYPE.destination,
      name: 'Destination delivery',
      quantity: '1.5',
      unit: CHARGE_UNIT.cbm,
      price: '333.333',
      currency: 'USD',
    })

    // A zero price: the rule's message at its cell, and nothing is sent.
    await page.getByTestId('quote-save').click()
    const zeroMessage = zh('validation', 'exclusiveMinimum').replace('{{limit}}', '0')
    await expect
      .poll(() => page.locator('tr', { has: page.locator('#root_charges_0_unitPrice') }).textContent(), WAIT)
      .toContain(zeroMessage)
    expect(saves).toEqual([])

    // Fixed: the amounts and the total follow live, in exact decimals (2550 CNY at 7.12 = 358.15 USD).
    await page.locator('#root_charges_0_unitPrice').fill('1850.50')
    await expect.poll(() => page.getByTestId('quote-total').textContent(), WAIT).toBe('USD 4,559.15')
    expect(await page.getByTestId('quote-subtotals').textContent()).toBe('USD 4,201.00 + CNY 2,550.00')
    expect(await page.getByTestId('quote-amount-2').textContent()).toContain('USD 500.00')

    await page.getByTestId('quote-save').click()
    await page.waitForURL(/inquiryQuoteDetails\?id=\d+/, WAIT)
    expect(saves).toHaveLength(1)
    const quoteId = Number(new URL(page.url()).searchParams.get('id'))
    await expect.poll(() => page.getByTestId('quote-state').textContent(), WAIT).toBe(zh('state', 'draft'))
    // The saved quote is read back after the address changes: wait for its number, not just a draft badge.
    await expect.poll(() => page.getByTestId('quote-title').textContent(), WAIT).toMatch(/^QT\d+/)

    await page.getByTestId('quote-send').click()
    await confirmDialog(page, zh('action', 'sendQuote'))
    await expect.poll(() => page.getByTestId('quote-state').textContent(), WAIT).toBe(zh('state', 'quoted'))
    const stored = await apiContent(page, 'GET', `/b2b/quote/detail?id=${quoteId}`)
    expect(stored).toMatchObject({ state: 'quoted', total: '4559.150' })

    // A second, dearer but quicker quote, sent through the API.
    const quick = await apiContent(page, 'POST', '/b2b/quote/add', {
      inquiry: inquiry.id,
      transportMode: 1,
      clientType: 'formal',
      contactName: 'Li Wei',
      validUntil: inDays(10),
      currency: 'USD',
      transitDays: 12,
      departure: inDays(3),
      charges: [
        {
          chargeType: 'freight',
          name: 'Express freight',
          quantity: 3,
          unit: 'container',
          unitPrice: '2500',
          currency: 'USD',
        },
      ],
    })
    await apiContent(page, 'POST', '/quote/transition', { id: quick.id, version: quick.version, transition: 'send' })

    // The customer compares: cheapest first, then quickest first; Book opens the booking page with the quote.
    const cpage = customer.page
    await cpage.goto(`${customer.base}/inquiryQuotes?id=${inquiry.id}`)
    await cpage.getByTestId('quote-comparison').waitFor(WAIT)
    const order = () =>
      cpage.getByTestId('quote-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-quote')))
    await expect.poll(() => cpage.getByTestId('quote-card').count(), WAIT).toBe(2)
    const cheapest = await order()
    expect(cheapest[0]).toBe(stored.quoteNo)
    await cpage.getByTestId('quote-sort-quickest').click()
    await expect.poll(order, WAIT).toEqual([quick.quoteNo, stored.quoteNo])
    await cpage.getByTestId('quote-sort-cheapest').click()
    await expect.poll(order, WAIT).toEqual([stored.quoteNo, quick.quoteNo])
    await cpage.getByTestId('quote-card').first().getByTestId('quote-book').click()
    await cpage.waitForURL(new RegExp(`/fclCreateOrder\\?quoteId=${quoteId}$`), WAIT)
  })
})
