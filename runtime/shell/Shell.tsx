import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { lazy, type ReactNode, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useLocation } from 'react-router'
import { routes } from '../../generated/routes.ts'
import { useClient } from '../client.tsx'
import { useEffects } from '../effects.tsx'
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language, switchLanguage } from '../i18n.ts'
import { isGroup, type MenuLink, topMenu } from '../routing/menus.ts'
import { useSession } from '../session.ts'
import { DEFAULT_LOGO, logoWidth, siteName, useSiteSettings } from '../site/SiteSettings.tsx'
import { MenuButton } from './MenuButton.tsx'
import { MainContent, SkipLink } from './SkipLink.tsx'
import { useButtonStyles } from './styles.ts'

/**
 * The shell is on every page, the public home page included: it draws with Fluent's tokens and plain
 * elements, and what only signed-in users see (notifications, IM, profile) is a chunk of its own.
 */
const UserTools = lazy(() => import('./UserTools.tsx'))

const useStyles = makeStyles({
  page: {
    minWidth: '1200px',
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground2,
    // SPEC §9: below 1300 px the whole layout is shown at 75 %.
    '@media (max-width: 1299px)': { zoom: 0.75 },
  },
  contact: {
    display: 'flex',
    alignItems: 'center',
    gap: '16px',
    padding: '2px 32px',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  // A label is never broken inside a word (Japanese ホー/ム, Spanish "Centro de / información"): the menu wraps
  // whole items onto a second row when a language's labels are longer than the bar.
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: '16px',
    padding: '8px 32px',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    position: 'relative',
    zIndex: 1,
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    flexShrink: 0,
    textDecoration: 'none',
    color: tokens.colorNeutralForeground1,
  },
  brandName: {
    maxWidth: '320px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  nav: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2px 4px', minWidth: 0 },
  navLink: {
    whiteSpace: 'nowrap',
    padding: '6px 10px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    fontSize: tokens.fontSizeBase300,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, color: tokens.colorBrandForeground1 },
  },
  navActive: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  spacer: { flexGrow: 1 },
  tools: { display: 'flex', alignItems: 'center', gap: '8px', flexShrink: 0, whiteSpace: 'nowrap' },
  // A stacking context of its own: whatever a page layers (a home template's hero, a sticky bar) stays under
  // the top bar and its open menus, however high its z-index.
  main: { flexGrow: 1, display: 'flex', flexDirection: 'column', isolation: 'isolate' },
  footer: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '6px',
    padding: '20px 32px',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground1,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  footerLinks: { display: 'flex', gap: '20px' },
  footerLink: {
    color: tokens.colorNeutralForeground2,
    textDecoration: 'none',
    ':hover': { color: tokens.colorBrandForeground1 },
  },
})

/** SPEC §2: the footer is hidden on /resetPassword (its screen says `footer: false`). */
export const FOOTERLESS_PATHS: readonly string[] = routes.filter((route) => !route.footer).map((route) => route.path)

function LanguageSwitch() {
  const { t, i18n } = useTranslation()
  const effects = useEffects()
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'zh'
  return (
    <MenuButton
      size="small"
      align="end"
      ariaLabel={t('common.language')}
      label={LANGUAGE_NAMES[current]}
      items={LANGUAGES.map((language) => ({
        key: language,
        label: LANGUAGE_NAMES[language],
        disabled: language === current,
        onSelect: () =>
          void switchLanguage(language).then(() =>
            // Said in the language just chosen (SPEC §8).
            effects.toast(i18n.t('ui.switchLanguageSuccess'), { intent: 'success', id: 'language' }),
          ),
      }))}
    />
  )
}

/**
 * SPEC §2 "Direct order menu": the tenant check first; a tenant that answers no direct-order service has
 * not enabled online booking, and a warm reminder offers the way there (/enterpriseInfo) instead.
 */
function useDirectOrder() {
  const client = useClient()
  const effects = useEffects()
  const { t } = useTranslation()
  return async (item: MenuLink) => {
    // A failed check has been toasted by the client (SPEC §8): stay.
    const answer = await client.b2b.checkTenant({}).catch(() => null)
    if (!answer) return
    const content = answer.content
    const enabled = content !== null && typeof content === 'object' && Object.keys(content).length > 0
    if (enabled) {
      effects.navigate(item.to)
      return
    }
    const goEnable = await effects.confirm({
      title: t('ui.warmReminder'),
      body: t('ui.directOrderNotEnabled'),
      confirmLabel: t('ui.ok'),
      cancelLabel: t('ui.cancel'),
    })
    if (goEnable) effects.navigate('/enterpriseInfo')
  }
}

