import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { Contact, HeroBackground, News, QuickSearch, SERVICES, SectionTitle, SpecialRoutes } from './blocks.tsx'

const useStyles = makeStyles({
  page: { backgroundColor: tokens.colorNeutralBackground1 },
  hero: {
    maxWidth: '1072px',
    margin: '0 auto',
    padding: '88px 0 48px',
    display: 'flex',
    flexDirection: 'column',
    gap: '20px',
  },
  name: {
    fontSize: tokens.fontSizeBase300,
    letterSpacing: '0.3em',
    textTransform: 'uppercase',
    color: tokens.colorNeutralForeground3,
  },
  title: {
    margin: 0,
    fontSize: '60px',
    lineHeight: '68px',
    fontWeight: 300,
    letterSpacing: '-0.02em',
    maxWidth: '860px',
  },
  strip: { position: 'relative', height: '220px', margin: '0 64px', borderRadius: '2px', overflow: 'hidden' },
  section: {
    maxWidth: '1072px',
    margin: '0 auto',
    padding: '56px 0',
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(3, 1fr)',
    columnGap: '40px',
  },
  item: { display: 'flex', gap: '16px', padding: '18px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  number: { fontSize: tokens.fontSizeBase200, color: tokens.colorBrandForeground1, fontWeight: 600, paddingTop: '3px' },
  itemLink: {
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
  },
  why: { display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: '40px' },
  whyItem: { margin: 0, fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500, fontWeight: 300 },
})

/** Template 5, "minimal corporate": large type, thin rules, numbered services and plenty of white space. */
export default function Template5() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  return (
    <div className={styles.page} data-template="5">
      <section className={styles.hero}>
        <span className={styles.name}>{siteName(settings, i18n.language)}</span>
        <h1 className={styles.title}>{t('site.heroHeadlineAlt')}</h1>
        <QuickSearch />
      </section>
      <div className={styles.strip}>
        <HeroBackground fallback="linear-gradient(90deg, #cbd5e1, #94a3b8)" />
      </div>
      <section className={styles.section}>
        <SectionTitle title={t('site.servicesTitle')} sub={t('site.servicesLead')} />
        <ol className={styles.list}>
          {SERVICES.map((service, index) => (
            <li key={service.key} className={styles.item}>
              <span className={styles.number}>{String(index + 1).padStart(2, '0')}</span>
              <Link to={service.to} className={styles.itemLink}>
                <strong>{t(service.title)}</strong>
                <span>{t(service.text)}</span>
              </Link>
            </li>
          ))}
        </ol>
      </section>
      <section className={styles.section}>
        <SectionTitle title={t('site.whyTitle')} />
        <div className={styles.why}>
          {['site.why_space', 'site.why_price', 'site.why_contact'].map((key) => (
            <p key={key} className={styles.whyItem}>
              {t(key)}
            </p>
          ))}
        </div>
      </section>
      <section className={styles.section}>
        <SectionTitle title={t('site.specialRoutes')} />
        <SpecialRoutes variant="table" />
      </section>
      <section className={styles.section}>
        <News />
      </section>
      <section className={styles.section}>
        <SectionTitle title={t('site.contactTitle')} />
        <Contact />
      </section>
    </div>
  )
}
