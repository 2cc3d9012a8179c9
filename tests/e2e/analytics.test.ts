import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { tally } from '../../server/domain/analytics/rollup.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { now } from '../support/clock.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * A chart screen (kind: chart, issue #28) in the browser: opadmin opens /DailyTransactionQuantity, sees the chart
 * (ECharts' SVG) and its table — two orders more today move its total — switches to 90 days (the address says so),
 * and the table's figures are the chart call's. The export button POSTs the chart's query (SPEC §7's exportPvList,
 * userPortraitExportExcel) and the browser saves the .xlsx under the server's name, holding the table's figures.
 */
const portal = setupPortal()

describe('the analytics charts', () => {
  it('draws orders per day and mode, as a chart and a table, in the window the address names', async () => {
    const { rows } = await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(
      portal.server.database.db,
    )
    const demo = rows[0]?.id as number
    const { context, page, base } = await portal.signIn('opadmin', { viewport: { width: 1440, height: 900 } })
    type Answer = { days: string[]; series: { key: string; values: number[]; total: number }[] }
    const answerOf = async (window: number) =>
      (await page.evaluate(async (days) => {
        const response = await fetch(`/api/b2b/count/selectOrderCount?window=${days}`, { headers: { Resource: '1' } })
        return (await response.json()).content
      }, window)) as Answer
    await page.goto(`${base}/dashboard`)
    // The seeded year of history is there; two FCL orders more today move the 30-day total by two.
    const fclBefore = (await answerOf(30)).series.find((s) => s.key === 'FCL')?.total ?? 0
    await withTenant(portal.server.database.api, demo, async (trx) => {
      await tally(trx, demo, { metric: 'order', at: now(), dim1: 'FCL', actor: 'company:1' })
      await tally(trx, demo, { metric: 'order', at: now(), dim1: 'FCL', actor: 'company:2' })
    })
    await page.goto(`${base}/DailyTransactionQuantity`)
    const table = page.getByTestId('chart-table')
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 30 + 1)
    await expect.poll(() => page.getByTestId('chart').locator('svg').count(), WAIT).toBe(1)
    expect(await table.locator('[data-day="total"] [data-series="FCL"]').getAttribute('data-value')).toBe(
      String(fclBefore + 2),
    )

    await page.getByTestId('chart-window').selectOption('90')
    await page.waitForURL(/[?&]window=90/)
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 90 + 1)
    const answer = await answerOf(90)
    expect(answer.series.map((s) => s.key)).toContain('FCL')
    for (const series of answer.series) {
      const shown = await table
        .locator(`[data-series="${series.key}"]`)
        .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-value'))))
      expect(shown).toEqual([...series.values, series.total])
    }
    await context.close()
  })

  it('exports UserBehavior’s and UserPortrait’s tables by POSTing the chart’s query, the file the table', async () => {
    const { context, page, base } = await portal.signIn('opadmin', { acceptDownloads: true })
    const table = page.getByTestId('chart-table')
    /** The table as the screen draws it: each row's label (a day, a category, 合计 last) and its figures (data-value). */
    const drawn = async () =>
      table
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.querySelector('td')?.textContent ?? '',
            ...[...row.querySelectorAll('td[data-series]')].map((cell) => Number(cell.getAttribute('data-value'))),
          ]),
        )
    const exported = async (name: string, body: Record<string, string>) => {
      const request = page.waitForRequest((r) => r.url().endsWith(`/api/b2b/count/export/${name}`), WAIT)
      const download = page.waitForEvent('download', WAIT)
      await page.getByRole('button', { name: localeText('zh', 'analytics', 'export') }).click()
      const sent = await request
      expect(sent.method()).toBe('POST')
      expect(sent.postDataJSON()).toEqual(body)
      return download
    }

    // The page's own visit is posted a few seconds after it opens: the export waits for it, and the table compared
    // is read on a reload before that reload's own visit is posted, so both count the same views.
    const visitPosted = page.waitForEvent('requestfinished', {
      predicate: (r) => r.url().endsWith('/api/b2b/user/behaviorRecord/add'),
      ...WAIT,
    })
    await page.goto(`${base}/UserBehavior?window=60`)
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 60 + 1)
    await visitPosted
    const behaviour = await exported('exportPvList', { window: '60' })
    expect(behaviour.suggestedFilename()).toMatch(/^userBehavior-\d{4}-\d{2}-\d{2}\.xlsx$/)
    const pages = await readXlsx(await downloaded(behaviour))
    await page.reload()
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 60 + 1)
    expect(pages.rows.map((row) => row.map((cell) => cell.value))).toEqual(await drawn())

    await page.goto(`${base}/UserPortrait?window=90&group=asks`)
    await expect.poll(() => page.getByTestId('chart-group').inputValue(), WAIT).toBe('asks')
    await expect.poll(async () => (await drawn()).length, WAIT).toBeGreaterThan(1)
    const portrait = await exported('userPortraitExportExcel', { window: '90', group: 'asks' })
    expect(portrait.suggestedFilename()).toMatch(/^userPortrait-\d{4}-\d{2}-\d{2}\.xlsx$/)
    const asks = await readXlsx(await downloaded(portrait))
    expect(asks.headers[0]).toBe(localeText('zh', 'analytics', 'group.asks'))
    expect(asks.rows.map((row) => row.map((cell) => cell.value))).toEqual(await drawn())
    await context.close()
  })
})
