import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { pickOption } from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Sailing schedules (issue #25) in the browser: a visitor opens the schedule query, picks Shanghai → Los Angeles,
 * is told a window over 90 days is too long before anything is asked, searches January and sees the sailings with
 * the cheapest rate beside them, and opens that rate's comparison table from its link.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

describe('the schedule query (visitor)', () => {
  it('finds Shanghai → Los Angeles sailings in a window and opens the rate beside one', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    const searches: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/booking/basic/getShippingSchedules')) searches.push(request.postData() ?? '')
    })
    await page.goto(`${portal.server.url}/shippingSchedules`)
    // A page of the public site: centred in its column, not against the window's edges.
    const heading = page.getByRole('heading', { level: 1, name: zh('route', 'shippingSchedules') })
    await heading.waitFor(WAIT)
    expect((await heading.boundingBox())?.x).toBeGreaterThanOrEqual(24)
    await pickOption(page, page, zh('field', 'pol'), 'CNSHA')
    await pickOption(page, page, zh('field', 'pod'), 'USLAX')
    const window = zh('schedule', 'etdWindow')
    const from = page.getByLabel(`${window} ${zh('ui', 'dateFrom')}`)
    const to = page.getByLabel(`${window} ${zh('ui', 'dateTo')}`)
    await from.fill('2027-01-01')
    await to.fill('2027-06-01')
    // Over 90 days: the field says so, and the search is not asked.
    await expect
      .poll(() => page.getByText(zh('validation', 'dateSpan').replace('{{limit}}', '90')).count(), WAIT)
      .toBe(1)
    const asked = searches.length
    await page.getByRole('button', { name: zh('ui', 'search'), exact: true }).click()
    await page.waitForTimeout(300)
    expect(searches).toHaveLength(asked)

    await to.fill('2027-01-31')
    await page.getByRole('button', { name: zh('ui', 'search'), exact: true }).click()
    await expect
      .poll(() => searches.map((s) => JSON.parse(s).searchParams).at(-1), WAIT)
      .toMatchObject({ pol: 'CNSHA', pod: 'USLAX', etdFrom: '2027-01-01', etdTo: '2027-01-31' })
    const rows = page.getByRole('row').filter({ hasText: 'Yangshan' })
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(3)
    // Vessels by name, the ports in Chinese, and a rate beside a sailing linking to its comparison table.
    const table = page.getByRole('table')
    expect(await table.textContent()).toMatch(/COSCO SHIPPING|MAERSK|OOCL HONG KONG/)
    expect(await table.textContent()).toContain('洛杉矶')
    const rate = page.getByRole('link', { name: /^FCL-\d{6}$/ }).first()
    await expect.poll(() => rate.count(), WAIT).toBe(1)
    expect(await rate.getAttribute('href')).toMatch(/^\/fclFreightRatesContrastTable\?ids=\d+$/)
    await rate.click()
    await page.waitForURL(/\/fclFreightRatesContrastTable\?/)
    await expect.poll(() => page.getByText(/FCL-\d{6}/).count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })
})
