import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { apiContent } from '../support/commercial.ts'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * Shipment subscriptions in Chromium (issue #22): the enterprise administrator opens an order, subscribes it
 * from the order's own page (the form comes with the order filled in), chooses what to hear and how, sees the
 * subscription on /shipmentSubscriptions, and reads the letter of the operator's next event.
 */
const portal = setupPortal()

describe('shipment subscriptions', () => {
  it("subscribes from the order's page and reads the letter of the next event", async () => {
    const db = portal.server.database.db
    const demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
    const { rows } = await withTenant(db, demo, (trx) =>
      sql<{ shipment: number; order: number; order_no: string }>`
        select s.id as shipment, o.id as order, o.order_no from shipment s join booking_order o on o.id = s.booking_order
        where s.containers @> ${JSON.stringify([{ containerNo: TRACKING_SAMPLES.container }])}::jsonb`.execute(trx),
    )
    const seeded = rows[0]
    if (!seeded) throw new Error('the seed has no order behind CSQU3054383')

    const { context, page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/orderDetails?id=${seeded.order}&lang=en`)
    await page.getByRole('button', { name: 'Subscribe to tracking', exact: true }).click()
    await page.waitForURL(/\/shipmentSubscriptionDetail\?order=/)

    // The order is filled in, shown by its number.
    const order = page.getByRole('combobox', { name: 'Order' })
    await order.waitFor(WAIT)
    await expect.poll(() => order.inputValue(), WAIT).toBe(seeded.order_no)
    // Saved with nothing chosen: what is missing is named.
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect
      .poll(() => page.getByText('At least 1 entries required', { exact: true }).count(), WAIT)
      .toBeGreaterThan(0)

    const types = page.getByRole('group', { name: 'Event types' })
    await types.getByRole('checkbox', { name: 'Transport', exact: true }).check()
    await page.getByRole('group', { name: 'Channels' }).getByRole('checkbox', { name: 'In-app letter' }).check()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => page.getByText('Saved', { exact: true }).count(), WAIT).toBeGreaterThan(0)

    await page.goto(`${base}/shipmentSubscriptions?lang=en`)
    const row = page.locator('table tbody tr').first()
    await expect.poll(() => row.getByText('Active', { exact: true }).count(), WAIT).toBe(1)
    expect(await row.textContent()).toContain(seeded.order_no)

    // The operator records the vessel's arrival, as the desk does.
    const desk = await portal.signIn('opadmin')
    await apiContent(desk.page, 'POST', '/booking/tracking/event/add', {
      shipment: seeded.shipment,
      eventType: 'TRANSPORT',
      eventClassifierCode: 'ACT',
      transportEventTypeCode: 'ARRI',
      unLocationCode: 'USLAX',
      eventDateTime: '2026-12-31T08:00:00Z',
    })
    await desk.context.close()

    // The letter is in the reader's profile language (Chinese unless they chose another), whatever the page's.
    await page.goto(`${base}/letterList?lang=en`)
    const title = new RegExp(`^(Order ${seeded.order_no}: Arrived|订单 ${seeded.order_no}：到达)$`)
    await expect.poll(() => page.getByText(title).count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })
})
