import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { routes } from '../../generated/routes.ts'
import { openContext } from '../support/browser.ts'
import { inDays } from '../support/clock.ts'
import {
  addInquiryContainers,
  addInquiryPackage,
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
 * The commercial flow end to end (issue #8's acceptance) and issue #16's: the commercial flow walked as a new user walks it, in the browser, failing on any of
 * the twelve things that tripped one up, on any console error and on any error toast the user did not cause.
 * A visitor searches rates from the home page by city name, compares two and tracks a container; the customer
 * inquires from the home page's menu; the operator quotes below the amount due; the customer books the quote;
 * the operator confirms it from booking forecasts; the visitor finds the order by its number.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

/** Every console error and every error toast a page shows, for the test to hold at zero. */
interface Watched {
  page: Page
  problems: string[]
}

const watched: Watched[] = []

async function watch(page: Page): Promise<Watched> {
  const entry: Watched = { page, problems: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') entry.problems.push(`console: ${message.text()} (${page.url()})`)
  })
  page.on('pageerror', (error) => entry.problems.push(`page error: ${error.message} (${page.url()})`))
  // Every API answer is an envelope: anything else (an HTML page, an empty body) is a fault, whatever it shows.
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? ''
    if (new URL(response.url()).pathname.startsWith('/api/') && !type.includes('json') && response.status() !== 204)
      entry.problems.push(`not an envelope: ${response.status()} ${type} ${response.url()}`)
  })
  // Error toasts (runtime/shell/Toasts.tsx marks each with its intent), seen as they are added.
  await page.exposeFunction('__reportErrorToast', (text: string) =>
    entry.problems.push(`error toast: ${text} (${page.url()})`),
  )
  await page.addInitScript(() => {
    const seen = new WeakSet<Element>()
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-intent="error"]')) {
        if (seen.has(toast)) continue
        seen.add(toast)
        ;(window as unknown as { __reportErrorToast: (text: string) => void }).__reportErrorToast(
          toast.textContent ?? '',
        )
      }
    }).observe(document, { childList: true, subtree: true })
  })
  watched.push(entry)
  return entry
}

afterEach(() => {
  const problems = watched.flatMap((entry) => entry.problems)
  watched.length = 0
  expect(problems).toEqual([])
})

/** The links of the workbench's left menu lead only to built screens (point 11). */
async function expectBuiltMenu(page: Page) {
  const menu = page.getByRole('navigation', { name: zh('ui', 'workbenchMenu') })
  await expect.poll(() => menu.getByRole('link').count(), WAIT).toBeGreaterThan(0)
  const paths = await menu
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))
  const planned = paths.filter((path) => routes.find((route) => route.path === path)?.status !== 'built')
  expect(planned).toEqual([])
}

/** The element lies inside the viewport (point 8: a new page opens at its top). */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect()
      return box.top >= 0 && box.bottom <= window.innerHeight
    })
}

