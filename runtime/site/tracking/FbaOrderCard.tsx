import { makeStyles } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { useCardStyles } from './cardStyles.ts'
import { eventDetails, formatTime, place } from './ShipmentCard.tsx'
import type { FbaOrderEventView, FbaTrackResult } from './types.ts'

/**
 * An FBA order a tracking number names (issue #26, schemas/fbaTrackResult.yaml): its state, the fulfilment
 * centre, the ports, the last-mile carrier and its number, and its milestones newest first, each in words (the
 * milestone's label of schemas/fbaOrderEvent.yaml) with its DCSA code, place and who signed.
 */

const useStyles = makeStyles({
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '8px 16px' },
})

function eventCode(e: FbaOrderEventView): string | null {
  return e.transportEventTypeCode ?? e.equipmentEventTypeCode ?? e.shipmentEventTypeCode
}

export function FbaOrderCard({ answer }: { answer: FbaTrackResult }) {
  const styles = useStyles()
  const card = useCardStyles()
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  const facts: [string, string][] = [
    [t('tracking.fbaCentre'), answer.fcCity ? `${answer.warehouseCode} · ${answer.fcCity}` : answer.warehouseCode],
    [t('tracking.fbaDeparturePort'), place(answer.departurePort, answer.departurePortName)],
    [t('tracking.fbaArrivalPort'), place(answer.arrivalPort, answer.arrivalPortName)],
    [
      t('tracking.fbaLastMile'),
      answer.lastMileCarrier
        ? `${t(`tracking.fbaCarrier_${answer.lastMileCarrier}`)} ${answer.lastMileTrackingNo ?? ''}`.trim()
        : '—',
    ],
  ]
  return (
    <article className={card.card} data-testid="tracking-fba-order" data-number={answer.orderNo}>
      <header className={styles.head}>
        <h3 className={card.number}>{answer.orderNo}</h3>
        <span className={card.badge} data-testid="tracking-fba-state">
          {t(`tracking.fbaState_${answer.state}`)}
        </span>
      </header>
      <dl className={card.facts}>
        {facts.map(([term, value]) => (
          <div key={term} className={card.fact}>
            <dt className={card.term}>{term}</dt>
            <dd className={card.value}>{value}</dd>
          </div>
        ))}
      </dl>
      <h4 className={card.sectionTitle}>{t('tracking.fbaMilestones')}</h4>
      {answer.events.length ? (
        <ul className={card.events} data-testid="tracking-fba-events">
          {answer.events.map((e) => (
            <li
              key={`${e.milestone}-${e.eventDateTime}`}
              className={card.event}
              data-testid="tracking-fba-event"
              data-milestone={e.milestone}
            >
              <span className={card.time}>{formatTime(e.eventDateTime, lang)}</span>
              <span>
                {t(`tracking.fbaMilestone_${e.milestone}`)}
                <span className={card.detail}>
                  {eventDetails([
                    eventCode(e),
                    e.unLocationCode ? place(e.unLocationCode, e.locationName) : e.location,
                    e.signedBy && `${t('tracking.fbaSignedBy')}: ${e.signedBy}`,
                    e.remark,
                  ])}
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={card.note}>{t('tracking.fbaNoEvents')}</p>
      )}
      {answer.view === 'public' && <p className={card.note}>{t('tracking.publicView')}</p>}
    </article>
  )
}
