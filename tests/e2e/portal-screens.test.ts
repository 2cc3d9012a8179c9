import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

const portal = setupPortal()
const text = localeText

const signedIn = (username: string) => portal.signIn(username)

describe('the generic list screen', () => {
  it('searches, pages through the URL and restores on Back', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/orderList`)
    const rows = page.locator('table tbody tr')
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(0)
    // References read as names (the row's labels), not as ids and codes: the customer company by its
    // Chinese name, and a port by name with its UN/LOCODE as the tooltip.
    await expect
      .poll(() => page.locator('table tbody tr td:nth-child(3)').first().textContent(), WAIT)
      .toBe('杭州明辉纺织品进出口有限公司')
    const pol = page.locator('table tbody tr td:nth-child(5) span[title]').first()
    const polCode = (await pol.getAttribute('title')) ?? ''
    expect(polCode).toMatch(/^[A-Z]{2}[A-Z0-9]{3}$/)
    expect(await pol.textContent()).not.toBe(polCode)
    // States are badges with their label.
    await expect
      .poll(() =>
        page
          .locator('table tbody')
          .getByText(text('zh', 'state', 'submitted'))
          .count(),
      )
      .toBeGreaterThan(0)

    // A filter goes into the address and back to page 1.
    await page.getByRole('combobox', { name: text('zh', 'field', 'state') }).click()
    // A multi-select lists its choices as checkable menu items.
    await page.getByRole('menuitemcheckbox', { name: text('zh', 'state', 'submitted') }).click()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: text('zh', 'ui', 'search'), exact: true }).click()
    await page.waitForURL(/state=submitted/)
    await expect
      .poll(async () => {
        const labels = await page.locator('table tbody tr td:nth-child(10)').allTextContents()
        return labels.length > 0 && labels.every((label) => label === text('zh', 'state', 'submitted'))
      })
      .toBe(true)

    // Page size 20 is in the address; Back brings the previous one back.
    await page.getByRole('combobox', { name: text('zh', 'ui', 'pageSizeLabel') }).selectOption('20')
    await page.waitForURL(/pageSize=20/)
    await page.goBack()
    await page.waitForURL((url) => !url.search.includes('pageSize=20') && url.search.includes('state=submitted'))
    await context.close()
  })

  it('runs a row transition after its confirm box and shows the new state', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/orderList?state=submitted`)
    const firstRow = page.locator('table tbody tr').first()
    await expect.poll(() => firstRow.count(), WAIT).toBe(1)
    const orderNo = (await firstRow.locator('td').first().textContent()) ?? ''
    await firstRow.getByRole('button', { name: text('zh', 'action', 'accept'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.getByText(text('zh', 'confirm', 'acceptOrder')).count(), WAIT).toBe(1)
    await dialog.getByRole('button', { name: text('zh', 'ui', 'ok'), exact: true }).click()
    await expect.poll(() => page.getByText(text('zh', 'ui', 'actionDone')).count(), WAIT).toBeGreaterThan(0)
    // Accepted orders leave the "submitted" filter; unfiltered, the order shows its new state.
    await page.goto(`${portal.server.url}/orderList?orderNo=${encodeURIComponent(orderNo)}`)
    const row = page.locator('table tbody tr').first()
    await expect.poll(() => row.getByText(text('zh', 'state', 'accepted')).count(), WAIT).toBe(1)
    // Accept is offered only from submitted or bargaining.
    expect(await row.getByRole('button', { name: text('zh', 'action', 'accept'), exact: true }).count()).toBe(0)
    await context.close()
  })

  it('names the customer in English when the portal is in English', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.setViewportSize({ width: 1600, height: 900 })
    await page.goto(`${portal.server.url}/orderList?lang=en`)
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
    await expect
      .poll(() => page.locator('table tbody tr td:nth-child(3)').first().textContent(), WAIT)
      .toBe('Hangzhou Minghui Textile Import and Export Co Ltd')
    await context.close()
  })
})

describe('the generic form screen', () => {
  it('shows a validation message before sending, in Chinese and then in English', async () => {
    const { context, page } = await signedIn('personal')
    await page.goto(`${portal.server.url}/personalInfo`)
    const realName = page.getByLabel(text('zh', 'field', 'realName'))
    await expect.poll(() => realName.inputValue(), WAIT).not.toBe('')
    await realName.fill('')
    await page.getByRole('button', { name: text('zh', 'ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(text('zh', 'validation', 'required'), { exact: true }).count(), WAIT).toBe(1)

    await page.getByRole('button', { name: text('zh', 'common', 'language') }).click()
    await page.getByRole('menuitem', { name: 'English' }).click()
    await expect.poll(() => page.getByText(text('en', 'validation', 'required'), { exact: true }).count(), WAIT).toBe(1)
    expect(await page.getByText(text('zh', 'validation', 'required'), { exact: true }).count()).toBe(0)

    // A wrong e-mail address gets the field's own message.
    await page.getByLabel(text('en', 'field', 'email')).fill('not-an-email')
    await expect.poll(() => page.getByText(text('en', 'rule', 'emailFormat')).count(), WAIT).toBe(1)

    // Put right, it saves, and the new name is the session's.
    await page.getByLabel(text('en', 'field', 'email')).fill('liu.yang@example.com')
    await page.getByLabel(text('en', 'field', 'realName')).fill('Liu Yang Jr')
    await page.getByRole('button', { name: text('en', 'ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(text('en', 'ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)
    await expect
      .poll(() => page.getByRole('button', { name: text('en', 'ui', 'profileMenu') }).textContent(), WAIT)
      .toContain('Liu Yang Jr')
    await context.close()
  })
})
