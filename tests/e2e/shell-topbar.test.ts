import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * The top bar of SPEC §2: the notification bell, the Direct order menu's tenant check, the IM link (Waybill's own
 * chat with its unread badge, or a tenant's outside IM website), the menus.
 */
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
  it("opens Waybill's chat, its badge counting unread messages live, or the IM website the site settings name", async () => {
    // The demo tenant names no IM website: holders of the chat get Waybill's own (/im), a button with a badge.
    const im = text('zh', 'ui', 'im')
    const unreadName = (count: number) => `${im} (${text('zh', 'chat', 'unread').replace('{{count}}', String(count))})`
    const operator = await signedIn('opcs')
    await operator.page.goto(`${operator.base}/personalInfo`)
    await expect.poll(() => operator.page.getByRole('button', { name: im, exact: true }).count(), WAIT).toBe(1)
    expect(await operator.page.getByTestId('im-unread').count()).toBe(0)
    expect(await operator.page.getByRole('link', { name: im, exact: true }).count()).toBe(0)

    // A customer asks (the open call the chat's buttons make): the operator's badge counts it, without a reload.
    const customer = await signedIn('entop')
    await customer.page.goto(`${customer.base}/personalInfo`)
    const asked = await customer.page.evaluate(async () =>
      (
        await fetch('/api/b2b/im/open', {
          method: 'POST',
          headers: { 'content-type': 'application/json', resource: '1' },
          body: JSON.stringify({ customMessage: 'Is the warehouse open on Saturday?' }),
        })
      ).json(),
    )
    expect(asked.code).toBe('0000')
    const badge = operator.page.getByTestId('im-unread')
    await expect.poll(() => badge.textContent().catch(() => null), WAIT).toBe('1')
    expect(await operator.page.getByRole('button', { name: unreadName(1), exact: true }).count()).toBe(1)

    // The customer's button opens their conversation in a new tab with SPEC's parameters.
    const [own] = await Promise.all([
      customer.context.waitForEvent('page', WAIT),
      customer.page.getByRole('button', { name: im, exact: true }).click(),
    ])
    await own.waitForURL(/\/im\?cacheKey=/, WAIT)
    expect(Object.fromEntries(new URL(own.url()).searchParams)).toMatchObject({ userName: 'entop', fromB2B: '1' })
    await expect
      .poll(() => own.locator('li[data-side="1"]', { hasText: 'Is the warehouse open on Saturday?' }).count(), WAIT)
      .toBe(1)

    // The operator's opens the queue, where the customer shows by their enterprise's chat name; reading the
    // conversation clears the badge on the first tab.
    const [desk] = await Promise.all([
      operator.context.waitForEvent('page', WAIT),
      operator.page.getByRole('button', { name: unreadName(1), exact: true }).click(),
    ])
    await desk.waitForURL(/\/im\?/, WAIT)
    const address = Object.fromEntries(new URL(desk.url()).searchParams)
    expect(address).toMatchObject({ userName: 'opcs', fromB2B: '1' })
    expect(address.cacheKey).toBeUndefined()
    const entry = desk.getByRole('button', { name: /杭州明辉纺织品进出口有限公司/ })
    await expect.poll(() => entry.count(), WAIT).toBe(1)
    expect(await entry.textContent()).not.toContain('entop')
    await entry.click()
    await expect.poll(() => badge.count(), WAIT).toBe(0)
    await customer.context.close()
    await operator.context.close()

    // acme's settings name one (server/db/seed/demo.ts): in the page's HTML for the first drawing
    // (server/portal/initial.ts) and in the settings call alike.
    const { context, page, base } = await signedIn('entadmin', 'acme.localhost')
    await page.goto(`${base}/personalInfo?lang=zh`)
    const link = page.getByRole('link', { name: im, exact: true })
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

describe('the top bar in every language', () => {
  it('draws every label on one line, however long the language writes it: the menu wraps whole items instead', async () => {
    const { context, page } = await signedIn('entadmin')
    /** The labels of the bar drawn on more than one line (ホー/ム), and the bar's height. */
    const broken = () =>
      page.evaluate(() => {
        const bar = document.querySelector('header') as HTMLElement
        const labels = [...bar.querySelectorAll('a, button')].filter((e) => e.textContent?.trim())
        const lines = (element: Element) => {
          const range = document.createRange()
          range.selectNodeContents(element)
          const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top)
          return tops.filter((top) => Math.abs(top - (tops[0] ?? top)) > 10).length + 1
        }
        return {
          broken: labels.filter((e) => lines(e) > 1).map((e) => e.textContent?.trim()),
          height: bar.getBoundingClientRect().height,
        }
      })
    for (const language of ['ja', 'es', 'en', 'zh'])
      for (const width of [1300, 1440]) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`${portal.server.url}/myOrders?lang=${language}`)
        const home = text(language, 'route', 'dashboard')
        await page.getByRole('navigation', { name: text(language, 'ui', 'mainMenu') }).waitFor(WAIT)
        await expect.poll(() => page.locator('header').getByText(home, { exact: true }).count(), WAIT).toBe(1)
        // The signed-in tools come in a chunk of their own: measured once they are there.
        const bell = page.getByRole('button', { name: new RegExp(`^${text(language, 'ui', 'notifications')}`) })
        await expect.poll(() => bell.count(), WAIT).toBe(1)
        const bar = await broken()
        expect(bar.broken, `${language} at ${width} px`).toEqual([])
        // Chinese and Japanese fit on one row at 1,440 px; Spanish takes a second row for its longer words.
        if (['zh', 'ja'].includes(language) && width === 1440) expect(bar.height).toBeLessThan(70)
      }
    await context.close()
  })
})
