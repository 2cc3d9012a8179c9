import { describe, expect, it } from 'vitest'
import { addDays } from '../../rules/calendar.ts'
import { DEMO_FBA_ORDERS } from '../../server/db/seed/fba.ts'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { openContext } from '../support/browser.ts'
import { today } from '../support/clock.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/** Cargo tracking in the browser (issue #6): a visitor tracks three numbers; refused searches send nothing. */
const portal = setupPortal()
const text = (key: string) => localeText('zh', 'tracking', key)

async function visitorPage(width = 1280) {
  const context = await openContext(portal.browser, { viewport: { width, height: 900 } })
  const page = await context.newPage()
  const queries: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/booking/public/api/tracking/query')) queries.push(request.postData() ?? '')
  })
  return { context, page, queries }
}

describe('cargo tracking', () => {
  it('tracks CSQU3054383 and two more seeded numbers: steps, customs labels and history', async () => {
    const { context, page, queries } = await visitorPage()
    await page.goto(`${portal.server.url}/orderTracking`)
    const box = page.getByRole('textbox', { name: text('numbers') })
    await box.fill(
      `${TRACKING_SAMPLES.container}, ${TRACKING_SAMPLES.arrivedContainer}\n${TRACKING_SAMPLES.airWaybill}`,
    )
    await page.getByRole('button', { name: text('search'), exact: true }).click()
    const cards = page.getByTestId('tracking-shipment')
    await expect.poll(() => cards.count(), WAIT).toBe(3)
    expect(queries).toHaveLength(1)
    await page.waitForURL(/numbers=CSQU3054383%2CMSKU9070323%2C160-26034186/)

    const underWay = cards.nth(0)
    expect(await underWay.getAttribute('data-number')).toBe(TRACKING_SAMPLES.container)
    // Changed within 24 h (the corrected ETA): red.
    expect(await underWay.getAttribute('data-mark')).toBe('changed24')
    expect(await underWay.getByTestId('tracking-status').textContent()).toBe(text('state_underWay'))
    expect(await underWay.getByTestId('tracking-step-departure').getAttribute('data-done')).toBe('true')
    expect(await underWay.getByTestId('tracking-step-arrival').getAttribute('data-done')).toBe('false')
    expect(await underWay.textContent()).toContain('COSCO SHIPPING ARIES')
    expect(await underWay.getByTestId('tracking-customs').textContent()).toContain(text('customs_released'))
    expect(await underWay.getByTestId('tracking-event').count()).toBeGreaterThan(8)
    expect(await underWay.getByTestId('tracking-events').textContent()).toContain(text('corrected'))

    const arrived = cards.nth(1)
    expect(await arrived.getByTestId('tracking-status').textContent()).toBe(text('state_arrived'))
    const customs = await arrived.getByTestId('tracking-customs').textContent()
    for (const label of ['customs_declared', 'customs_examined', 'customs_released'])
      expect(customs).toContain(text(label))
    expect(await arrived.getAttribute('data-mark')).toBe('new48')

    const air = cards.nth(2)
    expect(await air.getAttribute('data-number')).toBe(TRACKING_SAMPLES.airWaybill)
    expect(await air.getAttribute('data-mark')).toBe('new24')
    expect(await air.getByTestId('tracking-step-booking').getAttribute('data-done')).toBe('true')

    // A visitor's history stays in the browser.
    await expect
      .poll(() => page.getByTestId('tracking-history').textContent(), WAIT)
      .toContain(TRACKING_SAMPLES.container)
    await context.close()
  })

  it("shows the seeded shipment's ETD, known only to the day, as that date without a time in any time zone", async () => {
    for (const timezoneId of ['America/Los_Angeles', 'Asia/Shanghai']) {
      const context = await openContext(portal.browser, { viewport: { width: 1280, height: 900 }, timezoneId })
      const page = await context.newPage()
      const answer = page.waitForResponse((r) => r.url().includes('/api/booking/public/api/tracking/query'))
      await page.goto(`${portal.server.url}/orderTracking?numbers=${TRACKING_SAMPLES.container}`)
      const body = (await (await answer).json()) as {
        content: { results: { shipments: { shipment: { etd: string } }[] }[] }
      }
      // The API sends the order's day (server/domain/tracking/view.ts scheduleTime)…
      const etd = body.content.results[0]?.shipments[0]?.shipment.etd ?? ''
      expect(etd).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      const [year, month, day] = etd.split('-').map(Number)
      // …and the card writes that very day in the reader's language (zh), with no time.
      const card = page.getByTestId('tracking-shipment')
      const fact = (key: string) =>
        card
          .locator('dl > div')
          .filter({ has: page.locator('dt', { hasText: text(key) }) })
          .locator('dd')
      await expect.poll(() => fact('etd').textContent(), WAIT).toBe(`${year}年${month}月${day}日`)
      // The actual departure is a moment the carrier reported: it keeps its time.
      expect(await fact('atd').textContent()).toMatch(/\d{1,2}:\d{2}/)
      await context.close()
    }
  })

  it('tracks the seeded delivered FBA order by its number: its milestones, newest first, and the last mile', async () => {
    const seeded = DEMO_FBA_ORDERS.find((o) => o.state === 'delivered')
    const orderNo = `FBA${addDays(today(), -(seeded?.daysAgo ?? 0))
      .replaceAll('-', '')
      .slice(2)}0001`
    const context = await openContext(portal.browser, { viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${portal.server.url}/orderTracking?numbers=${orderNo}`)
    const card = page.getByTestId('tracking-fba-order')
    await expect.poll(() => card.getAttribute('data-number'), WAIT).toBe(orderNo)
    expect(await card.getByTestId('tracking-fba-state').textContent()).toBe(text('fbaState_delivered'))
    const milestones = card.getByTestId('tracking-fba-event')
    expect(await milestones.evaluateAll((items) => items.map((i) => i.getAttribute('data-milestone')))).toEqual([
      'delivered',
      'arrived',
      'departed',
      'leftWarehouse',
      'received',
    ])
    await expect.poll(() => milestones.first().textContent(), WAIT).toContain(text('fbaMilestone_delivered'))
    expect(await card.textContent()).toContain('UPS')
    await context.close()
  })

  it('refuses 11 numbers and a wrong check digit with a message, sending no request', async () => {
    const { context, page, queries } = await visitorPage(375)
    await page.goto(`${portal.server.url}/tracking`)
    const box = page.getByRole('textbox', { name: text('numbers') })
    await box.fill(Array.from({ length: 11 }, () => TRACKING_SAMPLES.container).join(' '))
    await page.getByRole('button', { name: text('search'), exact: true }).click()
    const error = page.getByTestId('tracking-error')
    await expect.poll(() => error.textContent(), WAIT).toContain('10')
    await box.fill('CSQU3054384')
    await page.getByRole('button', { name: text('search'), exact: true }).click()
    await expect.poll(() => error.textContent(), WAIT).toContain('CSQU3054384')
    // Also from the URL the home page's quick search links to.
    await page.goto(`${portal.server.url}/sopQuery?numbers=MSKU9070324`)
    await expect.poll(() => page.getByTestId('tracking-error').textContent(), WAIT).toContain('MSKU9070324')
    expect(queries).toEqual([])
    // 375 px wide (the mobile site reuses this page without the desktop frame): nothing of ours is wider.
    const width = await page
      .getByTestId('tracking-page')
      .evaluate((element) => Math.max(element.scrollWidth, element.getBoundingClientRect().width))
    expect(width).toBeLessThanOrEqual(375)
    await context.close()
  })

  it('shows a signed-in customer their shipment in full and keeps their history on the server', async () => {
    const { context, page } = await portal.signIn('entadmin')
    await page.goto(`${portal.server.url}/orderTracking?numbers=${TRACKING_SAMPLES.container}`)
    const card = page.getByTestId('tracking-shipment')
    await expect.poll(() => card.count(), WAIT).toBe(1)
    await expect.poll(() => card.textContent(), WAIT).toContain('COSU6312345670')
    expect(await card.textContent()).toContain('CSNU6120045')
    await expect
      .poll(() => page.getByTestId('tracking-history').textContent(), WAIT)
      .toContain(TRACKING_SAMPLES.container)
    await context.close()
  })
})
