import {
  Button,
  Field,
  Input,
  MessageBar,
  makeStyles,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Title3,
  tokens,
} from '@fluentui/react-components'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, lazy, Suspense, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { AnalyticsChart } from '../../../generated/content.ts'
import { type ChartDef, chartGroup, chartWindows } from '../../../model/chart.ts'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { useClient } from '../../client.tsx'
import { exportFrom, refusalText } from '../../download.ts'
import { useEffects } from '../../effects.tsx'
import { useTenantScreen } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { LoadFailed } from '../LoadFailed.tsx'
import { clientCall, namedEndpoint } from '../manifest.ts'

/** ECharts comes with this chunk only, after the figures: the table shows while the chart loads. */
const EChart = lazy(() => import('./EChart.tsx'))

const useStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  controls: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  body: { display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: tokens.spacingHorizontalL },
  table: { maxHeight: '420px', overflowY: 'auto' },
  number: { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
})

/** What the address says of the chart: a window, or a chosen range, the filter and the group (?window=90, ?group=lane). */
function queryOf(params: URLSearchParams, chart: ChartDef): Record<string, string> {
  const query: Record<string, string> = {}
  const beginDate = params.get('beginDate')
  const endDate = params.get('endDate')
  if (beginDate && endDate) Object.assign(query, { beginDate, endDate })
  else query.window = params.get('window') ?? String(chartWindows(chart)[0])
  const filter = params.get('filter')
  if (chart.filter && filter) query.filter = filter
  const group = chartGroup(chart, params.get('group') ?? undefined) ?? chartGroup(chart, undefined)
  if (group) query.group = group.name
  return query
}