describe('a new user through the commercial flow', () => {
  it('visitor: rate search by city name from the home page, comparison, tracking — no 401 asked for', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const { page } = await watch(await context.newPage())
    const sessionProbes: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/b2b/user/getCurrentUserInfo')) sessionProbes.push(request.url())
    })
    await page.goto(`${portal.server.url}/dashboard`)
    const rates = page.getByRole('tab', { name: zh('site', 'searchRates') })
    await rates.click()
    // Point 2: city names, looked up as on the rate page, carried to the rate search.
    const origin = page.getByRole('combobox', { name: zh('site', 'origin') })
    await origin.fill('Shanghai')
    await page.getByRole('option', { name: /CNSHA/ }).click()
    await page.getByRole('combobox', { name: zh('site', 'destination') }).fill('Los Angeles')
    await page.getByRole('button', { name: zh('site', 'searchRatesButton') }).click()
    await page.waitForURL(/\/productService\?origin=CNSHA&destination=USLAX/, WAIT)
    await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(1)
    expect(await page.getByRole('combobox', { name: zh('rate', 'origin') }).inputValue()).toContain('CNSHA')
    expect(await page.getByRole('combobox', { name: zh('rate', 'destination') }).inputValue()).toContain('USLAX')

    // A name that is no place is said, and nothing is opened.
    await page.goto(`${portal.server.url}/dashboard`)
    await page.getByRole('tab', { name: zh('site', 'searchRates') }).click()
    await page.getByRole('combobox', { name: zh('site', 'origin') }).fill('Atlantis')
    await page.getByRole('button', { name: zh('site', 'searchRatesButton') }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent(), WAIT)
      .toBe(zh('site', 'placeUnknown').replace('{{text}}', 'Atlantis'))
    expect(new URL(page.url()).pathname).toBe('/dashboard')

    // The comparison of two of the results.
    await page.goto(`${portal.server.url}/productService?origin=CNSHA&destination=USLAX&containerType=45G1`)
    const cards = page.getByTestId('rate-card')
    await expect.poll(() => cards.count(), WAIT).toBeGreaterThan(1)
    for (const i of [0, 1]) await cards.nth(i).getByTestId('rate-compare').click()
    await page.getByTestId('rate-compare-open').click()
    await expect.poll(() => page.getByTestId('rate-compare-column').count(), WAIT).toBe(2)

    // Tracking a container; a date without a time shows as a date (point 9).
    await page.goto(`${portal.server.url}/orderTracking?numbers=CSQU3054383`)
    const card = page.getByTestId('tracking-shipment')
    await card.waitFor(WAIT)
    const etd = card.locator('dt', { hasText: zh('tracking', 'etd') }).locator('xpath=following-sibling::dd[1]')
    expect(await etd.textContent()).toMatch(/^\d{4}/)
    expect(await etd.textContent()).not.toMatch(/\d:\d\d|AM|PM|上午|下午/)

    // Point 10: a visitor's pages never asked for the current user.
    expect(sessionProbes).toEqual([])
    await context.close()

    // Point 12: in Spanish and Japanese a port with no name in the language reads in English, never blank.
    for (const language of ['es', 'ja'] as const) {
      const foreign = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
      await foreign.addCookies([{ name: 'language', value: language, url: portal.server.url }])
      const { page: fpage } = await watch(await foreign.newPage())
      await fpage.goto(`${portal.server.url}/dashboard`)
      await fpage.getByRole('tab', { name: localeText(language, 'site', 'searchRates') }).click()
      await fpage.getByRole('combobox', { name: localeText(language, 'site', 'origin') }).fill('USLAX')
      await expect
        .poll(() => fpage.getByRole('listbox').getByRole('option').first().textContent(), WAIT)
        .toBe('USLAXLos Angeles')
      await foreign.close()
    }
  })

  it('inquiry from the home menu → quote below the amount due → booking → confirmation from forecasts → tracking', async () => {
    // Point 1: the home page's menus work for a signed-in user.
    const customer = await portal.signIn('entadmin')
    const cpage = (await watch(customer.page)).page
    await cpage.goto(`${customer.base}/dashboard`)
    await cpage.getByRole('button', { name: zh('ui', 'menu_inquiry') }).click()
    await cpage.getByRole('menuitem', { name: zh('ui', 'inquiry_sea') }).click()
    await cpage.waitForURL(/\/palletInquiry\/sea$/, WAIT)
    await cpage.getByTestId('inquiry-form-sea').waitFor(WAIT)
    await chooseInquiryRoute(cpage, 'zh')

    // Point 6: pick-up comes ticked from the default trade term, and its address carries the required mark.
    const pickUp = cpage.getByRole('checkbox', { name: zh('field', 'needPickUp') })
    await expect.poll(() => pickUp.isChecked(), WAIT).toBe(true)
    const address = cpage.getByRole('textbox', { name: zh('field', 'pickUpAddress') })
    const marked = () => address.evaluate((input) => (input as HTMLInputElement).required)
    await expect.poll(marked, WAIT).toBe(true)
    await pickUp.uncheck()
    await expect.poll(marked, WAIT).toBe(false)
    await pickUp.check()
    await address.fill('88 Wenyi West Road, Hangzhou')
    await addInquiryContainers(cpage, 'zh', [
      ['22G1', '1'],
      ['45G1', '2'],
    ])
    await addInquiryPackage(cpage, 'zh')
    await cpage.getByRole('button', { name: zh('inquiry', 'submit') }).click()
    await cpage.getByTestId('inquiry-saved').waitFor(WAIT)
    const quotesHref = (await cpage.getByTestId('inquiry-quotes-link').getAttribute('href')) as string
    const inquiryId = Number(new URL(quotesHref, customer.base).searchParams.get('id'))

    // Point 3 on the operator's inquiry: container types read as a forwarder writes them.
    const operator = await portal.signIn('opadmin')
    const opage = (await watch(operator.page)).page
    await opage.goto(`${operator.base}/viewInquiry?id=${inquiryId}`)
    await opage.getByRole('button', { name: zh('action', 'writeQuote') }).waitFor(WAIT)
    await expect.poll(() => opage.locator('main').textContent(), WAIT).toContain("40'HQ")
    expect(await opage.locator('main').textContent()).not.toMatch(/45G1|22G1/)
    await expectBuiltMenu(opage)

    // Point 5: a quote of three lines in two currencies, below the amount due. A zero price first: the rule's
    // message at its cell and nothing sent; then the low-fee confirmation, and no error besides.
    await opage.getByRole('button', { name: zh('action', 'writeQuote') }).click()
    await opage.getByTestId('quote-editor').waitFor(WAIT)
    await opage.locator('#root_contactName').fill('Li Wei')
    await pickOption(opage, opage, zh('field', 'carrier'), 'MAEU')
    await opage.locator('#root_transitDays').fill('16')
    const saves: string[] = []
    opage.on('request', (request) => {
      if (request.url().includes('/api/b2b/quote/add')) saves.push(request.postData() ?? '')
    })
    for (let i = 0; i < 2; i++) await opage.getByRole('button', { name: zh('widget', 'addRow') }).click()
    const freight = { type: CHARGE_TYPE.freight, unit: CHARGE_UNIT.container }
    await fillChargeLine(opage, 0, {
      ...freight,
      name: "Ocean freight 20'GP",
      quantity: '1',
      price: '0',
      currency: 'USD',
    })
    await fillChargeLine(opage, 1, {
      ...freight,
      name: "Ocean freight 40'HQ",
      quantity: '2',
      price: '100',
      currency: 'USD',
    })
    await fillChargeLine(opage, 2, {
      type: CHARGE_TYPE.origin,
      unit: CHARGE_UNIT.container,
      name: 'Terminal handling',
      quantity: '3',
      price: '850',
      currency: 'CNY',
    })
    await opage.getByTestId('quote-save').click()
    await expect
      .poll(() => opage.locator('tr', { has: opage.locator('#root_charges_0_unitPrice') }).textContent(), WAIT)
      .toContain(zh('validation', 'exclusiveMinimum').replace('{{limit}}', '0'))
    expect(saves).toEqual([])
    await opage.locator('#root_charges_0_unitPrice').fill('50')
    await expect.poll(() => opage.getByTestId('quote-amount-due').textContent(), WAIT).toMatch(/USD/)
    await opage.getByTestId('quote-save').click()
    const lowFee = opage.getByRole('dialog')
    await expect.poll(() => lowFee.textContent(), WAIT).toContain(zh('quote', 'lowFeeTitle'))
    await confirmDialog(opage, zh('quote', 'lowFeeConfirm'))
    await opage.waitForURL(/inquiryQuoteDetails\?id=\d+/, WAIT)
    const quoteId = Number(new URL(opage.url()).searchParams.get('id'))
    await opage.getByTestId('quote-send').click()
    await confirmDialog(opage, zh('action', 'sendQuote'))
    await expect.poll(() => opage.getByTestId('quote-state').textContent(), WAIT).toBe(zh('state', 'quoted'))
    const quote = await apiContent(opage, 'GET', `/b2b/quote/detail?id=${quoteId}`)
    expect(quote.lowFeeConfirmed).toBe(true)
    // 50 + 2 × 100 USD, and 3 × 850 CNY: exact decimals, computed by the server.
    expect(quote.subtotals).toEqual([
      { currency: 'USD', amount: '250.00' },
      { currency: 'CNY', amount: '2550.00' },
    ])
    // The one save request was the confirmed one: the question came before anything was sent.
    expect(saves.map((body) => JSON.parse(body).lowFeeConfirmed)).toEqual([true])

    // The customer's inquiries show it quoted.
    await cpage.goto(`${customer.base}/myInquiries`)
    await cpage
      .getByRole('row')
      .filter({ hasText: zh('state', 'quoted') })
      .first()
      .waitFor(WAIT)

    // The customer books the quote. Points 3 and 4 on the booking form.
    await cpage.goto(`${customer.base}${quotesHref}`)
    await cpage.getByTestId('quote-comparison').waitFor(WAIT)
    await cpage.locator(`[data-testid="quote-card"][data-quote="${quote.quoteNo}"]`).getByTestId('quote-book').click()
    await cpage.waitForURL(new RegExp(`/fclCreateOrder\\?quoteId=${quoteId}$`), WAIT)
    await cpage.getByTestId('booking-source').waitFor(WAIT)
    expect(await cpage.getByTestId('booking-source').textContent()).toContain(String(quote.quoteNo))
    const form = cpage.locator('form')
    // What a person reads of the form: its text and the values its fields show.
    const shown = () =>
      form.evaluate(
        (element) =>
          `${element.textContent} ${[...element.querySelectorAll('input')].map((input) => input.value).join(' ')}`,
      )
    await expect.poll(shown, WAIT).toContain("40'HQ")
    expect(await shown()).toContain("20'GP")
    // A picked type reads as its label (the look-up may put its ISO code before it, never alone).
    expect(await shown()).not.toMatch(/(45G1|22G1)(?! — \d\d')/)
    const labels = await form.locator('label').allTextContents()
    expect(labels.filter((label) => /^[a-z]+[A-Z]?[a-zA-Z]*\*?$/.test(label.trim()))).toEqual([])
    await cpage
      .getByLabel(zh('field', 'shipper'))
      .first()
      .fill('HANGZHOU MINGHUI TEXTILE CO., LTD.\n88 WENYI WEST ROAD\nHANGZHOU 310000 CHINA')
    await cpage
      .getByLabel(zh('field', 'consignee'))
      .first()
      .fill('PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA')
    await cpage.getByLabel(zh('field', 'etd')).first().fill(inDays(10))
    await cpage.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    const submitted = cpage.waitForResponse((r) => r.url().includes('/api/booking/order/add'))
    await cpage.getByTestId('booking-submit').click()
    await confirmDialog(cpage, zh('ui', 'ok'))
    const placed = (await (await submitted).json()) as { code: string; content: { id: number; orderNo: string } }
    expect(placed.code, JSON.stringify(placed)).toBe('0000')
    const { id: orderId, orderNo } = placed.content
    await cpage.waitForURL(new RegExp(`/orderDetails\\?id=${orderId}`), WAIT)
    // Point 8: the new order opens at its top, its number in view.
    await expect.poll(() => cpage.getByText(orderNo).count(), WAIT).toBeGreaterThan(0)
    expect(await cpage.evaluate(() => window.scrollY)).toBe(0)
    expect(await inView(cpage, 'h1')).toBe(true)
    expect(await cpage.locator('main').textContent()).not.toMatch(/45G1|22G1/)
    // Booked from the quote: the quote is booked too.
    expect((await apiContent(cpage, 'GET', `/b2b/quote/getItem?id=${quoteId}`)).state).toBe('booked')

    // The customer's forecast row opens the customer's own detail screen.
    await cpage.goto(`${customer.base}/preOrderList`)
    const forecast = cpage.getByRole('row').filter({ hasText: orderNo })
    await forecast.waitFor(WAIT)
    expect(await forecast.getByRole('link', { name: orderNo }).getAttribute('href')).toBe(`/orderDetails?id=${orderId}`)
    expect(await forecast.getByRole('button', { name: zh('action', 'accept') }).count()).toBe(0)

    // Point 7: the operator confirms it from booking forecasts, where the order also opens its detail.
    await opage.goto(`${operator.base}/preOrderList`)
    const row = opage.getByRole('row').filter({ hasText: orderNo })
    await row.waitFor(WAIT)
    expect(await row.getByRole('link', { name: orderNo }).getAttribute('href')).toBe(
      `/orderDetailsOperator?id=${orderId}`,
    )
    await row.getByRole('button', { name: zh('action', 'accept') }).click()
    await confirmDialog(opage, zh('ui', 'ok'))
    await expect
      .poll(async () => (await apiContent(opage, 'GET', `/booking/order/getOrderDetail?id=${orderId}`)).state, WAIT)
      .toBe('accepted')

    await cpage.goto(`${customer.base}/myOrders`)
    const mine = cpage.getByRole('row').filter({ hasText: orderNo })
    await mine.waitFor(WAIT)
    expect(await mine.textContent()).toContain(zh('state', 'accepted'))
    await expectBuiltMenu(cpage)
    await mine.getByRole('link', { name: orderNo }).click()
    await cpage.waitForURL(new RegExp(`/orderDetails\\?id=${orderId}`), WAIT)
    const detail = await apiContent(cpage, 'GET', `/booking/order/getOrderDetail?id=${orderId}`)
    expect((detail.history as { transition: string | null }[]).map((h) => h.transition)).toEqual(
      expect.arrayContaining(['submit', 'accept']),
    )
    await expect.poll(() => cpage.getByText(zh('action', 'accept')).count(), WAIT).toBeGreaterThan(0)

    // The visitor finds it by its number.
    const visitor = await openContext(portal.browser)
    const vpage = (await watch(await visitor.newPage())).page
    await vpage.goto(`${portal.server.url}/orderTracking?numbers=${orderNo}`)
    await expect.poll(() => vpage.getByTestId('tracking-shipment').count(), WAIT).toBe(1)
    await visitor.close()
    await operator.context.close()
    await customer.context.close()
  })
})
