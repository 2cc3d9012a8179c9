import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Role management in the browser (issue #21's acceptance): the operator copies a preset role on /operationAuth,
 * unticks the order export in its permission tree, narrows its data scope to the user's own, saves, and assigns
 * it to an enterprise colleague, who then sees neither the export nor other users' orders — hidden in the
 * portal and refused by the server. Deleting a preset role says "this role cannot be deleted".
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
/** The table row whose cells include this text. */
const rowOf = (page: Page, text: string) => page.locator('table tbody tr').filter({ hasText: text })

async function apiCall(page: Page, path: string, body: object) {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(`/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', resource: '1' },
        body: JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as { code: string; content: unknown } }
    },
    { path, body },
  )
}

describe('role management (/operationAuth, /operationsRoleDetail)', () => {
  it('copies a preset role, unticks the export, narrows the scope, assigns it: the colleague loses both', async () => {
    const { context, page } = await portal.signIn('opadmin')
    await page.goto(`${portal.server.url}/operationAuth`)
    const source = rowOf(page, 'EnterpriseAdministrator').first()
    await expect.poll(() => source.count(), WAIT).toBe(1)
    await source.getByRole('button', { name: zh('action', 'copy') }).click()
    // The preset role is named in the demo tenant's language; the copy's suffix in the reader's.
    const copyName = `${zh('role', 'EnterpriseAdministrator')}（副本）`
    const copy = rowOf(page, copyName)
    await expect.poll(() => copy.count(), WAIT).toBe(1)

    // The copy's form: its tree holds the export ticked, as the source did.
    await copy.getByRole('link', { name: copyName }).click()
    await expect.poll(() => page.url(), WAIT).toContain('/operationsRoleDetail?id=')
    const tree = page.getByRole('tree')
    await expect.poll(() => tree.count(), WAIT).toBe(1)
    const area = tree.getByRole('treeitem', { name: zh('area', 'customerOrders'), exact: true })
    await area.click()
    const screen = tree.getByRole('treeitem', { name: zh('route', 'myOrders'), exact: true })
    await screen.click()
    const exportItem = tree.getByRole('treeitem', { name: zh('ui', 'export'), exact: true })
    await expect.poll(() => exportItem.getAttribute('aria-checked'), WAIT).toBe('true')
    await exportItem.getByRole('checkbox').click()
    await expect.poll(() => exportItem.getAttribute('aria-checked'), WAIT).toBe('false')
    // The screen's group now holds some of its subtree: mixed.
    await expect.poll(() => screen.getAttribute('aria-checked'), WAIT).toBe('mixed')
    await page.getByLabel(zh('field', 'dataScope')).selectOption({ label: zh('enum', 'scopeSelf') })
    await page.getByRole('button', { name: zh('ui', 'save') }).click()
    await expect.poll(() => page.getByText(zh('ui', 'saved')).count(), WAIT).toBeGreaterThan(0)

    // Back on the list: assign it to the enterprise colleague.
    await page.goto(`${portal.server.url}/operationAuth`)
    const saved = rowOf(page, copyName)
    await expect.poll(() => saved.textContent(), WAIT).toContain(zh('enum', 'scopeSelf'))
    await saved.getByRole('button', { name: zh('action', 'assignUsers') }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel(zh('field', 'assignAccount')).fill('entop')
    await dialog.getByRole('button', { name: zh('ui', 'ok') }).click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => rowOf(page, copyName).textContent(), WAIT).toMatch(/1/)
    await context.close()

    // The colleague: no export on /myOrders, the server refuses it too, and only their own orders.
    const colleague = await portal.signIn('entop')
    await colleague.page.goto(`${portal.server.url}/myOrders`)
    await expect.poll(() => colleague.page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
    expect(await colleague.page.getByRole('button', { name: zh('ui', 'export'), exact: true }).count()).toBe(0)
    const refused = await apiCall(colleague.page, '/booking/order/exportOrderListByCompany', {})
    expect(refused).toMatchObject({ status: 403, body: { code: '220000' } })
    const mine = await apiCall(colleague.page, '/booking/order/queryOrderListByCompany', { pageNum: 1, pageSize: 100 })
    const admin = await portal.signIn('entadmin')
    await admin.page.goto(`${portal.server.url}/myOrders`)
    await expect
      .poll(() => admin.page.getByRole('button', { name: zh('ui', 'export'), exact: true }).count(), WAIT)
      .toBe(1)
    const all = await apiCall(admin.page, '/booking/order/queryOrderListByCompany', { pageNum: 1, pageSize: 100 })
    const total = (answer: typeof mine) => (answer.body.content as { total: number }).total
    expect(total(mine)).toBeGreaterThan(0)
    expect(total(mine)).toBeLessThan(total(all))
    await colleague.context.close()
    await admin.context.close()
  })

  it('deleting a preset role shows "this role cannot be deleted", and the role stays', async () => {
    const { context, page } = await portal.signIn('opadmin')
    await page.goto(`${portal.server.url}/operationAuth`)
    const preset = rowOf(page, 'EnterpriseSales').first()
    await expect.poll(() => preset.count(), WAIT).toBe(1)
    // Many row actions: the last ones are behind "More".
    await preset.getByRole('button', { name: zh('ui', 'more') }).click()
    await page.getByRole('menuitem', { name: zh('action', 'delete') }).click()
    // The confirm box first, then the server's answer.
    await page
      .getByRole('dialog')
      .getByRole('button', { name: zh('ui', 'ok') })
      .click()
    await expect.poll(() => page.getByText('该角色不能删除').count(), WAIT).toBeGreaterThan(0)
    await expect.poll(() => rowOf(page, 'EnterpriseSales').count(), WAIT).toBe(1)
    await context.close()
  })
})
