import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { formatWhen } from '../../dates.ts'
import { useCardStyles } from './cardStyles.ts'
import type { ShipmentAnswer, TrackingEventView, TrackingMark } from './types.ts'

/**
 * SPEC §9 tracking colours: added within 24 h yellow, within 48 h light blue, changed within 24 h red, cancelled
 * grey. On them, secondary text is Fluent's foreground 2 (foreground 3 reads at 3.7:1 on the red, issue #18).
 */
export const useMarkStyles = makeStyles({
  new24: { backgroundColor: tokens.colorPaletteYellowBackground2 },
  new48: { backgroundColor: tokens.colorPaletteLightTealBackground2 },
  changed24: { backgroundColor: tokens.colorPaletteRedBackground2 },
  cancelled: { backgroundColor: tokens.colorNeutralBackground5, color: tokens.colorNeutralForeground3 },
})

const useStyles = makeStyles({
  head: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'baseline',
    gap: '8px 16px',
    padding: '8px',
    borderRadius: tokens.borderRadiusMedium,
  },
  steps: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: '4px',
    listStyle: 'none',
    margin: 0,
    padding: 0,
  },
  step: {
    borderTop: `4px solid ${tokens.colorNeutralStroke2}`,
    paddingTop: '6px',
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
    overflowWrap: 'anywhere',
  },
  stepDone: { borderTopColor: tokens.colorBrandBackground, color: tokens.colorNeutralForeground1 },
  stepName: { display: 'block', fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase300 },
  customs: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  customsLabel: {
    padding: '2px 10px',
    borderRadius: tokens.borderRadiusCircular,
    border: `1px solid ${tokens.colorPaletteGreenBorder2}`,
    color: tokens.colorPaletteGreenForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  corrected: { textDecorationLine: 'line-through', color: tokens.colorNeutralForeground2 },
})

/**
 * A tracking time (runtime/dates.ts): a moment of an event in UTC, as the carriers' DCSA events give it;
 * a schedule known only to the day (an ETD or ETA taken from the order, sent as `YYYY-MM-DD`) as a date.
 */
export function formatTime(value: string | null, language: string): string {
  return formatWhen(value, language, { timeZone: 'UTC', empty: '—' })
}

/** "Container Loaded (laden)", "Customs declaration submitted", "Departed" — DCSA codes in words. */
export function describeEvent(e: TrackingEventView, t: TFunction): string {
  if (e.eventType === 'SHIPMENT') {
    return `${t(`tracking.document_${e.documentTypeCode}`)} — ${t(`tracking.shipmentEvent_${e.shipmentEventTypeCode}`)}`
  }
  if (e.eventType === 'TRANSPORT') return t(`tracking.transportEvent_${e.transportEventTypeCode}`)
  const empty = e.emptyIndicatorCode ? ` (${t(`tracking.empty_${e.emptyIndicatorCode}`)})` : ''
  return `${t(`tracking.equipmentEvent_${e.equipmentEventTypeCode}`)}${empty}`
}

/** A port as the cards name it: its name and UN/LOCODE, the code alone, or a dash. */
export function place(code: string | null, name: string | null) {
  if (!code) return '—'
  return name ? `${name} (${code})` : code
}

/** An event's particulars after its description, each after a middle dot; the empty ones left out. */
export function eventDetails(parts: readonly unknown[]): string {
  return parts
    .filter(Boolean)
    .map((part) => ` · ${part}`)
    .join('')
}

