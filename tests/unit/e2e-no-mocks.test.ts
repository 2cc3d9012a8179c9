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

describe('the e2e tests', () => {
  it('rewrite none of the server’s answers', () => {
    const files = readdirSync(E2E).filter((name) => name.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(10)
    const found = files.flatMap((name) =>
      intercepts(readFileSync(join(E2E, name), 'utf8')).map((line) => `${name}:${line}`),
    )
    expect(found).toEqual([])
  })

  it('would see an answer rewritten', () => {
    expect(intercepts("await page.route('**/api/x', (r) => r.fulfill({ body: '{}' }))")).toEqual([1])
    expect(intercepts("await context.route('**/api/x', handler)")).toEqual([1])
    expect(intercepts("await page.goto('/route')\nconst routes = []")).toEqual([])
  })
})
