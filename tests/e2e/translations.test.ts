import { readdirSync } from 'node:fs'
import type { BrowserContext, Page, Request } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { routes } from '../../generated/routes.ts'
import { openContext } from '../support/browser.ts'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #5: "a test fails if any rendered screen shows a raw translation key". Every built route a user
 * can open, in each of the four languages, with a real record for the detail screens: the page text must
 * hold no `namespace.key` of our locale files and no unfilled `{{placeholder}}`.
 */

const portal = setupPortal()
const NAMESPACES = readdirSync('locales/en').map((file) => file.replace(/\.json$/, ''))
const RAW_KEY = new RegExp(`\\b(?:${[...NAMESPACES, 'tenant'].join('|')})\\.[A-Za-z][A-Za-z0-9_]*\\b`, 'g')

const built = routes.filter((route) => route.status === 'built' && !route.redirect)

/** What still draws: a page spinner, a busy table or list, a spinner in a screen. */
const DRAWING = '[role="progressbar"], .fui-Spinner, [aria-busy="true"]'
/** How long the page must stay still to count as drawn: longer than a screen takes to ask for its next data. */
const STILL_MS = 200

/**
 * The page's requests in flight: the measure of Playwright's "networkidle", which then waits a further 500 ms
 * without one, on each of this file's few hundred page loads (issue #20). Here a page is done once it has been
 * still for STILL_MS and shows no spinner. Cleared at each visit: the last page's requests no longer count.
 */
function requestsInFlight(page: Page): Set<Request> {
  const open = new Set<Request>()
  page.on('request', (request) => open.add(request))
  page.on('requestfinished', (request) => open.delete(request))
  page.on('requestfailed', (request) => open.delete(request))
  return open
}

/**
 * Opens `path` as a user moving through the portal does: the first page loads whole, every next one is the
 * portal's own navigation (a history entry and its popstate, which react-router's BrowserRouter follows), so the
 * bundle is not parsed again for each of a few hundred screens — the file took 384 s with a full load per screen.
 */
async function visit(page: Page, inFlight: Set<Request>, path: string): Promise<string> {
  inFlight.clear()
  if (page.url().startsWith(portal.server.url))
    await page.evaluate((to) => {
      window.history.pushState(null, '', to)
      window.dispatchEvent(new PopStateEvent('popstate'))
    }, path)
  else await page.goto(`${portal.server.url}${path}`)
  // The server's summary of the page stays until the portal has drawn it whole (runtime/shell/reveal.ts).
  await page.locator('[data-server-page]').waitFor({ state: 'detached', ...WAIT })
  const deadline = Date.now() + 2 * WAIT.timeout
  let stillSince = Date.now()
  for (;;) {
    const busy = inFlight.size > 0 || (await page.locator(DRAWING).count()) > 0
    if (busy) stillSince = Date.now()
    else if (Date.now() - stillSince >= STILL_MS) break
    if (Date.now() > deadline) throw new Error(`${path} still loads after ${2 * WAIT.timeout} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
  // What a reader sees (innerText: rendered text only, not hidden nodes).
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
  return page.locator('body').innerText()
}

async function contextFor(username: string | null, language: string): Promise<BrowserContext> {
  const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
  await context.addCookies([{ name: 'language', value: language, url: portal.server.url }])
  if (username) {
    const response = await context.request.post(`${portal.server.url}/api/b2b/user/login`, {
      headers: { resource: '1' },
      data: { username, password: 'Demo@2026' },
    })
    expect((await response.json()).code).toBe('0000')
  }
  return context
}

async function someOrderId(context: BrowserContext, url: string): Promise<number> {
  const answer = await (
    await context.request.post(`${portal.server.url}${url}`, {
      headers: { resource: '1' },
      data: { pageNum: 1, pageSize: 1 },
    })
  ).json()
  return answer.content.list[0].id as number
}

const cases: { username: string | null; language: string }[] = [
  { username: 'opadmin', language: 'zh' },
  { username: 'opadmin', language: 'en' },
  { username: 'entadmin', language: 'ja' },
  { username: 'entadmin', language: 'es' },
  { username: 'personal', language: 'en' },
  { username: null, language: 'es' },
]

describe('no raw translation keys on any built screen', () => {
  for (const { username, language } of cases) {
    it(`${username ?? 'a visitor'} in ${language}`, async () => {
      const context = await contextFor(username, language)
      const session = username
        ? ((await (await context.request.get(`${portal.server.url}/api/b2b/user/getCurrentUserInfo`)).json())
            .content as {
            permissions: string[]
          })
        : { permissions: [] }
      const held = new Set(session.permissions)
      const paths = ['/dashboard', '/login', '/404']
      for (const route of built) {
        const open =
          route.access === 'public' ||
          (username && (route.access === 'open' || route.permissions.some((p) => held.has(p))))
        if (!open || paths.includes(route.path)) continue
        paths.push(route.path)
      }
      if (held.has('orderList'))
        paths.push(
          `/orderDetailsOperator?id=${await someOrderId(context, '/api/booking/order/queryOrderListByOperator')}`,
        )
      if (held.has('myOrders'))
        paths.push(`/orderDetails?id=${await someOrderId(context, '/api/booking/order/queryOrderListByCompany')}`)

      const found: string[] = []
      const page = await context.newPage()
      const inFlight = requestsInFlight(page)
      for (const path of paths) {
        const text = await visit(page, inFlight, path)
        for (const match of text.match(RAW_KEY) ?? []) found.push(`${path}: ${match}`)
        if (text.includes('{{')) found.push(`${path}: unfilled {{placeholder}}`)
      }
      expect(paths.length).toBeGreaterThan(username ? 4 : 2)
      expect(found).toEqual([])
      await context.close()
    }, 300_000)
  }
})
