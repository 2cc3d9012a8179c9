import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext, openPage } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/** Issue 6: the six home templates, the public pages' titles and copy, and the mobile site at 375 px. */
const portal = setupPortal()

/** The page's layout in a few numbers: which blocks, in what order, where the search sits, how lanes are drawn. */
async function layoutOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const root = document.querySelector('[data-template]') as HTMLElement
    const search = root.querySelector('[data-quick-search]') as HTMLElement
    const box = search.getBoundingClientRect()
    const blocks = [...root.querySelectorAll('[data-block]')].map(
      (el) => `${el.getAttribute('data-block')}:${el.tagName}`,
    )
    return JSON.stringify({
      blocks,
      search: [Math.round(box.x / 40), Math.round(box.y / 40), Math.round(box.width / 40)],
    })
  })
}

describe('the home page', () => {
  it('renders a different layout for each pageTemplate value 0–5', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    const layouts = new Set<string>()
    for (const n of [0, 1, 2, 3, 4, 5]) {
      await page.goto(`${portal.server.url}/dashboard?template=${n}&lang=en`)
      await page.locator(`[data-template="${n}"] [data-quick-search]`).waitFor(WAIT)
      // Every template has hero search, services, news, featured lanes and contact.
      await expect.poll(() => page.locator('[data-lane="CNSHA-USLAX"]').count(), WAIT).toBe(1)
      expect(await page.locator('[data-news]').count()).toBe(2)
      expect(await page.locator('[data-block="contact"]').textContent()).toContain('400-665-9211')
      layouts.add(await layoutOf(page))
    }
    expect(layouts.size).toBe(6)
    await context.close()
  })

  it("takes each tenant's template from the personalization call and shows its lanes and images", async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${portal.server.url}/dashboard?lang=en`)
    await page.locator('[data-template="0"]').waitFor(WAIT)
    // The demo tenant: three images in a carousel, its six featured lanes.
    expect(await page.locator('[data-carousel="3"]').count()).toBe(1)
    await expect.poll(() => page.locator('[data-lane]').count(), WAIT).toBe(6)
    await page.goto(`http://acme.localhost:${portal.server.port}/dashboard?lang=en`)
    await page.locator('[data-template="2"]').waitFor(WAIT)
    expect(await page.locator('[data-carousel="0"]').count()).toBe(1)
    await expect.poll(() => page.locator('[data-lane]').count(), WAIT).toBe(4)
    await context.close()
  })

  it('sends a quick tracking search to /orderTracking with the numbers', async () => {
    const page = await openPage(portal.browser, { viewport: { width: 1366, height: 800 } })
    await page.goto(`${portal.server.url}/dashboard?lang=en`)
    await page.getByLabel(localeText('en', 'common', 'trackingPlaceholder')).fill('MSKU1234565')
    await page.getByRole('button', { name: localeText('en', 'common', 'track') }).click()
    await page.waitForURL(/\/orderTracking\?numbers=MSKU1234565/, WAIT)
    await page.close()
  })
})

describe('the public pages', () => {
  it('titles and describes a service page in the reader language, and shows its copy', async () => {
    const page = await openPage(portal.browser, { viewport: { width: 1366, height: 800 } })
    await page.goto(`${portal.server.url}/FclProductService?lang=en`)
    await expect.poll(() => page.title(), WAIT).toBe('Sea freight FCL — Huayuan Logistics')
    await expect
      .poll(() => page.locator('meta[name="description"]').getAttribute('content'), WAIT)
      .toMatch(/Full-container shipping/)
    // The server's HTML has the title and the copy already (issue #18): wait for the portal's page, not the tab.
    await expect.poll(() => page.locator('[data-page="fcl"] h2').allTextContents(), WAIT).toContain('Rates and space')
    await page.goto(`${portal.server.url}/CompanyPhilosophy?lang=es`)
    await expect
      .poll(() => page.title(), WAIT)
      .toBe(`${localeText('es', 'route', 'companyPhilosophy')} — Huayuan Logistics`)
    await page.close()
  })

  it("renders the tenant's agreements from its site settings as paragraphs", async () => {
    const page = await openPage(portal.browser, { viewport: { width: 1366, height: 800 } })
    await page.goto(`${portal.server.url}/PrivacyAgreement?lang=en`)
    await expect.poll(() => page.locator('h1').first().textContent(), WAIT).toBe('Privacy policy')
    // The server's summary already shows the title; the paragraphs come with the page the portal draws.
    await expect.poll(() => page.locator('article p').count(), WAIT).toBeGreaterThanOrEqual(5)
    expect(await page.locator('article').textContent()).toContain('privacy@huayuan-logistics.example')
    await page.close()
  })
})

describe('the mobile site', () => {
  it('lands a 375 px browser on the mobile home, usable without sideways scrolling, and back on the full site when wide', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 375, height: 812 } })
    const page = await context.newPage()
    await page.goto(`${portal.server.url}/?lang=en`)
    await page.waitForURL(/\/m\?lang=en$/, WAIT)
    await page.locator('[data-layout="mobile"] [data-template="mobile"] [data-quick-search]').waitFor(WAIT)
    await expect.poll(() => page.locator('[data-lane]').count(), WAIT).toBe(6)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    await page.getByRole('button', { name: localeText('en', 'site', 'menu') }).click()
    await page.getByRole('link', { name: localeText('en', 'site', 'mobileTracking') }).click()
    await page.waitForURL(/\/m\/tracking(\?|$)/, WAIT)
    await page.locator('[data-layout="mobile"]').waitFor(WAIT)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.waitForURL(/\/orderTracking(\?|$)/, WAIT)
    await context.close()
  })
})
