import { describe, expect, it } from 'vitest'
import { apiContent } from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #27's chat administration in Chromium, as the operation administrator walks it: the tenant's chat
 * settings with their app ids, the operators who chat, a customer enterprise's chat turned on and named, a tag added
 * (and its name refused again in another case), a filter word added, and the auto-reply's wait saved — the
 * six IM screens of SPEC §2, one server, one page.
 */
const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)

describe('IM administration (/TagManagementList, /ChatFilterList, /ImAutoReply …)', () => {
  it('opadmin walks the six screens: a tag, a filter word and the auto-reply saved', async () => {
    const { page, base, context } = await portal.signIn('opadmin')
    const rows = page.locator('table tbody tr')
    const dialog = page.getByRole('dialog')
    const save = dialog.getByRole('button', { name: en('ui', 'save'), exact: true })

    await page.goto(`${base}/TenantManagementList?lang=en`)
    await expect.poll(() => rows.first().textContent(), WAIT).toContain('wx8a3f5c2e1b9d0476')

    await page.goto(`${base}/OperationAccountManagementList?lang=en`)
    await expect.poll(() => page.locator('table tbody').textContent(), WAIT).toContain('客服 张敏')

    // A customer enterprise's chat turned on: the row's action flips to "turn off".
    await page.goto(`${base}/EnterpriseAccountManagementList?lang=en`)
    const turnOn = page.getByRole('button', { name: en('imAdmin', 'turnChatOn'), exact: true })
    await expect.poll(() => turnOn.count(), WAIT).toBeGreaterThan(0)
    const off = await turnOn.count()
    await turnOn.first().click()
    await expect.poll(() => turnOn.count(), WAIT).toBe(off - 1)
    // And named for the chat: the name its users appear under there (the desk's queue and messages).
    await page.reload()
    await rows
      .first()
      .getByRole('button', { name: en('imAdmin', 'setDisplayName'), exact: true })
      .click()
    await dialog.getByLabel(en('imAdmin', 'enterpriseDisplayName')).fill('MH Textile (chat)')
    await dialog.getByRole('button', { name: en('ui', 'ok'), exact: true }).click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => rows.filter({ hasText: 'MH Textile (chat)' }).count(), WAIT).toBe(1)

    // A tag, then the same name in capitals: refused at the field with the tag rule's message.
    await page.goto(`${base}/TagManagementList?lang=en`)
    await expect.poll(() => page.locator('table tbody').textContent(), WAIT).toContain('VIP')
    const addTag = async (name: string) => {
      await page.getByRole('button', { name: en('action', 'create'), exact: true }).click()
      await dialog.locator('#root_name').fill(name)
      await dialog.locator('#root_color').fill('#CA5010')
      await dialog.locator('#root_description').fill('DG declarations, MSDS')
      await save.click()
    }
    await addTag('Dangerous goods')
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    // The list's create dialog closes through `open` (runtime/screens/list/dialogState.ts): the page is given back
    // to assistive technology, and the next dialog opens from the same page without a reload.
    await expect.poll(() => page.locator('#root').getAttribute('aria-hidden'), WAIT).toBeNull()
    await addTag('DANGEROUS GOODS')
    await expect.poll(() => dialog.getByText(en('imAdmin', 'tagNameTaken')).count(), WAIT).toBeGreaterThan(0)
    await page.reload()
    await expect.poll(() => rows.filter({ hasText: /dangerous goods/i }).count(), WAIT).toBe(1)

    // A filter word that masks.
    await page.goto(`${base}/ChatFilterList?lang=en`)
    await expect.poll(() => page.locator('table tbody').textContent(), WAIT).toContain('返点')
    await page.getByRole('button', { name: en('action', 'create'), exact: true }).click()
    await dialog.locator('#root_kind').selectOption({ label: en('imAdmin', 'kind_word') })
    await dialog.locator('#root_text').fill('佣金')
    await dialog.locator('#root_action').selectOption({ label: en('imAdmin', 'action_mask') })
    await save.click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => rows.filter({ hasText: '佣金' }).count(), WAIT).toBe(1)

    // The auto-reply: a wait of 45 seconds.
    await page.goto(`${base}/ImAutoReply?lang=en`)
    const wait = page.locator('#root_waitValue')
    await expect.poll(() => wait.inputValue(), WAIT).toBe('2')
    await wait.fill('45')
    await page.locator('#root_waitUnit').selectOption({ label: en('imAdmin', 'unit_seconds') })
    await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(en('ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)
    const stored = await apiContent(page, 'POST', '/b2b/im/autoResponse/list', { searchParams: {} })
    expect(stored.list).toEqual([expect.objectContaining({ waitValue: 45, waitUnit: 'seconds' })])
    await context.close()
  })
})
