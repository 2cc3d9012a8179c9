import { Button, mergeClasses, Spinner } from '@fluentui/react-components'
import { useQueries } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useSearchParams } from 'react-router'
import { formatWhen } from '../../dates.ts'
import { quietClient } from '../../quietClient.ts'
import type { ScreenProps } from '../../registry.ts'
import { useSession } from '../../session.ts'
import { useButtonStyles } from '../../shell/styles.ts'
import {
  APPLY_PATHS,
  BOOK_PATHS,
  COMPARE_LIMIT,
  comparisonMarks,
  modeOfRoute,
  parseIds,
  readSelection,
  SEARCH_PATHS,
  type Selection,
  sessionStorageOf,
  viewOf,
  writeSelection,
} from './state.ts'
import { useRateStyles } from './styles.ts'
import { CONTAINER_LABELS, money, useRateTexts } from './texts.ts'
import type { PricedRate } from './types.ts'

/**
 * The comparison tables (/fclFreightRatesContrastTable, /lcl…, /air…): at most four rates side by side,
 * priced for the same cargo; the cheapest total and the quickest transit stand out, and every row whose
 * values differ is tinted. The selection is in the URL (?ids=) and in sessionStorage, so a link and the
 * tab both keep it. The home page's quick search lands here with ?pol=&pod=: with nothing chosen yet,
 * that opens the rate search for the lane.
 */

const CARGO_KEYS = ['containerType', 'containers', 'cbm', 'weightKg', 'currency'] as const

