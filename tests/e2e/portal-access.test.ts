import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { now } from '../support/clock.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

const portal = setupPortal()
const text = localeText

async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openContext(portal.browser, { viewport: { width: 1400, height: 900 } })
  return { context, page: await context.newPage() }
}

async function logInThroughTheForm(page: Page, username: string) {
  await page.getByLabel(text('zh', 'field', 'loginAccount')).fill(username)
  await page.getByLabel(text('zh', 'field', 'password')).fill('Demo@2026')
  await page.getByRole('button', { name: text('zh', 'ui', 'loginSubmit'), exact: true }).click()
}

describe('SPEC §2 routing in the browser', () => {
  it('runs the page on the server’s clock, so a date the browser writes is the day the server judges', async () => {
    const { context, page } = await freshPage()
    await page.goto(`${portal.server.url}/404`)
    const [pageNow, pageZone] = await page.evaluate(() => [
      Date.now(),
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    ])
    // With WAYBILL_NOW (npm test: 00:30 on 1 January in Shanghai) the machine's clock is months away.
    expect(Math.abs(pageNow - now().getTime())).toBeLessThan(60_000)
    expect(pageZone).toBe(process.env.TZ ?? pageZone)
    await context.close()
  })

  it('sends a visitor from /orderList to /login with a redirect, says so in Chinese, and returns after login', async () => {
    const { context, page } = await freshPage()
    await page.goto(`${portal.server.url}/orderList`)
    await page.waitForURL(/\/login\?redirect=%2ForderList$/)
    await expect.poll(() => page.getByText(text('zh', 'ui', 'pleaseLogin')).count(), WAIT).toBeGreaterThan(0)

    await logInThroughTheForm(page, 'opadmin')
    await page.waitForURL(/\/orderList$/)
    await expect.poll(() => page.getByRole('heading', { name: text('zh', 'route', 'orderList') }).count(), WAIT).toBe(1)
    // The list shows the demo tenant's orders.
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })

  it('shows the wrong-password message of the server in the reader language', async () => {
    const { context, page } = await freshPage()
    await page.goto(`${portal.server.url}/login?lang=en`)
    await page.getByLabel(text('en', 'field', 'loginAccount')).fill('opadmin')
    await page.getByLabel(text('en', 'field', 'password')).fill('wrong-password')
    await page.getByRole('button', { name: text('en', 'ui', 'loginSubmit'), exact: true }).click()
    await expect.poll(() => page.getByText(text('en', 'error', '300005')).count(), WAIT).toBeGreaterThan(0)
    expect(page.url()).toMatch(/\/login/)
    await context.close()
  })

  it('relabels the menus when the user switches to English, and says so in English', async () => {
    const { context, page } = await freshPage()
    await context.request.post(`${portal.server.url}/api/b2b/user/login`, {
      headers: { resource: '1' },
      data: { username: 'opadmin', password: 'Demo@2026' },
    })
    await page.goto(`${portal.server.url}/orderList`)
    const workbenchMenu = page.getByRole('navigation', { name: text('zh', 'ui', 'workbenchMenu') })
    await expect
      .poll(() => workbenchMenu.getByRole('link', { name: text('zh', 'route', 'orderList') }).count(), WAIT)
      .toBe(1)

    await page.getByRole('button', { name: text('zh', 'common', 'language') }).click()
    await page.getByRole('menuitem', { name: 'English' }).click()
    await expect.poll(() => page.getByText(text('en', 'ui', 'switchLanguageSuccess')).count(), WAIT).toBeGreaterThan(0)
    const englishMenu = page.getByRole('navigation', { name: text('en', 'ui', 'workbenchMenu') })
    await expect
      .poll(() => englishMenu.getByRole('link', { name: text('en', 'route', 'orderList') }).count(), WAIT)
      .toBe(1)
    await expect.poll(() => page.getByRole('link', { name: text('en', 'ui', 'menu_workbench') }).count(), WAIT).toBe(1)
    await expect.poll(() => page.getByRole('heading', { name: text('en', 'route', 'orderList') }).count(), WAIT).toBe(1)
    await context.close()
  })

  it('keeps operator menus from a personal user and refuses /orderList typed in', async () => {
    const { context, page } = await freshPage()
    await context.request.post(`${portal.server.url}/api/b2b/user/login`, {
      headers: { resource: '1' },
      data: { username: 'personal', password: 'Demo@2026' },
    })
    await page.goto(`${portal.server.url}/personalInfo`)
    const menu = page.getByRole('navigation', { name: text('zh', 'ui', 'workbenchMenu') })
    await expect.poll(() => menu.getByRole('link', { name: text('zh', 'route', 'personalInfo') }).count(), WAIT).toBe(1)
    expect(await menu.getByRole('link', { name: text('zh', 'route', 'orderList') }).count()).toBe(0)
    expect(await menu.getByRole('link', { name: text('zh', 'route', 'operationAccount') }).count()).toBe(0)

    await page.goto(`${portal.server.url}/orderList`)
    await expect
      .poll(() => page.getByRole('heading', { name: text('zh', 'ui', 'forbiddenTitle') }).count(), WAIT)
      .toBe(1)
    expect(await page.locator('table').count()).toBe(0)
    expect(page.url()).toMatch(/\/orderList$/)
    await context.close()
  })

  it('signs in with a ?token= handoff and takes it off the address', async () => {
    const issuer = await openContext(portal.browser)
    await issuer.request.post(`${portal.server.url}/api/b2b/user/login`, {
      headers: { resource: '1' },
      data: { username: 'opadmin', password: 'Demo@2026' },
    })
    const answer = await (
      await issuer.request.post(`${portal.server.url}/api/b2b/user/createHandoff`, {
        headers: { resource: '1' },
        data: {},
      })
    ).json()
    expect(answer.code).toBe('0000')
    await issuer.close()

    const { context, page } = await freshPage()
    await page.goto(`${portal.server.url}/orderList?token=${encodeURIComponent(answer.content.handoff)}&pageSize=20`)
    await page.waitForURL((url) => url.pathname === '/orderList' && url.search === '?pageSize=20')
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })

  it('goes to /login when a call answers HTTP 401 (the session ended elsewhere)', async () => {
    const { context, page } = await freshPage()
    await context.request.post(`${portal.server.url}/api/b2b/user/login`, {
      headers: { resource: '1' },
      data: { username: 'opadmin', password: 'Demo@2026' },
    })
    await page.goto(`${portal.server.url}/orderList`)
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
    await context.request.get(`${portal.server.url}/api/b2b/user/logout`, { headers: { resource: '1' } })
    await page.getByRole('button', { name: text('zh', 'ui', 'search'), exact: true }).click()
    await page.waitForURL(/\/login\?redirect=%2ForderList/)
    await context.close()
  })

  it('keeps the form engine and the workbench out of the public home page', async () => {
    const { context, page } = await freshPage()
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    await page.goto(`${portal.server.url}/dashboard`)
    await expect.poll(() => page.getByRole('button', { name: text('zh', 'common', 'track') }).count(), WAIT).toBe(1)
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((path) => /EntityForm|ListScreen|WorkbenchLayout|validators|FormScreen/.test(path))).toEqual(
      [],
    )
    await context.close()
  })

  it('sends unknown addresses to /404 and / to /dashboard', async () => {
    const { context, page } = await freshPage()
    await page.goto(`${portal.server.url}/no/such/page`)
    await page.waitForURL(/\/404$/)
    await expect
      .poll(() => page.getByRole('heading', { name: text('zh', 'ui', 'notFoundTitle') }).count(), WAIT)
      .toBe(1)
    await page.goto(`${portal.server.url}/`)
    await page.waitForURL(/\/dashboard$/)
    await context.close()
  })
})
