import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import manifestJson from '../../generated/manifest.json'
import type { Manifest } from '../../model/resolve.ts'
import { inDays } from '../support/clock.ts'
import { apiCall, apiContent, confirmDialog } from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue 8's booking in the browser: entadmin books a direct FCL order from /fclCreateOrderDirect filled from
 * a template with two container rows, saves it as a draft, reopens it from /orderDraftList and submits it;
 * opadmin confirms it on the operator detail page; the customer's /myOrders shows it with its history, and
 * /orderTracking finds it by its number.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

describe('booking an order (customer and operator)', () => {
  it('books directly from a template, keeps a draft, submits it; the operator confirms; tracking finds it', async () => {
    const { page, base, context } = await portal.signIn('entadmin')
    const template = await apiCall(page, 'POST', '/booking/orderTemplate/addOrEditOrderTemplate', {
      name: 'Ningbo furniture to Long Beach',
      containerLoadType: 'FCL',
      pol: 'CNSHA',
      pod: 'USLAX',
      carrier: 'MAEU',
      shipper: 'NINGBO BRIGHT HOME CO., LTD.\nNO. 88 JIANGNAN ROAD\nNINGBO 315000 CHINA',
      consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
      notifyParty: 'SAME AS CONSIGNEE',
      contactName: 'Chen Jing',
      containers: [
        { containerType: '45G1', quantity: 2 },
        { containerType: '22G1', quantity: 1 },
      ],
      goodsDescription: 'WOODEN FURNITURE',
    })
    expect(template.code).toBe('0000')

    await page.goto(`${base}/fclCreateOrderDirect`)
    await page.getByTestId('booking-source').waitFor(WAIT)
    expect(await page.getByTestId('booking-source').textContent()).toContain(zh('booking', 'sourceDirect'))
    await page.getByTestId('booking-template').click()
    await page.getByRole('option', { name: 'Ningbo furniture to Long Beach' }).click()
    await expect
      .poll(() => page.getByLabel(zh('field', 'shipper')).first().inputValue(), WAIT)
      .toContain('NINGBO BRIGHT HOME')
    await page.getByLabel(zh('field', 'etd')).first().fill(inDays(10))
    // The demo tenant has booking agents (issue #25): the form offers the agents serving the order's carrier
    // (Maersk), not the COSCO or MSC agencies.
    const agentBox = page.getByRole('combobox', { name: zh('agent', 'bookingAgent') }).last()
    await agentBox.click()
    const agentOptions = page.getByRole('listbox').last().getByRole('option')
    await expect.poll(() => agentOptions.allTextContents(), WAIT).toEqual(['马士基（中国）航运有限公司上海分公司'])
    await agentOptions.first().click()

    const saved = page.waitForResponse((r) => r.url().includes('/api/booking/orderDraft/addOrEditOrderDraft'))
    await page.getByTestId('booking-save-draft').click()
    const draft = (await (await saved).json()) as {
      code: string
      content: { id: number; containers: unknown[]; bookingAgent: number }
    }
    expect(draft.code).toBe('0000')
    expect(draft.content.containers).toHaveLength(2)
    expect(draft.content.bookingAgent).toEqual(expect.any(Number))

    await page.goto(`${base}/orderDraftList`)
    const row = page.getByRole('row').filter({ hasText: 'NINGBO BRIGHT HOME' }).first()
    await row.waitFor(WAIT)
    await row.getByRole('button', { name: zh('action', 'edit') }).click()
    await page.waitForURL(new RegExp(`/fclCreateOrderDirect\\?id=${draft.content.id}`), WAIT)
    await expect
      .poll(() => page.getByLabel(zh('field', 'shipper')).first().inputValue(), WAIT)
      .toContain('NINGBO BRIGHT HOME')
    const submitted = page.waitForResponse((r) => r.url().includes('/api/booking/order/add'))
    await page.getByTestId('booking-submit').click()
    await confirmDialog(page, zh('ui', 'ok'))
    const order = (await (await submitted).json()) as { code: string; content: { id: number; orderNo: string } }
    expect(order.code).toBe('0000')
    expect(order.content.id).toBe(draft.content.id)
    await page.waitForURL(new RegExp(`/orderDetails\\?id=${order.content.id}`), WAIT)
    // The order's details name its booking agent.
    await expect.poll(() => page.getByText('马士基（中国）航运有限公司上海分公司').count(), WAIT).toBeGreaterThan(0)

    const operator = await portal.signIn('opadmin')
    await operator.page.goto(`${operator.base}/orderDetailsOperator?id=${order.content.id}`)
    await operator.page.getByRole('button', { name: zh('action', 'accept') }).click()
    await confirmDialog(operator.page, zh('ui', 'ok'))
    await expect
      .poll(
        async () =>
          (await apiCall(operator.page, 'GET', `/booking/order/getOrderDetail?id=${order.content.id}`)).content.state,
        WAIT,
      )
      .toBe('accepted')

    await page.goto(`${base}/myOrders`)
    const listed = page.getByRole('row').filter({ hasText: order.content.orderNo })
    await listed.waitFor(WAIT)
    expect(await listed.textContent()).toContain(zh('state', 'accepted'))
    await listed.getByRole('link', { name: order.content.orderNo }).click()
    await page.waitForURL(/\/orderDetails\?id=/, WAIT)
    await expect.poll(() => page.getByText(zh('action', 'accept')).count(), WAIT).toBeGreaterThan(0)

    await page.goto(`${base}/orderTracking?numbers=${order.content.orderNo}`)
    await expect.poll(() => page.getByTestId('tracking-shipment').count(), WAIT).toBe(1)
    await operator.context.close()
    await context.close()
  })
})

