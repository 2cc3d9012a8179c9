import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { Contact, HeroBackground, News, QuickSearch, SectionTitle, Services, SpecialRoutes } from './blocks.tsx'

const useStyles = makeStyles({
  hero: {
    position: 'relative',
    minHeight: '560px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    color: '#fff',
  },
  veil: {
    position: 'absolute',
    inset: 0,
    background: 'linear-gradient(180deg, rgba(3,20,45,0.55), rgba(3,20,45,0.35) 60%, rgba(3,20,45,0.7))',
    zIndex: 1,
  },
  heroInner: {
    position: 'relative',
    zIndex: 2,
    width: '960px',
    textAlign: 'center',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
  },
  eyebrow: { letterSpacing: '0.2em', textTransform: 'uppercase', fontSize: tokens.fontSizeBase200, opacity: 0.85 },
  title: { margin: 0, fontSize: '48px', lineHeight: '58px', fontWeight: 700 },
  tagline: { margin: '0 0 16px', fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500, opacity: 0.9 },
  band: { padding: '56px 64px', maxWidth: '1200px', width: '100%', boxSizing: 'border-box', margin: '0 auto' },
  white: { backgroundColor: tokens.colorNeutralBackground1 },
  contact: { backgroundColor: '#0b2545', color: '#fff', padding: '40px 64px' },
})

/** Template 0, "classic": a full-bleed image carousel with the search in its middle, then the blocks in bands. */
export default function Template0() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  return (
    <div data-template="0">
      <section className={styles.hero}>
        <HeroBackground fallback="linear-gradient(120deg, #0b3a6e 0%, #1769c2 55%, #409eff 100%)" />
        <div className={styles.veil} />
        <div className={styles.heroInner}>
          <span className={styles.eyebrow}>{t('site.heroEyebrow')}</span>
          <h1 className={styles.title}>{siteName(settings, i18n.language)}</h1>
          <p className={styles.tagline}>{t('common.heroTagline')}</p>
          <QuickSearch start="tracking" />
        </div>
      </section>
      <section className={styles.band}>
        <SectionTitle title={t('site.servicesTitle')} sub={t('site.servicesLead')} />
        <Services columns={3} />
      </section>
      <div className={styles.white}>
        <section className={styles.band}>
          <SectionTitle title={t('site.specialRoutes')} sub={t('site.specialRoutesLead')} />
          <SpecialRoutes variant="table" />
        </section>
      </div>
      <section className={styles.band}>
        <SectionTitle title={t('site.newsTitle')} />
        <News />
      </section>
      <section className={styles.contact}>
        <div style={{ maxWidth: 1072, margin: '0 auto' }}>
          <SectionTitle title={t('site.contactTitle')} sub={t('site.contactLead')} tone="dark" />
          <Contact />
        </div>
      </section>
    </div>
  )
}