function TopMenu() {
  const styles = useStyles()
  const { t } = useTranslation()
  const settings = useSiteSettings()
  const session = useSession()
  const location = useLocation()
  const effects = useEffects()
  const openDirectOrder = useDirectOrder()
  const entries = topMenu({
    settings,
    loggedIn: session.loggedIn,
    permissions: session.permissions,
    companyUserType: session.user?.userInfo.companyUserType,
  })
  return (
    <nav className={styles.nav} aria-label={t('ui.mainMenu')}>
      {entries.map((entry) =>
        isGroup(entry) ? (
          <MenuButton
            key={entry.key}
            label={t(entry.label)}
            items={entry.items.map((item) => ({
              key: item.key,
              label: t(item.label),
              onSelect: () => (entry.key === 'direct' ? void openDirectOrder(item) : effects.navigate(item.to)),
            }))}
          />
        ) : (
          <RouterLink
            key={entry.key}
            to={entry.to}
            className={`${styles.navLink} ${location.pathname === entry.to ? styles.navActive : ''}`}
          >
            {t(entry.label)}
          </RouterLink>
        ),
      )}
    </nav>
  )
}

function Footer() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const copyright = i18n.language === 'zh' ? settings?.copyright : settings?.copyrightEn || settings?.copyright
  return (
    <footer className={styles.footer}>
      <div className={styles.footerLinks}>
        <RouterLink to="/aboutUs" className={styles.footerLink}>
          {t('ui.footer_about')}
        </RouterLink>
        <RouterLink to="/ServiceAgreement" className={styles.footerLink}>
          {t('ui.footer_serviceAgreement')}
        </RouterLink>
        <RouterLink to="/PrivacyAgreement" className={styles.footerLink}>
          {t('ui.footer_privacyAgreement')}
        </RouterLink>
      </div>
      <span>
        {copyright || `© ${new Date().getFullYear()} ${siteName(settings, i18n.language)}`}
        {settings?.icp ? ` · ${settings.icp}` : ''}
      </span>
    </footer>
  )
}

/**
 * The top bar, top menu and footer of SPEC §2 "Layout" around any page, the skip link first. A layout that
 * puts a menu of its own beside the page (the workbench) draws the <main> itself (`ownMain`), so that main
 * content is the screen alone.
 */
export function Shell({ children, ownMain = false }: { children: ReactNode; ownMain?: boolean }) {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const session = useSession()
  const location = useLocation()
  return (
    <div className={styles.page}>
      <SkipLink />
      <div className={styles.contact}>
        <span>
          {t('common.servicePhone')}: {settings?.servicePhone || '400-665-9211'}
        </span>
        {settings?.mail && (
          <span>
            {t('ui.mail')}: {settings.mail}
          </span>
        )}
        <span className={styles.spacer} />
        <LanguageSwitch />
      </div>
      <header className={styles.bar}>
        <RouterLink to="/dashboard" className={styles.brand}>
          <img
            src={settings?.logoList?.[0]?.url ?? DEFAULT_LOGO}
            alt=""
            width={logoWidth(settings?.logoList?.[0]?.url, 32)}
            height={32}
            style={{ objectFit: 'contain' }}
            data-site-logo
          />
          <span className={styles.brandName}>{siteName(settings, i18n.language)}</span>
        </RouterLink>
        <TopMenu />
        <span className={styles.spacer} />
        <div className={styles.tools}>
          {session.loggedIn ? (
            <Suspense fallback={null}>
              <UserTools />
            </Suspense>
          ) : (
            <RouterLink to="/login" className={mergeClasses(buttons.button, buttons.primary)}>
              {t('common.loginRegister')}
            </RouterLink>
          )}
        </div>
      </header>
      {ownMain ? (
        <div className={styles.main}>{children}</div>
      ) : (
        <MainContent className={styles.main}>{children}</MainContent>
      )}
      {!FOOTERLESS_PATHS.includes(location.pathname) && <Footer />}
    </div>
  )
}
