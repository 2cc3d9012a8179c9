import { sql } from 'kysely'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Where a page opens (issue #16 point 8): a navigation to another page shows its top, whatever the page
 * left was scrolled to; Back comes back to where the reader was; a change of only a list's query keeps
 * the position. One rule for the portal (runtime/routing/scroll.tsx), seen here on the order list and
 * an order's detail.
 */
const portal = setupPortal()

const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const scrollY = (page: Page) => page.evaluate(() => window.scrollY)

/** Whether the element's box is wholly inside the viewport. */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect()
    return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0
  })

describe('scroll position across navigations', () => {
  it('opens the next screen at its top, and Back returns to where the list was', async () => {
    const { context, page } = await portal.signIn('opadmin', { viewport: { width: 1280, height: 600 } })
    await page.goto(`${portal.server.url}/orderList?pageSize=50`)
    const links = page.locator('table tbody tr td:first-child a')
    await expect.poll(() => links.count(), WAIT).toBeGreaterThan(15)

    // Far down the list, then a link there (the list's last row in view: the page may be taller than the list
    // where the workbench menu is, and the menu's open groups are not the list's to keep).
    await links.last().scrollIntoViewIfNeeded()
    await expect.poll(() => scrollY(page), WAIT).toBeGreaterThan(400)
    const listY = await scrollY(page)
    const last = links.last()
    const orderNo = (await last.textContent()) ?? ''
    expect(orderNo).toMatch(/^HY\d+$/)
    await last.click()

    // FCL, LCL, air and rail orders each open their own detail screen.
    await page.waitForURL(/\/\w+\?id=\d+$/, WAIT)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)
    expect(await scrollY(page)).toBe(0)
    expect(await inView(page, 'h1')).toBe(true)
    // The order's state sits beside its number, in view too.
    expect(await inView(page, 'h1 ~ [data-state]')).toBe(true)

    // Back: the list where it was (its rows come back from the cache or the server).
    await page.goBack()
    await page.waitForURL(/\/orderList\?pageSize=50$/, WAIT)
    await expect.poll(() => links.count(), WAIT).toBeGreaterThan(15)
    await expect.poll(() => scrollY(page), WAIT).toBeGreaterThan(listY - 50)

    // Forward: the detail, at its top as it was left.
    await page.goForward()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)
    await expect.poll(() => scrollY(page), WAIT).toBe(0)
    await context.close()
  })

  it('keeps the position when only the query of a list changes', async () => {
    const { context, page } = await portal.signIn('opadmin', { viewport: { width: 1280, height: 600 } })
    await page.goto(`${portal.server.url}/orderList?pageSize=50`)
    const links = page.locator('table tbody tr td:first-child a')
    await expect.poll(() => links.count(), WAIT).toBeGreaterThan(15)
    await page.evaluate(() => window.scrollTo(0, 300))
    await expect.poll(() => scrollY(page), WAIT).toBe(300)
    // Sort by ETD with the column header (a push of the same screen with another query), clicked where
    // it is rather than scrolled to, as a reader who scrolled back to it would.
    await page
      .getByRole('columnheader', { name: zh('field', 'etd') })
      .evaluate((cell) =>
        (cell.querySelector('button, [role="button"]') ?? cell).dispatchEvent(
          new MouseEvent('click', { bubbles: true }),
        ),
      )
    await page.waitForURL(/sort=etd\.(asc|desc)/, WAIT)
    await expect.poll(() => page.locator('table[aria-busy="true"]').count(), WAIT).toBe(0)
    expect(await scrollY(page)).toBe(300)
    await context.close()
  })
})

describe('page visits (issue #28)', () => {
  it("records a page opened and sends it by beacon when the page is left, as the signed-in user's", async () => {
    const { context, page } = await portal.signIn('opadmin')
    // A page no other test of this file opens: their visits (by beacon when their pages close) are not this one's.
    await page.goto(`${portal.server.url}/quoteList`)
    await page.locator('table').first().waitFor(WAIT)
    // Leaving the page within the queue's five-second wait: the visit goes by navigator.sendBeacon on pagehide,
    // without the portal's header, and is still the signed-in user's (Sec-Fetch-Site: same-origin).
    await page.goto(`${portal.server.url}/dashboard`)
    const visits = async () => {
      const { rows } = await sql<{ page_route: string; username: string | null }>`
        select v.page_route, u.username from page_visit v left join app_user u on u.tenant_id = v.tenant_id and u.id = v.user_id
        where v.page_name = 'quoteList'`.execute(portal.server.database.db)
      return rows
    }
    await expect.poll(visits, WAIT).toEqual([{ page_route: '/quoteList', username: 'opadmin' }])
    await context.close()
  })
})
