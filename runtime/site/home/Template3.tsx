import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { Contact, HeroBackground, News, QuickSearch, SectionTitle, Services, SpecialRoutes } from './blocks.tsx'

const useStyles = makeStyles({
  page: { backgroundColor: '#0b1220', color: '#e2e8f0' },
  hero: { position: 'relative', minHeight: '520px', display: 'flex', alignItems: 'center' },
  veil: {
    position: 'absolute',
    inset: 0,
    zIndex: 1,
    background: 'linear-gradient(90deg, #0b1220 30%, rgba(11,18,32,0.4))',
  },
  heroInner: {
    position: 'relative',
    zIndex: 2,
    padding: '0 64px',
    maxWidth: '640px',
    display: 'flex',
    flexDirection: 'column',
    gap: '18px',
  },
  eyebrow: {
    color: '#22d3ee',
    fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
    letterSpacing: '0.15em',
    fontSize: tokens.fontSizeBase200,
  },
  title: { margin: 0, fontSize: '52px', lineHeight: '60px', fontWeight: 800, color: '#fff' },
  tagline: { margin: 0, color: '#94a3b8', fontSize: tokens.fontSizeBase400 },
  stats: {
    display: 'grid',
    gridTemplateColumns: 'repeat(3, 1fr)',
    borderTop: '1px solid #1e293b',
    borderBottom: '1px solid #1e293b',
  },
  stat: {
    padding: '28px 64px',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    borderRight: '1px solid #1e293b',
  },
  statValue: { fontSize: '36px', fontWeight: 800, color: '#22d3ee' },
  band: { padding: '56px 64px' },
  two: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '40px', padding: '0 64px 56px' },
  panel: {
    backgroundColor: '#111c33',
    borderRadius: tokens.borderRadiusXLarge,
    padding: '24px',
    border: '1px solid #1e2b47',
  },
})

/** Template 3, "dark logistics": a dark control-room look, key figures, the lanes as a departures board. */
export default function Template3() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  return (
    <div className={styles.page} data-template="3">
      <section className={styles.hero}>
        <HeroBackground fallback="linear-gradient(120deg, #0b1220, #0e7490)" />
        <div className={styles.veil} />
        <div className={styles.heroInner}>
          <span className={styles.eyebrow}>{`// ${siteName(settings, i18n.language)}`}</span>
          <h1 className={styles.title}>{t('site.heroHeadline')}</h1>
          <p className={styles.tagline}>{t('common.heroTagline')}</p>
          <QuickSearch tone="dark" start="tracking" />
        </div>
      </section>
      <div className={styles.stats}>
        {[
          ['80+', 'site.statCountries'],
          ['30+', 'site.statCarriers'],
          ['24/7', 'site.statTracking'],
        ].map(([value, label]) => (
          <div key={label} className={styles.stat}>
            <span className={styles.statValue}>{value}</span>
            <span>{t(label as string)}</span>
          </div>
        ))}
      </div>
      <section className={styles.band}>
        <SectionTitle title={t('site.boardTitle')} sub={t('site.specialRoutesLead')} tone="dark" />
        <SpecialRoutes variant="board" />
      </section>
      <section className={styles.band}>
        <SectionTitle title={t('site.servicesTitle')} sub={t('site.servicesLead')} tone="dark" />
        <Services columns={6} tone="dark" />
      </section>
      <div className={styles.two}>
        <section className={styles.panel}>
          <News stacked tone="dark" />
        </section>
        <section className={styles.panel}>
          <SectionTitle title={t('site.contactTitle')} sub={t('site.contactLead')} tone="dark" />
          <Contact stacked />
        </section>
      </div>
    </div>
  )
}
