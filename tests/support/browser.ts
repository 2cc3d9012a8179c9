import { existsSync } from 'node:fs'
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type BrowserServer,
  chromium,
  type LaunchOptions,
  type Page,
} from 'playwright-core'
import { now } from '../../server/tenancy/clock.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian's Chromium, headless, with the flags this machine needs (no sandbox as root, no background network). */
function launchOptions(): LaunchOptions {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run node scripts/ensure-chromium.js`)
  return {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      // acme.localhost must reach the local server like localhost does.
      '--host-resolver-rules=MAP *.localhost 127.0.0.1',
    ],
  }
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions())
}

/** The same Chromium, for several test processes to connect to (tests/support/browser-setup.ts). */
export async function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions())
}

/** The shared Chromium at `endpoint` when the run has one, else a browser of its own. */
export async function connectBrowser(endpoint: string | undefined): Promise<Browser> {
  return endpoint ? chromium.connect(endpoint) : launchBrowser()
}

/**
 * A browser context on the server's clock (issue #20): with WAYBILL_NOW set, the server in this process lives at
 * that instant, and so must the page — a quote the browser dates by its own clock would otherwise be judged by
 * the server on another day. The page's clock starts at the server's now and runs on (Playwright's
 * `clock.install`: timers fire as time passes). Every e2e context is opened here; tests/unit/e2e-no-mocks.test.ts
 * refuses a context or page opened straight on the browser.
 */
export async function openContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  keepJournal(context)
  if (process.env.WAYBILL_NOW) await context.clock.install({ time: now() })
  return context
}

/** The refusals and page errors each open context met lately, the newest last (`contextJournals`). */
const journals = new Map<BrowserContext, string[]>()
const JOURNAL_LINES = 12

/**
 * Notes what a failed journey's report needs and its screenshot would not show: each API answer that was not a
 * success (HTTP status, code, message, the call) and each error thrown in a page — a poll that times out says only
 * that the page did not change; the journal says what the server answered instead.
 */
function keepJournal(context: BrowserContext) {
  const lines: string[] = []
  journals.set(context, lines)
  context.on('close', () => journals.delete(context))
  const note = (line: string) => {
    lines.push(line.slice(0, 300))
    if (lines.length > JOURNAL_LINES) lines.shift()
  }
  context.on('weberror', (error) => note(`page error: ${error.error().message}`))
  context.on('response', async (response) => {
    const path = new URL(response.url()).pathname
    if (!path.startsWith('/api/') || !(response.headers()['content-type'] ?? '').includes('json')) return
    const answer = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null
    const code = typeof answer?.code === 'string' ? answer.code : undefined
    if (response.status() < 400 && (code === undefined || code === '0000')) return
    const message = typeof answer?.message === 'string' ? answer.message : ''
    note(`${response.request().method()} ${path} → ${response.status()} ${code ?? ''} ${message}`.trim())
  })
}

/** Each open context's pages (their addresses, the toasts and alerts they show) and journal, for a failed test. */
export async function contextJournals(): Promise<string> {
  const parts: string[] = []
  for (const [context, lines] of journals) {
    for (const page of context.pages()) {
      const shown = await page
        .locator('.fui-Toast, [role="alert"]')
        .allInnerTexts()
        .catch(() => [])
      parts.push(`page ${page.url()}${shown.length ? ` shows: ${shown.join(' | ').replace(/\s+/g, ' ')}` : ''}`)
    }
    parts.push(...lines)
  }
  return parts.join('\n')
}

/** A page in a context of its own on the server's clock, closed with the page (as `browser.newPage` does). */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await openContext(browser, options)
  const page = await context.newPage()
  page.once('close', () => void context.close())
  return page
}
