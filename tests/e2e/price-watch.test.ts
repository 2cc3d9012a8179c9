import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { inDays } from '../support/clock.ts'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * The price watch in Chromium (issue #22, /priceMonitor): the enterprise administrator opens a new watch,
 * is refused with SPEC §5's rule messages first, puts them right, saves, and sees the watch in progress
 * in the list.
 */
const portal = setupPortal()

async function pick(page: Page, label: string, search: string, option: RegExp) {
  const box = page.getByRole('combobox', { name: label })
  await box.click()
  await box.fill(search)
  await page.getByRole('option', { name: option }).first().click()
}

describe('price watch (/priceMonitor)', () => {
  it('refuses the broken rules first, then saves the watch and lists it in progress', async () => {
    const { context, page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/priceMonitor?lang=en`)
    await page.getByRole('button', { name: 'New price watch', exact: true }).click()
    await page.waitForURL(/\/priceMonitorDetail/)

    const target = page.getByLabel('Target price')
    await target.waitFor(WAIT)
    // The money input takes no fourth decimal: the target stays empty and is refused as required.
    await target.fill('1500.1234')
    await page.getByLabel('Min price').fill('300')
    await page.getByLabel('Max price').fill('200')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect
      .poll(() => page.getByText('Max price must be greater than min price', { exact: true }).count(), WAIT)
      .toBe(1)
    await expect
      .poll(() => page.getByText('Enter a port of loading or a port of discharge', { exact: true }).count(), WAIT)
      .toBe(1)
    // Carrier, container type, min CBM, target price, notification type, channel, period, start date.
    expect(await page.getByText('Required', { exact: true }).count()).toBe(8)

    // Put right.
    await target.fill('1500')
    await page.getByLabel('Max price').fill('2500')
    await pick(page, 'Port of loading', 'CNSHA', /CNSHA/)
    await pick(page, 'Port of discharge', 'USLAX', /USLAX/)
    await pick(page, 'Carrier', 'COSU', /COSU|COSCO/)
    await pick(page, 'Container type', "40'HQ", /40'HQ/)
    await page.getByLabel('Min CBM').fill('20')
    await page.getByLabel('Notification type').selectOption({ label: 'Target price reached' })
    await page.getByLabel('Channel').selectOption({ label: 'Mail' })
    await page.getByLabel('Period').selectOption({ label: '30 days' })
    await page.getByLabel('Start date').fill(inDays(0))
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => page.getByText('Saved', { exact: true }).count(), WAIT).toBeGreaterThan(0)

    await page.goto(`${base}/priceMonitor?lang=en`)
    const row = page.locator('table tbody tr').first()
    await expect.poll(() => row.getByText('In progress', { exact: true }).count(), WAIT).toBe(1)
    expect(await row.textContent()).toMatch(/COSCO Shipping Lines.*40'HQ.*Shanghai.*Los Angeles/)
    await context.close()
  })
})
