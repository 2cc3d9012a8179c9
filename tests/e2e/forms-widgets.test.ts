import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * The form and search widgets on the built screens, in Chromium against the real server: look-ups with
 * remote search (order lists' ports, carrier and customer; the account form's role), and the avatar
 * upload of /personalInfo with its limits and preview.
 */

const portal = setupPortal()
const text = localeText

const signedIn = (username: string) => portal.signIn(username)

/** A 1×1 PNG: the server reads the type from these bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

describe('reference look-ups in the list search', () => {
  it('finds a port as the user types, picks it with the keyboard, and filters the orders by it', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/orderList?lang=en`)
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
    const pol = page.getByRole('combobox', { name: text('en', 'field', 'pol') })
    await pol.click()
    await pol.pressSequentially('shang')
    const option = page.getByRole('option', { name: /^CNSHA\s*Shanghai$/ })
    await expect.poll(() => option.count(), WAIT).toBe(1)
    // Keyboard: the arrows move to the option, Enter picks it; the box then reads its label.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('ArrowDown')
      const active = await pol.getAttribute('aria-activedescendant')
      if (active && (await page.locator(`[id="${active}"]`).textContent())?.includes('CNSHA')) break
    }
    await page.keyboard.press('Enter')
    await expect.poll(() => pol.inputValue(), WAIT).toBe('CNSHA — Shanghai')
    await page.getByRole('button', { name: text('en', 'ui', 'search'), exact: true }).click()
    await page.waitForURL(/pol=CNSHA/)
    await expect
      .poll(async () => {
        const codes = await page
          .locator('table tbody tr td:nth-child(5) span[title]')
          .evaluateAll((spans) => spans.map((s) => s.getAttribute('title')))
        return codes.length > 0 && codes.every((code) => code === 'CNSHA')
      }, WAIT)
      .toBe(true)
    // Opened from the address alone, the search box shows the label again, looked up by its code.
    await page.goto(`${page.url()}&lang=en`)
    await expect
      .poll(() => page.getByRole('combobox', { name: text('en', 'field', 'pol') }).inputValue(), WAIT)
      .toBe('CNSHA — Shanghai')
    await context.close()
  })

  it('searches the customer company by name and carriers several at a time', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/orderList?lang=en`)
    const company = page.getByRole('combobox', { name: text('en', 'field', 'customerCompany') })
    await company.click()
    await company.pressSequentially('minghui')
    await page.getByRole('option', { name: 'Hangzhou Minghui Textile Import and Export Co Ltd' }).click()
    const carrier = page.getByRole('combobox', { name: text('en', 'field', 'carrier') })
    await carrier.click()
    await carrier.pressSequentially('MAEU')
    // A multi-select lists its choices as checkable items.
    await page.getByRole('menuitemcheckbox', { name: /^MAEU/ }).click()
    await carrier.fill('')
    await carrier.pressSequentially('MSCU')
    await page.getByRole('menuitemcheckbox', { name: /^MSCU/ }).click()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: text('en', 'ui', 'search'), exact: true }).click()
    await page.waitForURL((url) => url.searchParams.getAll('carrier').sort().join(',') === 'MAEU,MSCU')
    expect(new URL(page.url()).searchParams.get('customerCompany')).toMatch(/^\d+$/)
    await expect
      .poll(async () => {
        const carriers = await page
          .locator('table tbody tr td:nth-child(7) span[title]')
          .evaluateAll((spans) => spans.map((s) => s.getAttribute('title')))
        return carriers.every((code) => code === 'MAEU' || code === 'MSCU')
      }, WAIT)
      .toBe(true)
    await context.close()
  })
})

describe('the account form', () => {
  it('shows the role of an account by name and offers the roles to pick from', async () => {
    const { context, page } = await signedIn('opadmin')
    await page.goto(`${portal.server.url}/operationAccount?lang=en`)
    const firstRow = page.locator('table tbody tr').first()
    await expect.poll(() => firstRow.count(), WAIT).toBe(1)
    const roleName = (await firstRow.locator('td:nth-child(6)').textContent()) ?? ''
    await firstRow.getByRole('button', { name: text('en', 'action', 'edit'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    const role = dialog.getByRole('combobox', { name: text('en', 'field', 'companyAppRoleId') })
    await expect.poll(() => role.inputValue(), WAIT).toBe(roleName)
    await role.click()
    await expect.poll(() => dialog.page().getByRole('option').count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })
})

describe('the avatar upload of /personalInfo', () => {
  it('uploads a picture, previews it from the server, saves it, and refuses the wrong type and size', async () => {
    const { context, page } = await signedIn('personal')
    await page.goto(`${portal.server.url}/personalInfo?lang=en`)
    const input = page.locator('input[type="file"]')
    await expect.poll(() => input.count(), WAIT).toBe(1)
    expect(await input.getAttribute('accept')).toBe('.png,.jpg,.jpeg')

    // Refused in the browser before anything is sent: the type, then the size (the field allows 1 MB).
    await input.setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') })
    await expect
      .poll(() => page.getByRole('alert').allTextContents(), WAIT)
      .toContain('contract.pdf: only png, jpg, jpeg can be uploaded')
    await input.setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PNG, Buffer.alloc(1100 * 1024)]),
    })
    await expect
      .poll(() => page.getByRole('alert').allTextContents(), WAIT)
      .toContain('File too large: huge.png is over 1 MB')

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
    const preview = page.getByRole('img', { name: 'Preview of me.png' })
    await expect.poll(() => preview.count(), WAIT).toBe(1)
    // The preview is the stored file, served back by the server.
    await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth), WAIT).toBe(1)
    await page.getByRole('button', { name: text('en', 'ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(text('en', 'ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)

    // After a reload the saved avatar is listed by its name (looked up by its uuid) and can be removed.
    await page.reload()
    await expect.poll(() => page.getByRole('link', { name: 'me.png' }).count(), WAIT).toBe(1)
    await page.getByRole('button', { name: 'Remove me.png' }).click()
    expect(await page.getByRole('link', { name: 'me.png' }).count()).toBe(0)
    await context.close()
  })
})
