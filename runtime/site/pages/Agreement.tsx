import { useTranslation } from 'react-i18next'
import type { ScreenProps } from '../../registry.ts'
import { agreementFor } from '../meta.ts'
import { useSiteSettings } from '../SiteSettings.tsx'
import { usePageStyles } from './styles.ts'

export { agreementFor } from '../meta.ts'

/**
 * /ServiceAgreement and /PrivacyAgreement: the tenant's rich text from its site settings (SPEC §3
 * serviceAgreementList / privacyAgreementList), as the site settings call answers it: sanitised on the server
 * (server/http/sanitize.ts richTextHtml), so only the editor's formatting reaches the page.
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
            <div
              className={styles.rich}
              data-agreement-text
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server when saved and when read (publicSiteSettings)
              dangerouslySetInnerHTML={{ __html: agreement.content }}
            />
          ) : (
            <p className={styles.paragraph}>{settings ? t('site.agreementMissing') : t('site.loading')}</p>
          )}
        </div>
      </div>
    </article>
  )
}
