import { describe, expect, it } from 'vitest'
import { apiCall, confirmDialog } from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue 8's booking in the browser: entadmin books a direct FCL order from /fclCreateOrderDirect filled from
 * a template with two container rows, saves it as a draft, reopens it from /orderDraftList and submits it;
 * opadmin confirms it on the operator detail page; the customer's /myOrders shows it with its history, and
 * /orderTracking finds it by its number.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

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

    const saved = page.waitForResponse((r) => r.url().includes('/api/booking/orderDraft/addOrEditOrderDraft'))
    await page.getByTestId('booking-save-draft').click()
    const draft = (await (await saved).json()) as { code: string; content: { id: number; containers: unknown[] } }
    expect(draft.code).toBe('0000')
    expect(draft.content.containers).toHaveLength(2)

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
