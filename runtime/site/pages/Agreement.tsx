import { useTranslation } from 'react-i18next'
import type { ScreenProps } from '../../registry.ts'
import { agreementFor, paragraphs } from '../meta.ts'
import { useSiteSettings } from '../SiteSettings.tsx'
import { usePageStyles } from './styles.ts'

export { agreementFor } from '../meta.ts'

/**
 * /ServiceAgreement and /PrivacyAgreement: the tenant's text from its site settings (SPEC §3
 * serviceAgreementList / privacyAgreementList). Rendered as plain paragraphs, never as HTML: a tenant's
 * text cannot inject markup into the page.
 */
export default function Agreement({ route }: ScreenProps) {
  const styles = usePageStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const list = route.name === 'privacyAgreement' ? settings?.privacyAgreementList : settings?.serviceAgreementList
  const agreement = agreementFor(list, i18n.language)
  return (
    <article data-page={route.name}>
      <header className={styles.banner}>
        <div className={styles.bannerInner}>
          <h1 className={styles.title}>{agreement?.title || t(route.title)}</h1>
        </div>
      </header>
      <div className={`${styles.body} ${styles.single}`}>
        <div className={styles.article}>
          {agreement ? (
            paragraphs(agreement.content).map((paragraph) => (
              <p key={paragraph.slice(0, 40)} className={styles.paragraph}>
                {paragraph}
              </p>
            ))
          ) : (
            <p className={styles.paragraph}>{settings ? t('site.agreementMissing') : t('site.loading')}</p>
          )}
        </div>
      </div>
    </article>
  )
}
