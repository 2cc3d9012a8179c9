import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/** The generic detail screen (`kind: detail`) on the two order details of screens/*Orders.yaml. */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

const signedIn = (username: string) => portal.signIn(username)

/** Opens a list filtered to one state and clicks the first order number; answers the order number. */
async function openFirstOrder(page: Page, list: string, state: string, detailPath: string): Promise<string> {
  // FCL orders: each row opens its mode's detail screen, and these tests read the sea one.
  await page.goto(`${portal.server.url}${list}?state=${state}&containerLoadType=FCL`)
  const link = page.locator('table tbody tr td:first-child a').first()
  await expect.poll(() => link.count(), WAIT).toBe(1)
  const orderNo = (await link.textContent()) ?? ''
  expect(orderNo).toMatch(/^HY\d+$/)
  await link.click()
  await page.waitForURL(new RegExp(`${detailPath}\\?id=\\d+$`), WAIT)
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)
  return orderNo
}

const headerState = (page: Page) => page.locator('h1 ~ [data-state]')
const button = (page: Page, action: string) => page.getByRole('button', { name: zh('action', action), exact: true })
const historyEntries = (page: Page) =>
  page.getByRole('region', { name: zh('detail', 'history') }).locator('li[data-history]')

describe('the order detail for operators', () => {
  it('opens from the order list with sections and state badge, and runs a transition after its confirm', async () => {
    const { context, page } = await signedIn('opadmin')
    await openFirstOrder(page, '/orderList', 'submitted', '/orderDetailsOperator')
    await expect.poll(() => headerState(page).textContent(), WAIT).toBe(zh('state', 'submitted'))
    expect(await headerState(page).getAttribute('data-state')).toBe('submitted')

    // SPEC §3's order labels in sections, labels in the user's language, references by name.
    for (const section of ['sectionReferences', 'sectionParties', 'sectionRoute', 'sectionCargo', 'sectionRemarks'])
      expect(await page.getByRole('region', { name: zh('detail', section) }).count()).toBe(1)
    const parties = page.getByRole('region', { name: zh('detail', 'sectionParties') })
    expect(await parties.locator('[data-field="shipper"] dt').textContent()).toBe(zh('field', 'shipper'))
    expect(await parties.locator('[data-field="shipper"] dd').textContent()).toContain('HANGZHOU MINGHUI')
    expect(await page.locator('[data-field="customerCompany"] dd').textContent()).toBe('杭州明辉纺织品进出口有限公司')
    const pol = page.locator('[data-field="pol"] dd [data-code]')
    const polCode = (await pol.getAttribute('data-code')) ?? ''
    expect(polCode).toMatch(/^CN[A-Z0-9]{3}$/)
    expect(await pol.textContent()).not.toBe(polCode)
    expect(await page.locator('[data-field="containerLoadType"] dd').textContent()).toMatch(/^(整箱|拼箱)$/)

    // What the state machine allows from submitted, to someone holding orderList.
    for (const action of ['accept', 'bargain', 'sendBack', 'reject']) expect(await button(page, action).count()).toBe(1)
    for (const action of ['book', 'invalidate', 'withdraw', 'cancel'])
      expect(await button(page, action).count()).toBe(0)
    // The seeded order has no audit entries yet.
    expect(await historyEntries(page).count()).toBe(0)
    expect(await page.getByText(zh('detail', 'noHistory')).count()).toBe(1)

    // Cancelling the confirm changes nothing.
    await button(page, 'accept').click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.getByText(zh('confirm', 'acceptOrder')).count(), WAIT).toBe(1)
    await dialog.getByRole('button', { name: zh('ui', 'cancel'), exact: true }).click()
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
    expect(await headerState(page).getAttribute('data-state')).toBe('submitted')

    await button(page, 'accept').click()
    await expect.poll(() => dialog.getByText(zh('confirm', 'acceptOrder')).count(), WAIT).toBe(1)
    await dialog.getByRole('button', { name: zh('ui', 'ok'), exact: true }).click()
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('accepted')
    expect(await headerState(page).textContent()).toBe(zh('state', 'accepted'))

    // The history grew by the transition: who, which transition, from and to.
    await expect.poll(() => historyEntries(page).count(), WAIT).toBe(1)
    const entry = historyEntries(page).first()
    expect(await entry.textContent()).toContain(zh('action', 'accept'))
    expect(
      await entry.locator('[data-state]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state'))),
    ).toEqual(['submitted', 'accepted'])
    // Accepted orders are booked, sent back or invalidated next; accept is gone.
    await expect.poll(() => button(page, 'book').count(), WAIT).toBe(1)
    expect(await button(page, 'accept').count()).toBe(0)

    // Back to the list, which shows the new state.
    const back = `← ${zh('detail', 'backTo').replace('{{list}}', zh('route', 'orderList'))}`
    await page.getByRole('link', { name: back, exact: true }).click()
    await page.waitForURL(/\/orderList$/, WAIT)
    await context.close()
  })

  it('refuses a transition from a page gone stale (330002) and shows the order as it is now', async () => {
    const { context, page } = await signedIn('opadmin')
    await openFirstOrder(page, '/orderList', 'submitted', '/orderDetailsOperator')
    const stale = await context.newPage()
    await stale.goto(page.url())
    await expect.poll(() => headerState(stale).getAttribute('data-state'), WAIT).toBe('submitted')

    await button(page, 'accept').click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: zh('ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('accepted')

    // The stale page still offers "send back" (allowed from submitted and accepted) with the old version.
    await button(stale, 'sendBack').click()
    await stale
      .getByRole('dialog')
      .getByRole('button', { name: zh('ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => stale.getByText(zh('detail', 'staleReloaded')).count(), WAIT).toBeGreaterThan(0)
    await expect.poll(() => headerState(stale).getAttribute('data-state'), WAIT).toBe('accepted')
    await expect.poll(() => historyEntries(stale).count(), WAIT).toBe(1)
    await context.close()
  })
})

describe('the order detail for customers', () => {
  it('offers the customer side of the state machine only, and runs it', async () => {
    const { context, page } = await signedIn('entadmin')
    await openFirstOrder(page, '/myOrders', 'submitted', '/orderDetails')
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('submitted')
    for (const action of ['withdraw', 'cancel']) expect(await button(page, action).count()).toBe(1)
    for (const action of ['accept', 'reject', 'bargain', 'sendBack', 'book', 'invalidate', 'reapply'])
      expect(await button(page, action).count()).toBe(0)

    await button(page, 'withdraw').click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.getByText(zh('confirm', 'withdrawOrder')).count(), WAIT).toBe(1)
    // Fired through SPEC §7's withdraw (a GET), not the generic /order/transition.
    const sent = page.waitForRequest((request) =>
      ['/api/booking/order/withdraw', '/api/order/transition'].includes(new URL(request.url()).pathname),
    )
    await dialog.getByRole('button', { name: zh('ui', 'ok'), exact: true }).click()
    const request = await sent
    expect([request.method(), new URL(request.url()).pathname]).toEqual(['GET', '/api/booking/order/withdraw'])
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('withdrawn')
    await expect.poll(() => historyEntries(page).count(), WAIT).toBe(1)
    expect(await historyEntries(page).first().textContent()).toContain(zh('action', 'withdraw'))
    await expect.poll(() => button(page, 'reapply').count(), WAIT).toBe(1)
    expect(await button(page, 'withdraw').count()).toBe(0)

    // The operator's detail of the same order is not theirs to open.
    const id = new URL(page.url()).searchParams.get('id')
    await page.goto(`${portal.server.url}/orderDetailsOperator?id=${id}`)
    await expect.poll(() => page.getByText(zh('ui', 'forbiddenTitle')).count(), WAIT).toBe(1)
    expect(await button(page, 'accept').count()).toBe(0)
    await context.close()
  })

  it('gives a personal user (no order permission) neither the detail nor any button', async () => {
    const { context, page } = await signedIn('personal')
    await page.goto(`${portal.server.url}/orderDetails?id=1`)
    await expect.poll(() => page.getByText(zh('ui', 'forbiddenTitle')).count(), WAIT).toBe(1)
    await page.goto(`${portal.server.url}/orderDetailsOperator?id=1`)
    await expect.poll(() => page.getByText(zh('ui', 'forbiddenTitle')).count(), WAIT).toBe(1)
    expect(await page.getByRole('button', { name: zh('action', 'accept'), exact: true }).count()).toBe(0)
    // The server refuses the call too, whatever the portal shows.
    const answer = await context.request.get(`${portal.server.url}/api/booking/order/getOrderDetail?id=1`)
    expect((await answer.json()).code).toBe('220000')
    await context.close()
  })

  it('says so when the record does not exist or has no id', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/orderDetailsOperator?id=999999`)
    await expect.poll(() => page.getByText(zh('detail', 'notFound')).count(), WAIT).toBe(1)
    await page.goto(`${portal.server.url}/orderDetailsOperator`)
    await expect.poll(() => page.getByText(zh('detail', 'noId')).count(), WAIT).toBe(1)
    await context.close()
  })
})

/** An ISO 6346 size-type code (45G1, 22G1, L5G1): what a person should not have to read as a container type. */
const ISO_SIZE_TYPE = /\b[0-9A-Z][0-9][A-Z][0-9]\b/
/** SPEC §3's label: size, apostrophe, type. */
const SIZE_TYPE_LABEL = /^\d\d'[A-Z]{2}$/

/** The container table of a detail screen: each row's type cell (the first column). */
async function containerTypeCells(page: Page): Promise<string[]> {
  const table = page.locator('[data-field="containers"] table')
  await expect.poll(() => table.locator('tbody tr').count(), WAIT).toBeGreaterThan(0)
  return table.locator('tbody tr td:first-child').allTextContents()
}

describe("container types on detail screens (SPEC §3: 40'HQ, not 45G1)", () => {
  it('read as their label on the operator and the customer order details', async () => {
    const operator = await signedIn('opadmin')
    await openFirstOrder(operator.page, '/orderList', 'accepted', '/orderDetailsOperator')
    const types = await containerTypeCells(operator.page)
    expect(types.length).toBeGreaterThan(0)
    for (const type of types) expect(type).toMatch(SIZE_TYPE_LABEL)
    expect(types).toContain("40'HQ")
    expect(await operator.page.locator('[data-field="containers"]').textContent()).not.toMatch(ISO_SIZE_TYPE)
    await operator.context.close()

    const customer = await signedIn('entadmin')
    await openFirstOrder(customer.page, '/myOrders', 'accepted', '/orderDetails')
    const own = await containerTypeCells(customer.page)
    for (const type of own) expect(type).toMatch(SIZE_TYPE_LABEL)
    expect(await customer.page.locator('[data-field="containers"]').textContent()).not.toMatch(ISO_SIZE_TYPE)
    await customer.context.close()
  })

  it("read as their label on the operator's inquiry detail, row by row", async () => {
    const { context, page } = await signedIn('opadmin')
    // The seeded Shanghai → Los Angeles inquiry asks for 2 × 22G1 and 1 × 45G1.
    await page.goto(`${portal.server.url}/InquiryList?origin=CNSHA&destination=USLAX`)
    const link = page.locator('table tbody tr td:first-child a').first()
    await expect.poll(() => link.count(), WAIT).toBe(1)
    await link.click()
    await page.waitForURL(/\/viewInquiry\?id=\d+$/, WAIT)
    expect(await containerTypeCells(page)).toEqual(["20'GP", "40'HQ"])
    expect(await page.locator('[data-field="containers"]').textContent()).not.toMatch(ISO_SIZE_TYPE)
    await context.close()
  })
})
