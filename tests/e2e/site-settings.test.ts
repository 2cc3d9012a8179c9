import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { ico, png } from '../support/images.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * The forwarder's site settings in Chromium (issue #25): the demo operation administrator uploads a logo on
 * /operationSet — an oversize and a wrongly sized image are refused with the limit named — then a good one,
 * changes the theme colour, the home template and the home mode and saves; the public site's next page load
 * shows them, a signed-in user's home is now /inquiryHome, and acme.localhost is unchanged.
 */

const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)
const SHOTS = process.env.WAYBILL_SHOTS

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

/** A form field by its label, a required one's star after it or not. */
const field = (page: Page, key: string) =>
  page.getByLabel(new RegExp(`^${en('siteSet', key).replace(/[()]/g, '\\$&')}\\s*\\*?$`))
const fileInput = (page: Page, name: string) => page.locator(`[data-testid="upload-root_${name}"] input[type="file"]`)
const alerts = (page: Page) => page.locator('[data-testid="upload-root_logo"] [role="alert"]').allTextContents()

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

describe('site settings on /operationSet', () => {
  it('uploads a logo (oversize and wrongly sized refused), changes colour, template and home mode; the site shows them', async () => {
    const acmeVisitor = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const acmePage = await acmeVisitor.newPage()
    const acmeUrl = `http://acme.localhost:${portal.server.port}/dashboard?lang=en`
    await acmePage.goto(acmeUrl)
    await acmePage.locator('[data-template="2"]').waitFor(WAIT)
    const acmeBefore = await lookOf(acmePage)

    const { page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/operationSet?lang=en`)
    await expect.poll(() => field(page, 'websiteName').inputValue(), WAIT).toBe('华远国际物流')

    // Refused in the portal before a byte is sent, each message naming the limit.
    await fileInput(page, 'logo').setInputFiles({
      name: 'logo-large.png',
      mimeType: 'image/png',
      buffer: png(105, 45, [200, 30, 30], 1100),
    })
    await expect
      .poll(() => alerts(page), WAIT)
      .toEqual([en('widget', 'fileTooLarge').replace('{{name}}', 'logo-large.png').replace('{{size}}', '1 MB')])
    await fileInput(page, 'logo').setInputFiles({ name: 'logo-wide.png', mimeType: 'image/png', buffer: png(200, 80) })
    await expect
      .poll(() => alerts(page), WAIT)
      .toEqual([
        en('widget', 'imageDimensions')
          .replace('{{name}}', 'logo-wide.png')
          .replace('{{actual}}', '200×80')
          .replace('{{size}}', '105×45'),
      ])
    // An icon of two sizes is refused too: every image of it must be 32×32.
    await fileInput(page, 'icon').setInputFiles({
      name: 'favicon.ico',
      mimeType: 'image/x-icon',
      buffer: ico([16, 32]),
    })
    await expect
      .poll(() => page.locator('[data-testid="upload-root_icon"] [role="alert"]').textContent(), WAIT)
      .toContain('32×32')

    await fileInput(page, 'logo').setInputFiles({
      name: 'star-logo.png',
      mimeType: 'image/png',
      buffer: png(105, 45, [19, 194, 194]),
    })
    await expect.poll(() => page.getByRole('link', { name: 'star-logo.png' }).count(), WAIT).toBe(1)
    expect(await alerts(page)).toEqual([])

    await field(page, 'themeColor').selectOption({ label: en('siteSet', 'color_13c2c2') })
    await field(page, 'pageTemplate').selectOption({ label: en('siteSet', 'template3') })
    await field(page, 'homeMode').selectOption({ label: en('siteSet', 'homeMode2') })
    await shot(page, 'operationSet')
    await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(en('ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)

    // A visitor's next page load: template 3, the new colour, the uploaded logo (its real 105 px).
    const visitor = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const site = await visitor.newPage()
    await site.goto(`${base}/dashboard?lang=en`)
    await site.locator('[data-template="3"]').waitFor(WAIT)
    await expect.poll(async () => (await lookOf(site)).logoWidth, WAIT).toBe(105)
    const look = await lookOf(site)
    expect(look.color).toBe('#13c2c2')
    await shot(site, 'site')
    expect(look.logo).toMatch(/^\/api\/b2b\/public\/api\/site\/image\?uuid=[0-9a-f-]{36}$/)

    // Home mode 2: a signed-in user's home is the inquiry home, with the demo tenant's four modes and "all".
    await page.goto(`${base}/dashboard?lang=en`)
    await page.getByTestId('inquiry-home').waitFor(WAIT)
    expect(new URL(page.url()).pathname).toBe('/inquiryHome')
    expect(await page.locator('[data-mode]').count()).toBe(5)
    await shot(page, 'inquiryHome')
    await page.locator('[data-mode="inquiry-sea"]').click()
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/palletInquiry/sea')

    // acme.localhost is unchanged.
    await acmePage.goto(acmeUrl)
    await acmePage.locator('[data-template="2"]').waitFor(WAIT)
    expect(await lookOf(acmePage)).toEqual(acmeBefore)
    expect(acmeBefore.color).toBe('#0f7b6c')

    await visitor.close()
    await acmeVisitor.close()
  })
})
