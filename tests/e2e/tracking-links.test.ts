import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Shareable tracking links in the browser (issue #29): the enterprise administrator shares an order's tracking from
 * its detail and copies the link shown once; a private window (no cookies) opens it and sees the shipment — and
 * nothing that opens another record; the administrator revokes the link in /trackingLinks; the private window, on
 * reload, is told the link is no longer valid.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

/** The seeded booked order of entadmin's company whose shipment is COSU6312345670 (server/db/seed/tracking.ts). */
const BL = 'COSU6312345670'
const DETAIL_OF: Record<string, string> = {
  LCL: 'lclOrderDetail',
  AIR: 'airOrderDetail',
  RAILWAY: 'railwayOrderDetail',
}

/** The order's id and detail page, found as the customer would: tracking by B/L, then the order list by number. */
async function sharedOrder(
  page: Page,
  side: 'customer' | 'operator' = 'customer',
): Promise<{ orderNo: string; path: string }> {
  return page.evaluate(
    async ({ bl, detailOf, side }) => {
      const post = async (path: string, body: unknown) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', resource: '1' },
          body: JSON.stringify(body),
        })
        return (await response.json()).content
      }
      const tracked = await post('/api/booking/public/api/tracking/query', { numbers: bl })
      const orderNo: string = tracked.results[0].shipments[0].shipment.orderNo
      const byOperator = side === 'operator'
      const listed = await post(`/api/booking/order/queryOrderListBy${byOperator ? 'Operator' : 'Company'}`, {
        searchParams: { orderNo },
        pageNum: 1,
        pageSize: 10,
      })
      const order = listed.list.find((row: { orderNo: string }) => row.orderNo === orderNo)
      const detail = detailOf[order.containerLoadType] ?? 'orderDetails'
      const screen = byOperator ? (detail === 'orderDetails' ? 'orderDetailsOperator' : `${detail}Operator`) : detail
      return { orderNo, path: `/${screen}?id=${order.id}` }
    },
    { bl: BL, detailOf: DETAIL_OF, side },
  )
}

/**
 * Share tracking on the order detail open in `page`: the dialog asks how long the link works (30 days unless told),
 * then the link is shown once, as the full address on the tenant's host, the token a path segment (a ?token= would
 * be taken as a login).
 */
async function shareFromDetail(page: Page, base: string): Promise<string> {
  await page.getByRole('button', { name: zh('tracking', 'linkShare'), exact: true }).click()
  const asked = page.getByRole('dialog')
  await expect.poll(() => asked.getByText(zh('tracking', 'linkDays')).count(), WAIT).toBeGreaterThan(0)
  await asked.getByRole('button', { name: zh('ui', 'ok'), exact: true }).click()
  const shown = page.getByTestId('revealed-value')
  await expect.poll(() => shown.count(), WAIT).toBe(1)
  const link = await shown.inputValue()
  expect(link).toMatch(new RegExp(`^${base}/sharedTracking/[A-Za-z0-9_-]{43}$`))
  return link
}

/** Revokes the active link of the order on the links list open in `page`, after its confirmation; answers its row. */
async function revokeOnList(page: Page, orderNo: string) {
  const row = page.getByRole('row').filter({ hasText: orderNo }).first()
  await expect.poll(() => row.textContent(), WAIT).toContain(zh('tracking', 'linkActive'))
  await row.getByRole('button', { name: zh('tracking', 'linkRevoke'), exact: true }).click()
  const confirm = page.getByRole('dialog')
  await expect.poll(() => confirm.getByText(zh('tracking', 'linkConfirmRevoke')).count(), WAIT).toBe(1)
  await confirm.getByRole('button', { name: zh('ui', 'ok'), exact: true }).click()
  await expect.poll(() => row.textContent(), WAIT).toContain(zh('tracking', 'linkRevokedState'))
  return row
}

