import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { eventDetails, formatTime, place } from './ShipmentCard.tsx'
import type { FbaOrderEventView, FbaTrackResult } from './types.ts'

/**
 * An FBA order a tracking number names (issue #26, schemas/fbaTrackResult.yaml): its state, the fulfilment
 * centre, the ports, the last-mile carrier and its number, and its milestones newest first, each in words (the
 * milestone's label of schemas/fbaOrderEvent.yaml) with its DCSA code, place and who signed.
 */

const useStyles = makeStyles({
  card: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    padding: '16px',
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    minWidth: 0,
  },
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '8px 16px' },
  number: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    margin: 0,
    wordBreak: 'break-all',
  },
  badge: {
    padding: '2px 8px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  facts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))', gap: '8px 16px', margin: 0 },
  fact: { margin: 0, minWidth: 0 },
  term: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  sectionTitle: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  events: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  event: {
    display: 'grid',
    gridTemplateColumns: '150px minmax(0, 1fr)',
    gap: '4px 12px',
    padding: '6px 8px',
    '@media (max-width: 600px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  time: { color: tokens.colorNeutralForeground2, fontVariantNumeric: 'tabular-nums' },
  detail: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  note: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200, margin: 0 },
})

function eventCode(e: FbaOrderEventView): string | null {
  return e.transportEventTypeCode ?? e.equipmentEventTypeCode ?? e.shipmentEventTypeCode
}

export function FbaOrderCard({ answer }: { answer: FbaTrackResult }) {
  const styles = useStyles()
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
    <article className={styles.card} data-testid="tracking-fba-order" data-number={answer.orderNo}>
      <header className={styles.head}>
        <h3 className={styles.number}>{answer.orderNo}</h3>
        <span className={styles.badge} data-testid="tracking-fba-state">
          {t(`tracking.fbaState_${answer.state}`)}
        </span>
      </header>
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term} className={styles.fact}>
            <dt className={styles.term}>{term}</dt>
            <dd className={styles.value}>{value}</dd>
          </div>
        ))}
      </dl>
      <h4 className={styles.sectionTitle}>{t('tracking.fbaMilestones')}</h4>
      {answer.events.length ? (
        <ul className={styles.events} data-testid="tracking-fba-events">
          {answer.events.map((e) => (
            <li
              key={`${e.milestone}-${e.eventDateTime}`}
              className={styles.event}
              data-testid="tracking-fba-event"
              data-milestone={e.milestone}
            >
              <span className={styles.time}>{formatTime(e.eventDateTime, lang)}</span>
              <span>
                {t(`tracking.fbaMilestone_${e.milestone}`)}
                <span className={styles.detail}>
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
        <p className={styles.note}>{t('tracking.fbaNoEvents')}</p>
      )}
      {answer.view === 'public' && <p className={styles.note}>{t('tracking.publicView')}</p>}
    </article>
  )
}
