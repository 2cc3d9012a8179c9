import { makeStyles, tokens } from '@fluentui/react-components'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, switchLanguage } from '../../i18n.ts'
import { MainContent, SkipLink } from '../../shell/SkipLink.tsx'
import { DEFAULT_LOGO, logoWidth, siteName, useSiteSettings } from '../SiteSettings.tsx'
import { chooseFullSite, desktopPathOf } from './switch.ts'

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground2,
    fontFamily: tokens.fontFamilyBase,
  },
  bar: {
    position: 'sticky',
    top: 0,
    zIndex: 10,
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    height: '52px',
    padding: '0 12px',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    flexGrow: 1,
    minWidth: 0,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    fontWeight: 600,
  },
  brandName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  burger: {
    width: '40px',
    height: '40px',
    display: 'grid',
    placeItems: 'center',
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    fontSize: '22px',
  },
  menu: {
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  menuLink: {
    padding: '14px 20px',
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: 'transparent',
    border: 'none',
    textAlign: 'left',
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
  },
  languages: { display: 'flex', gap: '8px', padding: '12px 20px', flexWrap: 'wrap' },
  language: {
    padding: '4px 10px',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
  },
  languageOn: {
    borderTopColor: tokens.colorBrandStroke1,
    borderRightColor: tokens.colorBrandStroke1,
    borderBottomColor: tokens.colorBrandStroke1,
    borderLeftColor: tokens.colorBrandStroke1,
    color: tokens.colorBrandForeground1,
    fontWeight: 600,
  },
  main: { flexGrow: 1, display: 'flex', flexDirection: 'column', minWidth: 0 },
  footer: {
    padding: '20px 16px',
    textAlign: 'center',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    display: 'flex',
    flexDirection: 'column',
    gap: '6px',
  },
})

/**
 * The mobile site's frame (layout `mobile`): the skip link, a compact bar with a menu, no minimum width, a
 * short footer.
 */
export default function MobileShell({ children }: { children: ReactNode }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const location = useLocation()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const name = siteName(settings, i18n.language)
  // A chosen entry closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation by design
  useEffect(() => setOpen(false), [location.pathname])
  const fullSite = () => {
    chooseFullSite()
    navigate(`${desktopPathOf(location.pathname)}${location.search}`)
  }
  return (
    <div className={styles.page} data-layout="mobile">
      <SkipLink />
      <header className={styles.bar}>
        <Link to="/m" className={styles.brand} onClick={() => setOpen(false)}>
          <img
            src={settings?.logoList?.[0]?.url ?? DEFAULT_LOGO}
            alt=""
            width={logoWidth(settings?.logoList?.[0]?.url, 28)}
            height={28}
            style={{ objectFit: 'contain' }}
          />
          <span className={styles.brandName}>{name}</span>
        </Link>
        <button
          type="button"
          className={styles.burger}
          aria-expanded={open}
          aria-label={t('site.menu')}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? '×' : '☰'}
        </button>
      </header>
      {open && (
        <nav className={styles.menu} aria-label={t('site.menu')}>
          <Link to="/m" className={styles.menuLink}>
            {t('site.homeTitle')}
          </Link>
          <Link to="/m/tracking" className={styles.menuLink}>
            {t('site.mobileTracking')}
          </Link>
          <Link to="/m/news" className={styles.menuLink}>
            {t('site.mobileNews')}
          </Link>
          <Link to="/login" className={styles.menuLink}>
            {t('common.loginRegister')}
          </Link>
          <button type="button" className={styles.menuLink} onClick={fullSite}>
            {t('site.fullSite')}
          </button>
          <div className={styles.languages}>
            {LANGUAGES.map((language) => (
              <button
                key={language}
                type="button"
                className={`${styles.language} ${isLanguage(i18n.language) && i18n.language === language ? styles.languageOn : ''}`}
                onClick={() => void switchLanguage(language)}
              >
                {LANGUAGE_NAMES[language]}
              </button>
            ))}
          </div>
        </nav>
      )}
      <MainContent className={styles.main}>{children}</MainContent>
      <footer className={styles.footer}>
        <a href={`tel:${(settings?.servicePhone || '400-665-9211').replace(/[^\d+]/g, '')}`}>
          {t('common.servicePhone')}: {settings?.servicePhone || '400-665-9211'}
        </a>
        <span>{i18n.language === 'zh' ? settings?.copyright : settings?.copyrightEn || settings?.copyright}</span>
        <button type="button" className={styles.language} onClick={fullSite} style={{ alignSelf: 'center' }}>
          {t('site.fullSite')}
        </button>
      </footer>
    </div>
  )
}
