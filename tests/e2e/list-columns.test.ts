import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'
import { readXlsx } from '../support/xlsx.ts'

/** Column settings per user (SPEC §2) and the export of the columns a user sees, in the browser. */

const portal = setupPortal()
const text = localeText

const signedIn = (username: string) => portal.signIn(username, { acceptDownloads: true })

async function headers(page: Page): Promise<string[]> {
  await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
  return (await page.locator('table thead tr').first().locator('th').allTextContents()).map((t) => t.trim())
}

describe('list columns per user', () => {
  it('hides and moves a column for this user only, keeps it across loads, and exports what is shown', async () => {
    const jobNo = text('zh', 'field', 'jobNo')
    const pod = text('zh', 'field', 'pod')
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/orderList`)
    expect(await headers(page)).toContain(jobNo)

    await page.getByRole('button', { name: text('zh', 'ui', 'columnSettings') }).click()
    await page.getByRole('checkbox', { name: jobNo }).click()
    // Port of discharge to the front: up until it is first.
    const up = page.getByRole('button', { name: `${text('zh', 'ui', 'moveUp')} ${pod}` })
    const moveUp = text('zh', 'ui', 'moveUp')
    const position = async () =>
      (
        await page
          .locator(`button[aria-label^="${moveUp} "]`)
          .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))
      ).indexOf(`${moveUp} ${pod}`)
    expect(await position()).toBeGreaterThan(0)
    for (let at = await position(); at > 0; at--) {
      await up.click()
      await expect.poll(position, WAIT).toBe(at - 1)
    }
    await page.getByRole('button', { name: text('zh', 'ui', 'columnSettings') }).click()
    await expect.poll(() => page.getByRole('checkbox', { name: jobNo }).count(), WAIT).toBe(0)

    await expect.poll(async () => (await headers(page)).includes(jobNo), WAIT).toBe(false)
    expect((await headers(page))[0]).toBe(pod)

    // The next load, and a fresh browser, keep the user's columns.
    const again = await signedIn('opadmin')
    await again.page.goto(`${portal.server.url}/orderList`)
    await expect.poll(async () => (await headers(again.page))[0], WAIT).toBe(pod)
    expect(await headers(again.page)).not.toContain(jobNo)
    await again.context.close()

    // Another user's list is as shipped.
    const other = await signedIn('opcs')
    await other.page.goto(`${portal.server.url}/orderList`)
    // (opcs sees only the orders of their own desk: read the column choice, not the table.)
    await other.page.getByRole('button', { name: text('zh', 'ui', 'columnSettings') }).click(WAIT)
    await expect.poll(() => other.page.getByRole('checkbox', { name: jobNo }).isChecked(), WAIT).toBe(true)
    await other.context.close()

    // The export holds the visible columns in the same order.
    const shown = (await headers(page)).filter((h) => h !== text('zh', 'ui', 'actions'))
    const download = page.waitForEvent('download', WAIT)
    await page.getByRole('button', { name: text('zh', 'ui', 'export') }).click()
    // An .xlsx, read back: the same headers in the same order, and the list's rows.
    expect((await download).suggestedFilename()).toMatch(/^orderList-\d{4}-\d{2}-\d{2}\.xlsx$/)
    const file = await readXlsx(await downloaded(await download))
    expect(file.headers).toEqual(shown)
    expect(file.rows.length).toBeGreaterThan(1)
    await context.close()
  })
})
