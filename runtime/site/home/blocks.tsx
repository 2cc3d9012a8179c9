import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { useButtonStyles } from '../../shell/styles.ts'
import { type SiteSettings, siteName, useSiteSettings } from '../SiteSettings.tsx'
import { formatPrice, portName, type SpecialRoute, useNews, useSpecialRoutes } from './data.ts'
import { NO_PLACE, PlaceField, type PlaceKind, type PlaceValue, resolvePlace } from './PlaceField.tsx'

/**
 * The building blocks every home template arranges its own way: the hero's background images, quick
 * search, services, news, featured lanes and contact. Plain elements in Fluent's tokens (the home page's
 * script budget, bench/bundle.ts); `tone="dark"` draws a block on a dark background.
 */

export type Tone = 'light' | 'dark'

const useStyles = makeStyles({
  layers: { position: 'absolute', inset: 0, overflow: 'hidden', zIndex: 0 },
  layer: {
    position: 'absolute',
    inset: 0,
    backgroundSize: 'cover',
    backgroundPosition: 'center',
    opacity: 0,
    transitionProperty: 'opacity',
    transitionDuration: '1.2s',
  },
  shown: { opacity: 1 },
  dots: {
    position: 'absolute',
    bottom: '16px',
    left: '50%',
    transform: 'translateX(-50%)',
    display: 'flex',
    gap: '8px',
    zIndex: 2,
  },
  dot: {
    width: '28px',
    height: '4px',
    padding: 0,
    border: 'none',
    borderRadius: '2px',
    backgroundColor: 'rgba(255,255,255,0.45)',
    cursor: 'pointer',
  },
  dotOn: { backgroundColor: '#fff' },
  search: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '20px',
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    boxShadow: tokens.shadow16,
  },
  searchDark: { backgroundColor: 'rgba(15,23,42,0.88)', color: '#e2e8f0', border: '1px solid rgba(148,163,184,0.3)' },
  tabs: { display: 'flex', gap: '4px' },
  tab: {
    padding: '6px 14px',
    border: 'none',
    borderBottom: '2px solid transparent',
    backgroundColor: 'transparent',
    color: 'inherit',
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    cursor: 'pointer',
    opacity: 0.75,
  },
  tabOn: { borderBottomColor: tokens.colorBrandStroke1, fontWeight: 600, opacity: 1 },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  field: {
    flexGrow: 1,
    flexBasis: '140px',
    minHeight: '40px',
    padding: '0 12px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  select: { flexGrow: 0, flexBasis: '120px' },
  unknown: { margin: 0, color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
  submit: { minHeight: '40px', padding: '0 20px', fontSize: tokens.fontSizeBase300 },
  heading: {
    margin: '0 0 6px',
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: 600,
  },
  sub: { margin: '0 0 20px', color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase300 },
  subDark: { color: '#94a3b8' },
  services: { display: 'grid', gap: '16px' },
  service: {
    display: 'flex',
    flexDirection: 'column',
    gap: '6px',
    padding: '20px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { boxShadow: tokens.shadow16 },
  },
  serviceDark: { backgroundColor: '#111c33', color: '#e2e8f0', boxShadow: 'none', border: '1px solid #1e2b47' },
  serviceIcon: {
    width: '40px',
    height: '40px',
    borderRadius: '10px',
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
    fontWeight: 700,
    fontSize: '13px',
  },
  serviceTitle: { fontWeight: 600, fontSize: tokens.fontSizeBase400 },
  serviceText: { fontSize: tokens.fontSizeBase200, lineHeight: '18px', opacity: 0.8 },
  table: { width: '100%', borderCollapse: 'collapse', fontSize: tokens.fontSizeBase300 },
  th: {
    textAlign: 'left',
    padding: '10px 12px',
    fontWeight: 600,
    borderBottom: `2px solid ${tokens.colorNeutralStroke1}`,
  },
  td: { padding: '10px 12px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  price: { color: tokens.colorPaletteRedForeground1, fontWeight: 700 },
  cards: { display: 'grid', gap: '16px' },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    padding: '18px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
  },
  lane: { fontSize: tokens.fontSizeBase400, fontWeight: 600 },
  meta: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3 },
  board: {
    width: '100%',
    borderCollapse: 'collapse',
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    color: '#fbbf24',
    backgroundColor: '#020617',
    fontSize: '15px',
    letterSpacing: '0.04em',
  },
  boardCell: { padding: '10px 14px', borderBottom: '1px solid #1e293b', textTransform: 'uppercase' },
  news: { display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '24px' },
  newsList: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  newsItem: {
    display: 'flex',
    gap: '12px',
    padding: '10px 0',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  newsLink: {
    flexGrow: 1,
    minWidth: 0,
    color: 'inherit',
    textDecoration: 'none',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    ':hover': { color: tokens.colorBrandForeground1 },
  },
  newsDate: { flexShrink: 0, fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3 },
  // On template 3's dark panels, in its own light accents (the neutral and brand shades are for light pages).
  moreDark: { color: '#22d3ee' },
  newsDateDark: { color: '#94a3b8' },
  newsHead: { display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', margin: '0 0 8px' },
  newsTitle: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: 600 },
  more: { fontSize: tokens.fontSizeBase200, color: tokens.colorBrandForeground1, textDecoration: 'none' },
  empty: { padding: '12px 0', color: tokens.colorNeutralForeground3 },
  contact: { display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: '16px' },
  contactItem: { display: 'flex', flexDirection: 'column', gap: '4px' },
  // Full strength: on a brand-coloured panel (template 1) a faded label would fall under 4.5:1.
  contactLabel: { fontSize: tokens.fontSizeBase200, textTransform: 'uppercase', letterSpacing: '0.06em' },
  contactValue: { fontSize: tokens.fontSizeBase400, fontWeight: 600, wordBreak: 'break-word' },
})

/** At most 3 tenant images (SPEC §3 backgroundImageList), changing every 6 s when backgroundImagePlay is on. */
export function heroImages(settings: SiteSettings | null): string[] {
  return (settings?.backgroundImageList ?? [])
    .map((image) => image?.url)
    .filter((url): url is string => typeof url === 'string' && url !== '')
    .slice(0, 3)
}

export function HeroBackground({ fallback }: { fallback: string }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const settings = useSiteSettings()
  const images = heroImages(settings)
  const play = settings?.backgroundImagePlay !== false && images.length > 1
  const [shown, setShown] = useState(0)
  useEffect(() => {
    if (!play) return
    const timer = window.setInterval(() => setShown((index) => (index + 1) % images.length), 6000)
    return () => window.clearInterval(timer)
  }, [play, images.length])
  return (
    <div className={styles.layers} style={{ background: fallback }} data-carousel={play ? images.length : 0}>
      {images.map((url, index) => (
        <div
          key={url}
          className={mergeClasses(styles.layer, index === shown % images.length && styles.shown)}
          style={{ backgroundImage: `url("${url}")` }}
        />
      ))}
      {play && (
        <div className={styles.dots}>
          {images.map((url, index) => (
            <button
              key={url}
              type="button"
              aria-label={t('site.slide', { n: index + 1 })}
              aria-current={index === shown}
              className={mergeClasses(styles.dot, index === shown && styles.dotOn)}
              onClick={() => setShown(index)}
            />
          ))}
        </div>
      )}
    </div>
  )
}

const RATE_MODES = ['FCL', 'LCL', 'AIR'] as const
type RateMode = (typeof RATE_MODES)[number]
// The rate search of each mode (runtime/flows/rates/state.ts SEARCH_PATHS; not imported: the home page's
// budget has no room for the rate screens' module).
const RATE_PATHS: Record<RateMode, string> = {
  FCL: '/productService',
  LCL: '/lclProductService',
  AIR: '/airProductService',
}

/** The rate search a quick rate search opens, for the lane's codes (either may be missing). */
export function rateSearchPath(mode: RateMode, origin: string | null, destination: string | null): string {
  const query = new URLSearchParams()
  if (origin) query.set('origin', origin)
  if (destination) query.set('destination', destination)
  const search = query.toString()
  return `${RATE_PATHS[mode]}${search ? `?${search}` : ''}`
}

/** Quick search (SPEC §1): rates by mode and ports, or tracking by numbers (→ /orderTracking?numbers=). */
export function QuickSearch({
  tone = 'light',
  className,
  start = 'rates',
}: {
  tone?: Tone
  className?: string
  start?: 'rates' | 'tracking'
}) {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [tab, setTab] = useState<'rates' | 'tracking'>(start)
  const [mode, setMode] = useState<RateMode>('FCL')
  const [origin, setOrigin] = useState<PlaceValue>(NO_PLACE)
  const [destination, setDestination] = useState<PlaceValue>(NO_PLACE)
  const [unknown, setUnknown] = useState<string | null>(null)
  const [numbers, setNumbers] = useState('')
  const places: PlaceKind = mode === 'AIR' ? 'airport' : 'port'
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (tab === 'tracking') {
      navigate(`/orderTracking?numbers=${encodeURIComponent(numbers.trim())}`)
      return
    }
    // A name typed and not picked ("Shanghai") is looked up; one that names no place is said, not dropped.
    const [from, to] = await Promise.all([
      resolvePlace(places, origin).catch(() => null),
      resolvePlace(places, destination).catch(() => null),
    ])
    const missing = [
      [origin, from],
      [destination, to],
    ].find(([value, code]) => !code && (value as PlaceValue).text.trim())
    if (missing) {
      setUnknown((missing[0] as PlaceValue).text.trim())
      return
    }
    setUnknown(null)
    navigate(rateSearchPath(mode, from, to))
  }
  const place = (value: PlaceValue, set: (value: PlaceValue) => void, end: 'origin' | 'destination') => (
    <PlaceField
      kind={places}
      value={value}
      onChange={(next) => {
        set(next)
        setUnknown(null)
      }}
      label={t(`site.${end}`)}
      placeholder={t(`site.${end}Placeholder`)}
      invalid={unknown !== null && !value.code && value.text.trim() === unknown}
      className={styles.field}
    />
  )
  return (
    <form
      className={mergeClasses(styles.search, tone === 'dark' && styles.searchDark, className)}
      onSubmit={(event) => void submit(event)}
      data-quick-search
    >
      <div className={styles.tabs} role="tablist">
        {(['rates', 'tracking'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={mergeClasses(styles.tab, tab === name && styles.tabOn)}
            onClick={() => setTab(name)}
          >
            {name === 'rates' ? t('site.searchRates') : t('site.searchTracking')}
          </button>
        ))}
      </div>
      {tab === 'rates' && (
        <div className={styles.row}>
          <select
            className={mergeClasses(styles.field, styles.select)}
            value={mode}
            aria-label={t('site.specialRoute_mode')}
            onChange={(event) => {
              // Ports and airports are different lists: a place picked for one mode means nothing in the other.
              if ((event.target.value === 'AIR') !== (mode === 'AIR')) {
                setOrigin(NO_PLACE)
                setDestination(NO_PLACE)
              }
              setMode(event.target.value as RateMode)
            }}
          >
            {RATE_MODES.map((value) => (
              <option key={value} value={value}>
                {t(`site.mode_${value}`)}
              </option>
            ))}
          </select>
          {place(origin, setOrigin, 'origin')}
          {place(destination, setDestination, 'destination')}
          <button type="submit" className={mergeClasses(buttons.button, buttons.primary, styles.submit)}>
            {t('site.searchRatesButton')}
          </button>
        </div>
      )}
      {tab === 'rates' && unknown !== null && (
        <p role="alert" className={styles.unknown}>
          {t('site.placeUnknown', { text: unknown })}
        </p>
      )}
      {tab === 'tracking' && (
        <div className={styles.row}>
          <input
            className={styles.field}
            value={numbers}
            onChange={(event) => setNumbers(event.target.value)}
            placeholder={t('common.trackingPlaceholder')}
            aria-label={t('common.trackingPlaceholder')}
          />
          <button type="submit" className={mergeClasses(buttons.button, buttons.primary, styles.submit)}>
            {t('common.track')}
          </button>
        </div>
      )}
    </form>
  )
}

