import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/** The top bar of SPEC §2: the notification bell, the Direct order menu's tenant check, the IM link, the menus. */
const portal = setupPortal()
const text = localeText

const signedIn = (username: string, host?: string) => portal.signIn(username, { host })

const bellNamed = (page: Page, count?: string) =>
  page.getByRole('button', {
    name: count ? `${text('zh', 'ui', 'notifications')} (${count})` : text('zh', 'ui', 'notifications'),
    exact: true,
  })

describe('the notification bell', () => {
  it("counts the user's unread letters, shows five, and links to /letterList for the rest", async () => {
    const { context, page } = await signedIn('entadmin')
    await page.goto(`${portal.server.url}/personalInfo`)
    await expect.poll(() => bellNamed(page, '6').count(), WAIT).toBe(1)
    await bellNamed(page, '6').click()
    const dropdown = page.getByRole('dialog', { name: text('zh', 'ui', 'notifications') })
    await expect.poll(() => dropdown.getByRole('listitem').count(), WAIT).toBe(5)
    // Newest first.
    expect(await dropdown.getByRole('listitem').first().textContent()).toContain('2 月账单已生成')
    // 1 × 5 < 6: there is more.
    await dropdown.getByRole('link', { name: text('zh', 'ui', 'moreLetters') }).click()
    await page.waitForURL(/\/letterList$/)
    await expect
      .poll(() => page.getByRole('heading', { name: text('zh', 'route', 'letterList') }).count(), WAIT)
      .toBe(1)
    // The generic list screen over the user's own letters: all seven, the read one labelled so.
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBe(7)
    expect(
      await page
        .locator('table tbody')
        .getByText(text('zh', 'letter', 'status_read'))
        .count(),
    ).toBe(1)
    await expect.poll(() => dropdown.count()).toBe(0)
    await context.close()
  })

  it('marks a letter read when clicked and every letter with "read all"', async () => {
    const { context, page } = await signedIn('entop')
    await page.goto(`${portal.server.url}/personalInfo`)
    await expect.poll(() => bellNamed(page, '2').count(), WAIT).toBe(1)
    await bellNamed(page, '2').click()
    const dropdown = page.getByRole('dialog', { name: text('zh', 'ui', 'notifications') })
    await expect.poll(() => dropdown.getByRole('listitem').count(), WAIT).toBe(2)
    // Two letters fit: no "more" link.
    expect(await dropdown.getByRole('link', { name: text('zh', 'ui', 'moreLetters') }).count()).toBe(0)
    await dropdown.getByRole('listitem').first().getByRole('button').click()
    await expect.poll(() => bellNamed(page, '1').count(), WAIT).toBe(1)
    await expect.poll(() => dropdown.getByRole('listitem').count(), WAIT).toBe(1)
    await dropdown.getByRole('button', { name: text('zh', 'ui', 'readAll') }).click()
    await expect.poll(() => dropdown.getByText(text('zh', 'ui', 'noNotifications')).count(), WAIT).toBe(1)
    await expect.poll(() => bellNamed(page).count(), WAIT).toBe(1)
    // The server agrees.
    const answer = await page.evaluate(async () =>
      (
        await fetch('/api/b2b/letter/list', {
          method: 'POST',
          headers: { 'content-type': 'application/json', resource: '1' },
          body: '{}',
        })
      ).json(),
    )
    expect(answer.content.unread).toBe(0)
    await context.close()
  })

  it('caps the badge at 99', async () => {
    // acme's operator has 119 unread letters (server/db/seed/letters.ts).
    const { context, page, base } = await signedIn('opadmin', 'acme.localhost')
    await page.goto(`${base}/personalInfo?lang=zh`)
    await expect.poll(() => bellNamed(page, '99+').count(), WAIT).toBe(1)
    expect(await bellNamed(page, '99+').textContent()).toBe('99+')
    await context.close()
  })

  it("shows the server's message in the dropdown when the letters cannot be fetched", async () => {
    const { context, page, base } = await signedIn('opcs')
    await page.goto(`${base}/personalInfo`)
    await expect.poll(() => bellNamed(page, '2').count(), WAIT).toBe(1)
    // The page's own calls have answered: one still on its way when the session ends would answer 401 and
    // send the page to /login (as it should), which is not what this test is about.
    await page.waitForLoadState('networkidle')
    // Signed out elsewhere (another tab, another device): the session this page holds is revoked, so the
    // bell's next fetch is refused by the server — a real failure, not a faked answer.
    const cookie = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ')
    const headers = { cookie, resource: '1', language: 'zh_CN', 'content-type': 'application/json' }
    expect((await (await fetch(`${base}/api/b2b/user/logout`, { headers })).json()).code).toBe('0000')
    const refused = await fetch(`${base}/api/b2b/letter/list`, { method: 'POST', headers, body: '{}' })
    expect(refused.status).toBe(401)
    const message = ((await refused.json()) as { message: string }).message
    expect(message).not.toBe('')
    // Opening the dropdown fetches again.
    await bellNamed(page, '2').click()
    const dropdown = page.getByRole('dialog', { name: text('zh', 'ui', 'notifications') })
    await expect.poll(() => dropdown.getByRole('alert').textContent(), WAIT).toBe(message)
    // Escape closes it and gives the focus back to the bell.
    await page.keyboard.press('Escape')
    await expect.poll(() => dropdown.count()).toBe(0)
    // The bell still shows the count it last had.
    expect(await bellNamed(page, '2').evaluate((bell) => bell === document.activeElement)).toBe(true)
    await context.close()
  })
})

