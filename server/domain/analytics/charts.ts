import ExcelJS from 'exceljs'
import type { Transaction } from 'kysely'
import type { EndpointTypes } from '../../../generated/handlers.ts'
import {
  type ChartDef,
  type ChartGroupDef,
  type ChartMetric,
  type ChartSeries,
  type ChartWindow,
  chartGroup,
  chartWindows,
  DEFAULT_WINDOW,
  MAX_CATEGORIES,
  MAX_RANGE_DAYS,
} from '../../../model/chart.ts'
import type { ManifestEntity, ManifestScreen } from '../../../model/resolve.ts'
import { addDays, type Day } from '../../../rules/calendar.ts'
import { withinDays } from '../../../rules/dateSpan.ts'
import type { DB } from '../../db/schema.ts'
import { sheetTitle, XLSX_TYPE } from '../../engine/export/sheet.ts'
import { attachLabels, type LabelledRow, labelTarget } from '../../engine/labels.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handler, HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError, type Language, messageFor } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { tenantToday } from '../../tenancy/clock.ts'
import { type DailyRow, dailyRows, dailyTotals } from './rollup.ts'
import { chartSource, type GroupRow, rollupGroupRows } from './sources.ts'

/**
 * The one generic handler of the chart screens (kind: chart, issue #28; model/chart.ts): every chart's call
 * (screens/analytics.yaml `endpoints:`) is answered here from the daily roll-ups, by the screen whose `chart:`
 * names the call — what it counts (metric and measure), its series (per measure, or per value of a dimension:
 * a mode, a currency, a page), the windows it offers, its filter. A chart's export is the same table as .xlsx.
 */

type ChartQuery = EndpointTypes['selectOrderCount']['input']
export type ChartAnswer = EndpointTypes['selectOrderCount']['content']
type Series = ChartAnswer['series'][number]
type Category = NonNullable<ChartAnswer['categories']>[number]

/** What a chart handler reads of the manifest: the entities a group's values are labelled by. */
type Entities = Readonly<Record<string, ManifestEntity>>

/** At most this many series (pages, lanes) — the largest; the answer's bound (schemas/analyticsChart.yaml). */
export const MAX_SERIES = 200

/** The days a query asks for, in the tenant's zone: a chosen range (both ends), else a window up to today. */
export function chartDays(chart: ChartDef, query: ChartQuery, today: Day): { from: Day; to: Day } {
  if (query.beginDate !== undefined || query.endDate !== undefined) {
    if (query.beginDate === undefined || query.endDate === undefined)
      throw new ApiError('validation', {}, [
        { field: query.beginDate === undefined ? 'beginDate' : 'endDate', message: 'validation.required', params: {} },
      ])
    if (!withinDays(query.beginDate, query.endDate, MAX_RANGE_DAYS))
      throw new ApiError('validation', {}, [
        { field: 'endDate', message: 'validation.dateSpan', params: { limit: MAX_RANGE_DAYS } },
      ])
    return { from: query.beginDate, to: query.endDate }
  }
  const offered = chartWindows(chart)
  const window = query.window === undefined ? (offered[0] ?? DEFAULT_WINDOW) : (Number(query.window) as ChartWindow)
  if (!offered.includes(window))
    throw new ApiError('validation', {}, [
      { field: 'window', message: 'validation.enum', params: { allowedValues: offered.join(', ') } },
    ])
  return { from: addDays(today, 1 - window), to: today }
}

/** Every day from one to the other, both included. */
function daysFrom(from: Day, to: Day): Day[] {
  const days: Day[] = []
  for (let day = from; day <= to && days.length <= MAX_RANGE_DAYS; day = addDays(day, 1)) days.push(day)
  return days
}

/** A locale text, or null when the bundles have none (a code shown as it is). */
function textOf(key: string, language: Language): string | null {
  const text = messageFor(key, language)
  return text === key ? null : text
}

const rounded = (value: number) => Math.round(value * 100) / 100

/** The chart's figures from its roll-up rows: a value per day per series (zeros filled in), and each total. */
export function chartSeries(
  chart: ChartDef,
  rowsByMeasure: DailyRow[][],
  days: Day[],
  language: Language,
  filter?: string,
): Series[] {
  const index = new Map(days.map((day, i) => [day, i]))
  const dimension = chart.series ?? 'none'
  const series = new Map<string, Series>()
  chart.measures.forEach((measure, m) => {
    for (const row of rowsByMeasure[m] ?? []) {
      if (filter && row.dim1 !== filter) continue
      const at = index.get(row.day)
      if (at === undefined) continue
      const key = dimension === 'none' ? measure.metric : row[dimension]
      let one = series.get(key)
      if (!one) {
        const label =
          dimension === 'none'
            ? messageFor(measure.label, language)
            : ((chart.seriesLabels ? textOf(`${chart.seriesLabels}.${key}`, language) : null) ?? (key || '—'))
        one = { key, label, values: days.map(() => 0), total: 0 }
        series.set(key, one)
      }
      const value = row[measure.measure]
      one.values[at] = rounded((one.values[at] ?? 0) + value)
      one.total = rounded(one.total + value)
    }
  })
  // A chart without a dimension shows every measure, even one with nothing counted; a dimension's series are
  // the values that occur, the largest first (at most MAX_SERIES of them), ties by key.
  if (dimension === 'none')
    return chart.measures.map(
      (measure) =>
        series.get(measure.metric) ?? {
          key: measure.metric,
          label: messageFor(measure.label, language),
          values: days.map(() => 0),
          total: 0,
        },
    )
  return [...series.values()].sort((a, b) => b.total - a.total || a.key.localeCompare(b.key)).slice(0, MAX_SERIES)
}

