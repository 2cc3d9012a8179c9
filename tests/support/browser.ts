import { existsSync } from 'node:fs'
import { type Browser, type BrowserServer, chromium, type LaunchOptions } from 'playwright-core'

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
