import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { openContext } from '../support/browser.ts'
import { ico, png } from '../support/images.ts'
import { localeText, setupPortal, signInCode, WAIT } from '../support/portal.ts'

/**
 * Issue #25's acceptance in the browser, as one new tenant's first hour: the platform administrator creates
 * "Ningbo Star Logistics" on star.localhost on /tenantDetail; star.localhost at once shows its own site; its
 * invited administrator signs in there with the password of the invitation and, on /operationSet, uploads a logo
 * (an oversize and a wrongly sized one refused with the limit named, an icon of two sizes too), changes the theme
 * colour, the home template and the home mode; a visitor's next page load shows them and the administrator's home
 * is now the inquiry home. The tenant's change log is on /tenantDetail; suspending it on /tenantList stops its
 * sign-ins and its pages say so; localhost and acme.localhost are unchanged throughout. (The trucking fee that an
 * inquiry's automatic quote finds is tests/e2e/trucking-fees.test.ts, on the demo tenant: a tenant made a minute
 * ago has no rates and no customers to quote.)
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const rowOf = (page: Page, text: string) => page.locator('table tbody tr').filter({ hasText: text })
const STAR = 'star.localhost'
const en = (namespace: string, key: string) => localeText('en', namespace, key)
const SHOTS = process.env.WAYBILL_SHOTS
/** A text field of the form by its label. */
const field = (page: Page, key: string) => page.getByRole('textbox', { name: zh('field', key), exact: true })
/** A site-settings field by its English label, a required one's star after it or not. */
const setting = (page: Page, key: string) =>
  page.getByLabel(new RegExp(`^${en('siteSet', key).replace(/[()]/g, '\\$&')}\\s*\\*?$`))
const fileInput = (page: Page, name: string) => page.locator(`[data-testid="upload-root_${name}"] input[type="file"]`)
const uploadAlerts = (page: Page, name: string) =>
  page.locator(`[data-testid="upload-root_${name}"] [role="alert"]`).allTextContents()

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

/** What a visitor's page of the site is drawn in: the template, the brand colour, the header's logo. */
async function lookOf(page: Page) {
  const template = await page.locator('[data-template]').first().getAttribute('data-template')
  return page.evaluate((template) => {
    const logo = document.querySelector('img[data-site-logo]') as HTMLImageElement | null
    return {
      template,
      color: getComputedStyle(document.documentElement).getPropertyValue('--colorBrandStroke1').trim(),
      logo: logo?.getAttribute('src') ?? null,
      logoWidth: logo?.naturalWidth ?? 0,
    }
  }, template)
}

/**
 * The new tenant's administrator makes the site its own on /operationSet, in English: the logo (refused twice,
 * then taken), the icon (refused), colour, template and home mode; a visitor sees them on the next page load.
 */