/** The order's field names: none of them may be what a person reads as a label (issue #16: "services"). */
const ORDER_FIELDS = new Set(Object.keys((manifestJson as unknown as Manifest).entities.order?.fields ?? {}))
/** A locale key shown as it is (`booking.sectionContainers`). */
const LOCALE_KEY = /^[a-z]+\.[A-Za-z.]+$/

/** The seeded Shanghai → Los Angeles inquiry's sent quote (2 × 22G1, 1 × 45G1; pick-up, export customs). */
async function seededQuote(page: Page): Promise<number> {
  const inquiries = (await apiContent(page, 'POST', '/booking/inquiry/listByCompany', {
    searchParams: { origin: 'CNSHA', destination: 'USLAX', state: ['quoted'] },
  })) as { list: { id: number }[] }
  const inquiry = inquiries.list[0]
  expect(inquiry).toBeDefined()
  const quotes = (await apiContent(page, 'GET', `/b2b/quote/listByInquiry?id=${inquiry?.id}`)) as {
    list: { id: number }[]
  }
  expect(quotes.list.length).toBeGreaterThan(0)
  return quotes.list[0]?.id as number
}

/** Whether a box lies inside another (a pixel of rounding allowed). */
const inside = (
  inner: { x: number; y: number; width: number; height: number },
  outer: { x: number; y: number; width: number; height: number },
) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1

/** Every input of the container table's rows lies inside its own cell. */
async function inputsInsideCells(table: Locator) {
  const cells = table.locator('tbody td')
  let checked = 0
  for (let i = 0; i < (await cells.count()); i++) {
    const cell = cells.nth(i)
    const control = cell.locator('.fui-Input, .fui-Combobox, .fui-Select')
    if ((await control.count()) === 0) continue
    const [box, outer] = [await control.first().boundingBox(), await cell.boundingBox()]
    expect(box && outer && inside(box, outer), `cell ${i}: ${JSON.stringify(box)} in ${JSON.stringify(outer)}`).toBe(
      true,
    )
    checked++
  }
  return checked
}