describe('shareable tracking links', () => {
  it('shares an order’s tracking, opens it with no account, revokes it', async () => {
    const admin = await portal.signIn('entadmin')
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: admin.base })
    const { orderNo, path } = await sharedOrder(admin.page)
    await admin.page.goto(`${admin.base}${path}`)

    const link = await shareFromDetail(admin.page, admin.base)
    const shown = admin.page.getByTestId('revealed-value')
    await admin.page.getByRole('button', { name: zh('ui', 'copyValue'), exact: true }).click()
    await expect
      .poll(() => admin.page.getByRole('button', { name: zh('ui', 'copiedValue'), exact: true }).count(), WAIT)
      .toBe(1)
    const copied = await admin.page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(link)
    await admin.page.getByRole('button', { name: zh('ui', 'revealClose'), exact: true }).click()
    await expect.poll(() => shown.count(), WAIT).toBe(0)

    // A private window: no cookies, no account. The shipment in full, from the token alone.
    const visitor = await openContext(portal.browser, { viewport: { width: 1280, height: 900 } })
    const page = await visitor.newPage()
    const calls: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls.push(new URL(request.url()).pathname)
    })
    await page.goto(copied)
    const card = page.getByTestId('tracking-shipment')
    await expect.poll(() => card.count(), WAIT).toBe(1)
    expect(await card.getAttribute('data-number')).toBe(BL)
    expect(await card.textContent()).toContain(orderNo)
    expect(await card.textContent()).toContain('CSQU3054383')
    expect(await card.getByTestId('tracking-event').count()).toBeGreaterThan(8)
    expect(page.url()).toBe(copied)
    // Nothing on the page opens another record: no links in it, no record ids, no order detail route.
    const shared = page.getByTestId('shared-tracking')
    expect(await shared.locator('a').count()).toBe(0)
    const html = await shared.innerHTML()
    expect(html).not.toMatch(/[?&]id=|orderDetails|myOrders/)
    // It asked for the shipment by the token and for nothing of a signed-in user's.
    expect(calls).toContain('/api/booking/public/api/tracking/link')
    expect(calls.filter((call) => call.includes('/order/'))).toEqual([])

    // The administrator revokes it in /trackingLinks (beside the orders' other screens in the menu).
    await admin.page.goto(`${admin.base}/myOrders`)
    await admin.page.getByRole('link', { name: zh('route', 'trackingLinks'), exact: true }).click()
    await admin.page.waitForURL(/\/trackingLinks/)
    const row = await revokeOnList(admin.page, orderNo)
    expect(await row.getByRole('button', { name: zh('tracking', 'linkRevoke'), exact: true }).count()).toBe(0)
    // The link's token is nowhere on the list.
    expect(await admin.page.content()).not.toContain(link.split('/').pop() as string)

    // The private window reloads: no shipment, the sentence that it was revoked.
    await page.reload()
    const refused = page.getByTestId('shared-tracking-refused')
    await expect.poll(() => refused.count(), WAIT).toBe(1)
    expect(await refused.getAttribute('data-refusal')).toBe('revoked')
    expect(await refused.textContent()).toBe(zh('tracking', 'linkRevoked'))
    expect(await page.getByTestId('tracking-shipment').count()).toBe(0)

    // A link cut short in the copying: says so, asks the server nothing.
    calls.length = 0
    await page.goto(copied.slice(0, -5))
    await expect.poll(() => refused.getAttribute('data-refusal'), WAIT).toBe('unknown')
    expect(await refused.textContent()).toBe(zh('tracking', 'linkUnknown'))
    expect(calls).not.toContain('/api/booking/public/api/tracking/link')

    await visitor.close()
    await admin.context.close()
  })

  it("lets an operator share a customer's shipment from the order's detail and revoke it among the tenant's links", async () => {
    const operator = await portal.signIn('opadmin')
    const { orderNo, path } = await sharedOrder(operator.page, 'operator')
    await operator.page.goto(`${operator.base}${path}`)
    const link = await shareFromDetail(operator.page, operator.base)
    await operator.page.getByRole('button', { name: zh('ui', 'revealClose'), exact: true }).click()

    // The consignee's window: the customer's shipment, from the token alone.
    const visitor = await openContext(portal.browser, { viewport: { width: 1280, height: 900 } })
    const page = await visitor.newPage()
    await page.goto(link)
    const card = page.getByTestId('tracking-shipment')
    await expect.poll(() => card.count(), WAIT).toBe(1)
    expect(await card.getAttribute('data-number')).toBe(BL)

    // The tenant's links, from the operator's menu: this one active; revoked there, the window is told so.
    await operator.page.goto(`${operator.base}/orderList`)
    await operator.page.getByRole('link', { name: zh('route', 'trackingLinksOperator'), exact: true }).click()
    await operator.page.waitForURL(/\/trackingLinksOperator/)
    await revokeOnList(operator.page, orderNo)
    await page.reload()
    await expect
      .poll(() => page.getByTestId('shared-tracking-refused').getAttribute('data-refusal'), WAIT)
      .toBe('revoked')
    await visitor.close()
    await operator.context.close()
  })
})
