import { AMOUNT_METRICS, CHART_METRICS, CHART_SOURCES } from '../../model/chart.ts'
import { type AreaDef, type CustomEndpointDef, responseOf } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { type CheckContext, collector, type Path } from './context.ts'

/** The request and answer every chart call takes (schemas/analyticsChartQuery.yaml, analyticsChart.yaml). */
export const CHART_QUERY = 'analyticsChartQuery'
export const CHART_ANSWER = 'analyticsChart'

type ChartError = { path: Path; message: string; expected?: string; fix?: string }

/**
 * Chart screens (kind: chart, issue #28): `chart:` is there exactly when the kind is chart; its metrics are the
 * roll-ups' (an unknown one is named) or its registered source's; an amount is read of an amount metric only; a
 * grouped chart of the roll-ups never totals distinct actors over days; its groups are named once and labelled by a
 * stored entity or by locale keys; its call is an area's GET endpoint
 * taking analyticsChartQuery and answering analyticsChart, under the screen's permission; its export an endpoint taking the
 * same query (a POST's body, as SPEC §7's exportPvList, or a GET's address) and answering the file (response: binary).
 */
export function checkCharts({ areaFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const custom = new Map<string, CustomEndpointDef>()
  for (const file of areaFiles)
    for (const endpoint of (file.data as AreaDef).endpoints ?? []) custom.set(endpoint.name, endpoint)
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      const found: ChartError[] = []
      const chart = screen.chart
      if (screen.kind === 'chart' && !chart)
        found.push({
          path: [...at, 'kind'],
          message: 'a chart screen needs chart:',
          expected: 'chart: { call, type, measures }',
        })
      if (chart && screen.kind !== 'chart')
        found.push({ path: [...at, 'chart'], message: 'chart: belongs to a chart screen', fix: 'kind: chart' })
      if (chart) {
        const sourced = chart.source === undefined ? undefined : CHART_SOURCES[chart.source]
        if (chart.source !== undefined && !sourced)
          found.push({
            path: [...at, 'chart', 'source'],
            message: `unknown chart source ${chart.source}`,
            expected: `one of ${Object.keys(CHART_SOURCES).join(', ') || '(none registered)'}`,
          })
        if (chart.source !== undefined && !chart.groups)
          found.push({
            path: [...at, 'chart', 'source'],
            message: 'a chart source answers a grouped chart',
            expected: 'groups: [{ name, label }]',
          })
        const metrics: readonly string[] = sourced ?? CHART_METRICS
        chart.measures.forEach((measure, j) => {
          if (chart.source !== undefined && !sourced) return
          if (!metrics.includes(measure.metric))
            found.push({
              path: [...at, 'chart', 'measures', j, 'metric'],
              message: `unknown metric ${measure.metric}`,
              expected: `one of ${metrics.join(', ')}`,
            })
          else if (
            !sourced &&
            measure.measure === 'amount' &&
            !(AMOUNT_METRICS as readonly string[]).includes(measure.metric)
          )
            found.push({
              path: [...at, 'chart', 'measures', j, 'measure'],
              message: `metric ${measure.metric} has no amount`,
              expected: `events or actors (amount: ${AMOUNT_METRICS.join(', ')} only)`,
            })
          else if (!sourced && chart.groups && measure.measure === 'actors')
            found.push({
              path: [...at, 'chart', 'measures', j, 'measure'],
              message: 'distinct actors cannot be totalled over a window of roll-up days',
              expected: 'events or amount (or a chart source that counts distinct actors)',
            })
        })
        const names = new Set<string>()
        chart.groups?.forEach((group, j) => {
          if (names.has(group.name))
            found.push({ path: [...at, 'chart', 'groups', j, 'name'], message: `group ${group.name} is named twice` })
          names.add(group.name)
          const target = group.entity === undefined ? undefined : entities[group.entity]
          if (group.entity !== undefined && !target)
            found.push({ path: [...at, 'chart', 'groups', j, 'entity'], message: `no entity ${group.entity}` })
          else if (target?.stored === false)
            found.push({
              path: [...at, 'chart', 'groups', j, 'entity'],
              message: `entity ${group.entity} is not stored`,
            })
          if (group.entity !== undefined && group.labels !== undefined)
            found.push({
              path: [...at, 'chart', 'groups', j, 'labels'],
              message: 'a group is labelled by its entity or by locale keys, not both',
            })
        })
        if ((chart.series ?? 'none') !== 'none' && chart.measures.length > 1)
          found.push({
            path: [...at, 'chart', 'series'],
            message: 'a chart of several measures draws one series per measure',
            expected: 'series: none, or one measure',
          })
        // A day's distinct actors are kept for the whole day and per dim1 value (migration 0034), not per dim2's.
        if (chart.series === 'dim2' && chart.measures.some((m) => m.measure === 'actors'))
          found.push({
            path: [...at, 'chart', 'series'],
            message: 'distinct actors are kept per day and per dim1 value, not per dim2 value',
            expected: 'series: none or dim1 with measure actors',
          })
        const call = custom.get(chart.call)
        if (!call)
          found.push({
            path: [...at, 'chart', 'call'],
            message: `no endpoint ${chart.call}`,
            fix: `declare ${chart.call} in an area's endpoints: (body ${CHART_QUERY}, response ${CHART_ANSWER})`,
          })
        else if (call.method !== 'GET' || call.body !== CHART_QUERY || call.response !== CHART_ANSWER)
          found.push({
            path: [...at, 'chart', 'call'],
            message: `endpoint ${chart.call} does not answer a chart`,
            expected: `method: GET, body: ${CHART_QUERY}, response: ${CHART_ANSWER}`,
          })
        if (chart.export !== undefined) {
          const exporting = custom.get(chart.export)
          // SPEC §7's exports are POSTs sending the chart's query; a GET with it in the address answers the same.
          if (
            !exporting ||
            (exporting.method !== 'POST' && exporting.method !== 'GET') ||
            exporting.body !== CHART_QUERY ||
            // `waybill check` hands the checks `response:` entity names only (a `binary` answer has none).
            (responseOf(exporting) !== undefined && responseOf(exporting) !== 'binary')
          )
            found.push({
              path: [...at, 'chart', 'export'],
              message: `endpoint ${chart.export} does not export a chart`,
              expected: `an area's endpoint with method: POST (or GET), body: ${CHART_QUERY}, response: binary`,
            })
        }
      }
      for (const e of found) report(file, e.path, e.message, e.expected, e.fix)
    })
  }
  return errors
}