describe('the booking form reads as people write it (issue #16)', () => {
  it('labels every field, offers the services the inquiry asked for, and shows each container type whole, with every input inside its cell, at 1440 and 1280 wide', async () => {
    for (const width of [1440, 1280]) {
      const { page, base, context } = await portal.signIn('entadmin', { viewport: { width, height: 900 } })
      const quoteId = await seededQuote(page)
      await page.goto(`${base}/fclCreateOrder?quoteId=${quoteId}`)
      await page.getByTestId('booking-source').waitFor(WAIT)
      const form = page.locator('#booking-form')

      // No label, heading, column or group name is a raw field name or an untranslated key.
      const texts = [
        ...(await form.locator('label, th, h2').allTextContents()),
        ...(await form
          .locator('fieldset[aria-label]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))),
      ]
        .map((text) => text.replace(/\s*\*\s*$/, '').trim())
        .filter(Boolean)
      expect(texts.length).toBeGreaterThan(20)
      expect(texts.filter((text) => ORDER_FIELDS.has(text) || LOCALE_KEY.test(text))).toEqual([])

      // The services: the field's own label over one tick box per service, those of the inquiry ticked.
      const services = page.getByRole('group', { name: zh('field', 'services') })
      await services.waitFor(WAIT)
      const boxes = services.getByRole('checkbox')
      expect(await boxes.count()).toBe(5)
      for (const [value, ticked] of [
        ['pickUp', true],
        ['customs', true],
        ['insurance', false],
        ['warehouse', false],
        ['delivery', false],
      ] as const)
        expect(await services.getByRole('checkbox', { name: zh('enum', `orderService.${value}`) }).isChecked()).toBe(
          ticked,
        )

      // The container table: each type reads whole (code and SPEC §3 label), every input inside its cell.
      const containers = page.getByRole('region', { name: zh('booking', 'sectionContainers') })
      const types = containers.getByRole('combobox', { name: zh('field', 'containerType') })
      await expect
        .poll(() => types.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), WAIT)
        .toEqual(["22G1 — 20'GP", "45G1 — 40'HQ"])
      for (const overflow of await types.evaluateAll((els) => els.map((e) => e.scrollWidth - e.clientWidth)))
        expect(overflow).toBeLessThanOrEqual(0)
      const table = containers.locator('table')
      expect(await inputsInsideCells(table)).toBe(6)
      const weights = containers.getByRole('spinbutton', { name: zh('field', 'grossWeightKg') })
      expect(await weights.count()).toBe(2)
      for (let i = 0; i < 2; i++) {
        const weight = weights.nth(i)
        const cell = weight.locator('xpath=ancestor::td[1]')
        const [box, outer] = [await weight.boundingBox(), await cell.boundingBox()]
        expect(box && outer && inside(box, outer)).toBe(true)
      }

      if (width === 1440) {
        // The services go to the server as the list they are.
        await services.getByRole('checkbox', { name: zh('enum', 'orderService.insurance') }).check()
        await weights.first().fill('18500.5')
        await page
          .getByLabel(zh('field', 'shipper'))
          .first()
          .fill('HANGZHOU MINGHUI TEXTILE IMP & EXP CO., LTD.'.slice(0, 35))
        await page.getByLabel(zh('field', 'consignee')).first().fill('PACIFIC HOME GOODS INC.')
        const saved = page.waitForResponse((r) => r.url().includes('/api/booking/orderDraft/addOrEditOrderDraft'))
        await page.getByTestId('booking-save-draft').click()
        const draft = (await (await saved).json()) as {
          code: string
          content: { services: string[]; containers: { containerType: string; grossWeight?: number }[] }
        }
        expect(draft.code).toBe('0000')
        expect(draft.content.services).toEqual(['pickUp', 'customs', 'insurance'])
        expect(draft.content.containers.map((c) => c.containerType)).toEqual(['22G1', '45G1'])
        expect(draft.content.containers[0]?.grossWeight).toBe(18500.5)
      }
      await context.close()
    }
  })
})

describe('a user who may not book (the personal user)', () => {
  it('is told so up front, with the way to an enterprise, and the form asks nothing it would refuse', async () => {
    const { page, base, context } = await portal.signIn('personal')
    const refused: string[] = []
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`)
    })
    await page.goto(`${base}/fclCreateOrderDirect`)
    const notice = page.getByTestId('booking-no-permission')
    await notice.waitFor(WAIT)
    expect(await notice.textContent()).toContain(zh('booking', 'noPermission'))
    await notice.getByRole('link', { name: zh('route', 'enterpriseInfo') }).waitFor(WAIT)
    // No template tools and no save or submit: the calls behind them would answer 220000 and 360002.
    expect(await page.getByTestId('booking-template').count()).toBe(0)
    expect(await page.getByTestId('booking-save-template').count()).toBe(0)
    expect(await page.getByTestId('booking-submit').count()).toBe(0)
    expect(await page.getByLabel(zh('field', 'shipper')).first().isDisabled()).toBe(true)
    expect(refused).toEqual([])
    await notice.getByRole('link', { name: zh('route', 'enterpriseInfo') }).click()
    await page.waitForURL(/\/enterpriseInfo/, WAIT)
    await context.close()
  })
})
