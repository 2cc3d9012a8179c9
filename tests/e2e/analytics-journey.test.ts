import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { inDays, today } from '../support/clock.ts'
import { confirmDialog } from '../support/commercial.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * Issue #28's acceptance, in the browser: after a visitor browses the demo site (home, tracking, the rate search)
 * and entadmin signs in, searches rates and places an order, opadmin sees today's page views, query users, order
 * counts, ordering customers and sign-ins move by what happened on UserBehavior, DailyQueryUsers,
 * DailyTransactionQuantity, DailyOrderClients and DailyRegisterOrLogin; switches UserBehavior to 90 days (the
 * address says so), exports it as .xlsx and finds today's figures and the totals of the file in the table beside
 * the chart. A visitor of acme's site moves acme's figures, never demo's (the second test).
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

/** The analytics screens the journey reads: route and page name (what a visit of it is counted as). */
const SCREENS = {
  pageViews: ['/UserBehavior', 'userBehavior'],
  queryUsers: ['/DailyQueryUsers', 'dailyQueryUsers'],
  orders: ['/DailyTransactionQuantity', 'dailyTransactionQuantity'],
  orderClients: ['/DailyOrderClients', 'dailyOrderClients'],
  signIns: ['/DailyRegisterOrLogin', 'dailyRegisterOrLogin'],
} as const
type Screen = keyof typeof SCREENS
/** A day's row of a chart's table (or its total row): each series' figure, by series key. */
type Figures = Record<string, number>

/** The figures of a row of the chart's table (`day`: a day, or 'total'), as its cells' data attributes give them. */
async function rowFigures(page: Page, day: string): Promise<Figures> {
  const cells = page.getByTestId('chart-table').locator(`[data-day="${day}"] [data-series]`)
  const pairs = await cells.evaluateAll((all) =>
    all.map((cell) => [cell.getAttribute('data-series') ?? '', Number(cell.getAttribute('data-value'))] as const),
  )
  return Object.fromEntries(pairs)
}

/** Opens a chart screen (a full load) and reads today's row once the table is drawn, 30 days and a total. */
async function todayOn(page: Page, base: string, screen: Screen): Promise<Figures> {
  await page.goto(`${base}${SCREENS[screen][0]}`)
  const table = page.getByTestId('chart-table')
  await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 30 + 1)
  // The window ends today, in the tenant's zone (Asia/Shanghai: the seeded tenants name none).
  const days = await table.locator('[data-day]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-day')))
  expect(days.at(-2)).toBe(today())
  return rowFigures(page, today())
}

/** Every chart's today, in one pass. */
async function readAll(page: Page, base: string): Promise<Record<Screen, Figures>> {
  const figures = {} as Record<Screen, Figures>
  for (const screen of Object.keys(SCREENS) as Screen[]) figures[screen] = await todayOn(page, base, screen)
  return figures
}

/** The pages a visitor of the site opens. */
const VISITOR_PAGES = ['dashboard', 'productService', 'orderTracking']
/** The pages the visitor and entadmin open (opadmin opens none of them). */
const JOURNEY_PAGES = ['dashboard', 'orderTracking', 'productService', 'fclCreateOrder', 'orderDetails']
const sum = (figures: Figures) => Object.values(figures).reduce((a, b) => a + b, 0)
const delta = (after: Figures, before: Figures, key: string) => (after[key] ?? 0) - (before[key] ?? 0)

/**
 * The pages a context's portal has posted as visited (behaviorRecordAdd, answered), counted by page name: the
 * portal posts its queued visits a few seconds after a page opens, and the test waits for them before it reads.
 */
function postedVisits(context: BrowserContext): Map<string, number> {
  const posted = new Map<string, number>()
  context.on('requestfinished', async (request) => {
    if (!request.url().includes('/api/b2b/user/behaviorRecord/add')) return
    const response = await request.response()
    if (!response?.ok()) return
    const body = request.postDataJSON() as { visits?: { pageName: string }[] } | null
    for (const visit of body?.visits ?? []) posted.set(visit.pageName, (posted.get(visit.pageName) ?? 0) + 1)
  })
  return posted
}

