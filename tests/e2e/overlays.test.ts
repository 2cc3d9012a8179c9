import type { ConsoleMessage, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #5's overlay acceptance: an administrator hides a column of /orderList in the demo tenant through
 * the editor (checked live, saved as a version, with a diff and a rollback); the next page load shows it
 * for the demo tenant only — acme.localhost is unchanged — and nothing breaks the strict CSP.
 */

const portal = setupPortal()
const text = localeText

const signedIn = (username: string, host?: string) => portal.signIn(username, { host })

/** Every Content-Security-Policy complaint the page logs (an eval, an inline script…). */
function cspViolations(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|unsafe-eval/i.test(message.text())) seen.push(message.text())
  })
  return seen
}

async function headers(page: Page): Promise<string[]> {
  const row = page.locator('table thead tr').first()
  await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
  return (await row.locator('th').allTextContents()).map((t) => t.trim())
}

describe('tenant overlays without a rebuild', () => {
  it('hides a column in the demo tenant through the editor and leaves acme.localhost unchanged', async () => {
    const jobNo = text('zh', 'field', 'jobNo')
    const { context, page, base } = await signedIn('opadmin')
    const violations = cspViolations(page)

    await page.goto(`${base}/orderList`)
    expect(await headers(page)).toContain(jobNo)

    await page.goto(`${base}/screenOverlay?screen=orderList`)
    const editor = page.getByRole('textbox', { name: text('zh', 'overlay', 'editor') })
    await editor.waitFor(WAIT)
    // Checked while typing: an unknown column is named with its line.
    await editor.fill('columns:\n  hidden:\n    - shoeSize\n')
    const problems = page.getByRole('alert')
    await expect.poll(() => problems.textContent(), WAIT).toContain('shoeSize')
    expect(await problems.textContent()).toContain(
      text('zh', 'overlay', 'at').replace('{{line}}', '3').replace('{{column}}', '7'),
    )
    const save = page.getByRole('button', { name: text('zh', 'overlay', 'save') })
    expect(await save.isDisabled()).toBe(true)

    await editor.fill('columns:\n  hidden: [jobNo]\n  labels:\n    customerCompany: { zh: 委托单位, en: Client }\n')
    await expect.poll(() => save.isDisabled(), WAIT).toBe(false)
    await save.click()
    await page
      .getByText(text('zh', 'overlay', 'saved').replace('{{version}}', '1'))
      .first()
      .waitFor(WAIT)

    // The next page load: the column is gone and the relabelled one reads the tenant's word.
    await page.goto(`${base}/orderList`)
    const demoHeaders = await headers(page)
    expect(demoHeaders).not.toContain(jobNo)
    expect(demoHeaders).toContain('委托单位')

    // English keeps the tenant's English label.
    await page.goto(`${base}/orderList?lang=en`)
    await expect.poll(async () => (await headers(page)).includes('Client'), WAIT).toBe(true)

    // acme.localhost has no overlay: its order list still shows the column.
    const acme = await signedIn('opadmin', 'acme.localhost')
    await acme.page.goto(`${acme.base}/orderList`)
    const acmeHeaders = await headers(acme.page)
    expect(acmeHeaders).toContain(jobNo)
    expect(acmeHeaders).not.toContain('委托单位')
    await acme.context.close()

    expect(violations).toEqual([])
    await context.close()
  })

  it('shows each version with the diff against the one before, and rolls back as a new version', async () => {
    const { context, page, base } = await signedIn('opadmin')
    await page.goto(`${base}/screenOverlay?screen=orderList`)
    const editor = page.getByRole('textbox', { name: text('zh', 'overlay', 'editor') })
    await expect.poll(() => editor.inputValue(), WAIT).toContain('jobNo')
    await editor.fill('columns:\n  hidden: [jobNo, carrier]\n')
    const save = page.getByRole('button', { name: text('zh', 'overlay', 'save') })
    await expect.poll(() => save.isDisabled(), WAIT).toBe(false)
    await save.click()
    await page
      .getByText(text('zh', 'overlay', 'saved').replace('{{version}}', '2'))
      .first()
      .waitFor(WAIT)

    const diff = page.getByTestId('overlay-diff')
    await expect
      .poll(() => diff.locator('[data-change="added"]').allTextContents(), WAIT)
      .toEqual(['  hidden: [jobNo, carrier]\n'])

    await page
      .getByRole('button', { name: new RegExp(text('zh', 'overlay', 'version').replace('{{version}}', '1')) })
      .click()
    await page.getByRole('button', { name: text('zh', 'overlay', 'rollback') }).click()
    await page.getByRole('dialog').getByRole('button').first().click()
    await page
      .getByText(text('zh', 'overlay', 'rolledBack').replace('{{version}}', '3'))
      .first()
      .waitFor(WAIT)

    await page.goto(`${base}/orderList`)
    const shown = await headers(page)
    expect(shown).toContain(text('zh', 'field', 'carrier'))
    expect(shown).not.toContain(text('zh', 'field', 'jobNo'))
    await context.close()
  })

  it('is not offered to a user without the permission', async () => {
    const { context, page, base } = await signedIn('opcs')
    await page.goto(`${base}/screenOverlay`)
    await expect
      .poll(() => page.getByRole('heading', { name: text('zh', 'ui', 'forbiddenTitle') }).count(), WAIT)
      .toBe(1)
    expect(await page.getByRole('textbox', { name: text('zh', 'overlay', 'editor') }).count()).toBe(0)
    const menu = page.getByRole('navigation', { name: text('zh', 'ui', 'workbenchMenu') })
    expect(await menu.getByRole('link', { name: text('zh', 'route', 'screenOverlay') }).count()).toBe(0)
    await context.close()
  })
})