describe('the Direct order menu (SPEC §2 tenant check)', () => {
  it('gives a warm reminder where the tenant has not enabled online booking, and leads to /enterpriseInfo', async () => {
    const { context, page } = await signedIn('entadmin', 'acme.localhost')
    const acme = `http://acme.localhost:${portal.server.port}`
    await page.goto(`${acme}/personalInfo?lang=en`)
    const mainMenu = page.getByRole('navigation', { name: text('en', 'ui', 'mainMenu') })
    const openFcl = async () => {
      await mainMenu.getByRole('button', { name: text('en', 'ui', 'menu_directOrder') }).click()
      await page.getByRole('menuitem', { name: text('en', 'ui', 'mode_fcl') }).click()
    }
    await expect
      .poll(() => mainMenu.getByRole('button', { name: text('en', 'ui', 'menu_directOrder') }).count(), WAIT)
      .toBe(1)
    await openFcl()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.getByText(text('en', 'ui', 'warmReminder')).count(), WAIT).toBe(1)
    expect(await dialog.getByText(text('en', 'ui', 'directOrderNotEnabled')).count()).toBe(1)
    // Cancel stays.
    await dialog.getByRole('button', { name: text('en', 'ui', 'cancel') }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    expect(new URL(page.url()).pathname).toBe('/personalInfo')
    // OK goes where the service is enabled.
    await openFcl()
    await dialog.getByRole('button', { name: text('en', 'ui', 'ok') }).click()
    await page.waitForURL(/\/enterpriseInfo$/)
    await context.close()
  })

  it('opens the direct-order screen where the tenant has the service', async () => {
    const { context, page } = await signedIn('entadmin')
    await page.goto(`${portal.server.url}/personalInfo`)
    const mainMenu = page.getByRole('navigation', { name: text('zh', 'ui', 'mainMenu') })
    await mainMenu.getByRole('button', { name: text('zh', 'ui', 'menu_directOrder') }).click()
    await page.getByRole('menuitem', { name: text('zh', 'ui', 'mode_lcl') }).click()
    await page.waitForURL(/\/lclCreateOrderDirect$/)
    expect(await page.getByRole('dialog').count()).toBe(0)
    await context.close()
  })
})

describe('the IM link', () => {
  it("is there when the site settings name an IM website, and opens it with the user's parameters", async () => {
    // The demo tenant names none.
    const demo = await signedIn('entop')
    await demo.page.goto(`${demo.base}/personalInfo`)
    const profile = text('zh', 'ui', 'profileMenu')
    await expect.poll(() => demo.page.getByRole('button', { name: profile }).count(), WAIT).toBe(1)
    expect(await demo.page.getByRole('link', { name: text('zh', 'ui', 'im'), exact: true }).count()).toBe(0)
    await demo.context.close()

    // acme's settings name one (server/db/seed/demo.ts): in the page's HTML for the first drawing
    // (server/portal/initial.ts) and in the settings call alike.
    const { context, page, base } = await signedIn('entadmin', 'acme.localhost')
    await page.goto(`${base}/personalInfo?lang=zh`)
    const link = page.getByRole('link', { name: text('zh', 'ui', 'im'), exact: true })
    await expect.poll(() => link.count(), WAIT).toBe(1)
    const href = new URL((await link.getAttribute('href')) ?? '')
    expect(`${href.origin}${href.pathname}`).toBe('https://im.acme-logistics.example/chat')
    expect(Object.fromEntries(href.searchParams)).toMatchObject({ userName: 'entadmin', fromB2B: '1', language: 'zh' })
    expect(await link.getAttribute('target')).toBe('_blank')
    await context.close()
  })
})

describe('the top bar menus', () => {
  it('open, move and close from the keyboard', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${portal.server.url}/dashboard`)
    const language = page.getByRole('button', { name: text('zh', 'common', 'language') })
    await expect.poll(() => language.count(), WAIT).toBe(1)
    await language.focus()
    await page.keyboard.press('ArrowDown')
    const menu = page.getByRole('menu')
    await expect.poll(() => menu.count()).toBe(1)
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '')
    expect(await focused()).toBe('中文')
    await page.keyboard.press('End')
    expect(await focused()).toBe('Español')
    await page.keyboard.press('Escape')
    await expect.poll(() => menu.count()).toBe(0)
    expect(await language.evaluate((button) => button === document.activeElement)).toBe(true)
    // A click elsewhere closes it too.
    await language.click()
    await expect.poll(() => menu.count()).toBe(1)
    await page.locator('h1').first().click()
    await expect.poll(() => menu.count()).toBe(0)
    // Visitors get the way in instead of the signed-in tools.
    expect(await page.getByRole('link', { name: text('zh', 'common', 'loginRegister') }).count()).toBe(1)
    expect(await bellNamed(page).count()).toBe(0)
    await context.close()
  })
})
