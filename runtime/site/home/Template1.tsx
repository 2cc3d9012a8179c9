import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { Contact, HeroBackground, News, QuickSearch, SectionTitle, Services, SpecialRoutes } from './blocks.tsx'

const useStyles = makeStyles({
  hero: {
    display: 'grid',
    gridTemplateColumns: '1fr 1fr',
    minHeight: '520px',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  copy: {
    padding: '72px 56px 72px 64px',
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'center',
    gap: '18px',
  },
  eyebrow: { color: tokens.colorBrandForeground1, fontWeight: 600, fontSize: tokens.fontSizeBase300 },
  title: { margin: 0, fontSize: '44px', lineHeight: '54px', fontWeight: 700, color: tokens.colorNeutralForeground1 },
  tagline: {
    margin: 0,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    color: tokens.colorNeutralForeground2,
  },
  picture: { position: 'relative', minHeight: '520px', clipPath: 'polygon(12% 0, 100% 0, 100% 100%, 0 100%)' },
  main: {
    maxWidth: '1200px',
    width: '100%',
    boxSizing: 'border-box',
    margin: '0 auto',
    padding: '48px 64px',
    display: 'grid',
    gridTemplateColumns: '2fr 1fr',
    gap: '40px',
  },
  stack: { display: 'flex', flexDirection: 'column', gap: '40px' },
  aside: { display: 'flex', flexDirection: 'column', gap: '24px' },
  contact: {
    padding: '24px',
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
  },
})

/** Template 1, "split": copy and search on the left, the picture cut diagonally on the right; news in a side column. */
export default function Template1() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  return (
    <div data-template="1">
      <section className={styles.hero}>
        <div className={styles.copy}>
          <span className={styles.eyebrow}>{siteName(settings, i18n.language)}</span>
          <h1 className={styles.title}>{t('site.heroHeadline')}</h1>
          <p className={styles.tagline}>{t('common.heroTagline')}</p>
          <QuickSearch />
        </div>
        <div className={styles.picture}>
          <HeroBackground fallback="linear-gradient(160deg, #1769c2, #0b2545)" />
        </div>
      </section>
      <div className={styles.main}>
        <div className={styles.stack}>
          <section>
            <SectionTitle title={t('site.servicesTitle')} sub={t('site.servicesLead')} />
            <Services columns={2} limit={4} />
          </section>
          <section>
            <SectionTitle title={t('site.specialRoutes')} sub={t('site.specialRoutesLead')} />
            <SpecialRoutes variant="cards" columns={2} />
          </section>
        </div>
        <aside className={styles.aside}>
          <News stacked />
          <section className={styles.contact}>
            <SectionTitle title={t('site.contactTitle')} tone="dark" />
            <Contact stacked />
          </section>
        </aside>
      </div>
    </div>
  )
}
