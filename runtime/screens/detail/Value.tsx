import { Badge, makeStyles, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { routes } from '../../../generated/routes.ts'
import { canOpen } from '../../routing/access.ts'
import { useSession } from '../../session.ts'
import { asList, type RowData } from '../list/actions.ts'
import { type ColumnDef, cellView, refLabel } from '../list/format.ts'
import { codeBeside, type PortalEntity } from '../manifest.ts'

const useStyles = makeStyles({
  caption: { color: tokens.colorNeutralForeground3 },
  multiline: { whiteSpace: 'pre-wrap', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  empty: { color: tokens.colorNeutralForeground4 },
  link: { color: tokens.colorBrandForeground1, textDecoration: 'none', ':hover': { textDecoration: 'underline' } },
})

/** One value as a list cell shows it (STYLE: one formatting code): a badge, a translated label or text. */
export function Value({
  value,
  column,
  entity,
  record,
  multiline = false,
}: {
  value: unknown
  column: ColumnDef
  entity: Pick<PortalEntity, 'fields' | 'states'> | undefined
  record?: RowData
  multiline?: boolean
}) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const session = useSession()
  const label = record ? refLabel(record, column.field, entity, codeBeside) : undefined
  const view = cellView(value, column, entity, label, i18n.language)
  if (view.kind === 'text' && view.text === '') return <span className={styles.empty}>—</span>
  let content: ReactNode =
    view.kind === 'badge' ? (
      <Badge appearance="tint" color={view.color}>
        {t(view.key)}
      </Badge>
    ) : view.kind === 'label' ? (
      t(view.key)
    ) : view.kind === 'labels' ? (
      view.keys.map((key) => t(key)).join(', ')
    ) : view.hint ? (
      <span title={view.hint} data-code={view.hint}>
        {view.text} <span className={styles.caption}>({view.hint})</span>
      </span>
    ) : multiline ? (
      <span className={styles.multiline}>{view.text}</span>
    ) : (
      view.text
    )
  const target = asList(column.link)
    .map((name) => routes.find((route) => route.name === name))
    .find((route) => route !== undefined && canOpen(route, session.permissions))
  // A ref links to the record it names; any other field to this record on the target screen.
  const linkId = entity?.fields[column.field]?.type === 'ref' ? value : record?.id
  if (target && linkId !== undefined && linkId !== null)
    content = (
      <RouterLink className={styles.link} to={`${target.path}?id=${encodeURIComponent(String(linkId))}`}>
        {content}
      </RouterLink>
    )
  return <>{content}</>
}
