import { Button, Dropdown, Link, makeStyles, Option, Text, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { LANGUAGES, type Language, setLanguageCookie } from '../i18n.ts'
import { siteName, useSiteSettings } from '../site/SiteSettings.tsx'

const useStyles = makeStyles({
  page: {
    minWidth: '1200px',
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  contact: {
    display: 'flex',
    justifyContent: 'space-between',
    padding: '4px 32px',
    backgroundColor: tokens.colorNeutralBackground3,
    fontSize: tokens.fontSizeBase200,
  },
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: '24px',
    padding: '12px 32px',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    textDecoration: 'none',
    color: tokens.colorNeutralForeground1,
  },
  spacer: { flexGrow: 1 },
  main: { flexGrow: 1 },
  footer: {
    padding: '24px 32px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
  },
})

const LANGUAGE_NAMES: Record<Language, string> = { zh: '中文', en: 'English', ja: '日本語', es: 'Español' }

/** The top bar and footer of SPEC §2 "Layout". The full shell (menus, notifications, IM) comes with the portal runtime. */
export function Shell({ children, hideFooter = false }: { children: ReactNode; hideFooter?: boolean }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const language = i18n.language as Language
  const name = siteName(settings, language)
  return (
    <div className={styles.page}>
      <div className={styles.contact}>
        <span>
          {t('common.servicePhone')}: {settings?.servicePhone ?? '400-665-9211'} · {settings?.mail ?? ''}
        </span>
        <Dropdown
          aria-label={t('common.language')}
          size="small"
          value={LANGUAGE_NAMES[language]}
          selectedOptions={[language]}
          onOptionSelect={(_, data) => {
            const next = data.optionValue as Language
            setLanguageCookie(next)
            void i18n.changeLanguage(next)
          }}
        >
          {LANGUAGES.map((l) => (
            <Option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </Option>
          ))}
        </Dropdown>
      </div>
      <header className={styles.bar}>
        <RouterLink to="/dashboard" className={styles.brand}>
          <img src={settings?.logoList?.[0]?.url ?? '/logo.svg'} alt="" width={32} height={32} />
          <Text weight="semibold" size={500}>
            {name}
          </Text>
        </RouterLink>
        <nav style={{ display: 'flex', gap: 20 }}>
          <Link as="a" href="/dashboard">
            {t('route.dashboard')}
          </Link>
          <Link as="a" href="/orderTracking">
            {t('route.orderTracking')}
          </Link>
          <Link as="a" href="/News">
            {t('route.news')}
          </Link>
        </nav>
        <span className={styles.spacer} />
        <Button as="a" href="/login" appearance="primary">
          {t('common.loginRegister')}
        </Button>
      </header>
      <main className={styles.main}>{children}</main>
      {!hideFooter && (
        <footer className={styles.footer}>
          {language === 'zh' ? settings?.copyright : settings?.copyrightEn} {settings?.icp}
        </footer>
      )}
    </div>
  )
}
