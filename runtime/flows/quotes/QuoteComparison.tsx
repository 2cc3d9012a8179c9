import { Badge, Button, MessageBar, MessageBarBody, Spinner, Tab, TabList } from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { RateSort } from '../../../rules/pricing.ts'
import { useClient } from '../../client.tsx'
import { formatDate } from '../../dates.ts'
import { useEffects } from '../../effects.tsx'
import type { ScreenProps } from '../../registry.ts'
import { entityDef } from '../../screens/manifest.ts'
import { Fact } from '../rates/SpecialRateApplication.tsx'
import { quoteMoney, useRateTexts } from '../rates/texts.ts'
import { InquiryPanel } from './InquiryPanel.tsx'
import { bookingPath, type QuoteRow, useQuoteStyles } from './shared.ts'

/**
 * The customer's quotes of one inquiry (/inquiryQuotes?id=<inquiryId>): the inquiry's summary and the quotes
 * sent for it, sorted cheapest (totals in one currency) / quickest (transit) / earliest (departure), each with
 * its charges. "Book" opens the booking page of the quote's mode with the quote's id; "Decline" rejects it.
 */

const SORTS: RateSort[] = ['cheapest', 'quickest', 'earliest']

export default function QuoteComparison(_props: ScreenProps) {
  useRateTexts()
  const styles = useQuoteStyles()
  const { t, i18n } = useTranslation()
  // Days as dates in the reader's language (runtime/dates.ts), a missing one as a dash.
  const day = (value: string | null | undefined) => (value ? formatDate(value, i18n.language) : '—')
  const client = useClient()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const [params] = useSearchParams()
  const id = Number(params.get('id')) || null
  const [sort, setSort] = useState<RateSort>('cheapest')
  const [busy, setBusy] = useState(false)
  const entity = entityDef('quote')

  const answer = useQuery({
    queryKey: ['inquiryQuotes', id, sort, i18n.language],
    enabled: id !== null,
    retry: false,
    queryFn: async ({ signal }) => (await client.b2b.inquiryQuotes({ id: String(id), sort }, signal)).content,
  })

  if (id === null || answer.isError)
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{t('quote.notFound')}</MessageBarBody>
      </MessageBar>
    )
  if (answer.isPending) return <Spinner style={{ margin: '64px auto' }} />
  const { inquiry, list, currency } = answer.data
  const containers = inquiry.containers.reduce((n, c) => n + c.quantity, 0)

  async function decline(quote: QuoteRow) {
    const label = t('quote.decline')
    if (
      !(await effects.confirm({
        title: label,
        body: t('confirm.rejectQuote'),
        confirmLabel: label,
        cancelLabel: t('quote.cancel'),
      }))
    )
      return
    setBusy(true)
    try {
      await client.quote.transition({ id: quote.id, version: quote.version, transition: 'reject' })
      effects.toast(t('quote.declined'), { intent: 'success' })
    } finally {
      setBusy(false)
      await queryClient.invalidateQueries({ queryKey: ['inquiryQuotes', id] })
    }
  }

  return (
    <div className={styles.page} data-testid="quote-comparison">
      <h1 className={styles.title}>{t('route.inquiryQuotes')}</h1>
      <InquiryPanel inquiry={inquiry} />
      <div className={styles.titleRow}>
        <span>{t('quote.sortBy')}</span>
        <TabList
          selectedValue={sort}
          onTabSelect={(_, data) => setSort(data.value as RateSort)}
          aria-label={t('quote.sortBy')}
        >
          {SORTS.map((s) => (
            <Tab key={s} value={s} data-testid={`quote-sort-${s}`}>
              {t(`quote.sort_${s}`)}
            </Tab>
          ))}
        </TabList>
        <span className={styles.note}>{t('quote.compareIn', { currency })}</span>
      </div>
      {list.length === 0 && <p className={styles.note}>{t('quote.noQuotes')}</p>}
      <ol className={styles.page} style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="quote-cards">
        {list.map((quote) => {
          const stateDef = entity?.states?.values[quote.state]
          const closed = quote.state !== 'quoted'
          return (
            <li
              key={quote.id}
              className={`${styles.card} ${closed ? styles.muted : ''}`}
              data-testid="quote-card"
              data-quote={quote.quoteNo}
              data-state={quote.state}
            >
              <div className={styles.titleRow}>
                <strong>{quote.quoteNo}</strong>
                {stateDef && (
                  <Badge appearance="tint" color={stateDef.color}>
                    {t(stateDef.label)}
                  </Badge>
                )}
                {quote.expired && quote.state === 'quoted' && <Badge color="subtle">{t('quote.expired')}</Badge>}
                <span className={styles.total} data-testid="quote-card-total">
                  {quoteMoney(quote.total, quote.currency)}
                </span>
              </div>
              <div className={styles.facts}>
                <Fact label={t('quote.carrier')} value={quote.carrierName ?? quote.carrier ?? '—'} />
                <Fact
                  label={t('quote.transit')}
                  value={quote.transitDays === null ? '—' : t('quote.days', { count: quote.transitDays })}
                />
                <Fact label={t('quote.departure')} value={day(quote.departure)} />
                <Fact label={t('quote.arrival')} value={day(quote.arrival)} />
                <Fact label={t('quote.validUntil')} value={day(quote.validUntil)} />
              </div>
              <table className={styles.table}>
                <tbody>
                  {quote.charges.map((line, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a sent quote's stored lines, read-only; they have no id
                    <tr key={i}>
                      <td>{t(`enum.chargeType.${line.chargeType}`)}</td>
                      <td>{line.name}</td>
                      <td>
                        {line.quantity} × {quoteMoney(line.unitPrice, line.currency)}
                      </td>
                      <td>{quoteMoney(line.amount ?? null, line.currency)}</td>
                    </tr>
                  ))}
                  {/* Major category only (the site's quoteDisplayItems): the server sums the lines it does not send. */}
                  {(quote.categories ?? []).map((sum) => (
                    <tr key={`${sum.chargeType}-${sum.currency}`} data-testid="quote-category">
                      <td>{t(`enum.chargeType.${sum.chargeType}`)}</td>
                      <td />
                      <td />
                      <td>{quoteMoney(sum.amount ?? null, sum.currency ?? '')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {quote.displayItems === 'none' && <span className={styles.note}>{t('quote.totalsOnly')}</span>}
              {quote.displayCharges === 'freightOnly' && (
                <span className={styles.note} data-testid="quote-freight-only">
                  {t('quote.freightOnly')}
                </span>
              )}
              {quote.bookable && (
                <div className={styles.buttons}>
                  <Button
                    appearance="primary"
                    disabled={busy}
                    data-testid="quote-book"
                    onClick={() => effects.navigate(bookingPath(quote, containers))}
                  >
                    {t('quote.book')}
                  </Button>
                  <Button disabled={busy} data-testid="quote-decline" onClick={() => decline(quote)}>
                    {t('quote.decline')}
                  </Button>
                </div>
              )}
            </li>
          )
        })}
      </ol>
    </div>
  )
}
