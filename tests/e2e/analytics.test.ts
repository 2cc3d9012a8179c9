import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { tally } from '../../server/domain/analytics/rollup.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { now } from '../support/clock.ts'
import { setupPortal, WAIT } from '../support/portal.ts'

/**
 * A chart screen (kind: chart, issue #28) in the browser: opadmin opens /DailyTransactionQuantity, sees the chart
 * (ECharts' SVG) and its table, switches to 90 days — the address says so — and the table's figures are the
 * chart call's.
 */
const portal = setupPortal()
const HOUR = 3_600_000
const hoursAgo = (hours: number) => new Date(now().getTime() - hours * HOUR)

describe('the analytics charts', () => {
  it('draws orders per day and mode, as a chart and a table, in the window the address names', async () => {
    const { rows } = await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(
      portal.server.database.db,
    )
    const demo = rows[0]?.id as number
    await withTenant(portal.server.database.api, demo, async (trx) => {
      await tally(trx, demo, { metric: 'order', at: hoursAgo(1), dim1: 'FCL', actor: 'company:1' })
      await tally(trx, demo, { metric: 'order', at: hoursAgo(2), dim1: 'FCL', actor: 'company:2' })
      // 50 days ago: in the 90-day window only.
      await tally(trx, demo, { metric: 'order', at: hoursAgo(50 * 24), dim1: 'LCL', actor: 'company:1' })
    })
    const { context, page, base } = await portal.signIn('opadmin', { viewport: { width: 1440, height: 900 } })
    await page.goto(`${base}/DailyTransactionQuantity`)
    const table = page.getByTestId('chart-table')
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 30 + 1)
    await expect.poll(() => page.getByTestId('chart').locator('svg').count(), WAIT).toBe(1)
    expect(await table.locator('[data-day="total"] [data-series="FCL"]').getAttribute('data-value')).toBe('2')
    expect(await table.locator('[data-series="LCL"]').count()).toBe(0)

    await page.getByTestId('chart-window').selectOption('90')
    await page.waitForURL(/[?&]window=90/)
    await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 90 + 1)
    const answer = (await page.evaluate(async () => {
      const response = await fetch('/api/b2b/count/selectOrderCount?window=90', { headers: { Resource: '1' } })
      return (await response.json()).content
    })) as { days: string[]; series: { key: string; values: number[]; total: number }[] }
    expect(answer.series.map((s) => s.key)).toEqual(['FCL', 'LCL'])
    for (const series of answer.series) {
      const shown = await table
        .locator(`[data-series="${series.key}"]`)
        .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-value'))))
      expect(shown).toEqual([...series.values, series.total])
    }
    await context.close()
  })
})
