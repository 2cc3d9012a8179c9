import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { parseTrackingNumbers } from '../../../rules/trackingNumbers.ts'
import { RequestError } from '../../api.ts'
import { quietClient } from '../../quietClient.ts'
import { useSession } from '../../session.ts'
import { useButtonStyles } from '../../shell/styles.ts'
import { FbaOrderCard } from './FbaOrderCard.tsx'
import { useTrackingPageStyles } from './pageStyles.ts'
import { ShipmentCard, useMarkStyles } from './ShipmentCard.tsx'
import type { HistoryEntry } from './types.ts'

/**
 * Cargo tracking (/orderTracking, /sopQuery, /tracking; the mobile site reuses it): up to 10 numbers,
 * checked by rules/trackingNumbers.ts before anything is sent. The search lives in the URL (?numbers=),
 * so the home page's quick search links here and a result can be shared. The history of searches is kept
 * in the browser for visitors and on the server for signed-in users.
 */

const LOCAL_HISTORY = 'waybill.trackingHistory'
const HISTORY_LENGTH = 10

const useStyles = makeStyles({
  form: { display: 'flex', gap: '8px', alignItems: 'stretch', flexWrap: 'wrap' },
  input: {
    flexGrow: 1,
    flexBasis: '280px',
    minWidth: 0,
    minHeight: '64px',
    padding: '8px 12px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase400,
    resize: 'vertical',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  submit: { minHeight: '40px', padding: '0 24px', fontSize: tokens.fontSizeBase400, alignSelf: 'flex-start' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '6px 12px', alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  chip: {
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    maxWidth: '100%',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
  },
  legendItem: { padding: '2px 8px', borderRadius: tokens.borderRadiusMedium, fontSize: tokens.fontSizeBase200 },
  results: { display: 'flex', flexDirection: 'column', gap: '16px' },
  notFound: {
    margin: 0,
    padding: '12px 16px',
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
  },
})

function readLocalHistory(): HistoryEntry[] {
  try {
    const list = JSON.parse(window.localStorage.getItem(LOCAL_HISTORY) ?? '[]') as unknown
    return Array.isArray(list) ? (list as HistoryEntry[]).filter((e) => Array.isArray(e?.numbers)) : []
  } catch {
    return []
  }
}

function rememberLocally(numbers: string[]): HistoryEntry[] {
  const key = numbers.join(',')
  const next = [
    { numbers, at: new Date().toISOString() },
    ...readLocalHistory().filter((e) => e.numbers.join(',') !== key),
  ]
  const kept = next.slice(0, HISTORY_LENGTH)
  try {
    window.localStorage.setItem(LOCAL_HISTORY, JSON.stringify(kept))
  } catch {
    // Private mode or a full storage: the history is a convenience, the search still runs.
  }
  return kept
}

/** The message of a refused search: the server's per-field reason when it gave one. */
function failureText(error: unknown): string {
  if (error instanceof RequestError) return error.fieldErrors[0]?.message ?? error.message
  return (error as Error)?.message ?? ''
}

export default function TrackingPage() {
  const styles = useStyles()
  const page = useTrackingPageStyles()
  const buttons = useButtonStyles()
  const marks = useMarkStyles()
  const { t } = useTranslation()
  const session = useSession()
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const inUrl = params.get('numbers') ?? ''
  const [typed, setTyped] = useState(inUrl)
  const [localHistory, setLocalHistory] = useState<HistoryEntry[]>(readLocalHistory)
  useEffect(() => setTyped(inUrl), [inUrl])

  // The URL is the search: what it holds is checked the same way as what is typed, and never sent if refused.
  const parsed = inUrl ? parseTrackingNumbers(inUrl) : null
  const numbers = parsed?.ok ? parsed.numbers.map((n) => n.number) : []
  const [formError, setFormError] = useState<string | null>(null)
  const urlError = parsed && !parsed.ok ? t(parsed.error.key, parsed.error.params) : null

  const search = useQuery({
    queryKey: ['tracking', numbers.join(','), session.loggedIn],
    enabled: numbers.length > 0 && session.view.status !== 'loading',
    retry: false,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const answer = await quietClient.booking.trackingQuery({ numbers: numbers.join(',') }, signal)
      if (session.loggedIn) void queryClient.invalidateQueries({ queryKey: ['trackingHistory'] })
      else setLocalHistory(rememberLocally(numbers))
      return answer.content
    },
  })

  const serverHistory = useQuery({
    queryKey: ['trackingHistory'],
    enabled: session.loggedIn,
    queryFn: async ({ signal }) => (await quietClient.booking.trackingHistory({}, signal)).content.entries,
  })
  const history = session.loggedIn ? (serverHistory.data ?? []) : localHistory

  function submit(event: FormEvent) {
    event.preventDefault()
    const result = parseTrackingNumbers(typed)
    if (!result.ok) {
      setFormError(t(result.error.key, result.error.params))
      return
    }
    setFormError(null)
    setParams({ numbers: result.numbers.map((n) => n.number).join(',') })
  }

  async function clearHistory() {
    if (session.loggedIn) {
      await quietClient.booking.trackingHistoryClear({}).catch(() => undefined)
      void queryClient.invalidateQueries({ queryKey: ['trackingHistory'] })
    } else {
      window.localStorage.removeItem(LOCAL_HISTORY)
      setLocalHistory([])
    }
  }

  const error = formError ?? urlError ?? (search.isError ? failureText(search.error) : null)
  const allowance = search.data?.allowance
  return (
    <section className={page.page} data-testid="tracking-page">
      <h1 className={page.title}>{t('tracking.title')}</h1>
      <p className={page.intro}>{t('tracking.intro')}</p>
      <form className={styles.form} onSubmit={submit} noValidate>
        <textarea
          className={styles.input}
          name="numbers"
          aria-label={t('tracking.numbers')}
          placeholder={t('tracking.placeholder')}
          value={typed}
          rows={2}
          onChange={(event) => {
            setTyped(event.target.value)
            setFormError(null)
          }}
          onKeyDown={(event) => {
            // Enter searches; Shift+Enter starts a new line for one number a line.
            if (event.key === 'Enter' && !event.shiftKey) submit(event)
          }}
        />
        <button type="submit" className={mergeClasses(buttons.button, buttons.primary, styles.submit)}>
          {search.isFetching ? t('tracking.searching') : t('tracking.search')}
        </button>
      </form>
      {error && (
        <p className={page.alert} role="alert" data-testid="tracking-error">
          {error}
        </p>
      )}
      {history.length > 0 && (
        <div className={styles.row} data-testid="tracking-history">
          <span className={styles.muted}>{t('tracking.history')}</span>
          {history.map((entry) => (
            <button
              type="button"
              key={entry.numbers.join(',')}
              className={mergeClasses(buttons.button, buttons.small, styles.chip)}
              onClick={() => setParams({ numbers: entry.numbers.join(',') })}
            >
              {entry.numbers.join(', ')}
            </button>
          ))}
          <button type="button" className={mergeClasses(buttons.button, buttons.small)} onClick={clearHistory}>
            {t('tracking.clearHistory')}
          </button>
        </div>
      )}
      <div className={styles.row}>
        <span className={styles.muted}>{t('tracking.legend')}</span>
        {(['new24', 'new48', 'changed24', 'cancelled'] as const).map((mark) => (
          <span key={mark} className={mergeClasses(styles.legendItem, marks[mark])}>
            {t(`tracking.mark_${mark}`)}
          </span>
        ))}
        {allowance?.limit != null && (
          <span className={styles.muted}>
            {t('tracking.allowanceLeft', { remaining: allowance.remaining, limit: allowance.limit })}
          </span>
        )}
      </div>
      {search.data && !error && (
        <section className={styles.results} data-testid="tracking-results">
          {search.data.results.map((result) =>
            result.found ? (
              [
                ...result.shipments.map((shipment, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the shipments of one number, read-only, in the server's order
                  <ShipmentCard key={`${result.number}-${index}`} number={result.number} answer={shipment} />
                )),
                // An FBA order number (issue #26): the order's milestones.
                ...result.fbaOrders.map((order) => <FbaOrderCard key={`fba-${order.orderNo}`} answer={order} />),
              ]
            ) : (
              <p key={result.number} className={styles.notFound} data-testid="tracking-not-found">
                <strong>{result.number}</strong> · {t(`tracking.kind_${result.kind}`)} — {t('tracking.notFound')}
              </p>
            ),
          )}
        </section>
      )}
    </section>
  )
}
