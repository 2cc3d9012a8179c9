import { mergeClasses } from '@fluentui/react-components'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import type { RouteEntry } from '../../../generated/routes.ts'
import { useButtonStyles } from '../../shell/styles.ts'
import { setPageDescription } from '../head.ts'
import { ABOUT_LINKS, SERVICE_TOOLS } from '../meta.ts'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { PAGE_OF_ROUTE, SERVICE_LINKS, type SitePageName, useSitePages } from './content.ts'
import { usePageStyles } from './styles.ts'

/**
 * A service or about page: the tenant's copy for the route (runtime/site/pages/content.ts), the side
 * menu of its family, and a way on (rates for a service, contact for the company).
 */
export function ContentPage({ route, family }: { route: RouteEntry; family: 'service' | 'about' }) {
  const styles = usePageStyles()
  const buttons = useButtonStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const location = useLocation()
  const { data, isError } = useSitePages()
  const name = PAGE_OF_ROUTE[route.name] ?? (family === 'service' ? 'services' : 'about')
  const page = data?.[name]
  const links = family === 'service' ? SERVICE_LINKS : ABOUT_LINKS
  useEffect(() => {
    if (page) setPageDescription(page.lead)
  }, [page])
  return (
    <article data-page={name}>
      <header className={styles.banner}>
        <div className={styles.bannerInner}>
          <nav className={styles.crumbs} aria-label={t(route.title)}>
            <Link to="/dashboard" className={styles.crumbLink}>
              {siteName(settings, i18n.language)}
            </Link>
            <span aria-hidden>/</span>
            <span>{t(route.title)}</span>
          </nav>
          <h1 className={styles.title}>{page?.title ?? t(route.title)}</h1>
          {page && <p className={styles.lead}>{page.lead}</p>}
        </div>
      </header>
      <div className={styles.body}>
        <nav className={styles.side} aria-label={family === 'service' ? t('site.otherServices') : t('site.aboutMore')}>
          <span className={styles.sideTitle}>
            {family === 'service' ? t('site.servicesTitle') : t('site.aboutMore')}
          </span>
          {links.map((link) => (
            <Link
              key={link.to}
              to={link.to}
              className={mergeClasses(
                styles.sideLink,
                (location.pathname === link.to ||
                  (link.page === name && !links.some((l) => l.to === location.pathname))) &&
                  styles.sideActive,
              )}
            >
              {data?.[link.page]?.title ?? '…'}
            </Link>
          ))}
          {family === 'service' &&
            SERVICE_TOOLS.map((tool) => (
              <Link key={tool.to} to={tool.to} className={styles.sideLink}>
                {t(tool.label)}
              </Link>
            ))}
          {family === 'about' && (
            <>
              <Link to="/ServiceAgreement" className={styles.sideLink}>
                {t('route.serviceAgreement')}
              </Link>
              <Link to="/PrivacyAgreement" className={styles.sideLink}>
                {t('route.privacyAgreement')}
              </Link>
            </>
          )}
        </nav>
        <div className={styles.sections}>
          {!page && <p className={styles.status}>{isError ? t('site.contentUnavailable') : t('site.loading')}</p>}
          {page?.sections.map((section) => (
            <section key={section.heading} className={styles.section}>
              <h2 className={styles.heading}>{section.heading}</h2>
              <p className={styles.text}>{section.text}</p>
            </section>
          ))}
          {page && (
            <aside className={styles.cta}>
              <div className={styles.ctaText}>
                <strong>{t('site.ctaTitle')}</strong>
                <span>
                  {t('site.ctaText')} {settings?.servicePhone ? `${t('site.phone')}: ${settings.servicePhone}` : ''}
                </span>
              </div>
              <Link to={ratesPath(name)} className={mergeClasses(buttons.button, buttons.primary)}>
                {t('site.searchRatesButton')}
              </Link>
            </aside>
          )}
        </div>
      </div>
    </article>
  )
}

/** The rate comparison a service page leads to (SPEC §2's FCL, LCL and air comparison tables). */
export function ratesPath(page: SitePageName): string {
  if (page === 'lcl') return '/lclFreightRatesContrastTable'
  if (page === 'air') return '/airFreightRatesContrastTable'
  return '/fclFreightRatesContrastTable'
}
