import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'

/** The public news centre in the browser: filters in the URL, the article, its like and its PDF. */

const portal = setupPortal()
const text = localeText

async function visitor(language: 'zh' | 'en' | 'ja', width = 1440) {
  const context = await openContext(portal.browser, { viewport: { width, height: 900 }, acceptDownloads: true })
  await context.addCookies([{ name: 'language', value: language, url: portal.server.url }])
  const page = await context.newPage()
  return { context, page }
}

const cards = (page: Page) => page.getByTestId('news-card')
const titles = async (page: Page) => (await cards(page).locator('h3').allTextContents()).map((t) => t.trim())

describe('news centre', () => {
  it('filters by category, keyword and date, restores them on Back, and downloads a PDF that opens', async () => {
    const { context, page } = await visitor('en')
    await page.goto(`${portal.server.url}/News`)
    await expect.poll(() => cards(page).count(), WAIT).toBe(9)
    await expect.poll(() => page.getByTestId('news-hot').locator('li').count(), WAIT).toBeGreaterThan(1)
    expect(await page.getByTestId('news-recommended').locator('li').count()).toBeGreaterThan(1)

    await page.getByRole('tab', { name: text('en', 'news', 'categoryPolicy') }).click()
    await expect.poll(() => cards(page).count(), WAIT).toBe(3)
    expect(page.url()).toContain('category=policy')

    await page.getByRole('searchbox').fill('ICS2')
    await page.getByRole('button', { name: text('en', 'news', 'search') }).click()
    await expect.poll(() => cards(page).count(), WAIT).toBe(1)
    expect((await titles(page))[0]).toContain('ICS2')
    expect(page.url()).toContain('keyword=ICS2')

    // Dates: the industry news of the last week of February
    await page.getByRole('tab', { name: text('en', 'news', 'categoryIndustry') }).click()
    await page.getByRole('button', { name: text('en', 'news', 'reset') }).click()
    await page.getByLabel(text('en', 'news', 'dateFrom')).fill('2026-02-20')
    await page.getByLabel(text('en', 'news', 'dateTo')).fill('2026-02-28')
    await page.getByRole('button', { name: text('en', 'news', 'search') }).click()
    await expect.poll(() => page.url(), WAIT).toContain('beginDate=2026-02-20')
    await expect
      .poll(() => titles(page), WAIT)
      .toEqual([expect.stringContaining('Port congestion'), expect.stringContaining('SCFI')])

    // Into an article and Back: the filters are still there
    await cards(page).first().locator('h3 a').click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toContain('Port congestion')
    await page.goBack()
    await expect.poll(() => cards(page).count(), WAIT).toBe(2)
    expect(await page.getByLabel(text('en', 'news', 'dateFrom')).inputValue()).toBe('2026-02-20')

    // Like once, then the PDF
    await cards(page).first().locator('h3 a').click()
    const like = page.getByTestId('news-like')
    await expect.poll(() => like.isEnabled(), WAIT).toBe(true)
    const before = Number(await page.getByTestId('news-like-count').textContent())
    await like.click()
    await expect.poll(() => page.getByTestId('news-like-count').textContent(), WAIT).toBe(String(before + 1))
    await expect.poll(() => like.isDisabled(), WAIT).toBe(true)
    await page.reload()
    await expect.poll(() => page.getByTestId('news-like').getAttribute('aria-pressed'), WAIT).toBe('true')

    const download = page.waitForEvent('download', WAIT)
    await page.getByTestId('news-pdf').click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^Port congestion.*\.pdf$/)
    const bytes = await downloaded(file)
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    // A whole document: a page, the cross-reference table and the end marker
    const pdf = bytes.toString('latin1')
    expect(pdf).toMatch(/\/Type \/Page\b/)
    expect(pdf).toContain('startxref')
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true)
    await context.close()
  })

  it('reads in Chinese and Japanese, and fits a 375 px screen', async () => {
    for (const language of ['zh', 'ja'] as const) {
      const { context, page } = await visitor(language, 375)
      await page.goto(`${portal.server.url}/informationCenterList`)
      await expect.poll(() => cards(page).count(), WAIT).toBe(9)
      expect(await page.getByRole('tab').first().textContent()).toBe(text(language, 'news', 'categoryAll'))
      const first = (await titles(page))[0] as string
      expect(first).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/)
      // nothing wider than the screen
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      await cards(page).first().locator('h3 a').click()
      await page.getByTestId('news-content').waitFor(WAIT)
      expect(await page.getByTestId('news-pdf').textContent()).toBe(text(language, 'news', 'downloadPdf'))
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(wide).toBeLessThanOrEqual(0)
      await context.close()
    }
  })

  it('says so for an article that is not published', async () => {
    const { context, page } = await visitor('en')
    await page.goto(`${portal.server.url}/InformationCenterDetail?id=999999`)
    await expect
      .poll(() => page.getByTestId('news-not-found').textContent(), WAIT)
      .toContain(text('en', 'news', 'notFound'))
    await context.close()
  })
})
