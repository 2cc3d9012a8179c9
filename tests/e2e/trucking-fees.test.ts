import { describe, expect, it } from 'vitest'
import { inDays } from '../support/clock.ts'
import {
  addInquiryContainers,
  addInquiryPackage,
  apiContent,
  chooseInquiryRoute,
  confirmDialog,
  pickOption,
} from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #25's trucking fees in Chromium: the operation administrator adds a pick-up fee from Changshu to
 * Shanghai port on /trailerCosts (an end of validity before its start is refused with the rule's message
 * first); the customer's inquiry on Inquiry → Sea that needs pick-up in Changshu (its container types
 * looked up from the tenant's offer) then gets the fee's line in its automatic quote, which the operator
 * sends and the customer reads on /inquiryQuotes.
 */
const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)

describe('trucking fees (/trailerCosts)', () => {
  it('opadmin adds a pick-up fee; an inquiry with pick-up there finds it in its automatic quote', async () => {
    const operator = await portal.signIn('opadmin')
    const page = operator.page
    await page.goto(`${operator.base}/trailerCosts?lang=en`)
    await expect.poll(() => page.locator('table tbody').textContent(), WAIT).toContain('TK-HGH-SHA-C')
    await page.getByRole('button', { name: en('action', 'create'), exact: true }).click()
    await page.waitForURL(/\/trailerCostsDetail/)

    const chargeNo = page.locator('#root_chargeNo')
    await chargeNo.waitFor(WAIT)
    await chargeNo.fill('TK-CSU-SHA-C')
    await page.locator('#root_name').fill('Changshu → Shanghai port, per container')
    await page.locator('#root_feeType').selectOption({ label: en('trucking', 'type_pickUp') })
    await page.locator('#root_vendor').fill('Changshu Yuhe Container Trucking Co., Ltd.')
    await page.locator('#root_transitDays').fill('1')
    await page.locator('#root_loadType').selectOption({ label: en('trucking', 'load_container') })
    await page.locator('#root_origin').fill('Changshu/常熟')
    await pickOption(page, page, en('trucking', 'destination'), 'CNSHA')
    await page.locator('#root_validFrom').fill(inDays(10))
    await page.locator('#root_validTo').fill(inDays(-1))
    await pickOption(page, page, en('field', 'currency'), 'CNY')
    await page.locator('#root_calcType').selectOption({ label: en('trucking', 'calc_container') })
    await page.locator('#root_chargeLevel').fill('1450')
    await page.locator('#root_minimumAmount').fill('1450')

    // The validity ends before it starts: the rule's message, and nothing saved.
    await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(en('trucking', 'validToAfterFrom'), { exact: true }).count(), WAIT).toBe(1)
    const before = await apiContent(page, 'POST', '/b2b/trailerCosts/list', { searchParams: { origin: 'Changshu' } })
    expect(before.total).toBe(0)

    await page.locator('#root_validFrom').fill(inDays(-1))
    await page.locator('#root_validTo').fill(inDays(60))
    await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(en('ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)

    await page.goto(`${operator.base}/trailerCosts?lang=en`)
    const row = page.locator('table tbody tr', { hasText: 'TK-CSU-SHA-C' })
    await expect.poll(() => row.count(), WAIT).toBe(1)
    expect(await row.textContent()).toMatch(/Changshu.*Shanghai.*Container.*Per container/)

    // The customer's inquiry on Inquiry → Sea: two 20'GP and one 40'HQ to be picked up in Changshu, from
    // Shanghai port; the container types come from the tenant's offer (/containerConfiguration).
    const customer = await portal.signIn('entadmin')
    const cpage = customer.page
    const lookups: string[] = []
    cpage.on('request', (request) => {
      if (request.url().includes('/containerType/')) lookups.push(new URL(request.url()).pathname)
    })
    await cpage.goto(`${customer.base}/palletInquiry/sea?lang=en`)
    await cpage.getByTestId('inquiry-form-sea').waitFor(WAIT)
    await chooseInquiryRoute(cpage, 'en')
    const pickUp = cpage.getByRole('checkbox', { name: en('field', 'needPickUp') })
    if (!(await pickUp.isChecked())) await pickUp.check()
    await cpage.getByRole('textbox', { name: en('field', 'pickUpAddress') }).fill('江苏省常熟市虞山镇海虞北路 18 号')
    await addInquiryContainers(cpage, 'en', [
      ['22G1', '2'],
      ['45G1', '1'],
    ])
    await addInquiryPackage(cpage, 'en')
    await cpage.getByRole('button', { name: en('inquiry', 'submit') }).click()
    await cpage.getByTestId('inquiry-saved').waitFor(WAIT)
    const href = String(await cpage.getByTestId('inquiry-quotes-link').getAttribute('href'))
    const inquiry = { id: Number(new URL(href, customer.base).searchParams.get('id')) }
    expect(inquiry.id).toBeGreaterThan(0)
    expect(lookups.length).toBeGreaterThan(0)
    expect(new Set(lookups)).toEqual(new Set(['/api/booking/public/api/basic/containerType/offered']))
    const quotes = await apiContent(page, 'POST', '/b2b/quote/list', { searchParams: { inquiry: inquiry.id } })
    const auto = (quotes.list as { id: number; type: string }[]).find((q) => q.type === 'auto')
    expect(auto).toBeDefined()

    // The operator reads the automatic quote's trucking line and sends the quote.
    await page.goto(`${operator.base}/inquiryQuoteDetails?id=${auto?.id}&lang=en`)
    await page.getByTestId('quote-editor').waitFor(WAIT)
    await expect
      .poll(() => page.locator('input[value="Changshu → Shanghai port, per container"]').count(), WAIT)
      .toBe(1)
    await page.getByTestId('quote-send').click()
    await confirmDialog(page, en('action', 'sendQuote'))
    await expect.poll(() => page.getByTestId('quote-state').textContent(), WAIT).toBe(en('state', 'quoted'))

    // The customer sees it among the quote's lines: 3 × CNY 1,450.00 = CNY 4,350.00.
    await cpage.goto(`${customer.base}/inquiryQuotes?id=${inquiry.id}&lang=en`)
    const card = cpage.getByTestId('quote-card').first()
    await card.waitFor(WAIT)
    const line = card.locator('tr', { hasText: 'Changshu → Shanghai port, per container' })
    await expect.poll(() => line.count(), WAIT).toBe(1)
    const text = (await line.textContent()) ?? ''
    expect(text).toContain(en('enum', 'chargeType.trucking'))
    expect(text).toMatch(/3 × CNY\s?1,450\.00/)
    expect(text).toMatch(/CNY\s?4,350\.00/)
    await operator.context.close()
    await customer.context.close()
  })
})
