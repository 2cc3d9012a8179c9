import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { localeText, screenWalker, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Accessibility in the browser (WCAG 2.1 AA, issue #18): axe-core on the public pages and on a list, a form
 * and a detail screen, in Chinese and in English; the skip link and a visible focus on every control of
 * the order list; touch targets and the names of the combobox buttons on a phone.
 */

const portal = setupPortal()
const text = localeText
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
  // Loaded once per document: the walk below moves between screens without loading the page again.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
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

/**
 * A page drawn whole with its data: the server's summary of it gone (the portal replaces it once drawn,
 * runtime/shell/reveal.ts) and no spinner left. Not Playwright's "networkidle": a signed-in page keeps the chat's
 * WebSocket open, which that waits on.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load')
  await page.locator('[data-server-page]').waitFor({ state: 'detached', ...WAIT })
  await expect.poll(() => page.locator('[role="progressbar"], .fui-Spinner').count(), WAIT).toBe(0)
}

async function visitor(language: string, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openContext(portal.browser, { viewport: { width, height: 900 } })
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
    // Each audited screen as a user reaches it, by the portal's own navigation after the first (screenWalker).
    const walkers = new Map<Page, (path: string) => Promise<string>>()
    const audit = async (page: Page, label: string, path: string) => {
      if (!walkers.has(page)) walkers.set(page, await screenWalker(page.context(), portal.server.url, page))
      await walkers.get(page)?.(path)
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
        '/register',
        '/resetPassword',
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

/**
 * From the focused element to the end of the page's <main>, Tab by Tab: the stops whose look does not
 * change between having focus and not (a date input takes several Tabs, one per part).
 */
async function stopsWithoutVisibleFocus(page: Page): Promise<{ stops: number; unseen: string[] }> {
  const unseen: string[] = []
  let stops = 0
  while (await page.evaluate(() => !!document.activeElement?.closest('main'))) {
    const described = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement
      element.setAttribute('data-focus-walk', '')
      element.scrollIntoView({ block: 'center' })
      const name = element.getAttribute('aria-label') || element.textContent || element.getAttribute('name') || ''
      return `${element.tagName.toLowerCase()} "${name.trim().slice(0, 40)}"`
    })
    const walked = page.locator('[data-focus-walk]')
    const area = await walked.boundingBox()
    if (area && area.width > 0 && described !== 'main ""') {
      const clip = {
        x: Math.max(0, area.x - 6),
        y: Math.max(0, area.y - 6),
        width: area.width + 12,
        height: area.height + 12,
      }
      const focused = await page.screenshot({ clip, animations: 'disabled' })
      await walked.evaluate((element: HTMLElement) => element.blur())
      const blurred = await page.screenshot({ clip, animations: 'disabled' })
      if (focused.equals(blurred)) unseen.push(described)
      await walked.evaluate((element: HTMLElement) => element.focus())
    }
    for (let part = 0; part < 4 && (await walked.evaluate((element) => element === document.activeElement)); part++)
      await page.keyboard.press('Tab')
    await walked.evaluate((element) => element.removeAttribute('data-focus-walk'))
    stops++
    expect(stops, 'the walk never left the page content').toBeLessThan(200)
  }
  return { stops, unseen }
}

async function orderList(): Promise<{ context: BrowserContext; page: Page }> {
  const session = await operator('zh')
  await session.page.goto(`${portal.server.url}/orderList`)
  await expect.poll(() => session.page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0)
  await settled(session.page)
  return session
}

describe('keyboard', () => {
  it('shows a visible focus on every control of the order list', async () => {
    const { context, page } = await orderList()
    // Tab from the top of the page into its content…
    for (let tab = 0; tab < 80 && !(await page.evaluate(() => !!document.activeElement?.closest('main'))); tab++)
      await page.keyboard.press('Tab')
    // …then through all of it: the search and its buttons, the list's tools, the sort headers, the rows, the pager.
    const { stops, unseen } = await stopsWithoutVisibleFocus(page)
    expect(stops).toBeGreaterThan(20)
    expect(unseen, `no visible focus on:\n${unseen.join('\n')}`).toEqual([])
    await context.close()
  })

  it('reaches the order list search from the top with one Tab to the skip link, Enter and Tab', async () => {
    const { context, page } = await orderList()
    await page.keyboard.press('Tab')
    const skip = page.locator(':focus')
    expect(await skip.textContent()).toBe(text('zh', 'ui', 'skipToMain'))
    // In sight while it has focus, with a visible focus of its own.
    const box = await skip.boundingBox()
    expect(box && box.y >= 0 && box.width > 0).toBe(true)
    expect(await skip.evaluate((link) => getComputedStyle(link).outlineStyle)).not.toBe('none')
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN')
    await page.keyboard.press('Tab')
    const search = page.getByRole('search', { name: text('zh', 'ui', 'search') })
    expect(await search.evaluate((landmark) => landmark.contains(document.activeElement))).toBe(true)
    await context.close()
  })

  it('offers the skip link first on the mobile site too, in the reader’s language', async () => {
    for (const language of ['en', 'ja', 'es']) {
      const { context, page } = await visitor(language, 375)
      await page.goto(`${portal.server.url}/m/tracking`)
      await settled(page)
      await page.keyboard.press('Tab')
      expect(await page.locator(':focus').textContent()).toBe(text(language, 'ui', 'skipToMain'))
      await page.keyboard.press('Enter')
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN')
      await page.keyboard.press('Tab')
      // The tracking form's own field, not the bar's menu.
      expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true)
      await context.close()
    }
  })
})

describe('on a phone', () => {
  it('makes every touch target at least 24 px (WCAG 2.5.8) and names the combobox buttons in the reader’s language', async () => {
    const found: string[] = []
    for (const language of ['zh', 'en']) {
      // The mobile site at a phone's width; the full site, which narrow windows see at 75 % (SPEC §9), at a
      // width where it is drawn at that scale without the sideways scroll that axe cannot look past.
      const phone = await visitor(language, 390)
      const narrow = await visitor(language, 1024)
      const workbench = await operator(language, 1024)
      for (const [page, path] of [
        [phone.page, '/m'],
        [phone.page, '/m/tracking'],
        [narrow.page, '/productService'],
        [workbench.page, '/orderList'],
      ] as const) {
        await page.goto(`${portal.server.url}${path}`)
        await settled(page)
        for (const f of await axeFindings(page, { rules: ['target-size'] }))
          found.push(`${language} ${path}: ${f.rule}\n    ${f.targets.join('\n    ')}`)
      }
      // The rate search's carrier: "展开船公司选项", "Show Carrier options" — not Fluent's English "Open 船公司".
      await narrow.page.goto(`${portal.server.url}/productService`)
      const carrier = text(language, 'ui', 'showOptionsOf').replace('{{name}}', text(language, 'field', 'carrier'))
      await expect.poll(() => narrow.page.getByRole('button', { name: carrier, exact: true }).count(), WAIT).toBe(1)
      const names = await narrow.page
        .locator('.fui-Combobox__expandIcon')
        .evaluateAll((icons) => icons.map((icon) => icon.getAttribute('aria-label') ?? ''))
      expect(names.length).toBeGreaterThan(1)
      if (language === 'zh') expect(names.filter((name) => /\bOpen\b/.test(name))).toEqual([])
      for (const session of [phone, narrow, workbench]) await session.context.close()
    }
    expect(found, found.join('\n')).toEqual([])
  })
})