export function SectionTitle({ title, sub, tone = 'light' }: { title: string; sub?: string; tone?: Tone }) {
  const styles = useStyles()
  return (
    <>
      <h2 className={styles.heading}>{title}</h2>
      {sub && <p className={mergeClasses(styles.sub, tone === 'dark' && styles.subDark)}>{sub}</p>}
    </>
  )
}

/** The services a forwarder's home shows, each leading to its page. */
export const SERVICES = [
  { key: 'fcl', icon: 'FCL', title: 'common.service_fcl', text: 'common.service_fcl_text', to: '/FclProductService' },
  { key: 'lcl', icon: 'LCL', title: 'common.service_lcl', text: 'common.service_lcl_text', to: '/LclProductService' },
  { key: 'air', icon: 'AIR', title: 'common.service_air', text: 'common.service_air_text', to: '/AirProductService' },
  { key: 'fba', icon: 'FBA', title: 'common.service_fba', text: 'common.service_fba_text', to: '/FbaProductService' },
  { key: 'rail', icon: 'RAIL', title: 'site.service_rail', text: 'site.service_rail_text', to: '/productService' },
  {
    key: 'customs',
    icon: 'INS',
    title: 'site.service_customs',
    text: 'site.service_customs_text',
    to: '/InsureServiceDetail',
  },
] as const

