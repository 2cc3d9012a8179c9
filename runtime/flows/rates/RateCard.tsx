import { Badge, Button, mergeClasses } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { groupDigits } from '../../../rules/decimal.ts'
import { formatWhen } from '../../dates.ts'
import { useButtonStyles } from '../../shell/styles.ts'
import { APPLY_PATHS, BOOK_PATHS, type ChargeDisplay, viewOf } from './state.ts'
import { useRateStyles } from './styles.ts'
import { CONTAINER_LABELS, money } from './texts.ts'
import type { PricedRate, RateMode } from './types.ts'

/**
 * One result of the rate search: carrier, lane, transit, validity, next departure and the price in the
 * chosen currency with the rate's own beside it; the breakdown as asked (every item, major categories or
 * none); and what the user can do with it (compare, apply for a special rate, book).
 */
export function RateCard({
  rate,
  mode,
  display,
  allIn,
  compared,
  onCompare,
  canApply,
  query,
}: {
  rate: PricedRate
  mode: RateMode
  display: ChargeDisplay
  allIn: boolean
  compared: boolean
  onCompare: () => void
  canApply: boolean
  query: Record<string, string>
}) {
  const styles = useRateStyles()
  const buttons = useButtonStyles()
  const { t, i18n } = useTranslation()
  const day = (value: string | null) => formatWhen(value, i18n.language, { type: 'date', empty: '—' })
  const view = viewOf(rate, display, allIn)
  const own = Object.entries(rate.totalsByCurrency).filter((entry): entry is [string, string] => entry[1] !== undefined)
  const rateQuery = new URLSearchParams({ rateId: String(rate.id), ...query }).toString()
  const days = rate.departureDays.map((d) => t(`rate.weekdayShort_${d}`)).join(' ')
  return (
    <article
      className={styles.card}
      data-testid="rate-card"
      data-rate-id={rate.id}
      data-total={view.total}
      data-transit={rate.transitDays}
      data-departure={rate.nextDeparture ?? ''}
    >
      <div className={styles.carrier}>
        <span className={styles.carrierMark} aria-hidden>
          {rate.carrier}
        </span>
        <div>
          <div className={styles.strong} data-testid="rate-carrier">
            {rate.carrierName ?? rate.carrier}
          </div>
          <div className={styles.hint}>
            {rate.origin} {rate.originName ?? ''} → {rate.destination} {rate.destinationName ?? ''}
          </div>
          <div className={styles.hint}>
            {rate.rateNo}
            {rate.containerType ? ` · ${CONTAINER_LABELS[rate.containerType] ?? rate.containerType}` : ''}
            {mode !== 'FCL'
              ? ` · ${t(mode === 'AIR' ? 'rate.chargeableKg' : 'rate.revenueTons', { value: rate.chargeableQuantity })}`
              : ''}
          </div>
        </div>
      </div>
      <div className={styles.fact}>
        <span className={styles.factLabel}>{t('rate.transitDays')}</span>
        <span className={styles.factValue} data-testid="rate-transit">
          {t('rate.days', { count: rate.transitDays })}
        </span>
      </div>
      <div className={styles.fact}>
        <span className={styles.factLabel}>{t('rate.nextDeparture')}</span>
        <span className={styles.factValue}>{day(rate.nextDeparture)}</span>
        {days && <span className={styles.hint}>{t('rate.sails', { days })}</span>}
      </div>
      <div className={styles.fact}>
        <span className={styles.factLabel}>{t('rate.validity')}</span>
        <span>
          {day(rate.validFrom)} – {day(rate.validTo)}
        </span>
      </div>
      <div className={styles.price}>
        <span className={styles.hint}>{t(allIn ? 'rate.allInTotal' : 'rate.freightTotal')}</span>
        <span className={styles.total} data-testid="rate-total">
          {money(view.total, rate.currency)}
        </span>
        <span className={styles.hint}>
          {t('rate.freightOwn', {
            price: money(rate.freight.unitPrice, rate.freight.currency),
            unit: t(`rate.unit_${rate.chargeUnit}`),
          })}
        </span>
        {allIn && own.length > 0 && rate.currency !== rate.rateCurrency && (
          <span className={styles.hint}>
            {t('rate.inOwnCurrencies', { amounts: own.map(([c, a]) => `${c} ${groupDigits(a)}`).join(' + ') })}
          </span>
        )}
      </div>
      {view.lines && view.lines.length > 0 && (
        <div className={styles.breakdown}>
          <table className={styles.table} data-testid="rate-charges">
            <thead>
              <tr>
                <th>{t('rate.chargeName')}</th>
                <th>{t('rate.chargeCategory')}</th>
                <th className={styles.num}>{t('rate.quantity')}</th>
                <th className={styles.num}>{t('rate.unitPrice')}</th>
                <th className={styles.num}>{t('rate.amount')}</th>
                <th className={styles.num}>{t('rate.inCurrency', { currency: rate.currency })}</th>
              </tr>
            </thead>
            <tbody>
              {view.lines.map((line) => (
                <tr key={`${line.code}-${line.category}`}>
                  <td>
                    {line.code} · {line.name}
                  </td>
                  <td>{t(`rate.category_${line.category}`)}</td>
                  <td className={styles.num}>{line.quantity}</td>
                  <td className={styles.num}>{money(line.unitPrice, line.currency)}</td>
                  <td className={styles.num}>{money(line.amount, line.currency)}</td>
                  <td className={styles.num}>{groupDigits(line.converted)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.categories && (
        <div className={styles.breakdown}>
          <table className={styles.table} data-testid="rate-categories">
            <tbody>
              {view.categories.map((c) => (
                <tr key={c.category}>
                  <td>{t(`rate.category_${c.category}`)}</td>
                  <td className={styles.num}>{money(c.amount, rate.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={styles.actions}>
        {rate.remarks && <span className={styles.hint}>{rate.remarks}</span>}
        {compared && (
          <Badge appearance="tint" color="brand">
            {t('rate.inComparison')}
          </Badge>
        )}
        <Button size="small" onClick={onCompare} data-testid="rate-compare">
          {compared ? t('rate.compareRemove') : t('rate.compareAdd')}
        </Button>
        {canApply && (
          <Link className={styles.link} to={`${APPLY_PATHS[mode]}?${rateQuery}`} data-testid="rate-apply">
            {t('rate.applySpecial')}
          </Link>
        )}
        <Link
          className={mergeClasses(buttons.button, buttons.primary)}
          to={`${BOOK_PATHS[mode]}?${rateQuery}`}
          data-testid="rate-book"
        >
          {t('rate.book')}
        </Link>
      </div>
    </article>
  )
}
