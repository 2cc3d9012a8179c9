import {
  Badge,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title3,
  tokens,
} from '@fluentui/react-components'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { routes } from '../../../generated/routes.ts'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { formatDateTime } from '../../dates.ts'
import { EntityForm } from '../../forms/EntityForm.tsx'
import type { ScreenProps } from '../../registry.ts'
import { canOpen } from '../../routing/access.ts'
import { useSession } from '../../session.ts'
import { uuidsOf } from '../../widgets/upload.tsx'
import { asList, type RowData } from '../list/actions.ts'
import { type ColumnDef, cellView, refLabel, rowLabels } from '../list/format.ts'
import { codeBeside, entityDef, type PortalEntity, screenDef } from '../manifest.ts'
import { StateBadge } from '../StateBadge.tsx'
import { Attachments } from './Attachments.tsx'
import { FileLinks } from './FileLinks.tsx'
import type { DetailField, DetailSection, HistoryView } from './layout.ts'
import { type DetailController, useDetailScreen } from './useDetailScreen.ts'

const useStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: '16px' },
  back: { color: tokens.colorBrandForeground1, textDecoration: 'none', ':hover': { textDecoration: 'underline' } },
  head: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  heading: { display: 'flex', flexDirection: 'column', gap: '2px' },
  titleLine: { display: 'flex', alignItems: 'center', gap: '12px' },
  caption: { color: tokens.colorNeutralForeground3 },
  spacer: { flexGrow: 1 },
  buttons: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  panel: {
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow2,
    padding: '16px 20px',
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
  },
  grid: { display: 'grid', gap: '12px 24px', margin: 0 },
  item: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  multiline: { whiteSpace: 'pre-wrap', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  empty: { color: tokens.colorNeutralForeground4 },
  link: { color: tokens.colorBrandForeground1, textDecoration: 'none', ':hover': { textDecoration: 'underline' } },
  timeline: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  entry: {
    position: 'relative',
    padding: '0 0 16px 20px',
    borderLeft: `2px solid ${tokens.colorNeutralStroke2}`,
    marginLeft: '5px',
    ':last-child': { borderLeftColor: 'transparent', paddingBottom: 0 },
  },
  dot: {
    position: 'absolute',
    left: '-7px',
    top: '3px',
    width: '12px',
    height: '12px',
    borderRadius: '50%',
    backgroundColor: tokens.colorBrandBackground,
  },
  entryHead: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground3 },
  changes: { margin: '4px 0 0', paddingLeft: '16px' },
  srOnly: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
})

