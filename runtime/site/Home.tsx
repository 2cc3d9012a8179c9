import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useButtonStyles } from '../shell/styles.ts'
import { siteName, useSiteSettings } from './SiteSettings.tsx'

const useStyles = makeStyles({
  hero: {
    padding: '96px 64px',
    color: '#fff',
    background: 'linear-gradient(120deg, #0b3a6e 0%, #1769c2 55%, #409eff 100%)',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
  },
  title: {
    margin: 0,
    fontSize: tokens.fontSizeHero800,
    lineHeight: tokens.lineHeightHero800,
    fontWeight: tokens.fontWeightSemibold,
  },
  tagline: { margin: 0, fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500 },
  search: { display: 'flex', gap: '8px', maxWidth: '720px', marginTop: '24px' },
  // Fluent's large input and button, drawn with its tokens: the home page is the one page every visitor
  // loads, and Fluent's Input and Button would be most of its script.
  input: {
    flexGrow: 1,
    minHeight: '40px',
    padding: '0 12px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderBottomColor: tokens.colorNeutralStrokeAccessible,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase400,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  large: { minHeight: '40px', padding: '0 20px', fontSize: tokens.fontSizeBase400 },
  services: { display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: '16px', padding: '32px 64px' },
  card: {
    backgroundColor: tokens.colorNeutralBackground1,
    padding: '24px',
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
  },
  cardTitle: {
    margin: '0 0 4px',
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  cardText: { margin: 0 },
})

const SERVICES = ['fcl', 'lcl', 'air', 'fba'] as const

/** Home page, template 0. The six white-label templates come with the public-site work. */
export default function Home() {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const navigate = useNavigate()
  const [numbers, setNumbers] = useState('')
  return (
    <>
      <section className={styles.hero}>
        <h1 className={styles.title}>{siteName(settings, i18n.language)}</h1>
        <p className={styles.tagline}>{t('common.heroTagline')}</p>
        <form
          className={styles.search}
          onSubmit={(event) => {
            event.preventDefault()
            navigate(`/orderTracking?numbers=${encodeURIComponent(numbers)}`)
          }}
        >
          <input
            className={styles.input}
            value={numbers}
            onChange={(event) => setNumbers(event.target.value)}
            placeholder={t('common.trackingPlaceholder')}
            aria-label={t('common.trackingPlaceholder')}
          />
          <button type="submit" className={mergeClasses(buttons.button, buttons.primary, styles.large)}>
            {t('common.track')}
          </button>
        </form>
      </section>
      <section className={styles.services}>
        {SERVICES.map((service) => (
          <div key={service} className={styles.card}>
            <h2 className={styles.cardTitle}>{t(`common.service_${service}`)}</h2>
            <p className={styles.cardText}>{t(`common.service_${service}_text`)}</p>
          </div>
        ))}
      </section>
    </>
  )
}
