import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { Contact, HeroBackground, News, QuickSearch, SectionTitle, Services, SpecialRoutes } from './blocks.tsx'

const useStyles = makeStyles({
  page: {
    maxWidth: '1200px',
    width: '100%',
    boxSizing: 'border-box',
    margin: '0 auto',
    padding: '32px 64px 56px',
    display: 'flex',
    flexDirection: 'column',
    gap: '32px',
  },
  masthead: {
    display: 'flex',
    alignItems: 'baseline',
    justifyContent: 'space-between',
    borderBottom: `3px double ${tokens.colorNeutralForeground1}`,
    paddingBottom: '12px',
  },
  name: {
    margin: 0,
    fontFamily: 'Georgia, "Times New Roman", serif',
    fontSize: '40px',
    lineHeight: '48px',
    fontWeight: 700,
  },
  date: {
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground3,
    textTransform: 'uppercase',
    letterSpacing: '0.1em',
  },
  grid: { display: 'grid', gridTemplateColumns: '2fr 1fr', gridTemplateRows: 'auto auto', gap: '24px' },
  lead: {
    position: 'relative',
    minHeight: '380px',
    borderRadius: tokens.borderRadiusLarge,
    overflow: 'hidden',
    color: '#fff',
    display: 'flex',
    alignItems: 'flex-end',
  },
  leadCopy: {
    position: 'relative',
    zIndex: 1,
    padding: '28px',
    background: 'linear-gradient(0deg, rgba(0,0,0,0.75), transparent)',
    width: '100%',
    boxSizing: 'border-box',
  },
  leadTitle: {
    margin: '0 0 6px',
    fontFamily: 'Georgia, "Times New Roman", serif',
    fontSize: '34px',
    lineHeight: '40px',
  },
  column: {
    gridRow: '1 / 3',
    gridColumn: 2,
    padding: '0 0 0 24px',
    borderLeft: `1px solid ${tokens.colorNeutralStroke1}`,
  },
  search: { gridColumn: 1 },
  split: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '32px' },
  contact: { borderTop: `1px solid ${tokens.colorNeutralStroke1}`, paddingTop: '24px' },
})

/** Template 2, "magazine": a masthead, a lead story picture with the search under it and the news as a side column. */
export default function Template2() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const today = new Date().toLocaleDateString(i18n.language === 'zh' ? 'zh-CN' : i18n.language, { dateStyle: 'full' })
  return (
    <div className={styles.page} data-template="2">
      <header className={styles.masthead}>
        <h1 className={styles.name}>{siteName(settings, i18n.language)}</h1>
        <span className={styles.date}>{today}</span>
      </header>
      <div className={styles.grid}>
        <section className={styles.lead}>
          <HeroBackground fallback="linear-gradient(135deg, #134e4a, #0f766e 60%, #5eead4)" />
          <div className={styles.leadCopy}>
            <h2 className={styles.leadTitle}>{t('site.heroHeadlineAlt')}</h2>
            <span>{t('common.heroTagline')}</span>
          </div>
        </section>
        <aside className={styles.column}>
          <SectionTitle title={t('site.newsTitle')} />
          <News stacked />
        </aside>
        <div className={styles.search}>
          <QuickSearch />
        </div>
      </div>
      <div className={styles.split}>
        <section>
          <SectionTitle title={t('site.specialRoutes')} sub={t('site.specialRoutesLead')} />
          <SpecialRoutes variant="table" />
        </section>
        <section>
          <SectionTitle title={t('site.servicesTitle')} />
          <Services columns={2} />
        </section>
      </div>
      <section className={styles.contact}>
        <SectionTitle title={t('site.contactTitle')} sub={t('site.contactLead')} />
        <Contact />
      </section>
    </div>
  )
}
