import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { inDays } from '../support/clock.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue 7's acceptance in the browser: a visitor searches Shanghai → Los Angeles 40'HQ, sorts, compares four
 * rates (a fifth is refused); a customer applies for a special rate, the operator counter-offers, the customer
 * accepts, the operator approves, and the customer sees it approved with its history; an expired rate is
 * refused with SPEC §8's message.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const LANE = 'origin=CNSHA&destination=USLAX&containerType=45G1'

async function cardValues(page: Page, attribute: string): Promise<string[]> {
  return page
    .getByTestId('rate-card')
    .evaluateAll((cards, name) => cards.map((card) => card.getAttribute(name) ?? ''), attribute)
}

const asNumbers = (values: string[]) => values.map(Number)
const ascending = (values: number[]) => values.every((v, i) => i === 0 || (values[i - 1] as number) <= v)

/** The confirm box the portal opens before an action: answer it with its primary button. */
async function confirm(page: Page, label: string) {
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: label, exact: true }).click()
  await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
}

describe('rate search and comparison (visitor)', () => {
  it('searches CNSHA → USLAX 40HQ from the form, sorts, compares four and refuses a fifth', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    const searches: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/price/public/api/rate/search')) searches.push(request.postData() ?? '')
    })
    await page.goto(`${portal.server.url}/productService`)
    await page.getByTestId('rate-search-form').waitFor(WAIT)
    // The visitor's allowance is shown before any search.
    await expect.poll(() => page.getByTestId('rate-allowance').textContent(), WAIT).toContain('20')

    for (const [label, code] of [
      [zh('rate', 'origin'), 'CNSHA'],
      [zh('rate', 'destination'), 'USLAX'],
    ] as const) {
      const box = page.getByRole('combobox', { name: label })
      await box.click()
      await box.fill(code)
      await page
        .getByRole('option', { name: new RegExp(code) })
        .first()
        .click()
    }
    await page.getByTestId('rate-search-submit').click()
    await page.waitForURL(/origin=CNSHA&destination=USLAX&containerType=45G1/)
    await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(4)
    expect(searches).toHaveLength(1)
    expect(JSON.parse(searches[0] as string)).toMatchObject({ mode: 'FCL', origin: 'CNSHA', destination: 'USLAX' })

    // Cheapest first: the all-in totals rise; every card names carrier, transit, validity and a breakdown.
    expect(ascending(asNumbers(await cardValues(page, 'data-total')))).toBe(true)
    const first = page.getByTestId('rate-card').first()
    expect(await first.getByTestId('rate-carrier').textContent()).toBeTruthy()
    expect(await first.getByTestId('rate-charges').textContent()).toContain('THC')
    expect(await first.getByTestId('rate-book').getAttribute('href')).toMatch(/^\/fclCreateOrder\?rateId=\d+/)

    // Quickest: the transit days rise, the URL keeps the order, no new search is spent.
    await page.getByTestId('rate-sort-quickest').click()
    await page.waitForURL(/sort=quickest/)
    await expect.poll(async () => ascending(asNumbers(await cardValues(page, 'data-transit'))), WAIT).toBe(true)
    const byTransit = asNumbers(await cardValues(page, 'data-transit'))
    expect(new Set(byTransit).size).toBeGreaterThan(1)
    // Major categories only, then none.
    await page.getByTestId('rate-display-major').click()
    await expect.poll(() => page.getByTestId('rate-categories').count(), WAIT).toBeGreaterThan(0)
    expect(await page.getByTestId('rate-charges').count()).toBe(0)
    await page.getByTestId('rate-display-all').click()
    expect(searches).toHaveLength(1)

    // Four into the comparison; the fifth is refused with a message.
    const cards = page.getByTestId('rate-card')
    const ids: string[] = []
    for (let i = 0; i < 4; i++) {
      ids.push((await cards.nth(i).getAttribute('data-rate-id')) as string)
      await cards.nth(i).getByTestId('rate-compare').click()
    }
    await cards.nth(4).getByTestId('rate-compare').click()
    const refusal = zh('rate', 'compareFull').replace('{{limit}}', '4')
    await expect.poll(() => page.getByTestId('rate-compare-message').textContent(), WAIT).toBe(refusal)
    expect(await page.getByTestId('rate-compare-tray').textContent()).toContain('4')

    await page.getByTestId('rate-compare-open').click()
    await page.waitForURL(/\/fclFreightRatesContrastTable\?.*ids=/)
    const columns = page.getByTestId('rate-compare-column')
    await expect.poll(() => columns.count(), WAIT).toBe(4)
    expect(await columns.evaluateAll((cells) => cells.map((c) => c.getAttribute('data-rate-id')))).toEqual(ids)
    // The cheapest total and the quickest transit stand out; rows whose values differ are marked.
    expect(await page.getByTestId('rate-compare-row-total').locator('[data-best="true"]').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('rate-compare-row-transit').locator('[data-best="true"]').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('rate-compare-row-carrier').getAttribute('data-differs')).toBe('true')
    expect(await page.getByTestId('rate-compare-row-lane').getAttribute('data-differs')).toBe('false')

    // Remove one: three left, and the URL says so (a reload shows the same).
    await columns.first().getByTestId('rate-compare-remove').click()
    await expect.poll(() => columns.count(), WAIT).toBe(3)
    await page.reload()
    await expect.poll(() => page.getByTestId('rate-compare-column').count(), WAIT).toBe(3)

    // Back restores the search with its order.
    await page.goBack()
    await page.goBack()
    await page.waitForURL(/\/productService\?.*sort=quickest/)
    await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(4)
    expect(asNumbers(await cardValues(page, 'data-transit'))).toEqual(byTransit)
    await context.close()
  })

  it("opens the rate search from the home page's quick-search link", async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${portal.server.url}/fclFreightRatesContrastTable?pol=CNSHA&pod=USLAX`)
    await page.waitForURL(/\/productService\?origin=CNSHA&destination=USLAX/)
    await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })
})

describe('special-rate applications', () => {
  it('apply → counter-offer → accept → approve, seen in /spaApplyList with its history', async () => {
    const customer = await portal.signIn('entadmin')
    const page = customer.page
    await page.goto(`${customer.base}/productService?${LANE}`)
    await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(0)
    await page.getByTestId('rate-card').first().getByTestId('rate-apply').click()
    await page.waitForURL(/\/fclSpecialPriceApplication\?rateId=\d+/)
    const listText = (await page.getByTestId('spa-list-price').textContent(WAIT)) ?? ''
    const list = Number(/[\d,]+\.\d+/.exec(listText)?.[0]?.replaceAll(',', ''))
    expect(list).toBeGreaterThan(300)

    // Not below the list price: refused in the form, nothing sent.
    await page.getByTestId('spa-target').fill(String(list + 1))
    await page.getByTestId('spa-submit').click()
    const notBelow = zh('rate', 'price_notBelow').split('{{')[0] as string
    await expect.poll(() => page.getByText(notBelow).count(), WAIT).toBe(1)
    const target = (list - 200).toFixed(3)
    await page.getByTestId('spa-target').fill(target)
    await page.getByTestId('spa-remark').fill('Weekly 5 x 40HQ')
    await page.getByTestId('spa-submit').click()
    const applied = page.getByTestId('spa-applied')
    await expect.poll(() => applied.textContent(), WAIT).toMatch(/SPA\d{11}/)
    const applicationNo = /SPA\d{11}/.exec((await applied.textContent()) ?? '')?.[0] as string
    // Back to the rate list three seconds later.
    await page.waitForURL(/\/productService\?origin=CNSHA&destination=USLAX/, WAIT)

    // The operator finds it in /spaReview and counter-offers.
    const operator = await portal.signIn('opadmin')
    await operator.page.goto(`${operator.base}/spaReview`)
    await operator.page.getByRole('link', { name: applicationNo }).click()
    await operator.page.waitForURL(/\/spaDetailsOperater\?id=\d+/)
    const detailUrl = operator.page.url()
    const id = new URL(detailUrl).searchParams.get('id')
    await expect.poll(() => operator.page.getByTestId('spa-state').textContent(), WAIT).toBe(zh('state', 'spaPending'))
    await operator.page.getByTestId('spa-action-counterOffer').click()
    const counter = (list - 100).toFixed(2)
    // Prices are kept with 3 decimals and shown with thousands separators.
    const shown = Number(counter).toLocaleString('en-US', { minimumFractionDigits: 3 })
    await operator.page.getByTestId('spa-price').fill(counter)
    await operator.page.getByTestId('spa-action-remark').fill('Best we can do this month')
    await operator.page.getByTestId('spa-action-counterOffer').click()
    await confirm(operator.page, zh('spa', 'counterOffer'))
    await expect.poll(() => operator.page.getByTestId('spa-state').textContent(), WAIT).toBe(zh('state', 'spaReapply'))

    // The customer accepts the counter-offer from their list.
    await page.goto(`${customer.base}/spaApplyList`)
    await page.getByRole('link', { name: applicationNo }).click()
    await page.waitForURL(new RegExp(`/spaDetails\\?id=${id}`))
    await expect.poll(() => page.getByTestId('spa-counter-price').textContent(), WAIT).toContain(shown)
    // A customer is offered the customer's actions only.
    expect(await page.getByTestId('spa-action-approve').count()).toBe(0)
    await page.getByTestId('spa-action-accept').click()
    await confirm(page, zh('spa', 'acceptCounter'))
    await expect.poll(() => page.getByTestId('spa-state').textContent(), WAIT).toBe(zh('state', 'spaAccepted'))

    // The operator approves.
    await operator.page.reload()
    await operator.page.getByTestId('spa-action-approve').click()
    await confirm(operator.page, zh('spa', 'approve'))
    await expect.poll(() => operator.page.getByTestId('spa-state').textContent(), WAIT).toBe(zh('state', 'spaApproved'))

    // The customer's list shows it approved; its detail has the whole thread with who and when.
    await page.goto(`${customer.base}/spaApplyList`)
    const row = page.locator('tr', { has: page.getByRole('link', { name: applicationNo }) })
    await expect.poll(() => row.textContent(), WAIT).toContain(zh('state', 'spaApproved'))
    await page.getByRole('link', { name: applicationNo }).click()
    const entries = page.getByTestId('spa-thread-entry')
    await expect.poll(() => entries.count(), WAIT).toBe(4)
    expect(await entries.evaluateAll((list) => list.map((e) => e.getAttribute('data-action')))).toEqual([
      'apply',
      'counterOffer',
      'accept',
      'approve',
    ])
    const thread = (await page.getByTestId('spa-thread').textContent()) ?? ''
    expect(thread).toContain('Chen Jing')
    expect(thread).toContain('Li Wei')
    expect(thread).toContain('Best we can do this month')
    // When, as a reader of Chinese writes a moment (runtime/dates.ts).
    expect(thread).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}/)
    expect(await page.getByTestId('spa-approved-price').textContent()).toContain(shown)
    expect(await page.getByTestId('spa-actions').count()).toBe(0)
    await operator.context.close()
    await customer.context.close()
  })

  it('refuses an application on an expired rate with "freight rate has expired"', async () => {
    const operator = await portal.signIn('opadmin')
    // The tenant's yesterday on the server's clock (the same WAYBILL_NOW): the rates that ended before today.
    const yesterday = inDays(-1)
    const expiredId = await operator.page.evaluate(async (end) => {
      const response = await fetch('/api/price/rate/list', {
        method: 'POST',
        headers: { 'content-type': 'application/json', resource: '1' },
        body: JSON.stringify({
          searchParams: { mode: 'FCL', pol: 'CNSHA', pod: 'USLAX', validToEnd: end },
          pageSize: 1,
        }),
      })
      return ((await response.json()) as { content: { list: { id: number }[] } }).content.list[0]?.id
    }, yesterday)
    expect(expiredId).toBeGreaterThan(0)
    await operator.context.close()

    const customer = await portal.signIn('entadmin')
    await customer.page.goto(`${customer.base}/fclSpecialPriceApplication?rateId=${expiredId}&containerType=45G1`)
    await expect
      .poll(() => customer.page.getByTestId('spa-expired').textContent(), WAIT)
      .toBe(localeText('zh', 'error', '340001'))
    expect(await customer.page.getByTestId('spa-submit').isDisabled()).toBe(true)
    await customer.context.close()
  })
})
