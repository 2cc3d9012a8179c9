import { useTranslation } from 'react-i18next'
import type { ScreenProps } from '../../registry.ts'
import { type Agreement as AgreementText, useSiteSettings } from '../SiteSettings.tsx'
import { usePageStyles } from './styles.ts'

/** The entry in the reader's language, else English, else Chinese, else the first there is. */
export function agreementFor(list: readonly AgreementText[] | undefined, language: string): AgreementText | null {
  if (!list?.length) return null
  return (
    list.find((a) => a.language === language) ??
    list.find((a) => a.language === 'en') ??
    list.find((a) => a.language === 'zh') ??
    list[0] ??
    null
  )
}

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
            agreement.content
              .split(/\n\s*\n/)
              .filter((paragraph) => paragraph.trim())
              .map((paragraph) => (
                <p key={paragraph.slice(0, 40)} className={styles.paragraph}>
                  {paragraph.trim()}
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
