import { readdirSync } from 'node:fs'
import type { BrowserContext } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { routes } from '../../generated/routes.ts'
import { openContext } from '../support/browser.ts'
import { screenWalker, setupPortal } from '../support/portal.ts'

/**
 * Issue #5: "a test fails if any rendered screen shows a raw translation key". Every built route a user
 * can open, with a real record for the detail screens: the page text must hold no `namespace.key` of our locale
 * files and no unfilled `{{placeholder}}`.
 */

const portal = setupPortal()
const NAMESPACES = readdirSync('locales/en').map((file) => file.replace(/\.json$/, ''))
const RAW_KEY = new RegExp(`\\b(?:${[...NAMESPACES, 'tenant'].join('|')})\\.[A-Za-z][A-Za-z0-9_]*\\b`, 'g')

const built = routes.filter((route) => route.status === 'built' && !route.redirect)

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

// Each kind of user's screens once, the four languages among them: tests/unit/locales.test.ts holds every language
// to English's keys and placeholders, so a key missing in one language fails there, and one missing in all of them
// (or a key a screen makes up) here, in whichever language its screen is walked.
const cases: { username: string | null; language: string }[] = [
  // The platform's administrator holds every permission (walltechAdmin too, on the platform's own tenant): every
  // operator screen and the tenant screens.
  { username: 'platform', language: 'zh' },
  { username: 'entadmin', language: 'ja' },
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
      const walk = await screenWalker(context, portal.server.url)
      for (const path of paths) {
        const text = await walk(path)
        for (const match of text.match(RAW_KEY) ?? []) found.push(`${path}: ${match}`)
        if (text.includes('{{')) found.push(`${path}: unfilled {{placeholder}}`)
      }
      expect(paths.length).toBeGreaterThan(username ? 4 : 2)
      expect(found).toEqual([])
      await context.close()
    }, 300_000)
  }
})