/**
 * A day's distinct actors of a metric, all together or per dim1 value (the chart's series dimension or its
 * filter): read from the day's totals (rollup.ts `dailyTotals`), since a roll-up row's `actors` counts each actor
 * once in that row only — a customer who ordered FCL and AIR the same day is one ordering customer, not the sum of
 * the two rows. The totals outlive the actor rows (pruned once a day is closed: ./prune.ts). A series per dim2
 * value has no totals: the generator refuses measure actors with series dim2 (generator/checks/charts.ts).
 */
export async function dailyActors(
  trx: Transaction<DB>,
  tenantId: number,
  metric: ChartMetric,
  from: Day,
  to: Day,
  by: ChartSeries,
  filter?: string,
): Promise<DailyRow[]> {
  return by === 'dim1' || filter !== undefined
    ? dailyTotals(trx, tenantId, metric, from, to, 'dim1', filter)
    : dailyTotals(trx, tenantId, metric, from, to, 'day')
}

/** A chart's answer for a query: its days (the tenant's) and series, read in the request's tenant. */
export async function chartAnswer(
  ctx: HandlerContext,
  chart: ChartDef,
  query: ChartQuery,
  entities: Entities = {},
): Promise<ChartAnswer> {
  const { from, to } = chartDays(chart, query, tenantToday(ctx.request.tenant))
  if (chart.groups) return groupedAnswer(ctx, chart, query, { from, to }, entities)
  const tenantId = ctx.request.tenant.id
  const filter = query.filter?.trim() || undefined
  const rows = await ctx.inTenant(async (trx) => {
    const read: DailyRow[][] = []
    for (const measure of chart.measures)
      read.push(
        measure.measure === 'actors'
          ? await dailyActors(trx, tenantId, measure.metric as ChartMetric, from, to, chart.series ?? 'none', filter)
          : await dailyRows(trx, tenantId, measure.metric as ChartMetric, from, to),
      )
    return read
  })
  const days = daysFrom(from, to)
  return { days, series: chartSeries(chart, rows, days, ctx.request.language, filter), beginDate: from, endDate: to }
}

/**
 * A grouped chart's answer (FreightReview's lanes and customers, UserPortrait's regions): the window totalled per
 * value of the chosen group — from the roll-ups, or from the chart's registered source — a series per measure or
 * per dim1 value (a currency: never added to another), a value per category. Categories are ordered by the largest
 * series, largest first, then by the next, at most MAX_CATEGORIES; labelled by the group's entity, its locale keys,
 * or as they are.
 */
