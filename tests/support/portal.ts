import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import { launchBrowser } from './browser.ts'
import { type RunningServer, startServer } from './server.ts'

/** The portal's texts, read from the locale files so a test follows any rewording. */
export function localeText(language: string, namespace: string, key: string): string {
  const bundle = JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8')) as Record<string, string>
  const value = bundle[key]
  if (value === undefined) throw new Error(`locales/${language}/${namespace}.json has no "${key}"`)
  return value
}

/** Lazy chunks and a cold server can take a few seconds the first time. */
export const WAIT = { timeout: 15_000 }

export interface PortalFixture {
  readonly server: RunningServer
  readonly browser: Browser
  /**
   * A fresh browser context signed in as a demo user (password Demo@2026) of the tenant at `host`,
   * through the browser itself (which resolves *.localhost), so the cookie is that host's as after a
   * real login. `base` is the portal's address on that host.
   */
  signIn(username: string, options?: SignInOptions): Promise<SignedIn>
}

export interface SignInOptions {
  host?: string
  viewport?: { width: number; height: number }
  acceptDownloads?: boolean
}

export interface SignedIn {
  context: BrowserContext
  page: Page
  base: string
}

/** The end-to-end fixture: the real server on a data directory of its own, and headless Chromium. */
export function setupPortal(): PortalFixture {
  let server: RunningServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })
  const fixture: PortalFixture = {
    get server() {
      if (!server) throw new Error('setupPortal: the server exists only inside tests and hooks')
      return server
    },
    get browser() {
      if (!browser) throw new Error('setupPortal: the browser exists only inside tests and hooks')
      return browser
    },
    async signIn(username, { host = 'localhost', viewport = { width: 1440, height: 900 }, acceptDownloads } = {}) {
      const base = fixture.server.url.replace('localhost', host)
      const context = await fixture.browser.newContext({ viewport, ...(acceptDownloads ? { acceptDownloads } : {}) })
      const page = await context.newPage()
      await page.goto(`${base}/404`)
      const code = await page.evaluate(
        async (credentials) => {
          const response = await fetch('/api/b2b/user/login', {
            method: 'POST',
            // resource: the portal's header, which every sign-in needs (server/http/csrf.ts).
            headers: { 'content-type': 'application/json', resource: '1' },
            body: JSON.stringify(credentials),
          })
          return ((await response.json()) as { code: string }).code
        },
        { username, password: 'Demo@2026' },
      )
      expect(code, `login ${username}@${host}`).toBe('0000')
      return { context, page, base }
    },
  }
  return fixture
}