export default function RateComparison({ route }: ScreenProps) {
  useRateTexts()
  const mode = modeOfRoute(route.name)
  const styles = useRateStyles()
  const buttons = useButtonStyles()
  const { t, i18n } = useTranslation()
  const day = (value: string | null) => formatWhen(value, i18n.language, { type: 'date', empty: '—' })
  const session = useSession()
  const [params, setParams] = useSearchParams()

  const stored = useMemo(() => readSelection(sessionStorageOf(), mode), [mode])
  const fromUrl = parseIds(params.get('ids'))
  const urlQuery = Object.fromEntries(
    CARGO_KEYS.filter((key) => params.get(key)).map((key) => [key, params.get(key) as string]),
  )
  const selection: Selection = fromUrl.length
    ? { ids: fromUrl, query: Object.keys(urlQuery).length ? urlQuery : stored.query }
    : stored

  // The URL names the selection, so Back, a reload and a shared link show the same table.
  useEffect(() => {
    if (!params.get('ids') && selection.ids.length) {
      setParams(new URLSearchParams({ ...selection.query, ids: selection.ids.join(',') }), { replace: true })
    } else if (fromUrl.length) {
      writeSelection(sessionStorageOf(), mode, selection)
    }
  })

  const answers = useQueries({
    queries: selection.ids.map((id) => ({
      queryKey: ['rateQuote', id, selection.query, session.user?.userInfo.userId ?? 0, i18n.language],
      staleTime: 60_000,
      retry: false,
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await quietClient.price.rateQuote({ ...selection.query, id: String(id) }, signal)).content,
    })),
  })

  const pol = params.get('pol') ?? params.get('origin')
  const pod = params.get('pod') ?? params.get('destination')
  if (!selection.ids.length && (pol || pod)) {
    const lane = new URLSearchParams()
    if (pol) lane.set('origin', pol)
    if (pod) lane.set('destination', pod)
    return <Navigate to={`${SEARCH_PATHS[mode]}?${lane.toString()}`} replace />
  }

  const rates = answers.map((a) => a.data).filter((r): r is PricedRate => !!r)
  const loading = answers.some((a) => a.isPending)
  const missing = answers.filter((a) => a.isError).length

  function remove(id: number) {
    const next = { ...selection, ids: selection.ids.filter((x) => x !== id) }
    writeSelection(sessionStorageOf(), mode, next)
    setParams(next.ids.length ? new URLSearchParams({ ...next.query, ids: next.ids.join(',') }) : new URLSearchParams())
  }

  const views = rates.map((rate) => ({ rate, view: viewOf(rate, 'major', true) }))
  const category = (r: (typeof views)[number], c: string) =>
    r.view.categories?.find((x) => x.category === c)?.amount ?? null
  const rowDefs: { key: string; label: string; value: (r: (typeof views)[number]) => string }[] = [
    {
      key: 'carrier',
      label: t('field.carrier'),
      value: (r) => `${r.rate.carrierName ?? r.rate.carrier} (${r.rate.carrier})`,
    },
    {
      key: 'lane',
      label: t('rate.lane'),
      value: (r) => `${r.rate.originName ?? r.rate.origin} → ${r.rate.destinationName ?? r.rate.destination}`,
    },
    { key: 'rateNo', label: t('rate.rateNo'), value: (r) => r.rate.rateNo },
    ...(mode === 'FCL'
      ? [
          {
            key: 'containerType',
            label: t('rate.containerType'),
            value: (r: (typeof views)[number]) =>
              CONTAINER_LABELS[r.rate.containerType ?? ''] ?? r.rate.containerType ?? '',
          },
        ]
      : [
          {
            key: 'quantity',
            label: t(mode === 'AIR' ? 'rate.chargeableWeightLabel' : 'rate.revenueTonsLabel'),
            value: (r: (typeof views)[number]) => r.rate.chargeableQuantity,
          },
        ]),
    { key: 'transit', label: t('rate.transitDays'), value: (r) => t('rate.days', { count: r.rate.transitDays }) },
    { key: 'nextDeparture', label: t('rate.nextDeparture'), value: (r) => day(r.rate.nextDeparture) },
    {
      key: 'departureDays',
      label: t('rate.departureDays'),
      value: (r) => r.rate.departureDays.map((d) => t(`rate.weekdayShort_${d}`)).join(' ') || '—',
    },
    { key: 'validity', label: t('rate.validity'), value: (r) => `${day(r.rate.validFrom)} – ${day(r.rate.validTo)}` },
    {
      key: 'freight',
      label: t('rate.freightUnit'),
      value: (r) => money(r.rate.freight.unitPrice, r.rate.freight.currency),
    },
    { key: 'origin', label: t('rate.category_origin'), value: (r) => money(category(r, 'origin'), r.rate.currency) },
    {
      key: 'freightTotal',
      label: t('rate.category_freight'),
      value: (r) => money(category(r, 'freight'), r.rate.currency),
    },
    {
      key: 'destination',
      label: t('rate.category_destination'),
      value: (r) => money(category(r, 'destination'), r.rate.currency),
    },
    { key: 'currency', label: t('rate.rateCurrencyLabel'), value: (r) => r.rate.rateCurrency },
    { key: 'total', label: t('rate.allInTotal'), value: (r) => money(r.view.total, r.rate.currency) },
    { key: 'remarks', label: t('field.remarks'), value: (r) => r.rate.remarks ?? '—' },
  ]
  const marks = comparisonMarks(
    views.map((r) => ({ id: r.rate.id, total: r.view.total, transitDays: r.rate.transitDays })),
    Object.fromEntries(rowDefs.map((row) => [row.key, views.map(row.value)])),
  )
  const canApply = session.permissions.has('spaApplyList')
  const first = rates[0]
  const back = first
    ? `${SEARCH_PATHS[mode]}?${new URLSearchParams({ origin: first.origin, destination: first.destination, ...selection.query }).toString()}`
    : SEARCH_PATHS[mode]

  return (
    <section className={styles.page} data-testid="rate-comparison" data-mode={mode}>
      <div className={styles.titleRow}>
        <h1 className={styles.title}>{t(`rate.compareTitle_${mode}`)}</h1>
        <Link className={styles.link} to={back}>
          {t('rate.backToSearch')}
        </Link>
      </div>
      <p className={styles.subtitle}>{t('rate.compareIntro', { limit: COMPARE_LIMIT })}</p>
      {!selection.ids.length && (
        <p className={styles.empty} data-testid="rate-compare-empty">
          {t('rate.compareEmpty')}{' '}
          <Link className={styles.link} to={SEARCH_PATHS[mode]}>
            {t('rate.searchButton')}
          </Link>
        </p>
      )}
      {loading && <Spinner />}
      {missing > 0 && (
        <p className={styles.notice} role="status">
          {t('rate.compareMissing', { count: missing })}
        </p>
      )}
      {views.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className={styles.compare} data-testid="rate-compare-table">
            <thead>
              <tr>
                <th scope="col">{t('rate.compareCount', { count: views.length, limit: COMPARE_LIMIT })}</th>
                {views.map(({ rate }) => (
                  <th key={rate.id} scope="col" data-testid="rate-compare-column" data-rate-id={rate.id}>
                    <div className={styles.strong}>{rate.carrierName ?? rate.carrier}</div>
                    <Button
                      size="small"
                      appearance="subtle"
                      onClick={() => remove(rate.id)}
                      data-testid="rate-compare-remove"
                    >
                      {t('rate.compareRemove')}
                    </Button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rowDefs.map((row) => (
                <tr
                  key={row.key}
                  data-testid={`rate-compare-row-${row.key}`}
                  data-differs={marks.differs.has(row.key) ? 'true' : 'false'}
                >
                  <th scope="row" className={mergeClasses(marks.differs.has(row.key) && styles.differs)}>
                    {row.label}
                  </th>
                  {views.map((r) => {
                    const best =
                      (row.key === 'total' && marks.cheapest.has(r.rate.id)) ||
                      (row.key === 'transit' && marks.fastest.has(r.rate.id))
                    return (
                      <td
                        key={r.rate.id}
                        className={mergeClasses(
                          best && styles.best,
                          !best && marks.differs.has(row.key) && styles.differs,
                        )}
                        data-best={best ? 'true' : undefined}
                      >
                        {row.value(r)}
                        {best && (
                          <span className={styles.hint}>
                            {' '}
                            · {t(row.key === 'total' ? 'rate.cheapestMark' : 'rate.fastestMark')}
                          </span>
                        )}
                      </td>
                    )
                  })}
                </tr>
              ))}
              <tr>
                <th scope="row" />
                {views.map(({ rate }) => {
                  const query = new URLSearchParams({ rateId: String(rate.id), ...selection.query }).toString()
                  return (
                    <td key={rate.id}>
                      <div className={styles.row}>
                        <Link
                          className={mergeClasses(buttons.button, buttons.primary)}
                          to={`${BOOK_PATHS[mode]}?${query}`}
                        >
                          {t('rate.book')}
                        </Link>
                        {canApply && (
                          <Link className={styles.link} to={`${APPLY_PATHS[mode]}?${query}`}>
                            {t('rate.applySpecial')}
                          </Link>
                        )}
                      </div>
                    </td>
                  )
                })}
              </tr>
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