/** A visitor (no sign-in) of the site at `base` opens the home page, the tracking page and searches rates. */
async function browseAsVisitor(base: string) {
  const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
  const posted = postedVisits(context)
  const page = await context.newPage()
  await page.goto(`${base}/`)
  await page.waitForURL(/\/dashboard$/, WAIT)
  // The home page's quick search opens the rate search; the top menu's link the tracking page — the portal's own
  // navigation, so the visits are queued in one page load and posted together.
  const quick = page.locator('[data-quick-search]').first()
  await quick.getByRole('tab', { name: zh('site', 'searchRates') }).click()
  await quick.getByRole('combobox', { name: zh('site', 'origin') }).fill('CNSHA')
  await quick.getByRole('combobox', { name: zh('site', 'destination') }).fill('USLAX')
  await quick.getByRole('button', { name: zh('site', 'searchRatesButton') }).click()
  await page.waitForURL(/\/productService\?origin=CNSHA&destination=USLAX/, WAIT)
  await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(0)
  await page.locator('a[href="/orderTracking"]').first().click()
  await page.waitForURL(/\/orderTracking/, WAIT)
  await expect
    .poll(() => [posted.get('dashboard'), posted.get('orderTracking'), posted.get('productService')], WAIT)
    .toEqual([1, 1, 1])
  await context.close()
}

/** The rate search form, CNSHA → USLAX (40'HQ by default), until rate cards show. */
async function searchRates(page: Page) {
  await page.getByTestId('rate-search-form').waitFor(WAIT)
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
  await page.waitForURL(/origin=CNSHA&destination=USLAX/, WAIT)
  await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(0)
}

/** entadmin signs in, searches rates on the rate search page and books the first rate found. */
async function searchAndBook() {
  const customer = await portal.signIn('entadmin')
  const posted = postedVisits(customer.context)
  const cpage = customer.page
  await cpage.goto(`${customer.base}/productService`)
  await searchRates(cpage)
  await cpage.getByTestId('rate-card').first().getByTestId('rate-book').click()
  await cpage.waitForURL(/\/fclCreateOrder\?rateId=\d+/, WAIT)
  await cpage.getByTestId('booking-source').waitFor(WAIT)
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
  const placed = (await (await submitted).json()) as { code: string; content: { id: number } }
  expect(placed.code, JSON.stringify(placed)).toBe('0000')
  await cpage.waitForURL(new RegExp(`/orderDetails\\?id=${placed.content.id}`), WAIT)
  await expect
    .poll(() => [posted.get('productService'), posted.get('fclCreateOrder'), posted.get('orderDetails')], WAIT)
    .toEqual([1, 1, 1])
  await customer.context.close()
}

