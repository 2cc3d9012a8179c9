import { makeStyles, mergeClasses } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { quietClient } from '../quietClient.ts'
import { HEADER_COUNTS_KEY } from '../routing/menus.ts'
import { useSession } from '../session.ts'
import { CountBadge, useTopBarCount } from './CountBadge.tsx'
import { useButtonStyles } from './styles.ts'

const useStyles = makeStyles({
  link: { position: 'relative', padding: '4px 8px', textDecoration: 'none', gap: '6px' },
})

function ClipboardIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">
      <path d="M8 2a1 1 0 0 0-1 1H5.5A1.5 1.5 0 0 0 4 4.5v12A1.5 1.5 0 0 0 5.5 18h9a1.5 1.5 0 0 0 1.5-1.5v-12A1.5 1.5 0 0 0 14.5 3H13a1 1 0 0 0-1-1H8Zm0 1h4v1H8V3Zm5.35 6.35-4 4a.5.5 0 0 1-.7 0l-2-2a.5.5 0 1 1 .7-.7L9 12.29l3.65-3.64a.5.5 0 0 1 .7.7Z" />
    </svg>
  )
}

/**
 * SPEC §6's pending-approval count in the top bar: the operating orders awaiting approval the user sees
 * (GET /booking/jobAuditRecord/count, a number), for users with operatingOrderProvider or
 * operatingOrderEnterprise only (UserTools asks); it opens the list of the pending ones.
 */
export function PendingApprovals() {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const { t } = useTranslation()
  const session = useSession()
  const provider = session.permissions.has('operatingOrderProvider')
  const { count, badge } = useTopBarCount(
    [...HEADER_COUNTS_KEY, 'pendingApprovals'],
    async (signal) => (await quietClient.booking.jobAuditRecordCount({}, signal)).content,
    (answer) => answer ?? 0,
  )
  const label = `${t('operating.pendingApproval')}: ${count}`
  const to = provider ? '/operatorOperatingOrderList?approveState=pending' : '/operatingOrderList?approveState=pending'
  return (
    <Link
      to={to}
      className={mergeClasses(buttons.button, styles.link)}
      aria-label={label}
      title={label}
      data-testid="pending-approvals"
      data-count={count}
    >
      <ClipboardIcon />
      <CountBadge badge={badge} />
    </Link>
  )
}