async function groupedAnswer(
  ctx: HandlerContext,
  chart: ChartDef,
  query: ChartQuery,
  { from, to }: { from: Day; to: Day },
  entities: Entities,
): Promise<ChartAnswer> {
  const group = chartGroup(chart, query.group)
  if (!group)
    throw new ApiError('validation', {}, [
      {
        field: 'group',
        message: 'validation.enum',
        params: { allowedValues: (chart.groups ?? []).map((g) => g.name).join(', ') },
      },
    ])
  const tenantId = ctx.request.tenant.id
  const language = ctx.request.language
  const source = chart.source === undefined ? rollupGroupRows : chartSource(chart.source)
  if (!source) throw new Error(`chart source ${chart.source} is not registered`)
  const { rows, labels } = await ctx.inTenant(async (trx) => {
    const read: GroupRow[][] = []
    for (const measure of chart.measures)
      read.push(await source(trx, tenantId, { from, to, group, chart, metric: measure.metric }))
    const keys = [...new Set(read.flat().map((row) => row.category))]
    return { rows: read, labels: await categoryLabels(trx, tenantId, group, keys, entities, language) }
  })
  const dimension = chart.series ?? 'none'
  const totals = new Map<string, Map<string, number>>()
  chart.measures.forEach((measure, m) => {
    for (const row of rows[m] ?? []) {
      const key = dimension === 'none' ? measure.metric : row.dim1
      const values = totals.get(key) ?? new Map<string, number>()
      totals.set(key, values)
      values.set(row.category, rounded((values.get(row.category) ?? 0) + row[measure.measure]))
    }
  })
  const seriesKeys =
    dimension === 'none'
      ? chart.measures.map((measure) => measure.metric)
      : [...totals.keys()]
          .sort((a, b) => sum(totals.get(b)) - sum(totals.get(a)) || a.localeCompare(b))
          .slice(0, MAX_SERIES)
  const ranked = seriesKeys.map((key) => totals.get(key) ?? new Map<string, number>())
  const keys = [...new Set(ranked.flatMap((values) => [...values.keys()]))]
    .sort((a, b) => {
      for (const values of ranked) {
        const difference = (values.get(b) ?? 0) - (values.get(a) ?? 0)
        if (difference !== 0) return difference
      }
      return a.localeCompare(b)
    })
    .slice(0, MAX_CATEGORIES)
  const categories: Category[] = keys.map((key) => ({ key, label: labels.get(key) ?? (key || '—') }))
  const series: Series[] = seriesKeys.map((key, i) => {
    const values = keys.map((category) => ranked[i]?.get(category) ?? 0)
    const measure = chart.measures.find((one) => one.metric === key)
    const label =
      dimension === 'none' && measure
        ? messageFor(measure.label, language)
        : ((chart.seriesLabels ? textOf(`${chart.seriesLabels}.${key}`, language) : null) ?? (key || '—'))
    return { key, label, values, total: rounded(values.reduce((a, b) => a + b, 0)) }
  })
  return { days: [], categories, group: group.name, series, beginDate: from, endDate: to }
}

const sum = (values: ReadonlyMap<string, number> | undefined) =>
  [...(values?.values() ?? [])].reduce((a, b) => a + b, 0)

/** The labels of a group's values: its entity's display text (in the caller's tenant), its locale keys, or none. */
async function categoryLabels(
  trx: Transaction<DB>,
  tenantId: number,
  group: ChartGroupDef,
  keys: string[],
  entities: Entities,
  language: Language,
): Promise<Map<string, string>> {
  const labels = new Map<string, string>()
  if (group.labels) {
    for (const key of keys) {
      const text = textOf(`${group.labels}.${key}`, language)
      if (text !== null) labels.set(key, text)
    }
    return labels
  }
  const entity = group.entity === undefined ? undefined : entities[group.entity]
  const target = entity ? labelTarget(entity) : null
  if (!target) return labels
  const rows: LabelledRow[] = keys.map((key) => ({
    key,
    value: target.key === 'id' && /^\d+$/.test(key) ? Number(key) : key,
  }))
  await attachLabels(trx, [{ field: 'value', multiple: false, target }], rows, { tenantId, language })
  for (const row of rows) {
    const text = row.labels?.value
    if (typeof text === 'string') labels.set(String(row.key), text)
  }
  return labels
}

/**
 * The chart's table as a workbook: a row per day (a grouped chart's: per category, under the group's label), a
 * column per series, the totals last.
 */
export async function chartWorkbook(
  title: string,
  answer: ChartAnswer,
  language: Language,
  axis = messageFor('analytics.day', language),
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet(sheetTitle(title))
  sheet.addRow([axis, ...answer.series.map((s) => s.label)])
  const points = answer.categories ? answer.categories.map((c) => c.label) : answer.days
  points.forEach((point, i) => {
    sheet.addRow([point, ...answer.series.map((s) => s.values[i] ?? 0)])
  })
  sheet.addRow([messageFor('analytics.total', language), ...answer.series.map((s) => s.total)])
  sheet.getRow(1).font = { bold: true }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/** The handlers of every chart call and chart export the manifest's chart screens name. */
export function chartHandlers(manifest: Manifest): HandlerRegistry {
  const handlers: HandlerRegistry = {}
  for (const screen of manifest.screens as ManifestScreen[]) {
    const chart = screen.chart
    if (screen.kind !== 'chart' || !chart) continue
    const entities = manifest.entities as Entities
    const answer: Handler = (ctx) => chartAnswer(ctx, chart, ctx.input as ChartQuery, entities)
    handlers[chart.call] = answer
    if (chart.export) {
      const title = screen.title
      handlers[chart.export] = async (ctx) => {
        const language = ctx.request.language
        const figures = await chartAnswer(ctx, chart, ctx.input as ChartQuery, entities)
        const group = figures.group === undefined ? undefined : chartGroup(chart, figures.group)
        const axis = group ? messageFor(group.label, language) : undefined
        const bytes = await chartWorkbook(messageFor(title, language), figures, language, axis)
        await ctx.reply
          .header('content-type', XLSX_TYPE)
          .header('content-disposition', `attachment; filename="${screen.name}-${figures.endDate}.xlsx"`)
          .header('cache-control', 'no-store')
          .send(bytes)
        return null
      }
    }
  }
  return handlers
}
