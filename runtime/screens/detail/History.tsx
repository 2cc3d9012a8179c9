import { Caption1, makeStyles, Subtitle2, Text, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../dates.ts'
import type { PortalEntity } from '../manifest.ts'
import { StateBadge } from '../StateBadge.tsx'
import type { HistoryView } from './layout.ts'
import { DETAIL_PANEL } from './styles.ts'
import { Value } from './Value.tsx'

const useStyles = makeStyles({
  panel: DETAIL_PANEL,
  empty: { color: tokens.colorNeutralForeground4 },
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

/** A record's audit history, newest first: who did what when, a state change by its states, an update by its fields. */
export function History({ entries, entity }: { entries: HistoryView[]; entity: PortalEntity | undefined }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const title = t('detail.history')
  return (
    <section className={styles.panel} aria-label={title}>
      <Subtitle2 as="h2">{title}</Subtitle2>
      {entries.length === 0 ? (
        <Text className={styles.empty}>{t('detail.noHistory')}</Text>
      ) : (
        <ol className={styles.timeline}>
          {entries.map((entry) => (
            <HistoryItem key={entry.id} entry={entry} entity={entity} />
          ))}
        </ol>
      )}
    </section>
  )
}