/** One value as a list cell shows it (STYLE: one formatting code): a badge, a translated label or text. */
function Value({
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

/** A list field (containers…): its rows as a small table of the item fields, refs by their labels (40'HQ). */
function Rows({ field, value, labels }: { field: DetailField; value: unknown; labels: unknown }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const rows = Array.isArray(value) ? (value as RowData[]) : []
  const items = field.rows?.columns ?? []
  const itemEntity = { fields: field.rows?.fields ?? {}, states: undefined }
  if (!rows.length) return <span className={styles.empty}>—</span>
  return (
    <Table size="small" aria-label={t(field.label)}>
      <TableHeader>
        <TableRow>
          {items.map((item) => (
            <TableHeaderCell key={item.field}>{t(item.label)}</TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a stored list have no id of their own
          <TableRow key={index}>
            {items.map((item) => (
              <TableCell key={item.field}>
                <Value
                  value={row[item.field]}
                  column={item.column}
                  entity={itemEntity}
                  record={{ ...row, labels: rowLabels(labels, field.field, index) }}
                />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

function Section({ detail, section, record }: { detail: DetailController; section: DetailSection; record: RowData }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const title = t(section.title)
  return (
    <section className={styles.panel} aria-label={title}>
      <Subtitle2 as="h2">{title}</Subtitle2>
      <dl className={styles.grid} style={{ gridTemplateColumns: `repeat(${section.columns}, minmax(0, 1fr))` }}>
        {section.fields
          .filter((field) => !detail.hidden.has(field.field))
          .map((field) => (
            <div
              key={field.field}
              className={styles.item}
              style={field.rows ? { gridColumn: '1 / -1' } : undefined}
              data-field={field.field}
            >
              <dt className={styles.label}>{t(field.label)}</dt>
              <dd className={styles.value}>
                {field.rows ? (
                  <Rows field={field} value={record[field.field]} labels={record.labels} />
                ) : detail.entity?.fields[field.field]?.type === 'file' && uuidsOf(record[field.field]).length ? (
                  <FileLinks value={record[field.field]} />
                ) : (
                  <Value
                    value={record[field.field]}
                    column={field.column}
                    entity={detail.entity}
                    record={record}
                    multiline={field.multiline}
                  />
                )}
              </dd>
            </div>
          ))}
      </dl>
    </section>
  )
}

function HistoryItem({ entry, entity }: { entry: HistoryView; entity: PortalEntity | undefined }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  return (
    <li className={styles.entry} data-history={entry.id}>
      <span className={styles.dot} aria-hidden />
      <div className={styles.entryHead}>
        <Text weight="semibold">{t(entry.what)}</Text>
        {entry.from !== null && entry.to !== null && (
          <>
            <StateBadge entity={entity} state={entry.from} />
            <span aria-hidden>→</span>
            <span className={styles.srOnly}>{t('detail.to')}</span>
            <StateBadge entity={entity} state={entry.to} />
          </>
        )}
      </div>
      <Caption1 className={styles.meta}>
        {t('detail.byAt', { who: entry.who ?? t('detail.someone'), at: formatDateTime(entry.at, i18n.language) })}
      </Caption1>
      {entry.remark && <Text block>{t('detail.remark', { remark: entry.remark })}</Text>}
      {entry.changes.length > 0 && (
        <ul className={styles.changes}>
          {entry.changes.map((change) => (
            <li key={change.field}>
              {t(change.label)}: <Value value={change.before} column={change.column} entity={entity} /> →{' '}
              <Value value={change.after} column={change.column} entity={entity} />
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

function History({ detail }: { detail: DetailController }) {
  const styles = useStyles()
  const { t } = useTranslation()
  if (!detail.history) return null
  const title = t('detail.history')
  return (
    <section className={styles.panel} aria-label={title}>
      <Subtitle2 as="h2">{title}</Subtitle2>
      {detail.history.length === 0 ? (
        <Text className={styles.empty}>{t('detail.noHistory')}</Text>
      ) : (
        <ol className={styles.timeline}>
          {detail.history.map((entry) => (
            <HistoryItem key={entry.id} entry={entry} entity={detail.entity} />
          ))}
        </ol>
      )}
    </section>
  )
}

function Header({ detail }: { detail: DetailController }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const { record, entity, screen } = detail
  const key = record && entity?.display ? record[entity.display] : undefined
  const state = record && entity?.states ? String(record[entity.states.field] ?? '') || null : null
  return (
    <div className={styles.head}>
      <div className={styles.heading}>
        <Caption1 className={styles.caption}>{t(screen.title)}</Caption1>
        <div className={styles.titleLine}>
          <Title3 as="h1">{key !== undefined && key !== null && key !== '' ? String(key) : t(screen.title)}</Title3>
          <StateBadge entity={entity} state={state} />
          {detail.fetching && <Spinner size="extra-tiny" aria-label={t('ui.loading')} />}
        </div>
      </div>
      <span className={styles.spacer} />
      <div className={styles.buttons}>
        {detail.actions.map((action, index) => (
          <Button
            key={action.name}
            // The YAML lists the usual next step first: it is the primary button, the rest stay quiet.
            appearance={index === 0 ? 'primary' : 'secondary'}
            disabled={detail.running !== null}
            onClick={() => void detail.run(action)}
          >
            {t(action.label)}
          </Button>
        ))}
      </div>
    </div>
  )
}

/**
 * A transition that takes input (`input:` on it in the entity YAML): the input entity's form, validated by
 * its generated validator as the server's is, with the transition's confirm text above it.
 */
function TransitionInputDialog({ detail }: { detail: DetailController }) {
  const { t } = useTranslation()
  const asking = detail.asking
  if (!asking) return null
  const formId = `transition-${asking.action.name}`
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && detail.cancelInput()}>
      <DialogSurface style={{ maxWidth: 560 }} data-testid="transition-input">
        <DialogBody>
          <DialogTitle>{t(asking.action.label)}</DialogTitle>
          <DialogContent>
            {asking.confirm && <Text as="p">{t(asking.confirm)}</Text>}
            <EntityForm id={formId} entity={asking.input} disabled={detail.running !== null} onSubmit={detail.answer} />
          </DialogContent>
          <DialogActions>
            <Button type="submit" form={formId} appearance="primary" disabled={detail.running !== null}>
              {t(asking.action.label)}
            </Button>
            <Button onClick={detail.cancelInput}>{t('ui.cancel')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}

function GenericDetail({ screen }: { screen: ManifestScreen }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const detail = useDetailScreen(screen)
  return (
    <div className={styles.screen}>
      {detail.back && (
        <RouterLink className={styles.back} to={detail.back.path}>
          ← {t('detail.backTo', { list: t(detail.back.title) })}
        </RouterLink>
      )}
      <Header detail={detail} />
      <TransitionInputDialog detail={detail} />
      {detail.status === 'loading' && <Spinner label={t('ui.loading')} />}
      {detail.status === 'none' && (
        <MessageBar intent="info">
          <MessageBarBody>{t('detail.noRecordYet')}</MessageBarBody>
        </MessageBar>
      )}
      {detail.status === 'noId' && (
        <MessageBar intent="warning">
          <MessageBarBody>{t('detail.noId')}</MessageBarBody>
        </MessageBar>
      )}
      {detail.status === 'notFound' && (
        <MessageBar intent="warning" role="alert">
          <MessageBarBody>{t('detail.notFound')}</MessageBarBody>
        </MessageBar>
      )}
      {detail.status === 'error' && (
        <MessageBar intent="error">
          <MessageBarBody>{detail.error?.message || t('detail.loadFailed')}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={() => void detail.reload()}>
              {t('ui.retry')}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {detail.status === 'ready' && detail.record && (
        <>
          {detail.sections.map((section) => (
            <Section key={section.title} detail={detail} section={section} record={detail.record as RowData} />
          ))}
          {screen.attachments && <Attachments screen={screen} recordId={Number((detail.record as RowData).id)} />}
          <History detail={detail} />
        </>
      )}
    </div>
  )
}

/** `kind: detail` (DESIGN §4): the manifest screen's record of `?id=`, drawn generically. */
export default function DetailScreen({ route }: ScreenProps) {
  const { t } = useTranslation()
  const screen = screenDef(route.name)
  if (!screen?.entity || !entityDef(screen.entity))
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{t('ui.screenMissing', { name: route.name })}</MessageBarBody>
      </MessageBar>
    )
  return <GenericDetail screen={screen} />
}
