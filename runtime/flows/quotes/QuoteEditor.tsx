import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarBody,
  Spinner,
} from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import type { QuoteItem } from '../../../generated/content.ts'
import type { Quote } from '../../../generated/types.ts'
import * as validators from '../../../generated/validators.js'
import { compareDecimal } from '../../../rules/decimal.ts'
import { type CurrencyRate, quoteEditable, quoteFigures } from '../../../rules/quotes.ts'
import { RequestError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import { useEffects } from '../../effects.tsx'
import { EntityForm } from '../../forms/EntityForm.tsx'
import { useTenantScreen } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { WHOLE_MANIFEST } from '../../routing/manifestPart.ts'
import { entityDef, loadManifest, type PortalEntity } from '../../screens/manifest.ts'
import { useSession } from '../../session.ts'
import { money, useRateTexts } from '../rates/texts.ts'
import { InquiryPanel } from './InquiryPanel.tsx'
import type { ChargeLine, InquirySummary } from './shared.ts'
import { useQuoteStyles } from './shared.ts'

/**
 * The operator's quote editor (/inquiryQuoteDetails): ?inquiry=<id> starts a quote for that inquiry,
 * ?id=<quoteId> opens one. The generic entity form draws the quote (charge lines as its sub-table, the
 * generated validators at each cell); beside it the amounts, subtotals and total worked out live with the
 * server's own decimal code (rules/quotes.ts), for display only. A low fee is confirmed and resent; the
 * actions follow the quote's state (schemas/quote.yaml).
 */

type Data = Record<string, unknown>
type Loaded = {
  /** The quote as GET /b2b/quote/getItem answers it, its inquiry apart. */
  quote: Omit<QuoteItem, 'inquiry' | 'exchangeRates'> | null
  inquiry: InquirySummary
  rates: Map<string, CurrencyRate>
}

/** The transitions of a quote's review (schemas/quote.yaml): who did them is the review's log. */
const REVIEW_STEPS = ['submit', 'approve', 'decline']

/** The server's low-fee refusal (server/domain/quotes/totals.ts): a question for the operator, not an error to toast. */
const LOW_FEE = 'rule.quoteLowFee'
const asksLowFeeConfirmation = (error: RequestError) => error.fieldErrors.some((e) => e.key === LOW_FEE)

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

export default function QuoteEditor({ route }: ScreenProps) {
  useRateTexts()
  const styles = useQuoteStyles()
  const { t, i18n } = useTranslation()
  const client = useClient(asksLowFeeConfirmation)
  const effects = useEffects()
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const id = Number(params.get('id')) || null
  const inquiryParam = Number(params.get('inquiry')) || null
  // The form's sections and fields are the screen's (screens/quotes.yaml), with the tenant's overlay.
  const tenant = useTenantScreen(route.name)
  const entity = tenant.entity ?? entityDef('quote')
  const [draft, setDraft] = useState<Data | null>(null)
  const [busy, setBusy] = useState(false)
  const session = useSession()
  // The reason a reviewer gives when turning a quote back: the decline transition's input entity's form.
  const [declining, setDeclining] = useState<PortalEntity | null>(null)

  const key = ['quoteEditor', id, inquiryParam, i18n.language]
  const loaded = useQuery({
    queryKey: key,
    enabled: id !== null || inquiryParam !== null,
    retry: false,
    queryFn: async ({ signal }): Promise<Loaded> => {
      const toMap = (rates: Record<string, CurrencyRate | undefined> | undefined) =>
        new Map(Object.entries(rates ?? {}).filter((entry): entry is [string, CurrencyRate] => !!entry[1]))
      if (id !== null) {
        const { inquiry, exchangeRates, ...quote } = (await client.b2b.quoteItem({ id: String(id) }, signal)).content
        // A quote always has its inquiry; null only when the inquiry is gone.
        if (!inquiry) throw new Error(`quote ${id} has no inquiry`)
        return { quote, inquiry, rates: toMap(exchangeRates) }
      }
      const answer = (await client.b2b.inquiryQuotes({ id: String(inquiryParam) }, signal)).content
      return { quote: null, inquiry: answer.inquiry, rates: toMap(answer.exchangeRates) }
    },
  })

  const record = useMemo<Data | null>(() => {
    if (!loaded.data) return null
    const { quote, inquiry } = loaded.data
    if (quote) {
      const { review: _review, reviewRequired: _required, ...fields } = quote
      return { ...fields, inquiry: inquiry.id, charges: quote.charges.map(({ amount: _amount, ...line }) => line) }
    }
    return {
      inquiry: inquiry.id,
      transportMode: inquiry.transportModes[0],
      clientType: 'formal',
      currency: 'USD',
      validUntil: inDays(14),
      charges: [{}],
    }
  }, [loaded.data])

  const current = draft ?? record
  // What the quote must at least come to (the figure the save checks): shown, and asked about before saving.
  const dueQuery = {
    inquiry: String(loaded.data?.inquiry.id ?? ''),
    transportMode: String(current?.transportMode ?? ''),
    currency: String(current?.currency ?? ''),
  }
  const due = useQuery({
    queryKey: ['quoteAmountDue', dueQuery],
    enabled: !!loaded.data && /^[1-4]$/.test(dueQuery.transportMode) && /^[A-Z]{3}$/.test(dueQuery.currency),
    retry: false,
    queryFn: async ({ signal }) => (await client.b2b.quoteAmountDue(dueQuery, signal)).content,
  })
  const figures = useMemo(
    () =>
      loaded.data && current
        ? quoteFigures((current.charges ?? []) as ChargeLine[], current.currency as string, loaded.data.rates)
        : null,
    [loaded.data, current],
  )

  if (!entity) return null
  if (id === null && inquiryParam === null)
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{t('quote.notFound')}</MessageBarBody>
      </MessageBar>
    )
  if (loaded.isPending) return <Spinner style={{ margin: '64px auto' }} />
  if (loaded.isError || !loaded.data || !record)
    return (
      <MessageBar intent="error">
        <MessageBarBody>{t('quote.notFound')}</MessageBarBody>
      </MessageBar>
    )

  const { quote, inquiry } = loaded.data
  const state = quote?.state ?? 'draft'
  const editable = !quote || quoteEditable(quote)
  // With the site's review on (quoteReview), a quote is submitted and sent once a second operator approved it.
  const reviewRequired = quote?.reviewRequired === true
  const reviewer = session.permissions.has(entity.states?.transitions.approve?.permission ?? 'quoteReview')
  const reviewLog = (quote?.history ?? []).filter((h) => h.transition && REVIEW_STEPS.includes(h.transition))
  // Which actions a state offers is the quote's state machine's (schemas/quote.yaml), not a copy of it.
  const offers = (transition: string) => !!entity.states?.transitions[transition]?.from.includes(state)
  const deletable = !!entity.states?.deletableIn?.includes(state)
  const stateDef = entity.states?.values[state]

  const reload = async (next?: number) => {
    setDraft(null)
    if (next && next !== id) setParams({ id: String(next) }, { replace: true })
    await queryClient.invalidateQueries({ queryKey: ['quoteEditor'] })
  }

  /** The low-fee question's figures when the quote's total is below the amount due, else null. */
  function lowFee(data: Data): { total: string; due: string; currency: string } | null {
    const amount = due.data?.amount
    const figured =
      loaded.data && quoteFigures((data.charges ?? []) as ChargeLine[], data.currency as string, loaded.data.rates)
    if (!amount || !figured?.total || due.data?.currency !== data.currency) return null
    return (compareDecimal(figured.total, amount) ?? 0) < 0
      ? { total: figured.total, due: amount, currency: data.currency as string }
      : null
  }

  async function save(data: Data): Promise<void> {
    const body = { ...data, inquiry: inquiry.id, ...(quote ? { id: quote.id, version: quote.version } : {}) }
    // The form held the data to the quote's generated validator; the same check makes it the call's body.
    if (!validators.quote(body))
      throw new Error(`The quote validator refuses the form's data: ${JSON.stringify(validators.quote.errors)}`)
    const write = (payload: Quote) => (quote ? client.quoteList.update(payload) : client.quoteList.create(payload))
    setBusy(true)
    try {
      let saved: { id: number; quoteNo?: unknown }
      const below = lowFee(data)
      if (below) {
        const yes = await effects.confirm({
          title: t('quote.lowFeeTitle'),
          body: t('rule.quoteLowFee', below),
          confirmLabel: t('quote.lowFeeConfirm'),
          cancelLabel: t('quote.cancel'),
        })
        if (!yes) return
      }
      try {
        saved = (await write(below ? { ...body, lowFeeConfirmed: true } : body)).content
      } catch (error) {
        // SPEC §5/§8 low-fee warning: asked above when the amount due was known; should it have changed since,
        // the server names the amounts, the operator confirms and it is resent.
        const low = error instanceof RequestError && error.fieldErrors.find((e) => e.key === LOW_FEE)
        if (!low) throw error
        const yes = await effects.confirm({
          title: t('quote.lowFeeTitle'),
          body: low.message,
          confirmLabel: t('quote.lowFeeConfirm'),
          cancelLabel: t('quote.cancel'),
        })
        if (!yes) throw error
        saved = (await write({ ...body, lowFeeConfirmed: true })).content
      }
      effects.toast(t('quote.saved', { no: saved.quoteNo }), { intent: 'success' })
      await reload(saved.id)
    } finally {
      setBusy(false)
    }
  }

  async function transition(name: string, done: string, input?: Record<string, unknown>) {
    if (!quote) return
    const confirmKey = entity?.states?.transitions[name]?.confirm
    const label = t(entity?.states?.transitions[name]?.label ?? name)
    if (
      !input &&
      confirmKey &&
      !(await effects.confirm({
        title: label,
        body: t(confirmKey),
        confirmLabel: label,
        cancelLabel: t('quote.cancel'),
      }))
    )
      return
    setBusy(true)
    try {
      await client.quote.transition({
        id: quote.id,
        version: quote.version,
        transition: name,
        ...(input ? { input } : {}),
      })
      effects.toast(t(done), { intent: 'success' })
      setDeclining(null)
      await reload()
    } finally {
      setBusy(false)
    }
  }

  /** The decline asks its reason (the transition's `input:` entity), loading that part of the manifest if needed. */
  async function askDecline() {
    const name = entity?.states?.transitions.decline?.input
    if (name && !entityDef(name)) await loadManifest(WHOLE_MANIFEST)
    setDeclining(entityDef(name) ?? null)
  }

  async function remove() {
    if (!quote) return
    const label = t('action.delete')
    if (
      !(await effects.confirm({
        title: label,
        body: t('confirm.deleteQuote'),
        confirmLabel: label,
        cancelLabel: t('quote.cancel'),
      }))
    )
      return
    setBusy(true)
    try {
      await client.quoteList.delete({ id: quote.id })
      effects.toast(t('quote.deleted'), { intent: 'success' })
      effects.navigate('/quoteList')
    } finally {
      setBusy(false)
    }
  }

  const currency = (current?.currency as string) || ''
  return (
    <div className={styles.page} data-testid="quote-editor" data-state={state}>
      <div className={styles.titleRow}>
        <h1 className={styles.title} data-testid="quote-title">
          {quote?.quoteNo ?? t('route.inquiryQuoteDetails')}
        </h1>
        {stateDef && (
          <Badge appearance="tint" color={stateDef.color} data-testid="quote-state">
            {t(stateDef.label)}
          </Badge>
        )}
        {quote?.type === 'auto' && <Badge appearance="outline">{t('quote.auto')}</Badge>}
        <Link to="/quoteList">{t('route.quoteList')}</Link>
      </div>
      <InquiryPanel inquiry={inquiry} />
      <section className={styles.panel}>
        {!editable && (
          <MessageBar intent="info">
            <MessageBarBody>{t('quote.readOnly')}</MessageBarBody>
          </MessageBar>
        )}
        <EntityForm
          key={`${quote?.id ?? 'new'}-${quote?.version ?? 0}`}
          id="quote-form"
          entity={entity}
          sections={tenant.screen?.form?.sections}
          record={record}
          disabled={!editable || busy}
          onChange={setDraft}
          onSubmit={save}
        />
        <div className={styles.panel} data-testid="quote-totals" aria-live="polite">
          <table className={styles.table} data-testid="quote-amounts">
            <tbody>
              {((current?.charges ?? []) as ChargeLine[]).map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one figure per form line, in the form's order; lines have no id
                <tr key={i} data-testid={`quote-amount-${i}`}>
                  <td>{i + 1}</td>
                  <td>{line.name ?? ''}</td>
                  <td>{money(figures?.amounts[i] ?? null, line.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className={styles.totals}>
            <span>
              {t('quote.subtotals')}:{' '}
              <span data-testid="quote-subtotals">
                {figures?.subtotals.map((s) => money(s.amount, s.currency)).join(' + ') || '—'}
              </span>
            </span>
            <span className={styles.total}>
              {t('quote.total')}:{' '}
              <span data-testid="quote-total">
                {figures?.total && !figures.amounts.includes(null) ? money(figures.total, currency) : '—'}
              </span>
            </span>
          </div>
          <span data-testid="quote-amount-due">
            {t('quote.amountDue')}:{' '}
            {due.data?.amount ? money(due.data.amount, due.data.currency) : due.data ? t('quote.amountDueNone') : '—'}
          </span>
          <span className={styles.note}>
            {figures?.amounts.some((a) => a === null) ? t('quote.totalPending') : t('quote.liveNote')}
          </span>
        </div>
        <div className={styles.buttons}>
          {editable && (
            <Button appearance="primary" type="submit" form="quote-form" disabled={busy} data-testid="quote-save">
              {t('quote.save')}
            </Button>
          )}
          {quote && reviewRequired && offers('submit') && (
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => transition('submit', 'quote.submitted')}
              data-testid="quote-submit"
            >
              {t(entity.states?.transitions.submit?.label ?? 'action.submitQuote')}
            </Button>
          )}
          {quote && reviewer && offers('approve') && (
            <Button
              appearance="primary"
              disabled={busy}
              onClick={() => transition('approve', 'quote.approved')}
              data-testid="quote-approve"
            >
              {t(entity.states?.transitions.approve?.label ?? 'action.approveQuote')}
            </Button>
          )}
          {quote && reviewer && offers('decline') && (
            <Button disabled={busy} onClick={askDecline} data-testid="quote-decline-review">
              {t(entity.states?.transitions.decline?.label ?? 'action.declineQuote')}
            </Button>
          )}
          {quote && offers('send') && (!reviewRequired || state === 'approved') && (
            <Button disabled={busy} onClick={() => transition('send', 'quote.sent')} data-testid="quote-send">
              {t('action.sendQuote')}
            </Button>
          )}
          {quote && offers('withdraw') && (
            <Button
              disabled={busy}
              onClick={() => transition('withdraw', 'quote.withdrawn')}
              data-testid="quote-withdraw"
            >
              {t('action.withdraw')}
            </Button>
          )}
          {quote && deletable && (
            <Button disabled={busy} onClick={remove} data-testid="quote-delete">
              {t('action.delete')}
            </Button>
          )}
        </div>
        {reviewRequired && editable && quote && <span className={styles.note}>{t('quote.reviewNeeded')}</span>}
        {reviewLog.length > 0 && (
          <section data-testid="quote-review-log">
            <h2 className={styles.note}>{t('quote.reviewLog')}</h2>
            <table className={styles.table}>
              <tbody>
                {reviewLog.map((entry) => (
                  <tr key={entry.id}>
                    <td>{t(entity.states?.transitions[entry.transition ?? '']?.label ?? '')}</td>
                    <td>{entry.userName ?? ''}</td>
                    <td>{new Date(entry.at).toLocaleString(i18n.language)}</td>
                    <td>{entry.remark ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </section>
      {declining && (
        <Dialog open onOpenChange={(_, data) => !data.open && setDeclining(null)}>
          <DialogSurface style={{ maxWidth: 560 }} data-testid="transition-input">
            <DialogBody>
              <DialogTitle>{t(entity.states?.transitions.decline?.label ?? 'action.declineQuote')}</DialogTitle>
              <DialogContent>
                <EntityForm
                  id="quote-decline-form"
                  entity={declining}
                  disabled={busy}
                  onSubmit={(input) => transition('decline', 'quote.turnedBack', input)}
                />
              </DialogContent>
              <DialogActions>
                <Button type="submit" form="quote-decline-form" appearance="primary" disabled={busy}>
                  {t(entity.states?.transitions.decline?.label ?? 'action.declineQuote')}
                </Button>
                <Button onClick={() => setDeclining(null)}>{t('quote.cancel')}</Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      )}
    </div>
  )
}
