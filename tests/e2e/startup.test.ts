import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, openPage } from '../support/browser.ts'
import { type RunningServer, STARTUP_MS, startServer } from '../support/server.ts'

let server: RunningServer
let browser: Browser
// Its own data directory, kept when the server stops: the lifecycle test starts it again on the same data.
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-e2e-'))

beforeAll(async () => {
  server = await startServer({ dataDir })
  browser = await launchBrowser()
}, STARTUP_MS + 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the portal in a browser', () => {
  it('serves the home page with the tenant name', async () => {
    const page = await openPage(browser, { viewport: { width: 1366, height: 800 } })
    await page.goto(`${server.url}/?lang=en`)
    await page.waitForURL(/\/dashboard/)
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Huayuan Logistics')
    await expect.poll(() => page.getByRole('button', { name: 'Track' }).count()).toBe(1)
    await page.close()
  })

  it('shows the second tenant its own site on acme.localhost', async () => {
    const page = await openPage(browser)
    await page.goto(`http://acme.localhost:${server.port}/dashboard?lang=en`)
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Acme Logistics')
    await page.close()
  })

  it('keeps its data across a restart and refuses a second server on the same data', async () => {
    const second = startServer({ dataDir: server.dataDir })
    await expect(second).rejects.toThrow(/Another Waybill server \(pid \d+\) is using the data directory/)
  })
})

describe('npm start lifecycle', () => {
  // The last test of the file: it stops the server the others used (seeding a second data directory for it was
  // the file's longest wait).
  it(
    'stops cleanly on SIGINT with exit code 0 and starts again on the same data',
    async () => {
      expect(server.output()).toMatch(/Seeded the demo tenants/)
      expect(await server.stop('SIGINT')).toBe(0)
      const again = await startServer({ dataDir: server.dataDir })
      expect(again.output()).not.toMatch(/Seeded the demo tenants/)
      // Health says "ok" and nothing else (issue #17); the log says which database served.
      expect(await (await fetch(`${again.url}/api/health`)).json()).toMatchObject({ code: '0000', message: 'ok' })
      expect(again.output()).toMatch(/database: pglite/)
      // The data is the same data: the first run's tenants answer on the second.
      const page = await openPage(browser)
      await page.goto(`http://acme.localhost:${again.port}/dashboard?lang=en`)
      await expect.poll(() => page.locator('h1').first().textContent()).toBe('Acme Logistics')
      await page.close()
      expect(await again.stop('SIGTERM')).toBe(0)
    },
    STARTUP_MS + 60_000,
  )
})