export function ShipmentCard({ number, answer }: { number: string; answer: ShipmentAnswer }) {
  const styles = useStyles()
  const card = useCardStyles()
  const marks = useMarkStyles()
  const { t, i18n } = useTranslation()
  const s = answer.shipment
  const lang = i18n.language
  const mark = (m: TrackingMark | null) => (m ? marks[m] : undefined)
  const facts: [string, string][] = [
    [t('tracking.transportMode'), t(s.transportMode === 2 ? 'tracking.modeAir' : 'tracking.modeSea')],
    [t('tracking.carrier'), s.carrierName ? `${s.carrierName} (${s.carrier})` : (s.carrier ?? '—')],
    [t('tracking.vessel'), s.vessel ?? '—'],
    [t('tracking.voyage'), s.voyage ?? '—'],
    [t('tracking.pol'), place(s.pol, s.originAirportName ?? s.polName)],
    [t('tracking.pod'), place(s.pod, s.destinationAirportName ?? s.podName)],
    [t('tracking.etd'), formatTime(s.etd, lang)],
    [t('tracking.eta'), formatTime(s.eta, lang)],
    [t('tracking.atd'), formatTime(s.atd, lang)],
    [t('tracking.ata'), formatTime(s.ata, lang)],
  ]
  if (answer.view === 'full') {
    if (s.orderNo) facts.push([t('tracking.orderNo'), s.orderNo])
    if (s.blNo) facts.push([t('tracking.blNo'), s.blNo])
    if (s.hbl) facts.push([t('tracking.hbl'), s.hbl])
    if (s.mawb) facts.push([t('tracking.mawb'), s.mawb])
    if (s.containers?.length)
      facts.push([
        t('tracking.containers'),
        s.containers.map((c) => `${c.containerNo} ${c.sizeTypeName ?? c.sizeType ?? ''}`.trim()).join(', '),
      ])
    if (s.customerCompanyName) facts.push([t('tracking.customerCompany'), s.customerCompanyName])
  }
  return (
    <article className={card.card} data-testid="tracking-shipment" data-number={number} data-mark={answer.mark ?? ''}>
      <header className={mergeClasses(styles.head, mark(answer.mark))}>
        <h3 className={card.number}>{number}</h3>
        <span className={card.badge} data-testid="tracking-status">
          {t(`tracking.state_${answer.status}`)}
        </span>
        {answer.mark && <span className={card.detail}>{t(`tracking.mark_${answer.mark}`)}</span>}
      </header>
      <ol className={styles.steps} aria-label={t('tracking.steps')}>
        {answer.steps.map((step) => (
          <li
            key={step.step}
            className={mergeClasses(styles.step, step.done && styles.stepDone)}
            data-testid={`tracking-step-${step.step}`}
            data-done={step.done}
          >
            <span className={styles.stepName}>{t(`tracking.step_${step.step}`)}</span>
            {step.at ? formatTime(step.at, lang) : ''}
          </li>
        ))}
      </ol>
      <dl className={card.facts}>
        {facts.map(([term, value]) => (
          <div key={term} className={card.fact}>
            <dt className={card.term}>{term}</dt>
            <dd className={card.value}>{value}</dd>
          </div>
        ))}
      </dl>
      <div className={styles.customs} data-testid="tracking-customs">
        <span className={card.term}>{t('tracking.customs')}</span>
        {answer.customs.length ? (
          answer.customs.map((c) => (
            <span key={`${c.label}-${c.at}`} className={styles.customsLabel} title={formatTime(c.at, lang)}>
              {t(`tracking.customs_${c.label}`)}
              {c.unLocationCode ? ` · ${c.unLocationCode}` : ''}
            </span>
          ))
        ) : (
          <span className={card.detail}>{t('tracking.customsNone')}</span>
        )}
      </div>
      <h4 className={card.sectionTitle}>{t('tracking.eventHistory')}</h4>
      {answer.events.length ? (
        <ul className={card.events} data-testid="tracking-events">
          {answer.events.map((e, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a read-only history in the server's order; public events carry no id
              key={`${e.eventCreatedDateTime}-${index}`}
              className={mergeClasses(card.event, mark(e.mark))}
              data-testid="tracking-event"
            >
              <span className={mergeClasses(card.time, e.corrected && styles.corrected)}>
                {formatTime(e.eventDateTime, lang)}
              </span>
              <span className={e.corrected ? styles.corrected : undefined}>
                {describeEvent(e, t)}
                {e.eventClassifierCode !== 'ACT' && ` · ${t(`tracking.classifier_${e.eventClassifierCode}`)}`}
                <span className={card.detail}>
                  {eventDetails([
                    e.unLocationCode && place(e.unLocationCode, e.locationName),
                    e.vesselName && `${e.vesselName}${e.carrierVoyageNumber ? ` / ${e.carrierVoyageNumber}` : ''}`,
                    e.equipmentReference,
                    e.corrected && t('tracking.corrected'),
                    e.correction && t('tracking.correction'),
                    e.remark,
                  ])}
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={card.note}>{t('tracking.noEvents')}</p>
      )}
      {answer.view === 'public' && <p className={card.note}>{t('tracking.publicView')}</p>}
    </article>
  )
}
