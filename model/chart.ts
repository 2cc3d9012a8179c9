/**
 * The chart screen kind (issue #28): a screen of screens/*.yaml with `kind: chart` names what it counts — one or
 * more measures of the daily roll-ups (server/domain/analytics/rollup.ts), a series per value of a dimension,
 * a chart type, the windows it offers and a filter — and the call that answers it. The generator checks it
 * (generator/checks/charts.ts), the server answers every chart with one generic handler
 * (server/domain/analytics/charts.ts), the portal draws it with ChartScreen (runtime/screens/chart).
 */

/** The roll-ups' metrics (the same list as server/domain/analytics/rollup.ts METRICS; a unit test holds them equal). */
export const CHART_METRICS = ['pageView', 'visitor', 'register', 'login', 'rateQuery', 'order', 'orderAmount'] as const
export type ChartMetric = (typeof CHART_METRICS)[number]

/** What a measure reads of a day's row: the events, the distinct actors (a day's UV) or the summed amount. */
export const CHART_MEASURES = ['events', 'actors', 'amount'] as const
export type ChartMeasure = (typeof CHART_MEASURES)[number]

/** The date windows of SPEC §9, in days up to today (the tenant's); a chart offers some of them. */
export const CHART_WINDOWS = [30, 60, 90, 180, 360] as const
export type ChartWindow = (typeof CHART_WINDOWS)[number]
export const DEFAULT_WINDOW: ChartWindow = 30

/** A chosen range spans at most this many days, both ends included. */
export const MAX_RANGE_DAYS = 366

/** A chart's series: none (one per measure), or one per value of the roll-up's first or second dimension. */
export type ChartSeries = 'none' | 'dim1' | 'dim2'

export interface ChartMeasureDef {
  metric: ChartMetric
  measure: ChartMeasure
  /** The series' locale key when the chart has no series dimension (analytics.series.logins). */
  label: string
}

export interface ChartDef {
  /** The area's endpoint (`endpoints:` of the same YAML, SPEC's name) that answers the chart. */
  call: string
  type: 'line' | 'bar' | 'pie'
  measures: ChartMeasureDef[]
  series?: ChartSeries
  /**
   * With series dim1/dim2 whose values are codes: the locale key prefix of their labels (`enum.transportMode` →
   * enum.transportMode.1); a value without a text shows as it is (a currency, a page name).
   */
  seriesLabels?: string
  /** The windows offered (days), the first the default; all of CHART_WINDOWS when left out. */
  windows?: ChartWindow[]
  /** A filter on the first dimension's value (UserBehavior's page), sent as `filter`. */
  filter?: { label: string }
  /** An area's binary endpoint that answers the same table as .xlsx (exportPvList). */
  export?: string
}

/** The windows a chart offers, the default first. */
export const chartWindows = (chart: Pick<ChartDef, 'windows'>): readonly ChartWindow[] =>
  chart.windows?.length ? chart.windows : CHART_WINDOWS
