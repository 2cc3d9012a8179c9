import { makeStyles, tokens } from '@fluentui/react-components'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { quietClient } from '../../quietClient.ts'
import { useTrackingPageStyles } from './pageStyles.ts'
import { ShipmentCard } from './ShipmentCard.tsx'
import { LINK_TOKEN, linkRefusal, REFUSAL_TEXT } from './sharedLink.ts'

/**
 * A shareable tracking link's page (/sharedTracking/<token>, issue #29; screens/trackingLinks.yaml): the one shipment
 * the link names, in the tracking page's card, for whoever holds the link — no account. The token is a path segment,
 * never `?token=` (SPEC §2 takes that as a login token). Nothing on the page opens another record: the answer has no
 * ids, and the card has no links. An unknown, expired or revoked link says which, in the reader's language.
 */

const useStyles = makeStyles({
  muted: { margin: 0, color: tokens.colorNeutralForeground3 },
})

export default function SharedTrackingPage() {
  const styles = useStyles()
  const page = useTrackingPageStyles()
  const { t, i18n } = useTranslation()
  const token = useParams().token ?? ''
  const wellFormed = LINK_TOKEN.test(token)
  const shared = useQuery({
    // The event descriptions and port names come in the reader's language: a switch asks again.
    queryKey: ['sharedTracking', token, i18n.language],
    enabled: wellFormed,
    retry: false,
    queryFn: async ({ signal }) => (await quietClient.booking.trackingLinkView({ token }, signal)).content,
  })
  const refusal = wellFormed ? (shared.isError ? linkRefusal(shared.error) : null) : 'unknown'
  const answer = shared.data
  const number = answer
    ? (answer.shipment.blNo ??
      answer.shipment.hbl ??
      answer.shipment.mawb ??
      answer.shipment.orderNo ??
      answer.shipment.containers?.[0]?.containerNo ??
      '')
    : ''
  return (
    <section className={page.page} data-testid="shared-tracking">
      <h1 className={page.title}>{t('tracking.sharedTitle')}</h1>
      {refusal ? (
        <p className={page.alert} role="alert" data-testid="shared-tracking-refused" data-refusal={refusal}>
          {t(REFUSAL_TEXT[refusal])}
        </p>
      ) : shared.isError ? (
        <p className={page.alert} role="alert">
          {shared.error.message || t('ui.hasError')}
        </p>
      ) : answer ? (
        <>
          <p className={page.intro}>{t('tracking.sharedIntro')}</p>
          <ShipmentCard number={number} answer={answer} />
        </>
      ) : (
        <p className={styles.muted} aria-busy="true">
          {t('ui.loading')}
        </p>
      )}
    </section>
  )
}
