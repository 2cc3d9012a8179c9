import { describe, expect, it } from 'vitest'
import { CHART_METRICS } from '../../model/chart.ts'
import { METRICS } from '../../server/domain/analytics/rollup.ts'
import { checkCharts } from './charts.ts'
import { contextOf } from './testing.ts'

const ENDPOINTS = `endpoints:
  - { name: selectOrderCount, method: GET, path: /b2b/count/selectOrderCount, summary: s, permission: selectOrderCount, body: analyticsChartQuery, response: analyticsChart }
  - { name: exportPvList, method: POST, path: /b2b/count/export/exportPvList, summary: s, permission: selectOrderCount, body: analyticsChartQuery, response: binary }
  - { name: exportPvGet, method: GET, path: /b2b/count/export/exportPvGet, summary: s, permission: selectOrderCount, body: analyticsChartQuery, response: binary }
  - { name: exportPvPut, method: PUT, path: /b2b/count/export/exportPvPut, summary: s, permission: selectOrderCount, body: analyticsChartQuery, response: binary }
  - { name: exportPvJson, method: POST, path: /b2b/count/export/exportPvJson, summary: s, permission: selectOrderCount, body: analyticsChartQuery, response: analyticsChart }
  - { name: newsList, method: GET, path: /b2b/news/list, summary: s, body: newsListQuery, response: newsCards }
`
const screen = (chart: string, kind = 'chart') => `area: analytics
label: l
screens:
  - name: dailyTransactionQuantity
    route: /DailyTransactionQuantity
    title: t
    access: permission
    permission: selectOrderCount
    status: built
    kind: ${kind}
${chart}
${ENDPOINTS}`
const CHART = `    chart:
      call: selectOrderCount
      type: bar
      measures:
        - { metric: order, measure: events, label: a.b }
      series: dim1
      export: exportPvList`
const ENTITIES = {
  'schemas/company.yaml': 'entity: company\nlabel: l\ndisplay: name\nfields:\n  name: { type: string, label: l }\n',
  'schemas/analyticsChart.yaml':
    'entity: analyticsChart\nlabel: l\nstored: false\nfields:\n  days: { type: string, label: l }\n',
}
const check = (area: string) => checkCharts(contextOf({ ...ENTITIES, 'screens/analytics.yaml': area }))
const found = (area: string) => check(area).map((e) => [e.path, e.message])

describe('checkCharts', () => {
  it('finds nothing wrong with a chart of the roll-ups answered by a chart call', () => {
    expect(check(screen(CHART))).toEqual([])
  })

  it('names an unknown metric and an amount of a metric that has none', () => {
    expect(found(screen(CHART.replace('metric: order', 'metric: orders')))).toEqual([
      ['screens[0].chart.measures[0].metric', 'unknown metric orders'],
    ])
    expect(found(screen(CHART.replace('measure: events', 'measure: amount')))).toEqual([
      ['screens[0].chart.measures[0].measure', 'metric order has no amount'],
    ])
  })

  it('refuses a call that is not declared or answers no chart, and an export of another query', () => {
    expect(found(screen(CHART.replace('call: selectOrderCount', 'call: selectOrderCounts')))).toEqual([
      ['screens[0].chart.call', 'no endpoint selectOrderCounts'],
    ])
    expect(found(screen(CHART.replace('call: selectOrderCount', 'call: newsList')))).toEqual([
      ['screens[0].chart.call', 'endpoint newsList does not answer a chart'],
    ])
    expect(found(screen(CHART.replace('export: exportPvList', 'export: newsList')))).toEqual([
      ['screens[0].chart.export', 'endpoint newsList does not export a chart'],
    ])
  })

  it('takes an export POSTed with the chart’s query (SPEC §7) or fetched by a GET, and refuses one that answers no file', () => {
    expect(found(screen(CHART.replace('export: exportPvList', 'export: exportPvGet')))).toEqual([])
    for (const name of ['exportPvPut', 'exportPvJson', 'exportPvLost'])
      expect(found(screen(CHART.replace('export: exportPvList', `export: ${name}`)))).toEqual([
        ['screens[0].chart.export', `endpoint ${name} does not export a chart`],
      ])
  })

  it('wants chart: exactly on a chart screen, and one measure when a dimension makes the series', () => {
    expect(found(screen(''))).toEqual([['screens[0].kind', 'a chart screen needs chart:']])
    expect(found(screen(CHART, 'list'))).toEqual([['screens[0].chart', 'chart: belongs to a chart screen']])
    expect(
      found(
        screen(
          CHART.replace(
            '      series: dim1',
            '        - { metric: login, measure: actors, label: a.c }\n      series: dim1',
          ),
        ),
      ),
    ).toEqual([['screens[0].chart.series', 'a chart of several measures draws one series per measure']])
  })

  it('wants distinct actors split by dim1 at most, as the day’s totals keep them', () => {
    expect(found(screen(CHART.replace('measure: events', 'measure: actors')))).toEqual([])
    expect(
      found(screen(CHART.replace('measure: events', 'measure: actors').replace('series: dim1', 'series: dim2'))),
    ).toEqual([['screens[0].chart.series', 'distinct actors are kept per day and per dim1 value, not per dim2 value']])
  })

  it('knows the roll-ups’ metrics', () => {
    expect([...CHART_METRICS]).toEqual([...METRICS])
  })

  it('checks a grouped chart: no distinct actors totalled over roll-up days, groups named once, a stored entity', () => {
    const grouped = `${CHART.replace('measure: events', 'measure: actors')}
      groups:
        - { name: lane, label: a.lane }
        - { name: lane, label: a.customer, entity: company, labels: enum.x }
        - { name: customer, label: a.customer, entity: analyticsChart }
        - { name: region, label: a.region, entity: country }`
    expect(found(screen(grouped))).toEqual([
      ['screens[0].chart.measures[0].measure', 'distinct actors cannot be totalled over a window of roll-up days'],
      ['screens[0].chart.groups[1].name', 'group lane is named twice'],
      ['screens[0].chart.groups[1].labels', 'a group is labelled by its entity or by locale keys, not both'],
      ['screens[0].chart.groups[2].entity', 'entity analyticsChart is not stored'],
      ['screens[0].chart.groups[3].entity', 'no entity country'],
    ])
    expect(
      found(
        screen(`${CHART}
      groups:
        - { name: lane, label: a.lane }`),
      ),
    ).toEqual([])
  })

  it('refuses an unknown chart source, and a source without groups', () => {
    expect(
      found(
        screen(`${CHART}
      source: nowhere`),
      ),
    ).toEqual([
      ['screens[0].chart.source', 'unknown chart source nowhere'],
      ['screens[0].chart.source', 'a chart source answers a grouped chart'],
    ])
  })
})