export function Services({
  columns = 3,
  tone = 'light',
  limit = 6,
}: {
  columns?: number
  tone?: Tone
  limit?: number
}) {
  const styles = useStyles()
  const { t } = useTranslation()
  return (
    <div className={styles.services} style={{ gridTemplateColumns: `repeat(${columns}, 1fr)` }} data-block="services">
      {SERVICES.slice(0, limit).map((service) => (
        <Link
          key={service.key}
          to={service.to}
          className={mergeClasses(styles.service, tone === 'dark' && styles.serviceDark)}
        >
          <span className={styles.serviceIcon} aria-hidden>
            {service.icon}
          </span>
          <span className={styles.serviceTitle}>{t(service.title)}</span>
          <span className={styles.serviceText}>{t(service.text)}</span>
        </Link>
      ))}
    </div>
  )
}

function laneTitle(route: SpecialRoute, language: string): string {
  return `${portName(route, 'pol', language)} → ${portName(route, 'pod', language)}`
}

function laneRates(route: SpecialRoute): string {
  const mode = route.containerLoadType === 'LCL' || route.containerLoadType === 'AIR' ? route.containerLoadType : 'FCL'
  return rateSearchPath(mode, route.pol, route.pod)
}

/** The tenant's featured lanes (configuration.homeSpecialRouteCount of them) as a table, cards or a departures board. */
export function SpecialRoutes({ variant, columns = 3 }: { variant: 'table' | 'cards' | 'board'; columns?: number }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const { data, isError } = useSpecialRoutes()
  const routes = data ?? []
  if (!routes.length) {
    return (
      <p className={styles.empty} data-block="special-routes">
        {isError || data ? t('site.specialRoutesEmpty') : t('site.loading')}
      </p>
    )
  }
  if (variant === 'cards') {
    return (
      <div
        className={styles.cards}
        style={{ gridTemplateColumns: `repeat(${columns}, 1fr)` }}
        data-block="special-routes"
      >
        {routes.map((route) => (
          <Link key={route.id} to={laneRates(route)} className={styles.card} data-lane={`${route.pol}-${route.pod}`}>
            <span className={styles.meta}>
              {t(`site.mode_${route.containerLoadType}`)}
              {route.carrierName ? ` · ${route.carrierName}` : ''}
            </span>
            <span className={styles.lane}>{laneTitle(route, i18n.language)}</span>
            <span>
              {t('site.specialRoute_priceFrom')}{' '}
              <span className={styles.price}>{formatPrice(route, i18n.language)}</span>
              {t(`site.unit_${route.containerLoadType}`)}
            </span>
            <span className={styles.meta}>{t('site.specialRoute_days', { count: route.transitDays })}</span>
          </Link>
        ))}
      </div>
    )
  }
  const board = variant === 'board'
  return (
    <table className={board ? styles.board : styles.table} data-block="special-routes">
      <thead>
        <tr>
          {[
            'specialRoute_lane',
            'specialRoute_mode',
            'specialRoute_carrier',
            'specialRoute_transitDays',
            'specialRoute_priceFrom',
          ].map((key) => (
            <th key={key} className={board ? styles.boardCell : styles.th}>
              {t(`site.${key}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {routes.map((route) => (
          <tr key={route.id} data-lane={`${route.pol}-${route.pod}`}>
            <td className={board ? styles.boardCell : styles.td}>
              {board ? (
                `${route.pol} → ${route.pod}`
              ) : (
                <Link to={laneRates(route)}>{laneTitle(route, i18n.language)}</Link>
              )}
            </td>
            <td className={board ? styles.boardCell : styles.td}>{t(`site.mode_${route.containerLoadType}`)}</td>
            <td className={board ? styles.boardCell : styles.td}>{route.carrierName ?? '—'}</td>
            <td className={board ? styles.boardCell : styles.td}>{route.transitDays}</td>
            <td className={board ? styles.boardCell : styles.td}>
              <span className={board ? undefined : styles.price}>{formatPrice(route, i18n.language)}</span>
              {t(`site.unit_${route.containerLoadType}`)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function NewsColumn({ kind, tone }: { kind: 'hot' | 'recommended'; tone: Tone }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const { data, isPending } = useNews(kind)
  const items = data ?? []
  return (
    <div data-news={kind}>
      <div className={styles.newsHead}>
        <h3 className={styles.newsTitle}>{kind === 'hot' ? t('site.hotNews') : t('site.recommendedNews')}</h3>
        <Link to="/News" className={mergeClasses(styles.more, tone === 'dark' && styles.moreDark)}>
          {t('site.moreNews')}
        </Link>
      </div>
      {items.length ? (
        <ul className={styles.newsList}>
          {items.map((item) => (
            <li key={item.id} className={styles.newsItem}>
              <Link to={`/InformationCenterDetail?id=${item.id}`} className={styles.newsLink} title={item.title}>
                {item.title}
              </Link>
              <span className={mergeClasses(styles.newsDate, tone === 'dark' && styles.newsDateDark)}>
                {item.publishedAt.slice(0, 10)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.empty}>{isPending ? t('site.loading') : t('site.newsEmpty')}</p>
      )}
    </div>
  )
}

/** Hot and recommended news side by side (or stacked with `stacked`). */
export function News({ stacked = false, tone = 'light' }: { stacked?: boolean; tone?: Tone }) {
  const styles = useStyles()
  return (
    <div
      className={styles.news}
      style={stacked ? { gridTemplateColumns: 'minmax(0, 1fr)' } : undefined}
      data-block="news"
    >
      <NewsColumn kind="hot" tone={tone} />
      <NewsColumn kind="recommended" tone={tone} />
    </div>
  )
}

export function companyAddress(settings: SiteSettings | null, language: string): string {
  if (!settings) return ''
  return (language === 'zh' ? settings.companyAddress : settings.companyAddressEn || settings.companyAddress) ?? ''
}

/** Phone, mail and address of the tenant (site settings servicePhone, mail, companyAddress). */
export function Contact({ className, stacked = false }: { className?: string; stacked?: boolean }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const address = companyAddress(settings, i18n.language)
  return (
    <div
      className={mergeClasses(styles.contact, className)}
      style={stacked ? { gridTemplateColumns: '1fr' } : undefined}
      data-block="contact"
    >
      <div className={styles.contactItem}>
        <span className={styles.contactLabel}>{t('site.phone')}</span>
        <a
          className={styles.contactValue}
          style={{ color: 'inherit' }}
          href={`tel:${(settings?.servicePhone || '400-665-9211').replace(/[^\d+]/g, '')}`}
        >
          {settings?.servicePhone || '400-665-9211'}
        </a>
        <span>{t('site.hours')}</span>
      </div>
      <div className={styles.contactItem}>
        <span className={styles.contactLabel}>{t('site.mail')}</span>
        {settings?.mail && (
          <a className={styles.contactValue} style={{ color: 'inherit' }} href={`mailto:${settings.mail}`}>
            {settings.mail}
          </a>
        )}
      </div>
      <div className={styles.contactItem}>
        <span className={styles.contactLabel}>{t('site.address')}</span>
        <span className={styles.contactValue}>{address || siteName(settings, i18n.language)}</span>
      </div>
    </div>
  )
}
