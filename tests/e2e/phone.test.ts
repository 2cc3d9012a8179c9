import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #18, "speed on a phone", measured in the browser as numbers, never as times: on a phone-sized screen
 * the home page (/ → /m) and the FCL rate search are drawn at their final size at once — the layout shifts the
 * browser reports (PerformanceObserver 'layout-shift', Lighthouse's CLS) add up to under 0.1 — because the
 * answers the first drawing needs come in the page's HTML (server/portal/initial.ts, runtime/shell/initial.ts)
 * rather than from calls made after it; and the rate search answers its first results without the form
 * engine (rjsf) or ajv's validators.
 */
const portal = setupPortal()

/** A mid-range phone, as Lighthouse's mobile preset emulates one. */
async function phone(): Promise<BrowserContext> {
  const context = await openContext(portal.browser, {
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  })
  // Every layout shift from the start of the page, whether or not it follows an input.
  await context.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = []
    Object.assign(window, { __shifts: shifts })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        sources?: { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[]
      })[])
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map(
            (source) =>
              `${source.node?.nodeName ?? '?'} y ${Math.round(source.previousRect.y)}→${Math.round(source.currentRect.y)} at ${Math.round(entry.startTime)} ms`,
          ),
        })
    }).observe({ type: 'layout-shift', buffered: true })
  })
  return context
}

async function layoutShift(page: Page): Promise<{ sum: number; shifts: { value: number; sources: string[] }[] }> {
  const shifts = await page.evaluate(
    () => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts,
  )
  return { sum: shifts.reduce((sum, shift) => sum + shift.value, 0), shifts }
}

/** API calls the page made, by path. */
function recordCalls(page: Page): string[] {
  const calls: string[] = []
  page.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/api/')) calls.push(pathname)
  })
  return calls
}

/** Strings that survive minification (tests/e2e/shell-bundle.test.ts). */
const MARKERS = { rjsf: '__rjsf_', ajv: 'must have required property' } as const

describe('the home page on a phone', () => {
  it('goes to /m and draws its sections at their final size: CLS under 0.1, no call for what the HTML carried', async () => {
    const context = await phone()
    const page = await context.newPage()
    const calls = recordCalls(page)
    const answer = await page.goto(`${portal.server.url}/`)
    // The server wrote the site settings, lanes and news into the page.
    const html = (await answer?.text()) ?? ''
    const initial = JSON.parse(
      /<script type="application\/json" id="waybill-initial">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}',
    )
    expect(initial.siteSettings?.tenantCode).toBeTruthy()
    expect(initial.specialRoutes).toHaveLength(6)
    expect(initial.homeNews?.hot?.length).toBeGreaterThan(0)

    await page.waitForURL(/\/m$/, WAIT)
    await expect.poll(() => page.locator('[data-template="mobile"] [data-lane]').count(), WAIT).toBe(6)
    await expect
      .poll(() => page.locator('[data-template="mobile"] [data-news="hot"] li').count(), WAIT)
      .toBeGreaterThan(0)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(500)

    const { sum, shifts } = await layoutShift(page)
    expect(sum, JSON.stringify(shifts)).toBeLessThan(0.1)
    // Drawn from the HTML's answers: the page asked for none of them again.
    for (const path of ['/site/settings', '/site/specialRoutes', '/information/hot', '/information/recommended'])
      expect(
        calls.filter((call) => call.endsWith(path)),
        path,
      ).toEqual([])
    await context.close()
  })
})

describe('the FCL rate search on a phone', () => {
  it('answers its first results from the address without rjsf or ajv, and they move nothing: CLS under 0.1', async () => {
    const context = await phone()
    const page = await context.newPage()
    const scripts: Promise<{ path: string; body: string }>[] = []
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return
      scripts.push(response.text().then((body) => ({ path: new URL(response.url()).pathname, body })))
    })
    await page.goto(`${portal.server.url}/productService?origin=CNSHA&destination=USLAX&containerType=45G1`)
    await expect.poll(() => page.getByTestId('rate-card').count(), WAIT).toBeGreaterThan(0)
    const before = await Promise.all(scripts)
    expect(before.length).toBeGreaterThan(1)
    for (const marker of Object.values(MARKERS))
      expect(
        before.filter((script) => script.body.includes(marker)).map((script) => script.path),
        marker,
      ).toEqual([])

    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(500)
    const { sum, shifts } = await layoutShift(page)
    expect(sum, JSON.stringify(shifts)).toBeLessThan(0.1)
    await context.close()
  })
})
