import { sql } from 'kysely'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { groupDigits } from '../../rules/decimal.ts'
import { inDays, today } from '../support/clock.ts'
import { pickOption } from '../support/commercial.ts'
import { pdfText } from '../support/pdf-text.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * Issue #24's acceptance, as a new user would: the operator bills a confirmed order in USD and CNY on /billManage,
 * prints and confirms it; a second confirmation is refused; a partial payment recorded on /billPayments leaves only
 * the open remainder in its ageing bucket of /myStatement; the customer finds the bill in /billList, downloads its
 * PDF, exports the list to .xlsx (read back: the rows and columns shown, dates and amounts as numbers) and
 * downloads a statement that balances to the cent.
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

/** The headers a list shows, but its actions column. */
const shownHeaders = async (page: Page) =>
  (await page.locator('table thead th').allInnerTexts())
    .map((h) => h.trim())
    .filter((h) => h && h !== zh('ui', 'actions'))

describe('billing a confirmed order (issue #24 acceptance)', () => {
  it('is billed, printed and confirmed by the operator, paid in part, downloaded and exported by the customer, and aged', async () => {
    const operator = await portal.signIn('opadmin')
    const { page } = operator
    // A confirmed order of the customer's (entadmin's company).
    const { rows } = await sql<{ id: number; order_no: string }>`
      select o.id, o.order_no from booking_order o join tenant t on t.id = o.tenant_id
      join app_user u on u.tenant_id = t.id and u.username = 'entadmin' and u.company_id = o.customer_company
      where t.code = 'demo' and o.state in ('accepted', 'booked') order by o.id limit 1`.execute(
      portal.server.database.db,
    )
    const order = rows[0]
    expect(order).toBeDefined()
    // Its charges, as the operator sets them before billing: ocean freight in USD, terminal handling in CNY.
    await page.goto(`${operator.base}/billManage`)
    const adjusted = await api(page, 'POST', '/booking/orderCharge/adjustOrderCharge', {
      orderId: order?.id,
      remark: 'Rates agreed for the sailing',
      charges: [
        {
          chargeCode: 'OFR',
          chargeName: 'Ocean freight',
          category: 'freight',
          unit: '40HQ',
          quantity: 2,
          unitPrice: '1850.00',
          currency: 'USD',
        },
        {
          chargeCode: 'THC',
          chargeName: 'THC',
          category: 'origin',
          unit: '40HQ',
          quantity: 2,
          unitPrice: '1260.00',
          currency: 'CNY',
        },
      ],
    })
    expect(adjusted.code, adjusted.message).toBe('0000')

    // The operator makes the bill on /billManage: the order picked by its number, the lines come from its charges.
    await page.getByRole('button', { name: zh('bill', 'create'), exact: true }).click()
    const form = page.getByRole('dialog')
    await form.waitFor(WAIT)
    await pickOption(page, form, zh('field', 'orderNo'), String(order?.order_no))
    await form.getByLabel(zh('bill', 'billingType')).selectOption({ label: zh('bill', 'receivable') })
    await form.getByLabel(zh('bill', 'inputDate')).fill(inDays(-40))
    await form.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await form.waitFor({ state: 'detached', ...WAIT })
    const made = await sql<{ id: number; billing_no: string }>`
      select id, billing_no from bill where "order" = ${order?.id} order by id desc limit 1`.execute(
      portal.server.database.db,
    )
    const bill = made.rows[0]
    expect(bill?.billing_no).toMatch(/^BILL\d{10}$/)
    const billingNo = String(bill?.billing_no)
    await expect.poll(() => page.locator('table tbody').textContent(), WAIT).toContain(billingNo)

    // It prints and confirms it on the bill's detail screen.
    await page.getByRole('link', { name: billingNo, exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(billingNo)
    expect(await page.locator('main').textContent()).toMatch(/USD.*3700\.00|3,700\.00/)
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
    const current = await api(page, 'GET', `/booking/billing/detail?id=${bill?.id}`)
    const again = await api(page, 'POST', '/booking/billing/updateBillStatus', {
      id: bill?.id,
      version: current.content.version,
      status: 'confirm',
    })
    expect(again.code).toBe('360003')
    expect(again.message).toBe(localeText('zh', 'error', '360003'))

    // A partial payment of USD 1,000.00 against USD 3,700.00, recorded on /billPayments.
    await page.goto(`${operator.base}/billPayments`)
    await page.getByRole('button', { name: zh('finance', 'record'), exact: true }).click()
    const payment = page.getByRole('dialog')
    await payment.waitFor(WAIT)
    await pickOption(page, payment, zh('bill', 'billingNo'), billingNo)
    await payment.getByLabel(zh('finance', 'kind')).selectOption({ label: zh('finance', 'kindPayment') })
    await pickOption(page, payment, zh('field', 'currency'), 'USD')
    await payment.getByLabel(zh('field', 'amount')).fill('1000.00')
    await payment.getByLabel(zh('finance', 'paidOn')).fill(today())
    await payment.getByLabel(zh('finance', 'reference')).fill('TT-E2E-0001')
    await payment.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await payment.waitFor({ state: 'detached', ...WAIT })
    await expect.poll(() => page.locator('table tbody').textContent(), WAIT).toContain('TT-E2E-0001')
    await operator.context.close()

    // The customer finds the bill in /billList, opens it and downloads the PDF.
    const customer = await portal.signIn('entadmin', { acceptDownloads: true })
    await customer.page.goto(`${customer.base}/billList?billingNo=${billingNo}`)
    const link = customer.page.getByRole('link', { name: billingNo, exact: true })
    await link.waitFor(WAIT)
    // Its totals per currency in their column, as the export writes them.
    const totalsAt = (await customer.page.locator('table thead th').allInnerTexts())
      .map((h) => h.trim())
      .indexOf(zh('bill', 'totals'))
    expect(await customer.page.locator('table tbody tr').first().locator('td').nth(totalsAt).textContent()).toBe(
      'USD 3,700.00; CNY 2,520.00',
    )
    // The list exported: an .xlsx of the columns shown, in their order, its rows the list's.
    const shown = await shownHeaders(customer.page)
    const exported = customer.page.waitForEvent('download', WAIT)
    await customer.page.getByRole('button', { name: zh('bill', 'export'), exact: true }).click()
    const sheet = await readXlsx(await downloaded(await exported))
    expect(sheet.headers).toEqual(shown)
    expect(sheet.rows).toHaveLength(1)
    const cell = (header: string) => sheet.rows[0]?.[sheet.headers.indexOf(header)]?.value
    expect(cell(zh('bill', 'billingNo'))).toBe(billingNo)
    expect(cell(zh('bill', 'billingType'))).toBe(zh('bill', 'receivable'))
    expect(cell(zh('bill', 'inputDate'))).toEqual(new Date(`${inDays(-40)}T00:00:00Z`))
    expect(cell(zh('bill', 'totals'))).toBe('USD 3,700.00; CNY 2,520.00')

    await link.click()
    await customer.page.waitForURL(/\/billDetail\?id=\d+$/, WAIT)
    const download = customer.page.waitForEvent('download', WAIT)
    await customer.page.getByRole('button', { name: zh('bill', 'download'), exact: true }).click()
    const text = pdfText(await downloaded(await download))
    for (const expected of [billingNo, '3,700.00', '2,520.00', zh('bill', 'totals')]) expect(text).toContain(expected)

    // Its ageing on /myStatement: the open remainder USD 2,700.00 is in 31–60 days among the customer's receivables.
    await customer.page.goto(`${customer.base}/myStatement?billingType=receivable&currency=USD`)
    const ageing = await api(customer.page, 'POST', '/booking/finance/myAgeing/list', {
      searchParams: { billingType: 'receivable', currency: 'USD' },
    })
    const row = (ageing.content.list as Record<string, string>[])[0]
    await expect
      .poll(() => customer.page.locator('table tbody').textContent(), WAIT)
      .toContain(groupDigits(String(row?.days31to60)))
    expect(Math.round(Number(row?.days31to60) * 100)).toBeGreaterThanOrEqual(270000)
    const buckets = ['days0to30', 'days31to60', 'days61to90', 'daysOver90'].map((k) =>
      Math.round(Number(row?.[k]) * 100),
    )
    expect(buckets.reduce((a, b) => a + b, 0)).toBe(Math.round(Number(row?.open) * 100))
    // Its export holds the amounts as numbers in the currency's format.
    const ageingFile = customer.page.waitForEvent('download', WAIT)
    await customer.page.getByRole('button', { name: zh('bill', 'export'), exact: true }).click()
    const ageingSheet = await readXlsx(await downloaded(await ageingFile))
    const open = ageingSheet.rows[0]?.[ageingSheet.headers.indexOf(zh('bill', 'open'))]
    expect(open?.value).toBe(Number(row?.open))
    expect(open?.numFmt).toContain('USD')

    // The statement, downloaded from /myStatement, balances to the cent: its USD balance is the ageing's open USD.
    const statement = customer.page.waitForEvent('download', WAIT)
    await customer.page.getByRole('button', { name: zh('finance', 'statementPdf'), exact: true }).click()
    const asked = customer.page.getByRole('dialog')
    await asked.waitFor(WAIT)
    await asked.getByRole('button', { name: zh('ui', 'ok'), exact: true }).click()
    expect(pdfText(await downloaded(await statement))).toContain(groupDigits(String(row?.open)))
    await customer.context.close()
  })
})
