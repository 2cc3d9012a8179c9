import { readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
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
  return {
    get server() {
      if (!server) throw new Error('setupPortal: the server exists only inside tests and hooks')
      return server
    },
    get browser() {
      if (!browser) throw new Error('setupPortal: the browser exists only inside tests and hooks')
      return browser
    },
  }
}
