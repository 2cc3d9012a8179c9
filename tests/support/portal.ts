import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Download, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, expect, inject } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { readConfig } from '../../server/config.ts'
import type { Database } from '../../server/db/database.ts'
import { connectBrowser, openContext } from './browser.ts'
import { freshDatabase } from './database.ts'

/** The portal's texts, read from the locale files so a test follows any rewording. */
export function localeText(language: string, namespace: string, key: string): string {
  const bundle = JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8')) as Record<string, string>
  const value = bundle[key]
  if (value === undefined) throw new Error(`locales/${language}/${namespace}.json has no "${key}"`)
  return value
}

/** What a download holds: the browser is the run's shared one, so the file is not at a path of this machine's. */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * How long a browser test waits for the page to show what it expects. Lazy chunks and a cold server take a few
 * seconds the first time; on CI, with the PostgreSQL leg's servers starting beside the e2e leg on two cores, two
 * steps of stop 40's journeys did not show within 15 s. A wait ends as soon as it holds.
 */
export const WAIT = { timeout: 30_000 }

/** The portal and its API on a loopback port, as `npm start` serves them. */
export interface PortalServer {
  url: string
  port: number
  database: Database
  /** On PostgreSQL, the database's connection string: a second server process (./server.ts) may share it. */
  databaseUrl?: string
  close(): Promise<void>
}

export interface PortalOptions {
  /** The database the portal serves: the test run's (TEST_DB; PGlite in the e2e project) unless told. */
  database?: 'pglite' | 'postgres'
}

/**
 * The real app (server/app.ts) with the built portal (STATIC_DIR, else dist/), served from the test's own
 * process on a fresh copy of the seeded demo database (tests/support/database.ts) — issue #20: a server
 * process per file spent most of its time starting, migrating and seeding. A file that needs the server as
 * a process of its own (its environment, its data directory, its exit) uses startServer (./server.ts).
 */
export async function servePortal({ database: kind }: PortalOptions = {}): Promise<PortalServer> {
  const database = await freshDatabase(kind)
  try {
    const app = await buildApp({ database, staticDir: readConfig().staticDir })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    return {
      url: `http://localhost:${port}`,
      port,
      database,
      ...(database.url ? { databaseUrl: database.url } : {}),
      async close() {
        await app.close()
        await database.close()
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}

export interface PortalFixture {
  readonly server: PortalServer
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

/**
 * The end-to-end fixture: the portal on a database of the file's own (`options.database`: which kind), and the
 * run's headless Chromium (tests/support/browser-setup.ts), whose contexts this file opens are closed with its
 * connection.
 */
export function setupPortal(options: PortalOptions = {}): PortalFixture {
  let server: PortalServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    const [served, connected] = await Promise.allSettled([
      servePortal(options),
      connectBrowser(inject('chromiumEndpoint')),
    ])
    if (served.status === 'fulfilled') server = served.value
    if (connected.status === 'fulfilled') browser = connected.value
    for (const outcome of [served, connected]) if (outcome.status === 'rejected') throw outcome.reason
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
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
    signIn: (username, { host = 'localhost', ...options } = {}) =>
      signInThrough(fixture.browser, fixture.server.url.replace('localhost', host), username, options),
  }
  return fixture
}

/**
 * A sign-in as the portal's login form makes it, in `page` on the host it shows: the answer's code (the session
 * cookie is then the page's). `resource`: the portal's header, which every sign-in needs (server/http/csrf.ts).
 */
export function signInCode(page: Page, username: string, password: string): Promise<string> {
  return page.evaluate(
    async (credentials) => {
      const response = await fetch('/api/b2b/user/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', resource: '1' },
        body: JSON.stringify(credentials),
      })
      return ((await response.json()) as { code: string }).code
    },
    { username, password },
  )
}

/**
 * A fresh browser context signed in as a demo user (password Demo@2026) of the tenant at `base`, through the
 * browser itself (which resolves *.localhost), so the cookie is that host's as after a real login; for a
 * portal served here (setupPortal) or as a process of its own (./server.ts).
 */
export async function signInThrough(
  browser: Browser,
  base: string,
  username: string,
  { viewport = { width: 1440, height: 900 }, acceptDownloads }: Omit<SignInOptions, 'host'> = {},
): Promise<SignedIn> {
  const context = await openContext(browser, { viewport, ...(acceptDownloads ? { acceptDownloads } : {}) })
  const page = await context.newPage()
  await page.goto(`${base}/404`)
  const code = await signInCode(page, username, 'Demo@2026')
  expect(code, `login ${username} at ${base}`).toBe('0000')
  return { context, page, base }
}

/** What still draws: a page spinner, a busy table or list, a spinner in a screen. */
const DRAWING = '[role="progressbar"], .fui-Spinner, [aria-busy="true"]'
/** How long a page must stay still to count as drawn: longer than a screen takes to ask for its next data. */
const STILL_MS = 200

/**
 * Walks screens of the portal at `url` in one page of `context`, as a user moving through it does, and answers
 * each screen's rendered text once drawn. The first screen loads whole; every next one is the portal's own
 * navigation (a history entry and its popstate, which react-router's BrowserRouter follows), so the bundle is
 * not parsed again for each of a few hundred screens (the translations file took 384 s with a load per screen).
 * A screen is drawn once the page has had no request in flight for STILL_MS and shows no spinner — Playwright's
 * "networkidle" waits a further 500 ms on every screen (issue #20). Walks `page` when given (a signed-in one).
 */
export async function screenWalker(
  context: BrowserContext,
  url: string,
  page?: Page,
): Promise<(path: string) => Promise<string>> {
  page ??= await context.newPage()
  const inFlight = new Set<Request>()
  // A WebSocket (the chat's, kept open on every signed-in page) is a connection, not a request that ends.
  page.on('request', (request) => {
    if (request.resourceType() !== 'websocket') inFlight.add(request)
  })
  page.on('requestfinished', (request) => inFlight.delete(request))
  page.on('requestfailed', (request) => inFlight.delete(request))
  return async (path) => {
    inFlight.clear()
    if (page.url().startsWith(url))
      await page.evaluate((to) => {
        window.history.pushState(null, '', to)
        window.dispatchEvent(new PopStateEvent('popstate'))
      }, path)
    else await page.goto(`${url}${path}`)
    // The server's summary of the page stays until the portal has drawn it whole (runtime/shell/reveal.ts).
    await page.locator('[data-server-page]').waitFor({ state: 'detached', ...WAIT })
    const deadline = Date.now() + 2 * WAIT.timeout
    let stillSince = Date.now()
    for (;;) {
      const busy = inFlight.size > 0 || (await page.locator(DRAWING).count()) > 0
      if (busy) stillSince = Date.now()
      else if (Date.now() - stillSince >= STILL_MS) break
      if (Date.now() > deadline) throw new Error(`${path} still loads after ${2 * WAIT.timeout} ms`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // What a reader sees (innerText: rendered text only, not hidden nodes).
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
    return page.locator('body').innerText()
  }
}
