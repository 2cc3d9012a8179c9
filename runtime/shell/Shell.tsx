import {
  Avatar,
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useLocation } from 'react-router'
import { useEffects } from '../effects.tsx'
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language, switchLanguage } from '../i18n.ts'
import { isGroup, ORDER_DESK_USER_TYPE, topMenu } from '../routing/menus.ts'
import { resetSession, useSession } from '../session.ts'
import { siteName, useSiteSettings } from '../site/SiteSettings.tsx'
import { Notifications } from './Notifications.tsx'

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
  bar: {
    display: 'flex',
    alignItems: 'center',
    gap: '24px',
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
    textDecoration: 'none',
    color: tokens.colorNeutralForeground1,
  },
  nav: { display: 'flex', alignItems: 'center', gap: '4px' },
  navLink: {
    padding: '6px 12px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    fontSize: tokens.fontSizeBase300,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, color: tokens.colorBrandForeground1 },
  },
  navActive: { color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold },
  spacer: { flexGrow: 1 },
  tools: { display: 'flex', alignItems: 'center', gap: '8px' },
  main: { flexGrow: 1, display: 'flex', flexDirection: 'column' },
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

/** SPEC §2: the footer is hidden on /resetPassword. */
export const FOOTERLESS_PATHS: readonly string[] = ['/resetPassword']

function LanguageSwitch() {
  const { t, i18n } = useTranslation()
  const effects = useEffects()
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'zh'
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" appearance="transparent" aria-label={t('common.language')}>
          {LANGUAGE_NAMES[current]} ▾
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LANGUAGES.map((language) => (
            <MenuItem
              key={language}
              disabled={language === current}
              onClick={() =>
                void switchLanguage(language).then(() =>
                  // Said in the language just chosen (SPEC §8).
                  effects.toast(i18n.t('ui.switchLanguageSuccess'), { intent: 'success', id: 'language' }),
                )
              }
            >
              {LANGUAGE_NAMES[language]}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  )
}

function TopMenu() {
  const styles = useStyles()
  const { t } = useTranslation()
  const settings = useSiteSettings()
  const session = useSession()
  const location = useLocation()
  const effects = useEffects()
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
          <Menu key={entry.key}>
            <MenuTrigger disableButtonEnhancement>
              <Button appearance="subtle">{t(entry.label)} ▾</Button>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {entry.items.map((item) => (
                  <MenuItem key={item.key} onClick={() => effects.navigate(item.to)}>
                    {t(item.label)}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
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

function ProfileMenu() {
  const { t } = useTranslation()
  const session = useSession()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const user = session.user
  if (!user) return null
  const showProfile = user.userInfo.companyUserType !== ORDER_DESK_USER_TYPE
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" aria-label={t('ui.profileMenu')}>
          <Avatar
            size={24}
            name={user.name || user.userInfo.username}
            image={user.avatar ? { src: user.avatar } : undefined}
          />
          <Text style={{ marginLeft: 8 }}>{user.name || user.userInfo.username}</Text>
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {showProfile && <MenuItem onClick={() => effects.navigate('/personalInfo')}>{t('ui.profile')}</MenuItem>}
          <MenuItem
            onClick={() =>
              void resetSession(queryClient).then(() => {
                effects.toast(t('ui.loggedOut'), { intent: 'success', id: 'logout' })
                effects.navigate('/login')
              })
            }
          >
            {t('ui.logout')}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  )
}

/**
 * SPEC §2: the IM website opens in a new tab with the user's parameters. Shown only when the tenant's
 * settings name that website (`imUrl`); the chat call that adds its cacheKey comes with the IM work.
 */
function ImLink() {
  const { t, i18n } = useTranslation()
  const session = useSession()
  const settings = useSiteSettings()
  const base = typeof settings?.imUrl === 'string' ? settings.imUrl : ''
  if (!session.user || !base) return null
  const params = new URLSearchParams({
    userName: session.user.userInfo.username,
    companyUserType: String(session.user.userInfo.companyUserType),
    tenantId: String(settings?.tenantId ?? ''),
    fromB2B: '1',
    language: i18n.language,
  })
  return (
    <Tooltip content={t('ui.im')} relationship="label">
      <Button
        as="a"
        href={`${base}${base.includes('?') ? '&' : '?'}${params}`}
        target="_blank"
        rel="noopener"
        appearance="subtle"
        size="small"
      >
        {t('ui.im')}
      </Button>
    </Tooltip>
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

/** The top bar, top menu and footer of SPEC §2 "Layout" around any page. */
export function Shell({ children }: { children: ReactNode }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const session = useSession()
  const location = useLocation()
  const effects = useEffects()
  return (
    <div className={styles.page}>
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
          <img src={settings?.logoList?.[0]?.url ?? '/logo.svg'} alt="" width={32} height={32} />
          <Text weight="semibold" size={500}>
            {siteName(settings, i18n.language)}
          </Text>
        </RouterLink>
        <TopMenu />
        <span className={styles.spacer} />
        <div className={styles.tools}>
          {session.loggedIn ? (
            <>
              <Notifications />
              <ImLink />
              <ProfileMenu />
            </>
          ) : (
            <Button appearance="primary" onClick={() => effects.navigate('/login')}>
              {t('common.loginRegister')}
            </Button>
          )}
        </div>
      </header>
      <main className={styles.main}>{children}</main>
      {!FOOTERLESS_PATHS.includes(location.pathname) && <Footer />}
    </div>
  )
}
