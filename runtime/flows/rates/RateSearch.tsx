import {
  Badge,
  Button,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  Select,
  Spinner,
  ToggleButton,
} from '@fluentui/react-components'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useSearchParams } from 'react-router'
import { chargeableWeightKg } from '../../../rules/pricing.ts'
import { RequestError } from '../../api.ts'
import { useEffects } from '../../effects.tsx'
import { quietClient } from '../../quietClient.ts'
import type { ScreenProps } from '../../registry.ts'
import { loginPath } from '../../routing/access.ts'
import { useSession } from '../../session.ts'
import { ReferenceCombobox } from '../../widgets/ReferenceCombobox.tsx'
import { RateCard } from './RateCard.tsx'
import {
  addToSelection,
  COMPARE_LIMIT,
  CONTAINER_TYPES,
  CURRENCIES,
  cargoQuery,
  comparisonPath,
  DISPLAYS,
  modeOfRoute,
  parseSearch,
  readSelection,
  removeFromSelection,
  SEARCH_PATHS,
  type SearchState,
  type Selection,
  SORTS,
  searchParamsOf,
  sessionStorageOf,
  sortedResults,
  writeSelection,
} from './state.ts'
import { useRateStyles } from './styles.ts'
import { CONTAINER_LABELS, useRateTexts } from './texts.ts'
import type { RateMode } from './types.ts'

/**
 * Rate search (SPEC §1 "freight-rate inquiry"): /productService (FCL), /lclProductService, /airProductService.
 * The search lives in the URL, so Back, a shared link and the home page's quick search (?origin=&destination=
 * or ?pol=&pod=, &containerType=) all restore it. The server is asked once per lane, cargo and currency
 * with every charge, all-in; order, charge display and freight-only are read from that answer (state.ts),
 * so they never spend a visitor's query allowance.
 */

/** A search's answer fills at least a screen (the full site is drawn at 75 % on a phone): the footer waits below it, out of view. */
const useReserveStyles = makeStyles({
  answer: { minHeight: '100vh', display: 'flex', flexDirection: 'column', gap: '16px' },
})

const PAGE_SIZE = 10
/** The most rates one search answers (the server's page limit); the cheapest come first. */
const FETCH_SIZE = 100
const today = () => new Date().toISOString().slice(0, 10)