async function makeSiteOwn(page: Page, starBase: string) {
  await page.goto(`${starBase}/operationSet?lang=en`)
  await expect.poll(() => setting(page, 'websiteName').inputValue(), WAIT).toBe('星辰物流')
  // Refused in the portal before a byte is sent, each message naming the limit.
  await fileInput(page, 'logo').setInputFiles({
    name: 'logo-large.png',
    mimeType: 'image/png',
    buffer: png(105, 45, [200, 30, 30], 1100),
  })
  await expect
    .poll(() => uploadAlerts(page, 'logo'), WAIT)
    .toEqual([en('widget', 'fileTooLarge').replace('{{name}}', 'logo-large.png').replace('{{size}}', '1 MB')])
  await fileInput(page, 'logo').setInputFiles({ name: 'logo-wide.png', mimeType: 'image/png', buffer: png(200, 80) })
  await expect
    .poll(() => uploadAlerts(page, 'logo'), WAIT)
    .toEqual([
      en('widget', 'imageDimensions')
        .replace('{{name}}', 'logo-wide.png')
        .replace('{{actual}}', '200×80')
        .replace('{{size}}', '105×45'),
    ])
  // An icon of two sizes is refused too: every image of it must be 32×32.
  await fileInput(page, 'icon').setInputFiles({ name: 'favicon.ico', mimeType: 'image/x-icon', buffer: ico([16, 32]) })
  await expect.poll(async () => (await uploadAlerts(page, 'icon')).join(' '), WAIT).toContain('32×32')
  await fileInput(page, 'logo').setInputFiles({
    name: 'star-logo.png',
    mimeType: 'image/png',
    buffer: png(105, 45, [19, 194, 194]),
  })
  await expect.poll(() => page.getByRole('link', { name: 'star-logo.png' }).count(), WAIT).toBe(1)
  expect(await uploadAlerts(page, 'logo')).toEqual([])
  await setting(page, 'themeColor').selectOption({ label: en('siteSet', 'color_13c2c2') })
  await setting(page, 'pageTemplate').selectOption({ label: en('siteSet', 'template3') })
  await setting(page, 'homeMode').selectOption({ label: en('siteSet', 'homeMode2') })
  await shot(page, 'operationSet')
  await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
  await expect.poll(() => page.getByText(en('ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)
  // The administrator's own page takes the new colour at once (the portal reads the settings again).
  await expect
    .poll(
      () =>
        page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--colorBrandStroke1').trim()),
      WAIT,
    )
    .toBe('#13c2c2')
}

describe('platform tenants (/tenantList, /tenantDetail)', () => {
  it('creates Ningbo Star Logistics on star.localhost, whose administrator makes the site its own until it is suspended', async () => {
    const starBase = portal.server.url.replace('localhost', STAR)
    const acmeBase = portal.server.url.replace('localhost', 'acme.localhost')
    const visitor = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const look = await visitor.newPage()
    await look.goto(`${acmeBase}/`)
    const acmeTitle = await look.title()
    await look.goto(`${portal.server.url}/`)
    const demoTitle = await look.title()

    const { context, page } = await portal.signIn('platform')
    await page.goto(`${portal.server.url}/tenantList`)
    await expect.poll(() => rowOf(page, 'Acme Logistics').count(), WAIT).toBe(1)
    await page.getByRole('button', { name: zh('action', 'create') }).click()
    await expect.poll(() => page.url(), WAIT).toContain('/tenantDetail')
    await field(page, 'tenantCode').fill('star')
    await field(page, 'tenantNameZh').fill('宁波星辰物流有限公司')
    await field(page, 'tenantNameEn').fill('Ningbo Star Logistics')
    await field(page, 'websiteDomainName').fill(STAR)
    await field(page, 'websiteName').fill('星辰物流')
    await field(page, 'websiteNameEn').fill('Star Logistics')
    await field(page, 'tenantAdminUsername').fill('staradmin')
    await field(page, 'tenantAdminName').fill('王星')
    await field(page, 'tenantAdminEmail').fill('admin@star-logistics.example')
    await page.getByRole('button', { name: zh('ui', 'save') }).click()
    await expect.poll(() => page.getByText(zh('ui', 'saved')).count(), WAIT).toBeGreaterThan(0)

    // Its host shows its own site at once.
    await look.goto(`${starBase}/`)
    await expect.poll(() => look.title(), WAIT).toContain('星辰物流')
    // Its administrator was invited (the mail in the new tenant's outbox, sealed) and signs in on its host.
    const invited = await portal.server.database.db
      .selectFrom('outbox')
      .innerJoin('tenant', 'tenant.id', 'outbox.tenant_id')
      .select(['outbox.kind', 'outbox.payload'])
      .where('tenant.code', '=', 'star')
      .executeTakeFirstOrThrow()
    const letter = outboxBody(invited.kind, invited.payload)
    expect(letter.subject).toContain('星辰物流')
    expect(letter.text).toContain(`${starBase}/login`)
    const password = /初始密码：(\S+)/.exec(letter.text)?.[1] ?? ''
    const acmeLook = await visitor.newPage()
    await acmeLook.goto(`${acmeBase}/dashboard?lang=en`)
    await acmeLook.locator('[data-template]').first().waitFor(WAIT)
    const acmeBefore = await lookOf(acmeLook)

    // Its administrator signs in on its host and makes the site its own.
    const admin = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const own = await admin.newPage()
    await own.goto(`${starBase}/login`)
    expect(await signInCode(own, 'staradmin', password)).toBe('0000')
    await makeSiteOwn(own, starBase)
    // A visitor's next page load: template 3, the new colour, the uploaded logo (its real 105 px).
    await look.goto(`${starBase}/dashboard?lang=en`)
    await look.locator('[data-template="3"]').waitFor(WAIT)
    await expect.poll(async () => (await lookOf(look)).logoWidth, WAIT).toBe(105)
    const starLook = await lookOf(look)
    expect(starLook.color).toBe('#13c2c2')
    expect(starLook.logo).toMatch(/^\/api\/b2b\/public\/api\/site\/image\?uuid=[0-9a-f-]{36}$/)
    await shot(look, 'site')
    // Home mode 2: a signed-in user's home is the inquiry home, with the tenant's four modes and "all".
    await own.goto(`${starBase}/dashboard?lang=en`)
    await own.getByTestId('inquiry-home').waitFor(WAIT)
    expect(new URL(own.url()).pathname).toBe('/inquiryHome')
    expect(await own.locator('[data-mode]').count()).toBe(5)
    await shot(own, 'inquiryHome')
    await own.locator('[data-mode="inquiry-sea"]').click()
    await expect.poll(() => new URL(own.url()).pathname, WAIT).toBe('/palletInquiry/sea')
    // acme.localhost is unchanged.
    await acmeLook.reload()
    await acmeLook.locator('[data-template]').first().waitFor(WAIT)
    expect(await lookOf(acmeLook)).toEqual(acmeBefore)

    // Suspended on /tenantList: its sign-ins stop and its pages say so; the others are unchanged.
    await page.goto(`${portal.server.url}/tenantList`)
    const star = rowOf(page, 'Ningbo Star Logistics')
    await expect.poll(() => star.count(), WAIT).toBe(1)
    await star.getByRole('button', { name: zh('action', 'suspendTenant') }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: zh('ui', 'ok') })
      .click()
    await expect
      .poll(() => rowOf(page, 'Ningbo Star Logistics').textContent(), WAIT)
      .toContain(zh('enum', 'tenantState.suspended'))
    // Its change log on /tenantDetail, newest first: the suspension as the state field's change, then its making.
    await rowOf(page, 'Ningbo Star Logistics').getByRole('link', { name: 'Ningbo Star Logistics' }).click()
    const log = page.getByRole('region', { name: zh('detail', 'history') })
    await expect.poll(() => log.locator('[data-history]').count(), WAIT).toBe(2)
    const [suspension, making] = await log.locator('[data-history]').allInnerTexts()
    expect(suspension).toContain(zh('detail', 'updated'))
    expect(suspension).toContain(
      `${zh('field', 'tenantState')}: ${zh('enum', 'tenantState.live')} → ${zh('enum', 'tenantState.suspended')}`,
    )
    expect(making).toContain(zh('detail', 'created'))
    const suspended = await look.goto(`${starBase}/login`)
    expect(suspended?.status()).toBe(403)
    await expect.poll(() => look.locator('#site-suspended').textContent(), WAIT).toBe(zh('error', '110001'))
    expect(await signInCode(look, 'staradmin', password)).toBe('110001')
    // The administrator's own session stops too: every call on the host answers 110001.
    expect(await own.evaluate(async () => (await (await fetch('/api/b2b/user/getCurrentUserInfo')).json()).code)).toBe(
      '110001',
    )
    await admin.close()
    await look.goto(`${acmeBase}/`)
    expect(await look.title()).toBe(acmeTitle)
    expect(await signInCode(look, 'opadmin', 'Demo@2026')).toBe('0000')
    await look.goto(`${portal.server.url}/`)
    expect(await look.title()).toBe(demoTitle)
    await visitor.close()
    await context.close()
  })
})
