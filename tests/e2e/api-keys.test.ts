import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * An API key made in the browser (issue #29, /apiKeys): the enterprise administrator names a key and ticks
 * /myOrders in its scopes; the secret is shown once in a dialog (`reveals:`), works for a program's call (no
 * cookie), and once the dialog is closed the page holds only the key's prefix.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

describe('API keys (/apiKeys)', () => {
  it('makes a key, shows its secret once, and the secret lists the enterprise’s orders', async () => {
    const { context, page } = await portal.signIn('entadmin')
    await page.goto(`${portal.server.url}/apiKeys`)
    await page.getByRole('button', { name: zh('apiKey', 'create') }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel(zh('apiKey', 'name')).fill('ERP')
    // The scopes: the permission tree, opened at the customer's orders, /myOrders and what it holds ticked.
    await dialog.getByRole('treeitem', { name: zh('area', 'customerOrders'), exact: true }).click()
    const myOrders = dialog.getByRole('treeitem', { name: zh('route', 'myOrders'), exact: true })
    await myOrders.getByRole('checkbox').first().click()
    await expect.poll(() => myOrders.getAttribute('aria-checked'), WAIT).toBe('true')
    await dialog.getByRole('button', { name: zh('ui', 'ok') }).click()

    const shown = page.getByTestId('revealed-value')
    await expect.poll(() => shown.count(), WAIT).toBe(1)
    const secret = await shown.inputValue()
    expect(secret).toMatch(/^wb_[A-Za-z0-9_-]{43}$/)

    // A program's call: the key, no cookie.
    const answer = await page.evaluate(async (key) => {
      const response = await fetch('/api/booking/order/queryOrderListByCompany', {
        method: 'POST',
        credentials: 'omit',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pageNum: 1, pageSize: 5 }),
      })
      return (await response.json()) as { code: string; content: { total: number } }
    }, secret)
    expect(answer.code).toBe('0000')
    expect(answer.content.total).toBeGreaterThan(0)

    await page.getByRole('button', { name: zh('ui', 'revealClose') }).click()
    await expect.poll(() => shown.count(), WAIT).toBe(0)
    await expect.poll(() => page.getByText(secret.slice(0, 11)).count(), WAIT).toBeGreaterThan(0)
    expect(await page.content()).not.toContain(secret.slice(11))
    await context.close()
  })
})
