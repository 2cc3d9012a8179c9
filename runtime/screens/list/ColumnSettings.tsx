import {
  Button,
  Checkbox,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Text,
  tokens,
} from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import type { ManifestEntity } from '../../../generator/resolve.ts'
import type { ColumnChoice } from './useListScreen.ts'

const useStyles = makeStyles({
  surface: {
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    minWidth: '240px',
    maxHeight: '420px',
    overflowY: 'auto',
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
  entity: ManifestEntity | undefined
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
  return (
    <Popover positioning="below-end">
      <PopoverTrigger disableButtonEnhancement>
        <Button>{t('ui.columnSettings')}</Button>
      </PopoverTrigger>
      <PopoverSurface className={styles.surface} aria-label={t('ui.columnSettings')}>
        {choices.map((choice, index) => (
          <div key={choice.field} className={styles.row}>
            <Checkbox
              className={styles.name}
              label={labelOf(choice.field)}
              checked={!choice.hidden}
              disabled={!choice.hidden && shown <= 1}
              onChange={(_, data) =>
                onChange(choices.map((c) => (c.field === choice.field ? { field: c.field, hidden: !data.checked } : c)))
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
      </PopoverSurface>
    </Popover>
  )
}
