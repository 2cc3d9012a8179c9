import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Issue #20: the end-to-end tests drive the real server. Rewriting its answers in flight (`page.route`,
 * `context.route`, `route.fulfill`) would test a server we do not ship; a state a test needs is seeded or
 * configured instead (docs/DECISIONS.md, "No e2e test answers for our server").
 */
const E2E = new URL('../e2e/', import.meta.url).pathname
const INTERCEPTS = /\.(route|routeFromHAR|routeWebSocket)\(|\.fulfill\(/

function intercepts(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (INTERCEPTS.test(line) ? [i + 1] : []))
}

const OWN_CLOCK = /\b(browser|Browser\(\))\.(newContext|newPage)\(/

/** Lines that open a context or page straight on the browser, on the machine's clock instead of the server's. */
function ownClock(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (OWN_CLOCK.test(line) ? [i + 1] : []))
}

describe('the e2e tests', () => {
  it('rewrite none of the server’s answers', () => {
    const files = readdirSync(E2E).filter((name) => name.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(10)
    const found = files.flatMap((name) =>
      intercepts(readFileSync(join(E2E, name), 'utf8')).map((line) => `${name}:${line}`),
    )
    expect(found).toEqual([])
  })

  // The page's clock must be the server's (WAYBILL_NOW): contexts and pages come from tests/support/browser.ts.
  it('open every context and page on the server’s clock', () => {
    const files = readdirSync(E2E).filter((name) => name.endsWith('.ts'))
    const found = files.flatMap((name) =>
      ownClock(readFileSync(join(E2E, name), 'utf8')).map((line) => `${name}:${line}`),
    )
    expect(found).toEqual([])
    expect(ownClock('const context = await portal.browser.newContext({ viewport })')).toEqual([1])
    expect(ownClock('const page = await browser.newPage()')).toEqual([1])
    expect(ownClock('const page = await context.newPage()')).toEqual([])
  })

  it('would see an answer rewritten', () => {
    expect(intercepts("await page.route('**/api/x', (r) => r.fulfill({ body: '{}' }))")).toEqual([1])
    expect(intercepts("await context.route('**/api/x', handler)")).toEqual([1])
    expect(intercepts("await page.goto('/route')\nconst routes = []")).toEqual([])
  })
})
