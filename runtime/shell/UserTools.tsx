import { makeStyles, tokens } from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useClient } from '../client.tsx'
import { useEffects } from '../effects.tsx'
import { chatAddress, openChatTab } from '../flows/chat/open.ts'
import { useChatUnread } from '../flows/chat/useChatUnread.ts'
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
  badge: {
    minWidth: '18px',
    padding: '0 5px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorPaletteRedBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    fontSize: tokens.fontSizeBase100,
    lineHeight: '18px',
    textAlign: 'center',
  },
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
 * SPEC §2: the IM link opens the chat in a new tab with the user's parameters. A tenant whose site settings
 * name an outside IM website (`imUrl`) keeps it; otherwise a user with the chat (imChat) or the service desk
 * (imServiceDesk) opens Waybill's own /im: a customer through the open call's cacheKey, an operator the queue.
 * The badge is the unread count, kept by the chat's socket (and asked again when the window gets focus).
 */
function ImLink() {
  const { t, i18n } = useTranslation()
  const buttons = useButtonStyles()
  const session = useSession()
  const settings = useSiteSettings()
  const base = settings?.imUrl ?? ''
  const user = session.user
  if (!user) return null
  if (!base) {
    const operator = session.permissions.has('imServiceDesk')
    if (!operator && !session.permissions.has('imChat')) return null
    return <ChatLink operator={operator} />
  }
  const params = new URLSearchParams({
    userName: user.userInfo.username,
    companyUserType: String(user.userInfo.companyUserType),
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

function ChatLink({ operator }: { operator: boolean }) {
  const { t, i18n } = useTranslation()
  const buttons = useButtonStyles()
  const styles = useStyles()
  const session = useSession()
  const settings = useSiteSettings()
  const client = useClient()
  const unread = useChatUnread()
  const user = session.user
  if (!user) return null
  const address = (cacheKey?: string) => chatAddress(user, settings?.tenantId, i18n.language, cacheKey)
  const open = () => {
    if (operator) window.open(address(), '_blank', 'noopener')
    else void openChatTab(client, {}, address).catch(() => undefined)
  }
  const label = unread ? `${t('ui.im')} (${t('chat.unread', { count: unread })})` : t('ui.im')
  return (
    <button type="button" className={buttons.button} onClick={open} aria-label={label}>
      {t('ui.im')}
      {unread > 0 && (
        <span className={styles.badge} data-testid="im-unread">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </button>
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
