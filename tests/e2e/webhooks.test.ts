import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { setupPortal, localeText as text, WAIT } from '../support/portal.ts'

/**
 * /webhookList as an enterprise administrator uses it (issue #29): a new endpoint comes with its signing secret,
 * shown once in the `reveals:` dialog (a copy button, the word that it will not be shown again); "New signing
 * secret" asks first, then shows the new one the same way; the list keeps only the last four characters; the
 * delivery log opens for that endpoint.
 */
const portal = setupPortal()
const SECRET = /^whsec_[A-Za-z0-9_-]{32}$/

/** The secret the reveal dialog holds, read before it is closed; afterwards the page holds no copy. */
async function revealedSecret(page: Page): Promise<string> {
  const shown = page.getByTestId('revealed-value')
  await expect.poll(() => shown.count(), WAIT).toBe(1)
  const secret = await shown.inputValue()
  expect(secret).toMatch(SECRET)
  // An alert dialog: it is closed by saying the secret is stored, not by a click beside it.
  const dialog = page.getByRole('alertdialog')
  expect(await dialog.textContent()).toContain(text('en', 'ui', 'revealOnceBody'))
  await dialog.getByRole('button', { name: text('en', 'ui', 'revealClose'), exact: true }).click()
  await expect.poll(() => shown.count(), WAIT).toBe(0)
  return secret
}

async function expectOnlyTail(page: Page, row: Locator, secret: string) {
  await expect.poll(() => row.textContent(), WAIT).toContain(secret.slice(-4))
  expect(await page.content()).not.toContain(secret)
}

describe('webhooks', () => {
  it('registers an endpoint with its secret shown once, issues a new one the same way, keeps the last four', async () => {
    const { page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/webhookList?lang=en`)
    const seeded = page.locator('table tbody tr', { hasText: 'erp.minghui-textile.example' })
    await expect.poll(() => seeded.count(), WAIT).toBe(1)
    // Its events by their names, not their codes.
    await expect
      .poll(() => seeded.textContent(), WAIT)
      .toContain(`${text('en', 'webhook', 'eventOrderState')}, ${text('en', 'webhook', 'eventBillIssued')}`)
    // Its actions in sight at the table's right edge, however wide its columns: no scrolling sideways to find them.
    const actions = seeded.getByRole('button')
    expect(await actions.count()).toBeGreaterThanOrEqual(3)
    const inside = await page.locator('table').evaluate((table) => table.parentElement?.getBoundingClientRect().right)
    for (const box of await actions.evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().right)))
      expect(box).toBeLessThanOrEqual(inside ?? 0)

    // Made from the list: the dialog asks for the endpoint, the answer is its secret — no second step.
    const url = 'https://tms.example.com/hooks/e2e'
    await page.getByRole('button', { name: text('en', 'action', 'create'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel(text('en', 'webhook', 'url')).fill(url)
    await dialog.getByRole('checkbox', { name: text('en', 'webhook', 'eventOrderState') }).check()
    await dialog.getByRole('button', { name: text('en', 'ui', 'ok'), exact: true }).click()
    const created = await revealedSecret(page)
    const row = page.locator('table tbody tr', { hasText: url })
    await expect.poll(() => row.count(), WAIT).toBe(1)
    await expectOnlyTail(page, row, created)

    // A new secret for it: asked first, then revealed once, and a different one.
    await row.getByRole('button', { name: text('en', 'webhook', 'newSecret'), exact: true }).click()
    await expect.poll(() => dialog.textContent(), WAIT).toContain(text('en', 'webhook', 'confirmNewSecret'))
    await dialog.getByRole('button', { name: text('en', 'ui', 'ok'), exact: true }).click()
    const rolled = await revealedSecret(page)
    expect(rolled).not.toBe(created)
    await expectOnlyTail(page, row, rolled)

    // Its form changes it; without a record the form offers no Save (endpoints are made from the list).
    await row.getByRole('link', { name: url }).click()
    await page.waitForURL(/\/webhookEdit\?id=\d+/, WAIT)
    const save = page.getByRole('button', { name: text('en', 'ui', 'save'), exact: true })
    await expect.poll(() => page.getByLabel(text('en', 'webhook', 'url')).inputValue(), WAIT).toBe(url)
    expect(await save.count()).toBe(1)
    await page.goto(`${base}/webhookEdit?lang=en`)
    await expect.poll(() => page.getByLabel(text('en', 'webhook', 'url')).count(), WAIT).toBe(1)
    expect(await save.count()).toBe(0)

    await page.goto(`${base}/webhookList?lang=en`)
    await seeded.getByRole('button', { name: text('en', 'webhook', 'deliveries'), exact: true }).click()
    await page.waitForURL(/\/webhookDeliveries\?endpoint=\d+/, WAIT)
  })
})
