import { sql } from 'kysely'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inDays, today } from '../support/clock.ts'
import { pdfText } from '../support/pdf-text.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #24's acceptance, as a new user would: the operator bills a confirmed order in USD and CNY, prints and
 * confirms it; the customer finds it in /billList and downloads its PDF; a second confirmation is refused; a
 * partial payment leaves only the open remainder in its ageing bucket of /myStatement; the customer's statement
 * balances to the cent. (The .xlsx read-back of the list export is the generic export's, issue #24's Excel part.)
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

interface Envelope {
  code: string
  message: string
  content: Record<string, unknown>
}

/** A call of the portal's own API from the signed-in page (its cookie and the portal's Resource header). */
const api = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(`/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', resource: '1', language: 'zh_CN' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      return (await response.json()) as Envelope
    },
    { method, path, body },
  )

describe('billing a confirmed order (issue #24 acceptance)', () => {
  it('is billed, printed and confirmed by the operator, downloaded by the customer, paid in part and aged', async () => {
    const operator = await portal.signIn('opadmin')
    // A confirmed order of the customer's (entadmin's company).
    const { rows } = await sql<{ id: number }>`
      select o.id from booking_order o join tenant t on t.id = o.tenant_id
      join app_user u on u.tenant_id = t.id and u.username = 'entadmin' and u.company_id = o.customer_company
      where t.code = 'demo' and o.state in ('accepted', 'booked') order by o.id limit 1`.execute(
      portal.server.database.db,
    )
    const order = rows[0]
    expect(order).toBeDefined()
    const made = await api(operator.page, 'POST', '/booking/billing/add', {
      order: order?.id,
      billingType: 'receivable',
      inputDate: inDays(-40),
      lines: [
        { chargeName: 'Ocean freight', unit: '40HQ', quantity: 2, unitPrice: '1850.00', currency: 'USD' },
        { chargeName: 'THC', unit: '40HQ', quantity: 2, unitPrice: '1260.00', currency: 'CNY', taxRate: 6 },
      ],
    })
    expect(made.code, made.message).toBe('0000')
    const billingNo = String(made.content.billingNo)

    // The operator prints and confirms it on its detail screen.
    const { page } = operator
    await page.goto(`${operator.base}/billDetail?id=${made.content.id}`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(billingNo)
    for (const action of ['print', 'confirm']) {
      await page.getByRole('button', { name: zh('bill', action), exact: true }).click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor(WAIT)
      await dialog.getByRole('button', { name: zh('ui', 'ok'), exact: true }).click()
      await expect
        .poll(() => page.locator('main').textContent(), WAIT)
        .toContain(zh('bill', action === 'print' ? 'printed' : 'confirmed'))
    }
    // Confirmed: the button is gone, and the call itself is refused with SPEC's words.
    await expect
      .poll(() => page.getByRole('button', { name: zh('bill', 'confirm'), exact: true }).count(), WAIT)
      .toBe(0)
    const current = await api(page, 'GET', `/booking/billing/detail?id=${made.content.id}`)
    const again = await api(page, 'POST', '/booking/billing/updateBillStatus', {
      id: made.content.id,
      version: current.content.version,
      status: 'confirm',
    })
    expect(again.code).toBe('360003')
    expect(again.message).toBe(localeText('zh', 'error', '360003'))

    // A partial payment of USD 1,000.00 against USD 3,700.00.
    const paid = await api(page, 'POST', '/booking/finance/payment/add', {
      bill: made.content.id,
      kind: 'payment',
      currency: 'USD',
      amount: '1000.00',
      paidOn: today(),
      reference: 'TT-E2E-0001',
    })
    expect(paid.code, paid.message).toBe('0000')
    await operator.context.close()

    // The customer finds the bill in /billList, opens it and downloads the PDF.
    const customer = await portal.signIn('entadmin', { acceptDownloads: true })
    await customer.page.goto(`${customer.base}/billList?billingNo=${billingNo}`)
    const link = customer.page.getByRole('link', { name: billingNo, exact: true })
    await link.waitFor(WAIT)
    await link.click()
    await customer.page.waitForURL(/\/billDetail\?id=\d+$/, WAIT)
    const download = customer.page.waitForEvent('download', WAIT)
    await customer.page.getByRole('button', { name: zh('bill', 'download'), exact: true }).click()
    const file = await download
    const text = pdfText(await downloaded(file))
    for (const expected of [billingNo, '3700.00', '2671.20', '2700.00', zh('bill', 'totals')])
      expect(text).toContain(expected)

    // Its ageing: the open remainder USD 2,700.00 is in 31–60 days among the customer's receivables.
    const ageing = await api(customer.page, 'POST', '/booking/finance/myAgeing/list', {
      searchParams: { billingType: 'receivable', currency: 'USD' },
    })
    const row = (ageing.content.list as Record<string, string>[])[0]
    await customer.page.goto(`${customer.base}/myStatement?billingType=receivable&currency=USD`)
    await expect.poll(() => customer.page.locator('table tbody').textContent(), WAIT).toContain(String(row?.days31to60))
    expect(Math.round(Number(row?.days31to60) * 100)).toBeGreaterThanOrEqual(270000)
    const buckets = ['days0to30', 'days31to60', 'days61to90', 'daysOver90'].map((k) =>
      Math.round(Number(row?.[k]) * 100),
    )
    expect(buckets.reduce((a, b) => a + b, 0)).toBe(Math.round(Number(row?.open) * 100))

    // The statement balances to the cent: its USD balance is the ageing's open USD.
    const statement = await customer.page.evaluate(async () => {
      const response = await fetch('/api/booking/finance/statement', { headers: { resource: '1', language: 'zh_CN' } })
      return Array.from(new Uint8Array(await response.arrayBuffer()))
    })
    expect(pdfText(Buffer.from(statement))).toContain(String(row?.open))
    await customer.context.close()
  })
})
