import { describe, expect, it } from 'vitest'
import { setupPortal, localeText as text, WAIT } from '../support/portal.ts'

/**
 * /webhookList as an enterprise administrator uses it (issue #29): the endpoint their ERP registered is listed;
 * "New signing secret" asks first, then shows the secret once in a box, and the list keeps only its last four
 * characters; the delivery log opens for that endpoint.
 */
const portal = setupPortal()

describe('webhooks', () => {
  it('issues a signing secret, shows it once, and lists only its last four characters', async () => {
    const { page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/webhookList?lang=en`)
    const row = page.locator('table tbody tr', { hasText: 'erp.minghui-textile.example' })
    await expect.poll(() => row.count(), WAIT).toBe(1)
    await row.getByRole('button', { name: text('en', 'webhook', 'newSecret'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.textContent(), WAIT).toContain(text('en', 'webhook', 'confirmNewSecret'))
    await dialog.getByRole('button', { name: text('en', 'ui', 'ok'), exact: true }).click()
    // The answer, once: the box says so and holds the secret.
    await expect.poll(() => dialog.textContent(), WAIT).toMatch(/whsec_[A-Za-z0-9_-]{32}/)
    const secret = /whsec_[A-Za-z0-9_-]{32}/.exec((await dialog.textContent()) ?? '')?.[0] as string
    expect(await dialog.textContent()).toContain('it will not be shown again')
    await dialog.getByRole('button', { name: text('en', 'ui', 'ok'), exact: true }).click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => row.textContent(), WAIT).toContain(secret.slice(-4))
    expect(await page.locator('body').textContent()).not.toContain(secret)

    await row.getByRole('button', { name: text('en', 'webhook', 'deliveries'), exact: true }).click()
    await page.waitForURL(/\/webhookDeliveries\?endpoint=\d+/, WAIT)
  })
})
