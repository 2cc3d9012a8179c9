/**
 * The chart screen kind (issue #28): a screen of screens/*.yaml with `kind: chart` names what it counts — one or
 * more measures of the daily roll-ups (server/domain/analytics/rollup.ts), a series per value of a dimension,
 * a chart type, the windows it offers and a filter — and the call that answers it. The generator checks it
 * (generator/checks/charts.ts), the server answers every chart with one generic handler
 * (server/domain/analytics/charts.ts), the portal draws it with ChartScreen (runtime/screens/chart).
 */

/** The roll-ups' metrics (server/domain/analytics/rollup.ts tallies them into analytics_daily), each with its dimensions. */
export const CHART_METRICS = [
  /** A page view: dim1 the page's name, dim2 its route; actor the visitor's cookie. */
  'pageView',
  /**
   * A visit of the site by one visitor (one per visitor and day, tallied `once`): actor the visitor's cookie; dim1
   * the user type — '0' not signed in, else the session's companyUserType (1 provider, 2 enterprise, 3 order list).
   */
  'visitor',
  /** A registration: dim1 the channel (mobile, email, invitation…); actor the user. */
  'register',
  /** A sign-in: dim1 the method (password, code…); actor the user. */
  'login',
  /** A rate search by a signed-in user: dim1 the mode (FCL, LCL, AIR…); actor the user. */
  'rateQuery',
  /** An order placed: dim1 the mode, dim2 the lane (POL-POD); actor the ordering company (or user). */
  'order',
  /** An order's amount: dim1 the currency, dim2 the mode; actor the ordering company. */
  'orderAmount',
  /**
   * An order's freight charges (category freight), for FreightReview: dim1 the currency, dim2 `lane:<POL-POD>` or
   * `customer:<company id>` (two rows per change: a grouped chart reads one group at a time).
   */
  'freightAmount',
  /** An order's whole amount (every charge), for BookingReview: as freightAmount. */
  'bookingAmount',
] as const
export type ChartMetric = (typeof CHART_METRICS)[number]

/**
 * Chart sources besides the roll-ups (server/domain/analytics/sources.ts registers them), each with the metrics it
 * answers: a grouped chart with `source:` reads its rows there (UserPortrait's personal users) instead of from
 * analytics_daily.
 */
export const CHART_SOURCES: Readonly<Record<string, readonly string[]>> = {
  /** The tenant's personal users, counted once per category (server/domain/analytics/portrait.ts). */
  personalUsers: ['users'],
}

/** The roll-up metrics that sum an amount (the others count events and actors only). */
export const AMOUNT_METRICS: readonly ChartMetric[] = ['orderAmount', 'freightAmount', 'bookingAmount']

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
  /** A roll-up metric, or with `source:` one of that source's metrics (CHART_SOURCES). */
  metric: string
  measure: ChartMeasure
  /** The series' locale key when the chart has no series dimension (analytics.series.logins). */
  label: string
}

/**
 * A chart's axis when it totals its window per value of a group instead of per day (FreightReview's lanes and
 * customers, UserPortrait's regions): from the roll-ups, the rows whose dim2 is `<name>:<value>`, summed over the
 * window's days; from a source, what the source answers for the group.
 */
export interface ChartGroupDef {
  /** The group's name: in the URL (?group=) and, from the roll-ups, dim2's prefix (`lane:CNSHA-USLAX`). */
  name: string
  /** The locale key of the group (the chooser, the table's first column). */
  label: string
  /** Values are ids of this entity, labelled by its display field (a customer's company id → its name). */
  entity?: string
  /** Values are codes labelled through this locale key prefix (`enum.x` → enum.x.<value>). */
  labels?: string
}

/** At most this many categories along a grouped chart's axis (the answer's bound, schemas/analyticsChart.yaml). */
export const MAX_CATEGORIES = 200

/** The name of a group's value in a roll-up row's dim2. */
export const groupDim = (group: string, value: string) => `${group}:${value}`

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
  /** An area's binary endpoint that answers the same table as .xlsx (exportPvList: a POST of the chart's query). */
  export?: string
  /** The axis: the window totalled per value of one of these groups (the first by default), not per day. */
  groups?: ChartGroupDef[]
  /** A grouped chart's rows from this registered source (CHART_SOURCES) instead of the roll-ups. */
  source?: string
}

/** The group a query chooses (`group`), the chart's first when it names none; undefined when it offers none. */
export function chartGroup(chart: Pick<ChartDef, 'groups'>, name: string | undefined): ChartGroupDef | undefined {
  const groups = chart.groups ?? []
  return name === undefined ? groups[0] : groups.find((group) => group.name === name)
}

/** The windows a chart offers, the default first. */
export const chartWindows = (chart: Pick<ChartDef, 'windows'>): readonly ChartWindow[] =>
  chart.windows?.length ? chart.windows : CHART_WINDOWS