export default function RateSearch({ route }: ScreenProps) {
  useRateTexts()
  const mode = modeOfRoute(route.name)
  const styles = useRateStyles()
  const reserve = useReserveStyles()
  const { t, i18n } = useTranslation()
  const session = useSession()
  const effects = useEffects()
  const location = useLocation()
  const [params, setParams] = useSearchParams()
  const state = useMemo(() => parseSearch(params, mode), [params, mode])
  const [draft, setDraft] = useState<SearchState>(state)
  const [formError, setFormError] = useState<string | null>(null)
  useEffect(() => setDraft(state), [state])

  const ready = !!state.origin && !!state.destination
  const search = useQuery({
    queryKey: [
      'rateSearch',
      mode,
      state.origin,
      state.destination,
      state.date,
      state.containerType,
      state.containers,
      state.cbm,
      state.weightKg,
      state.carriers.join(','),
      state.currency,
      session.user?.userInfo.userId ?? 0,
      i18n.language,
    ],
    enabled: ready && session.view.status !== 'loading',
    retry: false,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const answer = await quietClient.price.rateSearch(
        {
          mode,
          origin: state.origin,
          destination: state.destination,
          ...(state.date ? { date: state.date } : {}),
          ...(mode === 'FCL'
            ? { containerType: state.containerType, containers: state.containers }
            : { cbm: Number(state.cbm), weightKg: Number(state.weightKg) }),
          ...(state.carriers.length ? { carrier: state.carriers } : {}),
          ...(state.currency ? { currency: state.currency } : {}),
          sort: 'cheapest',
          chargeDisplay: 'all',
          allIn: true,
          pageNum: 1,
          pageSize: FETCH_SIZE,
        },
        signal,
      )
      return answer.content
    },
  })
  // Before the first search (and after a refusal) the allowance is read without spending it.
  const peek = useQuery({
    queryKey: ['rateAllowance', session.user?.userInfo.userId ?? 0],
    enabled: session.view.status !== 'loading',
    staleTime: 30_000,
    queryFn: async ({ signal }) => (await quietClient.price.rateAllowance({}, signal)).content,
  })
  const allowance = search.data?.allowance ?? peek.data

  const [selection, setSelection] = useState<Selection>(() => readSelection(sessionStorageOf(), mode))
  const [compareMessage, setCompareMessage] = useState<string | null>(null)
  const query = cargoQuery(state, mode)

  function toggleCompare(id: number) {
    if (selection.ids.includes(id)) {
      const next = removeFromSelection(selection, id)
      setSelection(next)
      writeSelection(sessionStorageOf(), mode, next)
      setCompareMessage(null)
      return
    }
    const outcome = addToSelection(selection, id, query)
    if (!outcome.ok) {
      const text = t(outcome.reason === 'full' ? 'rate.compareFull' : 'rate.compareAlready', { limit: COMPARE_LIMIT })
      setCompareMessage(text)
      effects.toast(text, { intent: 'warning', id: 'rateCompare' })
      return
    }
    setSelection(outcome.selection)
    writeSelection(sessionStorageOf(), mode, outcome.selection)
    setCompareMessage(null)
  }

  function go(next: SearchState, replace = false) {
    setParams(searchParamsOf(next, mode), { replace })
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!draft.origin || !draft.destination) {
      setFormError(t('rate.laneRequired'))
      return
    }
    if (draft.origin === draft.destination) {
      setFormError(t('rate.sameLane'))
      return
    }
    if (mode !== 'FCL' && (!(Number(draft.cbm) > 0) || !(Number(draft.weightKg) > 0))) {
      setFormError(t('rate.cargoRequired'))
      return
    }
    setFormError(null)
    go({ ...draft, page: 1 })
  }

  const rows = useMemo(
    () => (search.data ? sortedResults(search.data.list, state.sort, state.allIn) : []),
    [search.data, state.sort, state.allIn],
  )
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE))
  const page = Math.min(state.page, pages)
  const shown = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
  const refused = search.error instanceof RequestError && search.error.code === '340002'
  const canApply = session.permissions.has('spaApplyList')
  const lookup = mode === 'AIR' ? 'airport' : 'port'
  const own = (session.user?.individuationCurrency as string | null | undefined) ?? null
  const here = `${location.pathname}${location.search}`
  const chargeable =
    mode === 'AIR' && Number(draft.weightKg) >= 0 && Number(draft.cbm) >= 0
      ? safeChargeable(draft.weightKg || '0', draft.cbm || '0')
      : null

  return (
    <section className={styles.page} data-testid="rate-search" data-mode={mode}>
      <div className={styles.hero}>
        <div className={styles.titleRow}>
          <h1 className={styles.title}>{t(`rate.searchTitle_${mode}`)}</h1>
          <nav className={styles.modes} aria-label={t('rate.mode')}>
            {(['FCL', 'LCL', 'AIR'] as const).map((m) => (
              <Link
                key={m}
                to={SEARCH_PATHS[m]}
                className={mergeClasses(styles.modeLink, m === mode && styles.modeActive)}
                aria-current={m === mode ? 'page' : undefined}
              >
                {t(`enum.containerLoadType.${m}`)}
              </Link>
            ))}
          </nav>
        </div>
        <p className={styles.subtitle}>{t(`rate.searchIntro_${mode}`)}</p>
        <form className={styles.form} onSubmit={submit} noValidate data-testid="rate-search-form">
          <Field label={t(mode === 'AIR' ? 'rate.originAirport' : 'rate.origin')} className={styles.wide}>
            <ReferenceCombobox
              entity={lookup}
              values={draft.origin ? [draft.origin] : []}
              onChange={(values) => setDraft({ ...draft, origin: values[0] ?? '' })}
              ariaLabel={t(mode === 'AIR' ? 'rate.originAirport' : 'rate.origin')}
              placeholder={t(mode === 'AIR' ? 'rate.airportPlaceholder' : 'rate.portPlaceholder')}
            />
          </Field>
          <Field label={t(mode === 'AIR' ? 'rate.destinationAirport' : 'rate.destination')} className={styles.wide}>
            <ReferenceCombobox
              entity={lookup}
              values={draft.destination ? [draft.destination] : []}
              onChange={(values) => setDraft({ ...draft, destination: values[0] ?? '' })}
              ariaLabel={t(mode === 'AIR' ? 'rate.destinationAirport' : 'rate.destination')}
              placeholder={t(mode === 'AIR' ? 'rate.airportPlaceholder' : 'rate.portPlaceholder')}
            />
          </Field>
          <Field label={t('rate.searchDate')}>
            <Input
              type="date"
              value={draft.date || today()}
              min={today()}
              onChange={(_, data) => setDraft({ ...draft, date: data.value === today() ? '' : data.value })}
            />
          </Field>
          {mode === 'FCL' ? (
            <>
              <Field label={t('rate.containerType')}>
                <Select
                  value={draft.containerType}
                  onChange={(_, data) => setDraft({ ...draft, containerType: data.value })}
                >
                  {CONTAINER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {CONTAINER_LABELS[type]}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label={t('rate.containers')}>
                <Input
                  type="number"
                  min={1}
                  max={999}
                  value={String(draft.containers)}
                  onChange={(_, data) =>
                    setDraft({ ...draft, containers: Math.min(999, Math.max(1, Math.trunc(Number(data.value)) || 1)) })
                  }
                />
              </Field>
            </>
          ) : (
            <>
              <Field label={t('rate.cbm')}>
                <Input
                  inputMode="decimal"
                  value={draft.cbm}
                  onChange={(_, data) => setDraft({ ...draft, cbm: cleanDecimal(data.value) })}
                />
              </Field>
              <Field
                label={t('rate.weightKg')}
                hint={chargeable ? t('rate.chargeableWeight', { kg: chargeable }) : undefined}
              >
                <Input
                  inputMode="decimal"
                  value={draft.weightKg}
                  onChange={(_, data) => setDraft({ ...draft, weightKg: cleanDecimal(data.value) })}
                />
              </Field>
            </>
          )}
          <Field label={t('field.carrier')} className={styles.wide}>
            <ReferenceCombobox
              entity="carrier"
              multiple
              mode={mode === 'AIR' ? 'air' : 'sea'}
              values={draft.carriers}
              onChange={(values) => setDraft({ ...draft, carriers: values })}
              ariaLabel={t('field.carrier')}
              placeholder={t('rate.anyCarrier')}
            />
          </Field>
          <Button type="submit" appearance="primary" className={styles.submit} data-testid="rate-search-submit">
            {t('rate.searchButton')}
          </Button>
        </form>
        {formError && (
          <p className={styles.alert} role="alert">
            {formError}
          </p>
        )}
      </div>

      <div className={styles.toolbar} data-testid="rate-toolbar">
        <fieldset className={styles.group} aria-label={t('rate.sortBy')}>
          <span className={styles.groupLabel}>{t('rate.sortBy')}</span>
          {SORTS.map((sort) => (
            <ToggleButton
              key={sort}
              size="small"
              checked={state.sort === sort}
              onClick={() => go({ ...state, sort, page: 1 }, true)}
              data-testid={`rate-sort-${sort}`}
            >
              {t(`rate.sort_${sort}`)}
            </ToggleButton>
          ))}
        </fieldset>
        <fieldset className={styles.group} aria-label={t('rate.chargeDisplay')}>
          <span className={styles.groupLabel}>{t('rate.chargeDisplay')}</span>
          {DISPLAYS.map((display) => (
            <ToggleButton
              key={display}
              size="small"
              checked={state.display === display}
              onClick={() => go({ ...state, display }, true)}
              data-testid={`rate-display-${display}`}
            >
              {t(`rate.display_${display}`)}
            </ToggleButton>
          ))}
        </fieldset>
        <fieldset className={styles.group} aria-label={t('rate.priceScope')}>
          <ToggleButton
            size="small"
            checked={state.allIn}
            onClick={() => go({ ...state, allIn: true }, true)}
            data-testid="rate-allin"
          >
            {t('rate.allIn')}
          </ToggleButton>
          <ToggleButton
            size="small"
            checked={!state.allIn}
            onClick={() => go({ ...state, allIn: false }, true)}
            data-testid="rate-freight-only"
          >
            {t('rate.freightOnly')}
          </ToggleButton>
        </fieldset>
        <div className={styles.group}>
          <label className={styles.groupLabel} htmlFor="rate-currency">
            {t('rate.showIn')}
          </label>
          <Select
            id="rate-currency"
            size="small"
            value={state.currency}
            onChange={(_, data) => go({ ...state, currency: data.value, page: 1 }, true)}
            data-testid="rate-currency"
          >
            <option value="">{own ? t('rate.myCurrency', { currency: own }) : t('rate.rateCurrency')}</option>
            {CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {t(`enum.currency.${currency}`)}
              </option>
            ))}
          </Select>
        </div>
        {allowance?.limited && (
          <Badge appearance="tint" color={allowance.remaining ? 'informative' : 'danger'} data-testid="rate-allowance">
            {t('rate.allowanceLeft', { remaining: allowance.remaining ?? 0, limit: allowance.limit ?? 0 })}
          </Badge>
        )}
      </div>

      {refused && (
        <p className={styles.alert} role="alert" data-testid="rate-refused">
          {(search.error as RequestError).message}{' '}
          {!session.loggedIn && (
            <Link className={styles.link} to={loginPath(here)}>
              {t('rate.loginForMore')}
            </Link>
          )}
        </p>
      )}
      {search.isError && !refused && (
        <p className={styles.alert} role="alert" data-testid="rate-error">
          {fieldMessage(search.error) || t('ui.hasError')}
        </p>
      )}
      {compareMessage && (
        <p className={styles.notice} role="status" data-testid="rate-compare-message">
          {compareMessage}
        </p>
      )}

      {!ready && <p className={styles.empty}>{t('rate.startHint')}</p>}
      {/* The answer's room is kept from the start, so its arrival moves nothing below it (issue #18, CLS). */}
      {(ready || search.data) && (
        <div className={reserve.answer} data-testid="rate-answer">
          {ready && search.isFetching && !search.data && <Spinner label={t('rate.searching')} />}
          {search.data && (
            <>
              <p className={styles.hint} data-testid="rate-count">
                {t('rate.resultCount', { count: search.data.total })}
                {search.data.total > FETCH_SIZE ? ` ${t('rate.firstShown', { count: FETCH_SIZE })}` : ''}
                {search.data.priceLevel ? ` · ${t('rate.yourLevel', { level: search.data.priceLevel })}` : ''}
              </p>
              {rows.length === 0 ? (
                <p className={styles.empty} data-testid="rate-no-results">
                  {t('rate.noResults')}
                </p>
              ) : (
                <div className={styles.results} data-testid="rate-results">
                  {shown.map(({ rate }) => (
                    <RateCard
                      key={rate.id}
                      rate={rate}
                      mode={mode}
                      display={state.display}
                      allIn={state.allIn}
                      compared={selection.ids.includes(rate.id)}
                      onCompare={() => toggleCompare(rate.id)}
                      canApply={canApply}
                      query={query}
                    />
                  ))}
                </div>
              )}
              {pages > 1 && (
                <nav className={styles.pager} aria-label={t('rate.pages')}>
                  <Button size="small" disabled={page <= 1} onClick={() => go({ ...state, page: page - 1 })}>
                    {t('rate.previous')}
                  </Button>
                  <span>{t('rate.pageOf', { page, pages })}</span>
                  <Button size="small" disabled={page >= pages} onClick={() => go({ ...state, page: page + 1 })}>
                    {t('rate.next')}
                  </Button>
                </nav>
              )}
            </>
          )}
        </div>
      )}

      {selection.ids.length > 0 && (
        <div className={styles.tray} data-testid="rate-compare-tray">
          <span>{t('rate.compareCount', { count: selection.ids.length, limit: COMPARE_LIMIT })}</span>
          <Link className={styles.link} to={comparisonPath(mode, selection)} data-testid="rate-compare-open">
            {t('rate.compareOpen')}
          </Link>
          <Button
            size="small"
            appearance="subtle"
            onClick={() => {
              const next = { ...selection, ids: [] }
              setSelection(next)
              writeSelection(sessionStorageOf(), mode, next)
              setCompareMessage(null)
            }}
          >
            {t('rate.compareClear')}
          </Button>
        </div>
      )}
    </section>
  )
}

/** Keeps what a CBM or kg box may hold: digits and one point, at most 3 decimals. */
function cleanDecimal(value: string): string {
  const match = /^\d{0,7}(\.\d{0,3})?/.exec(value.replace(',', '.'))
  return match?.[0] ?? ''
}

function safeChargeable(kg: string, cbm: string): string | null {
  try {
    return chargeableWeightKg(kg.endsWith('.') ? kg.slice(0, -1) : kg, cbm.endsWith('.') ? cbm.slice(0, -1) : cbm)
  } catch {
    return null
  }
}

function fieldMessage(error: unknown): string {
  if (error instanceof RequestError) return error.fieldErrors[0]?.message ?? error.message
  return ''
}

export type { RateMode }
