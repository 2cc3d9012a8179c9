import { makeStyles, tokens } from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useEffects } from '../effects.tsx'
import { ORDER_DESK_USER_TYPE, PENDING_APPROVAL_PERMISSIONS } from '../routing/menus.ts'
import { resetSession, useSession } from '../session.ts'
import { useSiteSettings } from '../site/SiteSettings.tsx'
import { fileUrl } from '../widgets/fileTransfer.ts'
import { MenuButton } from './MenuButton.tsx'
import { Notifications } from './Notifications.tsx'
import { PendingApprovals } from './PendingApprovals.tsx'
import { useButtonStyles } from './styles.ts'

const useStyles = makeStyles({
  tools: { display: 'flex', alignItems: 'center', gap: '8px' },
  name: { color: tokens.colorNeutralForeground1 },
  // Fluent's Avatar at size 24: the picture, else the initials on a brand tint.
  avatar: {
    width: '24px',
    height: '24px',
    flexShrink: 0,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightSemibold,
  },
  picture: { width: '100%', height: '100%', objectFit: 'cover' },
})

/** "Li Wei" → "LW", "刘洋" → "刘". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (!words.length) return ''
  if (words.length === 1 || /[^A-Za-z\s.'-]/.test(name)) return [...(words[0] as string)][0]?.toUpperCase() ?? ''
  return `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}`.toUpperCase()
}

function UserAvatar({ name, picture }: { name: string; picture?: string | null }) {
  const styles = useStyles()
  return (
    <span className={styles.avatar} aria-hidden="true">
      {picture ? <img className={styles.picture} src={fileUrl(picture)} alt="" /> : initials(name)}
    </span>
  )
}

function ProfileMenu() {
  const styles = useStyles()
  const { t } = useTranslation()
  const session = useSession()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const user = session.user
  if (!user) return null
  const name = user.name || user.userInfo.username
  const logout = {
    key: 'logout',
    label: t('ui.logout'),
    onSelect: () =>
      void resetSession(queryClient).then(() => {
        effects.toast(t('ui.loggedOut'), { intent: 'success', id: 'logout' })
        effects.navigate('/login')
      }),
  }
  // SPEC §9: user type 3 has no profile entry.
  const items =
    user.userInfo.companyUserType === ORDER_DESK_USER_TYPE
      ? [logout]
      : [{ key: 'profile', label: t('ui.profile'), onSelect: () => effects.navigate('/personalInfo') }, logout]
  return (
    <MenuButton
      ariaLabel={t('ui.profileMenu')}
      align="end"
      items={items}
      label={
        <>
          <UserAvatar name={name} picture={user.avatar} />
          <span className={styles.name}>{name}</span>
        </>
      }
    />
  )
}

/**
 * SPEC §2: the IM website opens in a new tab with the user's parameters. Shown when the tenant's site
 * settings name that website (`imUrl`); the chat call that adds its cacheKey comes with the IM work.
 */
function ImLink() {
  const { t, i18n } = useTranslation()
  const buttons = useButtonStyles()
  const session = useSession()
  const settings = useSiteSettings()
  const base = settings?.imUrl ?? ''
  if (!session.user || !base) return null
  const params = new URLSearchParams({
    userName: session.user.userInfo.username,
    companyUserType: String(session.user.userInfo.companyUserType),
    tenantId: String(settings?.tenantId ?? ''),
    fromB2B: '1',
    language: i18n.language,
  })
  return (
    <a
      className={buttons.button}
      href={`${base}${base.includes('?') ? '&' : '?'}${params}`}
      target="_blank"
      rel="noopener"
    >
      {t('ui.im')}
    </a>
  )
}

/**
 * The signed-in user's end of the top bar (SPEC §2 "Layout"): notifications, the IM link and the profile
 * menu. A chunk of its own, which visitors never load.
 */
export default function UserTools() {
  const styles = useStyles()
  const session = useSession()
  return (
    <div className={styles.tools}>
      {PENDING_APPROVAL_PERMISSIONS.some((permission) => session.permissions.has(permission)) && <PendingApprovals />}
      {session.permissions.has('letterList') && <Notifications />}
      <ImLink />
      <ProfileMenu />
    </div>
  )
}
