import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { HeroBackground, News, QuickSearch, SERVICES, SpecialRoutes } from '../home/blocks.tsx'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'

const useStyles = makeStyles({
  hero: {
    position: 'relative',
    padding: '28px 16px 20px',
    color: '#fff',
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
  },
  veil: { position: 'absolute', inset: 0, zIndex: 1, background: 'rgba(3,20,45,0.55)' },
  heroInner: { position: 'relative', zIndex: 2, display: 'flex', flexDirection: 'column', gap: '12px' },
  title: { margin: 0, fontSize: '24px', lineHeight: '30px', fontWeight: 700 },
  tagline: { margin: 0, fontSize: tokens.fontSizeBase300, opacity: 0.9 },
  section: { padding: '20px 16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: 600 },
  services: { display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: '8px' },
  service: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '6px',
    padding: '12px 4px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    fontSize: tokens.fontSizeBase200,
    textAlign: 'center',
  },
  icon: {
    width: '36px',
    height: '36px',
    borderRadius: '50%',
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontSize: '11px',
    fontWeight: 700,
  },
})

/** The mobile home (/m): search first, then services, featured lanes and news, one column at 375 px. */
export default function MobileHome() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  return (
    <div data-template="mobile">
      <section className={styles.hero}>
        <HeroBackground fallback="linear-gradient(150deg, #0b3a6e, #1769c2)" />
        <div className={styles.veil} />
        <div className={styles.heroInner}>
          <h1 className={styles.title}>{siteName(settings, i18n.language)}</h1>
          <p className={styles.tagline}>{t('common.heroTagline')}</p>
          <QuickSearch start="tracking" />
        </div>
      </section>
      <section className={styles.section}>
        <h2 className={styles.heading}>{t('site.servicesTitle')}</h2>
        <div className={styles.services}>
          {SERVICES.map((service) => (
            <Link key={service.key} to={service.to} className={styles.service}>
              <span className={styles.icon} aria-hidden>
                {service.icon}
              </span>
              {t(service.title)}
            </Link>
          ))}
        </div>
      </section>
      <section className={styles.section}>
        <h2 className={styles.heading}>{t('site.specialRoutes')}</h2>
        <SpecialRoutes variant="cards" columns={1} />
      </section>
      <section className={styles.section}>
        <News stacked />
      </section>
    </div>
  )
}
