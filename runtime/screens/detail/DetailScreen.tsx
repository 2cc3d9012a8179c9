import {
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
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
import { lazy, Suspense, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { EntityForm } from '../../forms/EntityForm.tsx'
import type { ScreenProps } from '../../registry.ts'
import { uuidsOf } from '../../widgets/upload.tsx'
import { LoadFailed } from '../LoadFailed.tsx'
import { type RowData, recordSent } from '../list/actions.ts'
import { isFigureColumn, rowLabels } from '../list/format.ts'
import { entityDef, screenDef } from '../manifest.ts'
import { StateBadge } from '../StateBadge.tsx'
import { Attachments } from './Attachments.tsx'
import { FileLinks } from './FileLinks.tsx'
import { History } from './History.tsx'
import type { DetailField, DetailSection } from './layout.ts'
import { DETAIL_PANEL, FIGURE_CELL, FIGURE_HEAD } from './styles.ts'
import { type DetailController, useDetailScreen } from './useDetailScreen.ts'
import { Value } from './Value.tsx'

const ActionInputDialog = lazy(() => import('../list/ActionInputDialog.tsx'))
const RevealDialog = lazy(() => import('../list/RevealDialog.tsx'))

const useStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: '16px' },
  back: { color: tokens.colorBrandForeground1, textDecoration: 'none', ':hover': { textDecoration: 'underline' } },
  head: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  heading: { display: 'flex', flexDirection: 'column', gap: '2px' },
  titleLine: { display: 'flex', alignItems: 'center', gap: '12px' },
  caption: { color: tokens.colorNeutralForeground3 },
  spacer: { flexGrow: 1 },
  buttons: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  panel: DETAIL_PANEL,
  grid: { display: 'grid', gap: '12px 24px', margin: 0 },
  item: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  empty: { color: tokens.colorNeutralForeground4 },
  figure: FIGURE_CELL,
  figureHead: FIGURE_HEAD,
})

/** A list field (containers…): its rows as a small table of the item fields, refs by their labels (40'HQ). */
function Rows({ field, value, labels }: { field: DetailField; value: unknown; labels: unknown }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const rows = Array.isArray(value) ? (value as RowData[]) : []
  const items = field.rows?.columns ?? []
  const itemEntity = { fields: field.rows?.fields ?? {}, states: undefined }
  const figures = new Set(items.filter((item) => isFigureColumn(item.column, itemEntity)).map((item) => item.field))
  if (!rows.length) return <span className={styles.empty}>—</span>
  return (
    <Table size="small" aria-label={t(field.label)}>
      <TableHeader>
        <TableRow>
          {items.map((item) => (
            <TableHeaderCell
              key={item.field}
              className={figures.has(item.field) ? styles.figureHead : undefined}
              button={figures.has(item.field) ? { className: styles.figureHead } : undefined}
            >
              {t(item.label)}
            </TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of a stored list have no id of their own
          <TableRow key={index}>
            {items.map((item) => (
              <TableCell key={item.field} className={figures.has(item.field) ? styles.figure : undefined}>
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

/** A call on the record (`call:` with `input:`): what it asks, then what it answers to be shown once. */
function CallDialogs({ detail }: { detail: DetailController }) {
  const { t } = useTranslation()
  const { calling, revealed, record } = detail
  // One object while the dialog is open: the form starts from it and must not be reset by a redraw.
  const shown = calling.shown
  const sent = useMemo(() => (shown && record ? recordSent(shown.action, record) : {}), [shown, record])
  // Mounted while closing: a dialog removed while open leaves the page hidden (runtime/screens/list/dialogState.ts).
  return (
    <Suspense fallback={null}>
      {shown && record && (
        <ActionInputDialog
          key={calling.key}
          open={calling.open}
          title={t(shown.action.label)}
          entity={shown.input}
          row={{}}
          sent={sent}
          asks={shown.action.asks}
          onSubmit={detail.answerCall}
          onClose={detail.cancelCall}
        />
      )}
      {revealed.shown && (
        <RevealDialog
          key={revealed.key}
          open={revealed.open}
          title={t(revealed.shown.title)}
          value={revealed.shown.value}
          onClose={detail.closeRevealed}
        />
      )}
    </Suspense>
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
      <CallDialogs detail={detail} />
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
        <LoadFailed message={detail.error?.message} fallback="detail.loadFailed" retry={() => void detail.reload()} />
      )}
      {detail.status === 'ready' && detail.record && (
        <>
          {detail.sections.map((section) => (
            <Section key={section.title} detail={detail} section={section} record={detail.record as RowData} />
          ))}
          {screen.attachments && <Attachments screen={screen} recordId={Number((detail.record as RowData).id)} />}
          {detail.history && <History entries={detail.history} entity={detail.entity} />}
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
