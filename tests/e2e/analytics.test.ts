import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { tally } from '../../server/domain/analytics/rollup.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { now } from '../support/clock.ts'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * A chart screen (kind: chart, issue #28) in the browser: opadmin opens /DailyTransactionQuantity, sees the chart
 * (ECharts' SVG) and its table — two orders more today move its total — switches to 90 days (the address says so),
 * and the table's figures are the chart call's.
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
})
