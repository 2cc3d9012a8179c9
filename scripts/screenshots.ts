/**
 * `npm run screenshots`: the README's pictures in docs/screenshots/, taken from the real server and the headless
 * Chromium the end-to-end tests use (tests/support). Tests do not write them: a test run leaves docs/ as it was.
 * Needs a built portal (`npm run build`, or STATIC_DIR naming one). English, as the machine may have no CJK fonts.
 */
import { mkdirSync } from 'node:fs'
import { launchBrowser } from '../tests/support/browser.ts'
import { startServer } from '../tests/support/server.ts'

/** Where to write them: docs/screenshots/, or the folder named after `--` (to look before replacing). */
const OUT = process.argv[2] ?? 'docs/screenshots'
const WAIT = { timeout: 30_000 }

const server = await startServer()
const browser = await launchBrowser()
try {
  mkdirSync(OUT, { recursive: true })

  // The demo tenant's home page as a visitor sees it, once its featured lanes are in.
  const home = await browser.newPage({ viewport: { width: 1366, height: 800 } })
  await home.goto(`${server.url}/dashboard?lang=en`)
  await home.locator('[data-lane]').first().waitFor(WAIT)
  await home.screenshot({ path: `${OUT}/home.png` })

  // The operator's workbench: the order list, signed in as opadmin, once the customers read as names.
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } })
  const page = await context.newPage()
  await page.goto(`${server.url}/404`)
  const code = await page.evaluate(async () => {
    const response = await fetch('/api/b2b/user/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', resource: '1' },
      body: JSON.stringify({ username: 'opadmin', password: 'Demo@2026' }),
    })
    return ((await response.json()) as { code: string }).code
  })
  if (code !== '0000') throw new Error(`opadmin could not sign in: ${code}`)
  await page.goto(`${server.url}/orderList?lang=en`)
  await page.locator('table tbody tr td:nth-child(3)', { hasText: 'Hangzhou Minghui' }).first().waitFor(WAIT)
  await page.screenshot({ path: `${OUT}/workbench.png` })

  console.log(`wrote ${OUT}/home.png and ${OUT}/workbench.png`)
} finally {
  await browser.close()
  await server.stop()
}
