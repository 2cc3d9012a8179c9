import {
  Button,
  CounterBadge,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Text,
  tokens,
} from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { badgeText } from '../routing/menus.ts'

const useStyles = makeStyles({
  bell: { position: 'relative' },
  badge: { position: 'absolute', top: '-2px', right: '-4px' },
  surface: { width: '280px', display: 'flex', flexDirection: 'column', gap: '8px' },
  empty: { color: tokens.colorNeutralForeground3 },
})

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">
      <path d="M10 2a5 5 0 0 0-5 5v3.59l-1.7 2.55A.5.5 0 0 0 3.7 14h12.6a.5.5 0 0 0 .4-.86L15 10.6V7a5 5 0 0 0-5-5Zm-2 13a2 2 0 0 0 4 0H8Z" />
    </svg>
  )
}

/**
 * The notification bell of SPEC §2: unread letters with the badge capped at 99 (SPEC §9). The letter list
 * call is not served yet, so the count is 0 and the dropdown says there is nothing new.
 */
export function Notifications({ count = 0 }: { count?: number }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const badge = badgeText(count)
  return (
    <Popover positioning="below-end">
      <PopoverTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          className={styles.bell}
          icon={<BellIcon />}
          aria-label={badge ? `${t('ui.notifications')} (${badge})` : t('ui.notifications')}
        >
          {badge && <CounterBadge className={styles.badge} size="small" count={count} overflowCount={99} />}
        </Button>
      </PopoverTrigger>
      <PopoverSurface className={styles.surface}>
        <Text weight="semibold">{t('ui.notifications')}</Text>
        <Text className={styles.empty}>{t('ui.noNotifications')}</Text>
      </PopoverSurface>
    </Popover>
  )
}