describe("issue #28's journey: what visitors and customers do shows on the operator's charts", () => {
  it('moves today’s page views, query users, orders and sign-ins; 90 days chosen and exported, the file equals the table', async () => {
    const operator = await portal.signIn('opadmin', { acceptDownloads: true })
    const { page, base } = operator
    const operatorPosted = postedVisits(operator.context)
    const before = await readAll(page, base)

    // A visitor browses the site while entadmin signs in, searches rates and books the first rate.
    await Promise.all([browseAsVisitor(base), searchAndBook()])

    // opadmin reads the charts again: each moved by what the two did.
    const after = await readAll(page, base)
    // Page views per page: the visitor's home, tracking and rate search, entadmin's rate search, form and order.
    expect(delta(after.pageViews, before.pageViews, 'dashboard')).toBe(1)
    expect(delta(after.pageViews, before.pageViews, 'orderTracking')).toBe(1)
    expect(delta(after.pageViews, before.pageViews, 'productService')).toBe(2)
    expect(delta(after.pageViews, before.pageViews, 'fclCreateOrder')).toBe(1)
    expect(delta(after.pageViews, before.pageViews, 'orderDetails')).toBe(1)
    expect(sum(after.pageViews) - sum(before.pageViews)).toBeGreaterThanOrEqual(6)
    // One user searched rates signed in (the visitor's search counts no user); one FCL order by one customer;
    // one more user signed in (opadmin had, before the first reading).
    expect(delta(after.queryUsers, before.queryUsers, 'rateQuery')).toBe(1)
    expect(delta(after.orders, before.orders, 'FCL')).toBe(1)
    expect(sum(after.orders) - sum(before.orders)).toBe(1)
    expect(delta(after.orderClients, before.orderClients, 'order')).toBe(1)
    expect(delta(after.signIns, before.signIns, 'login')).toBe(1)
    expect(delta(after.signIns, before.signIns, 'register')).toBe(0)

    // 90 days, chosen on the screen: the address says so and the table has a row a day. opadmin's own views count
    // too: each chart read since the last reading of this one (sent by beacon as it was left), this one twice (the
    // last reading, and now — posted a few seconds after it opens, waited for, so the file counts what the table
    // does).
    const viewed = operatorPosted.get('userBehavior') ?? 0
    await todayOn(page, base, 'pageViews')
    await expect.poll(() => operatorPosted.get('userBehavior'), WAIT).toBe(viewed + 1)
    const table = page.getByTestId('chart-table')
    await page.getByTestId('chart-window').selectOption('90')
    await page.waitForURL(/[?&]window=90/, WAIT)
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 90 + 1)
    const shownToday = await rowFigures(page, today())
    const shownTotal = await rowFigures(page, 'total')
    // Another window, the same today: the journey's pages as read before, opadmin's views as many more as it made.
    for (const name of JOURNEY_PAGES) expect(shownToday[name], name).toBe(after.pageViews[name])
    for (const screen of ['queryUsers', 'orders', 'orderClients', 'signIns'] as const) {
      const name = SCREENS[screen][1]
      expect(shownToday[name], name).toBe((after.pageViews[name] ?? 0) + 1)
    }
    expect(shownToday.userBehavior).toBe((after.pageViews.userBehavior ?? 0) + 2)

    // The export button: the file's today and totals are the table's, series by series.
    const download = page.waitForEvent('download', WAIT)
    await page.getByRole('button', { name: zh('analytics', 'export') }).click()
    const file = await readXlsx(await downloaded(await download))
    expect(file.rows).toHaveLength(90 + 1)
    const labels = await table
      .getByRole('columnheader')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ''))
    expect(file.headers).toEqual(labels)
    const keys = await table
      .locator(`[data-day="total"] [data-series]`)
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-series') ?? ''))
    const fileRow = (first: string) => {
      const row = file.rows.find((cells) => cells[0]?.value === first)
      expect(row, `the file's row ${first}`).toBeDefined()
      return Object.fromEntries(keys.map((key, i) => [key, Number(row?.[i + 1]?.value)]))
    }
    expect(fileRow(today())).toEqual(shownToday)
    expect(fileRow(zh('analytics', 'total'))).toEqual(shownTotal)
    expect(file.rows[0]?.[0]?.value).toBe(inDays(-89))

    await operator.context.close()
    // Three people and a dozen page loads, each reading waiting on the portal's few seconds before it posts visits.
  }, 300_000)

  it("counts a visit of acme's site in acme's figures, never in demo's", async () => {
    const operator = await portal.signIn('opadmin')
    const demoBefore = await todayOn(operator.page, operator.base, 'pageViews')
    const acme = portal.server.url.replace('localhost', 'acme.localhost')
    const acmeOperator = await portal.signIn('opadmin', { host: 'acme.localhost' })
    const acmeBefore = await todayOn(acmeOperator.page, acmeOperator.base, 'pageViews')
    await browseAsVisitor(acme)
    const acmeAfter = await todayOn(acmeOperator.page, acmeOperator.base, 'pageViews')
    for (const name of VISITOR_PAGES) expect(delta(acmeAfter, acmeBefore, name), name).toBe(1)
    await acmeOperator.context.close()
    // Demo's figures for the pages acme's visitor opened are what they were (no one opened them on demo since).
    const demoAfter = await todayOn(operator.page, operator.base, 'pageViews')
    for (const name of VISITOR_PAGES) expect(demoAfter[name], name).toBe(demoBefore[name])
    await operator.context.close()
  })
})
