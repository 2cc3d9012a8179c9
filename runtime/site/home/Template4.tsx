import { makeStyles, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { Contact, HeroBackground, News, QuickSearch, SectionTitle, Services, SpecialRoutes } from './blocks.tsx'

const useStyles = makeStyles({
  hero: { position: 'relative', padding: '48px 64px 40px', color: '#fff', overflow: 'hidden' },
  veil: { position: 'absolute', inset: 0, zIndex: 1, background: 'rgba(7,33,63,0.82)' },
  inner: {
    position: 'relative',
    zIndex: 2,
    display: 'grid',
    gridTemplateColumns: '1fr 1.3fr',
    gap: '40px',
    alignItems: 'center',
  },
  title: { margin: '0 0 12px', fontSize: '40px', lineHeight: '48px', fontWeight: 700 },
  tagline: { margin: '0 0 24px', opacity: 0.85, fontSize: tokens.fontSizeBase400 },
  map: { width: '100%', height: 'auto' },
  lanes: { padding: '48px 64px', backgroundColor: tokens.colorNeutralBackground1 },
  grid: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '40px', padding: '48px 64px' },
  contact: { padding: '32px 64px', backgroundColor: tokens.colorNeutralBackground3 },
})

// Ports placed on an equirectangular sketch (x = longitude, y = latitude), and the arcs between them.
const PORTS: Record<string, [number, number]> = {
  CNSHA: [730, 170],
  CNSZX: [715, 195],
  USLAX: [170, 165],
  USNYC: [280, 150],
  NLRTM: [470, 105],
  DEHAM: [480, 100],
  SGSIN: [690, 255],
  AEJEA: [575, 195],
  JPTYO: [780, 160],
  AUSYD: [800, 330],
  GBFXT: [460, 108],
}
const ARCS = [
  ['CNSHA', 'USLAX'],
  ['CNSHA', 'NLRTM'],
  ['CNSZX', 'SGSIN'],
  ['CNSHA', 'AEJEA'],
  ['CNSHA', 'USNYC'],
  ['CNSZX', 'AUSYD'],
  ['CNSHA', 'JPTYO'],
] as const

function arcPath([x1, y1]: [number, number], [x2, y2]: [number, number]): string {
  const mx = (x1 + x2) / 2
  const my = Math.min(y1, y2) - Math.abs(x1 - x2) / 5
  return `M${x1},${y1} Q${mx},${my} ${x2},${y2}`
}

function RouteMap() {
  const styles = useStyles()
  return (
    <svg className={styles.map} viewBox="100 40 760 330" role="img" aria-hidden>
      <g fill="rgba(255,255,255,0.12)">
        <path d="M130 80h190l30 60-40 70-60 10-40 60-40-20-20-80-40-40z" />
        <path d="M260 230l60 10 30 60-30 60-40-10-20-60z" />
        <path d="M430 70h120l-10 60-60 20-50-20z" />
        <path d="M450 150l90-10 40 60-30 100-60 10-40-90z" />
        <path d="M560 60h260l20 80-60 60-80 40-60-40-60-20z" />
        <path d="M740 290h90l10 50-60 20-40-30z" />
      </g>
      <g fill="none" stroke="#38bdf8" strokeWidth="2" strokeDasharray="6 5">
        {ARCS.map(([from, to]) => (
          <path key={`${from}-${to}`} d={arcPath(PORTS[from] as [number, number], PORTS[to] as [number, number])} />
        ))}
      </g>
      <g fill="#fbbf24">
        {Object.entries(PORTS).map(([code, [x, y]]) => (
          <circle key={code} cx={x} cy={y} r="5" />
        ))}
      </g>
    </svg>
  )
}

/** Template 4, "route map": the lanes drawn on a world sketch lead the page, the featured lanes right under it. */
export default function Template4() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  return (
    <div data-template="4">
      <section className={styles.hero}>
        <HeroBackground fallback="linear-gradient(135deg, #07213f, #0c4a6e)" />
        <div className={styles.veil} />
        <div className={styles.inner}>
          <div>
            <h1 className={styles.title}>{t('site.mapTitle')}</h1>
            <p className={styles.tagline}>
              {siteName(settings, i18n.language)} · {t('common.heroTagline')}
            </p>
            <QuickSearch />
          </div>
          <RouteMap />
        </div>
      </section>
      <section className={styles.lanes}>
        <SectionTitle title={t('site.specialRoutes')} sub={t('site.specialRoutesLead')} />
        <SpecialRoutes variant="cards" columns={4} />
      </section>
      <div className={styles.grid}>
        <section>
          <SectionTitle title={t('site.servicesTitle')} />
          <Services columns={2} limit={4} />
        </section>
        <section>
          <SectionTitle title={t('site.newsTitle')} />
          <News stacked />
        </section>
      </div>
      <section className={styles.contact}>
        <SectionTitle title={t('site.contactTitle')} sub={t('site.contactLead')} />
        <Contact />
      </section>
    </div>
  )
}
