import {
  Badge,
  Button,
  Caption1,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components'
import {
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  getUiOptions,
  type ObjectFieldTemplateProps,
} from '@rjsf/utils'
import { type ReactElement, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DERIVED } from '../../rules/derived.ts'
import type { DerivedColumn } from '../forms/schemaForm.ts'
import {
  clampPage,
  errorsByPage,
  pageCountOf,
  ROW_ACTIONS_WIDTH,
  ROW_NUMBER_WIDTH,
  rowsOnPage,
  SUB_TABLE_PAGE_SIZE,
  subTableWidths,
} from './subTable.ts'

/**
 * Array fields of objects (`type: array` with `items:`, widget subTable) as an editable table: one row
 * per item, one cell per item field (each still a full rjsf field: its own widget, its own message),
 * ten rows a page, a badge on every page button whose rows have errors, add and remove. Registered as
 * rjsf templates (runtime/forms/theme.tsx) and chosen by name from the uiSchema
 * (runtime/forms/schemaForm.ts), so the rows keep rjsf's validation and error placement.
 */

const useStyles = makeStyles({
  wrap: { display: 'flex', flexDirection: 'column', gap: '8px', minWidth: 0 },
  scroll: { overflowX: 'auto' },
  // A header cell's width is its column's least width (subTableWidths): the table fills the form and
  // hands the room left to the columns, but never squeezes one below what its input needs.
  table: { tableLayout: 'auto' },
  cell: {
    verticalAlign: 'top',
    paddingTop: '4px',
    paddingBottom: '4px',
    // The input fills its cell and no more: without these an input keeps its own size (20 characters)
    // and spills over the next column when the cell is narrower.
    '& > *': { minWidth: 0, maxWidth: '100%' },
    '& .fui-Input, & .fui-Combobox, & .fui-Select, & .fui-Textarea': { minWidth: 0, width: '100%' },
    '& input, & select, & textarea': { minWidth: 0 },
  },
  number: {
    verticalAlign: 'top',
    paddingTop: '10px',
    minWidth: `${ROW_NUMBER_WIDTH}px`,
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground3,
  },
  actions: { minWidth: `${ROW_ACTIONS_WIDTH}px`, whiteSpace: 'nowrap' },
  // A derived value reads as text beside the inputs, right-aligned like the numbers it comes from.
  derived: { verticalAlign: 'top', paddingTop: '10px', textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  footer: { display: 'flex', alignItems: 'center', gap: '6px', flexWrap: 'wrap' },
  spacer: { flexGrow: 1 },
  empty: { padding: '12px', color: tokens.colorNeutralForeground3 },
})

/** The row number and the actions take what their text needs; the room left goes to the fields. */
const SHRINK = '1%'

type ItemSchema = { properties?: Record<string, { title?: string }>; required?: string[] }

export function SubTableTemplate(props: ArrayFieldTemplateProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const options = getUiOptions(props.uiSchema)
  const pageSize = Number(options.pageSize ?? SUB_TABLE_PAGE_SIZE)
  const rows = props.items.length
  const [page, setPage] = useState(1)
  const shownPage = clampPage(page, rows, pageSize)
  const pages = pageCountOf(rows, pageSize)
  // rjsf hands the array template no error schema for a plain array; each item element carries its own.
  const itemErrors =
    props.errorSchema ??
    Object.fromEntries(
      props.items.map((item, index) => [
        index,
        (item as ReactElement<{ itemErrorSchema?: unknown }>).props.itemErrorSchema,
      ]),
    )
  const errors = errorsByPage(itemErrors, rows, pageSize)
  const item = (props.schema.items ?? {}) as ItemSchema
  const columns = Object.entries(item.properties ?? {})
  const editable = !props.disabled && !props.readonly
  const cells = (props.uiSchema?.items ?? {}) as Record<string, { 'ui:widget'?: string } | undefined>
  const derived = (options.derived ?? []) as DerivedColumn[]
  const widths = subTableWidths(
    [...columns.map(([name]) => cells[name]?.['ui:widget']), ...derived.map(() => 'number')],
    editable,
  )

  // A new row opens the page it lands on.
  const before = useRef(rows)
  useEffect(() => {
    if (rows > before.current) setPage(pageCountOf(rows, pageSize))
    before.current = rows
  }, [rows, pageSize])
  // After a failed submit, a page without errors gives way to the first page with some.
  const errorKey = errors.join(',')
  useEffect(() => {
    const counts = errorKey.split(',').map(Number)
    if ((counts[shownPage - 1] ?? 0) > 0) return
    const first = counts.findIndex((n) => n > 0)
    if (first >= 0) setPage(first + 1)
  }, [errorKey, shownPage])

  const label = props.title ? t(props.title) : undefined
  return (
    <div className={styles.wrap} id={props.fieldPathId.$id}>
      <div className={styles.scroll}>
        <Table size="small" aria-label={label} className={styles.table} style={{ minWidth: `${widths.table}px` }}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell className={styles.number} style={{ width: SHRINK }}>
                {t('widget.rowNumber')}
              </TableHeaderCell>
              {columns.map(([name, column], index) => (
                <TableHeaderCell key={name} style={{ width: `${widths.columns[index]}px` }}>
                  {column.title ? t(column.title) : name}
                  {item.required?.includes(name) ? ' *' : ''}
                </TableHeaderCell>
              ))}
              {derived.map((column, index) => (
                <TableHeaderCell
                  key={column.name}
                  data-derived={column.name}
                  style={{ width: `${widths.columns[columns.length + index]}px` }}
                >
                  {t(column.label)}
                </TableHeaderCell>
              ))}
              {editable && (
                <TableHeaderCell className={styles.actions} style={{ width: SHRINK }}>
                  {t('widget.actions')}
                </TableHeaderCell>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>{rowsOnPage(rows, shownPage, pageSize).map((index) => props.items[index])}</TableBody>
        </Table>
        {rows === 0 && <div className={styles.empty}>{t('widget.noRows')}</div>}
      </div>
      <div className={styles.footer}>
        {pages > 1 && (
          <nav aria-label={t('widget.subTablePages')} className={styles.footer}>
            {errors.map((count, i) => {
              const number = i + 1
              return (
                <Button
                  key={number}
                  size="small"
                  appearance={number === shownPage ? 'primary' : 'secondary'}
                  aria-current={number === shownPage ? 'page' : undefined}
                  aria-label={
                    count
                      ? `${t('widget.pageButton', { page: number })}, ${t('widget.pageErrors', { page: number, count })}`
                      : t('widget.pageButton', { page: number })
                  }
                  onClick={() => setPage(number)}
                >
                  {number}
                  {count > 0 && (
                    <Badge size="small" color="danger" data-page-errors={number}>
                      {count}
                    </Badge>
                  )}
                </Button>
              )
            })}
          </nav>
        )}
        <Caption1>{t('widget.rowsCount', { count: rows })}</Caption1>
        <span className={styles.spacer} />
        {editable && props.canAdd && (
          <Button size="small" onClick={props.onAddClick}>
            {t('widget.addRow')}
          </Button>
        )}
      </div>
    </div>
  )
}

/** One item: a table row with its number, its cells and a remove button. */
export function SubTableRowTemplate(props: ArrayFieldItemTemplateProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const { buttonsProps } = props
  return (
    <TableRow>
      <TableCell className={styles.number}>{props.index + 1}</TableCell>
      {props.children}
      {props.hasToolbar && !props.disabled && !props.readonly && (
        <TableCell className={styles.cell}>
          {buttonsProps.hasRemove && (
            <Button
              size="small"
              appearance="subtle"
              aria-label={t('widget.removeRow', { index: props.index + 1 })}
              onClick={buttonsProps.onRemoveItem}
            >
              ×
            </Button>
          )}
        </TableCell>
      )}
    </TableRow>
  )
}

/**
 * An item's fields as the row's cells (the header names them; each cell keeps a hidden label), then its derived
 * columns (rules/derived.ts), worked out from the row as it is now and the tenant's settings.
 */
export function SubTableCellsTemplate(props: ObjectFieldTemplateProps) {
  const styles = useStyles()
  const derived = (getUiOptions(props.uiSchema).derived ?? []) as DerivedColumn[]
  // The form's context (runtime/forms/theme.tsx FormContext): the whole record and the tenant's settings.
  const context = (props.registry.formContext ?? {}) as {
    formData?: Record<string, unknown>
    settings?: Record<string, unknown> | null
  }
  const row = (props.formData ?? {}) as Record<string, unknown>
  return (
    <>
      {props.properties.map((property) => (
        <TableCell key={property.name} className={styles.cell}>
          {property.content}
        </TableCell>
      ))}
      {derived.map((column) => (
        <TableCell key={column.name} className={styles.derived} data-derived={column.name}>
          {DERIVED[column.derive](row, context.formData ?? row, { settings: context.settings }) ?? ''}
        </TableCell>
      ))}
    </>
  )
}
