import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * Accessibility in the browser (WCAG 2.1 AA, issue #18): axe-core on the public pages and on a list, a form
 * and a detail screen, in Chinese and in English; the skip link and a visible focus on every control of
 * the order list; touch targets and the names of the combobox buttons on a phone.
 */

const portal = setupPortal()
// axe runs inside the page. Not as a <script> tag: the portal's CSP allows only its own scripts.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8')
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21aa']

interface Finding {
  rule: string
  impact: string | null
  help: string
  targets: string[]
}

/** axe's serious and critical violations on the page as it is now, by tag or by rule. */
async function axeFindings(page: Page, only: { tags: string[] } | { rules: string[] }): Promise<Finding[]> {
  await page.evaluate(AXE_SOURCE)
  const runOnly = 'tags' in only ? { type: 'tag', values: only.tags } : { type: 'rule', values: only.rules }
  const violations = await page.evaluate(async (runOnly) => {
    type Result = {
      violations: {
        id: string
        impact: string | null
        help: string
        nodes: { target: unknown[]; failureSummary?: string }[]
      }[]
    }
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<Result> } }).axe
    const result = await axe.run(document, { runOnly, resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n')[1]?.trim()}`),
    }))
  }, runOnly)
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/** A page whose data has come: no request in flight, no spinner left. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await expect.poll(() => page.locator('[role="progressbar"], .fui-Spinner').count(), WAIT).toBe(0)
}

async function visitor(language: string, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await portal.browser.newContext({ viewport: { width, height: 900 } })
  await context.addCookies([{ name: 'language', value: language, url: portal.server.url }])
  return { context, page: await context.newPage() }
}

async function operator(language: string, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await portal.signIn('opadmin', { viewport: { width, height: 900 } })
  await context.addCookies([{ name: 'language', value: language, url: portal.server.url }])
  return { context, page }
}

/** The address the first link matching `selector` on `path` leads to. */
async function firstLink(page: Page, path: string, selector: string): Promise<string> {
  await page.goto(`${portal.server.url}${path}`)
  const link = page.locator(selector).first()
  await expect.poll(() => link.count(), WAIT).toBe(1)
  return (await link.getAttribute('href')) ?? ''
}

describe('axe-core (wcag2a, wcag2aa, wcag21aa)', () => {
  it('finds no serious or critical violation on the public pages, a list, a form and a detail, in zh and en', async () => {
    const found: string[] = []
    const audit = async (page: Page, label: string, path: string) => {
      await page.goto(`${portal.server.url}${path}`)
      await settled(page)
      for (const f of await axeFindings(page, { tags: WCAG_AA }))
        found.push(`${label} ${path}: ${f.impact} ${f.rule} (${f.help})\n    ${f.targets.join('\n    ')}`)
    }
    for (const language of ['zh', 'en']) {
      const site = await visitor(language)
      const article = await firstLink(site.page, '/News', '[data-testid="news-card"] h3 a')
      // The tenant's home template (SPEC §3): the default one in both languages, the five others in one.
      const templates = language === 'zh' ? [1, 2, 3, 4, 5].map((n) => `/dashboard?template=${n}`) : []
      for (const path of [
        '/dashboard',
        ...templates,
        '/productService',
        '/orderTracking?numbers=CSQU3054383',
        '/News',
        article,
        '/aboutUs',
        '/login',
      ])
        await audit(site.page, language, path)
      await site.context.close()

      const workbench = await operator(language)
      const order = await firstLink(workbench.page, '/orderList', 'table tbody tr td:first-child a')
      for (const path of ['/orderList', '/personalInfo', order]) await audit(workbench.page, language, path)
      await workbench.context.close()
    }
    expect(found, found.join('\n')).toEqual([])
  })
})
