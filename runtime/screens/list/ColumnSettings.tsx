import { Button, Checkbox, makeStyles, Text, tokens } from '@fluentui/react-components'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PortalEntity } from '../manifest.ts'
import type { ColumnChoice } from './useListScreen.ts'

const useStyles = makeStyles({
  anchor: { position: 'relative' },
  surface: {
    position: 'absolute',
    right: 0,
    top: 'calc(100% + 4px)',
    zIndex: 10,
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    minWidth: '240px',
    maxHeight: '420px',
    overflowY: 'auto',
    padding: '12px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
  },
  row: { display: 'flex', alignItems: 'center', gap: '2px' },
  name: { flex: 1 },
  footer: { borderTop: `1px solid ${tokens.colorNeutralStroke2}`, paddingTop: '6px', marginTop: '4px' },
})

/**
 * The user's own columns of a list (SPEC §2 "column settings per user"): show or hide each, move it up or
 * down. Saved on the server at every change; at least one column stays shown.
 */
export function ColumnSettings({
  choices,
  entity,
  labels,
  onChange,
  onReset,
}: {
  choices: ColumnChoice[]
  entity: PortalEntity | undefined
  /** The screen's own label keys by field (the column's label, else the field's). */
  labels: Record<string, string | undefined>
  onChange: (choices: ColumnChoice[]) => void
  onReset: () => void
}) {
  const styles = useStyles()
  const { t } = useTranslation()
  const shown = choices.filter((c) => !c.hidden).length
  const labelOf = (field: string) => t(labels[field] ?? entity?.fields[field]?.label ?? `field.${field}`)
  const move = (index: number, by: -1 | 1) => {
    const next = [...choices]
    const [item] = next.splice(index, 1)
    if (item) next.splice(index + by, 0, item)
    onChange(next)
  }
  // A plain disclosure rather than Fluent's Popover: the list page is within its bundle budget without it.
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const anchor = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const away = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !anchor.current?.contains(event.target as Node))
        setOpen(false)
    }
    document.addEventListener('mousedown', away)
    document.addEventListener('keydown', away)
    return () => {
      document.removeEventListener('mousedown', away)
      document.removeEventListener('keydown', away)
    }
  }, [open])
  return (
    <div className={styles.anchor} ref={anchor}>
      <Button aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((was) => !was)}>
        {t('ui.columnSettings')}
      </Button>
      {open && (
        <div id={panelId} role="dialog" className={styles.surface} aria-label={t('ui.columnSettings')}>
          {choices.map((choice, index) => (
            <div key={choice.field} className={styles.row}>
              <Checkbox
                className={styles.name}
                label={labelOf(choice.field)}
                checked={!choice.hidden}
                disabled={!choice.hidden && shown <= 1}
                onChange={(_, data) =>
                  onChange(
                    choices.map((c) => (c.field === choice.field ? { field: c.field, hidden: !data.checked } : c)),
                  )
                }
              />
              <Button
                size="small"
                appearance="subtle"
                aria-label={`${t('ui.moveUp')} ${labelOf(choice.field)}`}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                ↑
              </Button>
              <Button
                size="small"
                appearance="subtle"
                aria-label={`${t('ui.moveDown')} ${labelOf(choice.field)}`}
                disabled={index === choices.length - 1}
                onClick={() => move(index, 1)}
              >
                ↓
              </Button>
            </div>
          ))}
          <div className={styles.footer}>
            <Button size="small" appearance="subtle" onClick={onReset}>
              <Text>{t('ui.columnsReset')}</Text>
            </Button>
          </div>
        </div>
      )}
    </div>
  )
}