function ChartView({ screen, chart }: { screen: ManifestScreen; chart: ChartDef }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const [params, setParams] = useSearchParams()
  const query = useMemo(() => queryOf(params, chart), [params, chart])
  const call = clientCall(client, namedEndpoint(chart.call))
  const figures = useQuery({
    queryKey: ['chart', chart.call, query, i18n.language],
    queryFn: async ({ signal }) => {
      if (!call) throw new Error(t('analytics.loadFailed'))
      return chartAnswer((await call(query, signal)).content, t('analytics.loadFailed'))
    },
  })
  const [range, setRange] = useState({ beginDate: params.get('beginDate') ?? '', endDate: params.get('endDate') ?? '' })
  const [filter, setFilter] = useState(params.get('filter') ?? '')
  const number = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }), [i18n.language])
  const data = figures.data
  const title = t(screen.title)

  const group = chartGroup(chart, query.group)
  const chooseGroup = (name: string) => {
    const next = new URLSearchParams(params)
    next.set('group', name)
    setParams(next)
  }
  const chooseWindow = (window: string) => {
    const next = new URLSearchParams(params)
    next.delete('beginDate')
    next.delete('endDate')
    next.set('window', window)
    setParams(next)
  }
  const applyRange = (event: FormEvent) => {
    event.preventDefault()
    const next = new URLSearchParams(params)
    if (range.beginDate && range.endDate) {
      next.delete('window')
      next.set('beginDate', range.beginDate)
      next.set('endDate', range.endDate)
    }
    if (chart.filter) {
      if (filter.trim()) next.set('filter', filter.trim())
      else next.delete('filter')
    }
    setParams(next)
  }
  const download = async () => {
    const endpoint = namedEndpoint(chart.export)
    if (!endpoint) return
    try {
      await exportFrom(endpoint, query, `${screen.name}.xlsx`)
    } catch (error) {
      effects.toast(refusalText(error), { intent: 'error' })
    }
  }

  return (
    <div className={styles.screen}>
      <div className={styles.head}>
        <Title3 as="h1">{title}</Title3>
        {figures.isFetching && <Spinner size="extra-tiny" aria-label={t('ui.loading')} />}
      </div>
      <form className={styles.controls} onSubmit={applyRange}>
        <Field label={t('analytics.window')}>
          <Select
            value={query.window ?? ''}
            onChange={(_, option) => chooseWindow(option.value)}
            data-testid="chart-window"
          >
            {query.window === undefined && <option value="">{t('analytics.range')}</option>}
            {chartWindows(chart).map((days) => (
              <option key={days} value={String(days)}>
                {t(`analytics.window${days}`)}
              </option>
            ))}
          </Select>
        </Field>
        {chart.groups && chart.groups.length > 1 && (
          <Field label={t('analytics.groupBy')}>
            <Select value={query.group} onChange={(_, option) => chooseGroup(option.value)} data-testid="chart-group">
              {chart.groups.map((one) => (
                <option key={one.name} value={one.name}>
                  {t(one.label)}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Field label={t('field.beginDate')}>
          <Input
            type="date"
            value={range.beginDate}
            onChange={(_, v) => setRange((r) => ({ ...r, beginDate: v.value }))}
          />
        </Field>
        <Field label={t('field.endDate')}>
          <Input type="date" value={range.endDate} onChange={(_, v) => setRange((r) => ({ ...r, endDate: v.value }))} />
        </Field>
        {chart.filter && (
          <Field label={t(chart.filter.label)}>
            <Input value={filter} maxLength={200} onChange={(_, v) => setFilter(v.value)} />
          </Field>
        )}
        <Button type="submit">{t('analytics.apply')}</Button>
        {chart.export && (
          <Button type="button" onClick={() => void download()} disabled={!data}>
            {t('analytics.export')}
          </Button>
        )}
      </form>
      {figures.isPending && <Spinner label={t('ui.loading')} />}
      {figures.isError && (
        <LoadFailed
          message={figures.error?.message}
          fallback="analytics.loadFailed"
          retry={() => void figures.refetch()}
        />
      )}
      {data && data.series.length === 0 && <MessageBar intent="info">{t('analytics.empty')}</MessageBar>}
      {data && data.series.length > 0 && (
        <div className={styles.body}>
          <Suspense fallback={<Spinner />}>
            <EChart
              type={chart.type}
              points={data.categories ? data.categories.map((c) => c.label) : data.days}
              grouped={data.categories !== undefined}
              series={data.series}
              title={title}
            />
          </Suspense>
          <div className={styles.table}>
            <Table size="small" aria-label={t('analytics.table')} data-testid="chart-table">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t(group && data.categories ? group.label : 'analytics.day')}</TableHeaderCell>
                  {data.series.map((s) => (
                    <TableHeaderCell key={s.key} className={styles.number}>
                      {s.label}
                    </TableHeaderCell>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {(data.categories ?? data.days.map((day) => ({ key: day, label: day }))).map((point, i) => (
                  <TableRow
                    key={point.key}
                    {...(data.categories ? { 'data-category': point.key } : { 'data-day': point.key })}
                  >
                    <TableCell>{point.label}</TableCell>
                    {data.series.map((s) => (
                      <TableCell key={s.key} className={styles.number} data-series={s.key} data-value={s.values[i]}>
                        {number.format(s.values[i] ?? 0)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
                <TableRow data-day="total">
                  <TableCell>
                    <strong>{t('analytics.total')}</strong>
                  </TableCell>
                  {data.series.map((s) => (
                    <TableCell key={s.key} className={styles.number} data-series={s.key} data-value={s.total}>
                      <strong>{number.format(s.total)}</strong>
                    </TableCell>
                  ))}
                </TableRow>
              </TableBody>
            </Table>
          </div>
        </div>
      )}
    </div>
  )
}

/** A screen of kind chart (issue #28): its figures as a chart and as a table, window, range and filter in the URL. */
export default function ChartScreen({ route }: ScreenProps) {
  const { t } = useTranslation()
  const { ready, screen } = useTenantScreen(route.name)
  if (!ready) return <Spinner />
  if (!screen?.chart) return <MessageBar intent="warning">{t('ui.screenMissing', { name: route.name })}</MessageBar>
  return <ChartView screen={screen} chart={screen.chart} />
}

/** A chart call's answer (every chart call answers analyticsChart, screens/analytics.yaml): checked, not cast. */
function chartAnswer(content: unknown, failed: string): AnalyticsChart {
  if (isChart(content)) return content
  throw new Error(failed)
}

function isChart(value: unknown): value is AnalyticsChart {
  if (typeof value !== 'object' || value === null) return false
  return 'days' in value && Array.isArray(value.days) && 'series' in value && Array.isArray(value.series)
}
