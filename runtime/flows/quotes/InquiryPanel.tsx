import { useTranslation } from 'react-i18next'
import { Fact } from '../rates/SpecialRateApplication.tsx'
import { CONTAINER_LABELS } from '../rates/texts.ts'
import { type InquirySummary, MODE_KEYS, useQuoteStyles } from './shared.ts'

const SERVICE_FLAGS = [
  'needPickUp',
  'deliveryToConsignee',
  'collectWarehouse',
  'insurance',
  'unloadingWarehouse',
] as const

/** An inquiry as a quote is written or compared against: lane, modes, containers, packages, services. */
export function InquiryPanel({ inquiry }: { inquiry: InquirySummary }) {
  const styles = useQuoteStyles()
  const { t } = useTranslation()
  const services = [
    ...SERVICE_FLAGS.filter((name) => inquiry.services[name] === true).map((name) => t(`field.${name}`)),
    ...(inquiry.services.warehouseServices ?? []).map((v) => t(`enum.warehouseService.${v}`)),
    ...(inquiry.services.customsDeclaration ?? []).map((v) => t(`enum.customsDeclaration.${v}`)),
    ...(inquiry.services.otherServices ? [inquiry.services.otherServices] : []),
  ]
  return (
    <section className={styles.panel} data-testid="inquiry-summary" aria-label={t('quote.inquirySummary')}>
      <h2 className={styles.title}>
        {t('quote.inquirySummary')} {inquiry.inquiryNo}
      </h2>
      <div className={styles.facts}>
        <Fact
          label={t('quote.lane')}
          value={`${inquiry.originName ?? inquiry.origin} → ${inquiry.destinationName ?? inquiry.destination}`}
          testId="inquiry-lane"
        />
        <Fact
          label={t('quote.modes')}
          value={inquiry.transportModes.map((m) => t(`enum.transportMode.${MODE_KEYS[m]}`)).join(', ')}
        />
        <Fact label={t('field.tradeTerm')} value={t(`enum.incoterm.${inquiry.tradeTerm}`)} />
        <Fact label={t('field.goodsReady')} value={t(`enum.goodsReady.${inquiry.goodsReady}`)} />
        <Fact
          label={t('quote.containers')}
          value={
            inquiry.containers
              .map((c) => `${c.quantity} × ${CONTAINER_LABELS[c.containerType] ?? c.containerType}`)
              .join(', ') || t('quote.none')
          }
          testId="inquiry-containers"
        />
        <Fact
          label={t('quote.packages')}
          value={
            inquiry.packages
              .map((p) => `${p.description ?? ''} (${p.packageCount ?? 0}, ${p.grossWeight ?? 0} kg)`)
              .join('; ') || t('quote.none')
          }
        />
        <Fact label={t('quote.services')} value={services.join(', ') || t('quote.none')} />
      </div>
    </section>
  )
}
