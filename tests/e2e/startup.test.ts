import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, openPage } from '../support/browser.ts'
import { type RunningServer, startServer } from '../support/server.ts'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
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
  it('stops cleanly on SIGINT with exit code 0 and starts again on the same data', async () => {
    const dataDir = `${server.dataDir}-lifecycle`
    const first = await startServer({ dataDir })
    expect(first.output()).toMatch(/Seeded the demo tenants/)
    expect(await first.stop('SIGINT')).toBe(0)
    const again = await startServer({ dataDir })
    expect(again.output()).not.toMatch(/Seeded the demo tenants/)
    // Health says "ok" and nothing else (issue #17); the log says which database served.
    expect(await (await fetch(`${again.url}/api/health`)).json()).toMatchObject({ code: '0000', message: 'ok' })
    expect(again.output()).toMatch(/database: pglite/)
    expect(await again.stop('SIGTERM')).toBe(0)
  })
})
