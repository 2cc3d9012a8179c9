import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ChartDef } from '../../model/chart.ts'
import { chartAnswer, chartWorkbook } from '../../server/domain/analytics/charts.ts'
import { tally } from '../../server/domain/analytics/rollup.ts'
import { registerChartSource } from '../../server/domain/analytics/sources.ts'
import type { HandlerContext } from '../../server/http/context.ts'
import { ApiError, type Language } from '../../server/http/errors.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { inDays } from '../support/clock.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * Grouped charts (model/chart.ts `groups`, `source`; server/domain/analytics/charts.ts): a chart that totals its
 * window per value of a group — from the roll-ups' `<group>:<value>` rows, or from a registered source — answers
 * categories instead of days, a series per currency never added to another, categories ordered by the largest
 * series and labelled by the group's entity (in the caller's tenant) or locale keys; an unknown group is a
 * validation error; the export is the same table.
 */
const test = setupTestApp()
let demo = 0
let acme = 0
const companies: { id: number; name: string }[] = []

const at = (days: number, time: string) => new Date(`${inDays(days)}T${time}:00+08:00`)

const REVIEW: ChartDef = {
  call: 'freightReview',
  type: 'bar',
  measures: [{ metric: 'orderAmount', measure: 'amount', label: 'analytics.series.amount' }],
  series: 'dim1',
  groups: [
    { name: 'lane', label: 'analytics.groupBy' },
    { name: 'customer', label: 'analytics.groupBy', entity: 'company' },
  ],
}

/** A handler's context for a tenant (what the chart handler reads of it: tenant, language, inTenant), in English names. */
async function contextOf(code: string, language: Language = 'en'): Promise<HandlerContext> {
  const { rows } = await sql<{ id: number; settings: Record<string, unknown> }>`
    select id, settings from tenant where code = ${code}`.execute(test.database.db)
  const tenant = rows[0] as { id: number; settings: Record<string, unknown> }
  return {
    request: { tenant, language },
    inTenant: (work: Parameters<HandlerContext['inTenant']>[0]) => withTenant(test.database.api, tenant.id, work),
  } as unknown as HandlerContext
}

const entities = () => loadManifest().entities

beforeAll(async () => {
  const { rows } = await sql<{ id: number; code: string }>`select id, code from tenant`.execute(test.database.db)
  demo = rows.find((r) => r.code === 'demo')?.id as number
  acme = rows.find((r) => r.code === 'acme')?.id as number
  const found = await sql<{ id: number; name: string }>`
    select id, coalesce(nullif(name_en, ''), name) as name from company where tenant_id = ${demo} order by id limit 2`.execute(
    test.database.db,
  )
  companies.push(...found.rows)
  const [first, second] = companies as unknown as [{ id: number }, { id: number }]
  await withTenant(test.database.api, demo, async (trx) => {
    const amount = async (days: number, currency: string, dim2: string, value: number) =>
      tally(trx, demo, { metric: 'orderAmount', at: at(days, '00:10'), dim1: currency, dim2, amount: value })
    await amount(0, 'USD', 'lane:CNSHA-USLAX', 1000)
    await amount(-3, 'USD', 'lane:CNSHA-USLAX', 500)
    await amount(-2, 'USD', 'lane:CNNGB-DEHAM', 2000)
    await amount(-1, 'CNY', 'lane:CNSHA-USLAX', 800)
    await amount(-40, 'USD', 'lane:CNSHA-SGSIN', 9000)
    await amount(0, 'USD', `customer:${first.id}`, 1500)
    await amount(-2, 'USD', `customer:${second.id}`, 2000)
    await amount(-1, 'CNY', `customer:${first.id}`, 800)
  })
  await withTenant(test.database.api, acme, (trx) =>
    tally(trx, acme, { metric: 'orderAmount', at: at(0, '00:10'), dim1: 'USD', dim2: 'lane:CNSHA-USLAX', amount: 7 }),
  )
})

describe('grouped charts', () => {
  it('totals the window per lane, a series per currency, the largest lane of the largest currency first', async () => {
    const answer = await chartAnswer(await contextOf('demo'), REVIEW, { window: '30' }, entities())
    expect(answer.days).toEqual([])
    expect(answer.group).toBe('lane')
    // The 40-day-old lane is outside 30 days; acme's 7 USD is not demo's.
    expect(answer.categories).toEqual([
      { key: 'CNNGB-DEHAM', label: 'CNNGB-DEHAM' },
      { key: 'CNSHA-USLAX', label: 'CNSHA-USLAX' },
    ])
    expect(answer.series.map((s) => [s.key, s.values, s.total])).toEqual([
      ['USD', [2000, 1500], 3500],
      ['CNY', [0, 800], 800],
    ])
    const sixty = await chartAnswer(await contextOf('demo'), REVIEW, { window: '60' }, entities())
    expect(sixty.categories?.[0]?.key).toBe('CNSHA-SGSIN')
  })

  it('labels customers by their company name, in the caller tenant only', async () => {
    const answer = await chartAnswer(await contextOf('demo'), REVIEW, { window: '30', group: 'customer' }, entities())
    const [first, second] = companies as [{ id: number; name: string }, { id: number; name: string }]
    expect(answer.categories).toEqual([
      { key: String(second.id), label: second.name },
      { key: String(first.id), label: first.name },
    ])
    expect(answer.series.find((s) => s.key === 'CNY')?.values).toEqual([0, 800])
    const acmeAnswer = await chartAnswer(
      await contextOf('acme'),
      REVIEW,
      { window: '30', group: 'customer' },
      entities(),
    )
    expect(acmeAnswer.categories).toEqual([])
  })

  it('refuses a group the chart does not offer', async () => {
    const refused = await chartAnswer(
      await contextOf('demo'),
      REVIEW,
      { window: '30', group: 'region' },
      entities(),
    ).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).fieldErrors?.[0]).toMatchObject({ field: 'group', message: 'validation.enum' })
  })

  it('reads a registered source, labelled by locale keys, and exports the same table', async () => {
    registerChartSource('testTenants', async (trx, tenantId, query) => {
      const { rows } = await sql<{ code: string }>`select code from tenant where id = ${tenantId}`.execute(trx)
      return [
        { dim1: '', category: 'FCL', events: 0, actors: query.to === query.from ? 0 : 3, amount: 0 },
        { dim1: '', category: rows[0]?.code ?? '', events: 0, actors: 1, amount: 0 },
      ]
    })
    const portrait: ChartDef = {
      call: 'personalUserProfile',
      type: 'pie',
      measures: [{ metric: 'users', measure: 'actors', label: 'analytics.series.orders' }],
      groups: [{ name: 'asks', label: 'analytics.groupBy', labels: 'enum.containerLoadType' }],
      source: 'testTenants',
    }
    const context = await contextOf('demo', 'zh')
    const answer = await chartAnswer(context, portrait, { window: '90' }, entities())
    expect(answer.categories?.map((c) => c.key)).toEqual(['FCL', 'demo'])
    expect(answer.categories?.[0]?.label).not.toBe('FCL')
    expect(answer.categories?.[1]?.label).toBe('demo')
    expect(answer.series).toEqual([{ key: 'users', label: expect.any(String), values: [3, 1], total: 4 }])
    const sheet = await readXlsx(await chartWorkbook('画像', answer, 'zh', '分组'))
    expect(sheet.headers).toEqual(['分组', answer.series[0]?.label])
    expect(sheet.rows.map((row) => row.map((cell) => cell.value))).toEqual([
      [answer.categories?.[0]?.label, 3],
      ['demo', 1],
      [expect.any(String), 4],
    ])
  })
})
