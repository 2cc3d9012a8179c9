import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #21's client-enterprise management in the browser, as an operator works it: opadmin filters the
 * enterprise list, assigns Minghui a salesman, turns its online booking off on /clientEnterpriseService, and
 * Minghui's administrator then meets the warm reminder on the Direct order menu.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const MINGHUI = '杭州明辉纺织品进出口有限公司'
const HAITONG = '宁波海通汽车零部件有限公司'
const SHOTS = process.env.WAYBILL_SHOTS

describe('client enterprise management (operator)', () => {
  it('filters the enterprises, assigns a salesman, turns online booking off; the customer meets the warm reminder', async () => {
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/clientEnterpriseManage`)
    const rows = page.locator('table tbody tr')
    await expect.poll(() => rows.count(), WAIT).toBe(2)

    // Filter by the enterprise's name (SPEC §3 cusCompanyName).
    const search = page.getByRole('search')
    await search.getByRole('textbox', { name: zh('field', 'companyName') }).fill('明辉')
    await search.getByRole('button', { name: zh('ui', 'search'), exact: true }).click()
    await expect.poll(() => rows.count(), WAIT).toBe(1)
    expect(await rows.first().textContent()).toContain(MINGHUI)
    expect(new URL(page.url()).searchParams.get('cusCompanyName')).toBe('明辉')
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/manage-zh.png`, fullPage: true })

    // Assign Zhang Min (opcs) as the salesman, at the provider's office.
    await rows
      .first()
      .getByRole('button', { name: zh('action', 'assignSales'), exact: true })
      .click()
    const dialog = page.getByRole('dialog')
    const salesman = dialog.getByRole('combobox', { name: zh('field', 'salesman') })
    await expect.poll(() => salesman.inputValue(), WAIT).toBe('Li Wei')
    await salesman.fill('Zhang')
    await page.getByRole('option', { name: 'Zhang Min' }).click()
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sales-dialog-zh.png` })
    await dialog.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => rows.first().textContent(), WAIT).toContain('Zhang Min')

    // Turn Minghui's online booking off.
    await page.goto(`${base}/clientEnterpriseService`)
    const minghui = rows.filter({ hasText: MINGHUI })
    await expect.poll(() => minghui.count(), WAIT).toBe(1)
    expect(await rows.filter({ hasText: HAITONG }).count()).toBe(1)
    await minghui.getByRole('button', { name: zh('action', 'editServices'), exact: true }).click()
    const booking = dialog.getByRole('checkbox', { name: zh('field', 'onlineBooking') })
    await expect.poll(() => booking.isChecked(), WAIT).toBe(true)
    // Only the services are in the dialog.
    expect(await dialog.getByRole('textbox').count()).toBe(0)
    await booking.uncheck()
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/services-dialog-zh.png` })
    await dialog.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => minghui.locator('td').nth(2).textContent(), WAIT).toBe(zh('ui', 'no'))
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/services-zh.png`, fullPage: true })
    await context.close()

    // Minghui's administrator: Direct order → FCL answers the warm reminder, which leads to /enterpriseInfo.
    const customer = await portal.signIn('entadmin')
    await customer.page.goto(`${customer.base}/personalInfo`)
    const mainMenu = customer.page.getByRole('navigation', { name: zh('ui', 'mainMenu') })
    await mainMenu.getByRole('button', { name: zh('ui', 'menu_directOrder') }).click()
    await customer.page.getByRole('menuitem', { name: zh('ui', 'mode_fcl') }).click()
    const reminder = customer.page.getByRole('dialog')
    await expect.poll(() => reminder.getByText(zh('ui', 'warmReminder')).count(), WAIT).toBe(1)
    expect(await reminder.getByText(zh('ui', 'directOrderNotEnabled')).count()).toBe(1)
    if (SHOTS) await customer.page.screenshot({ path: `${SHOTS}/reminder-zh.png` })
    await reminder.getByRole('button', { name: zh('ui', 'ok') }).click()
    await customer.page.waitForURL(/\/enterpriseInfo$/)
    await customer.context.close()
  })
})
