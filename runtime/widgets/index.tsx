import {
  Caption1,
  Checkbox,
  Input,
  Link,
  makeStyles,
  mergeClasses,
  Select,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components'
import { enumOptionsIndexForValue, enumOptionsValueForIndex, type Widget, type WidgetProps } from '@rjsf/utils'
import { type SyntheticEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WIDGETS } from '../../generator/registries.ts'
import { textBlockStatus } from './textBlock.ts'

/**
 * The form widgets of generator/registries.ts WIDGETS, drawn with Fluent UI v9 (our own rjsf theme,
 * DESIGN §4). Widgets named there but not built yet (reference look-ups, uploads, rich text, sub-tables)
 * have a plain stand-in that still edits the value, so a screen using them works today.
 */

export type WidgetName = (typeof WIDGETS)[number]

const useStyles = makeStyles({
  full: { width: '100%' },
  range: { display: 'flex', gap: '6px', alignItems: 'center' },
  counter: { display: 'flex', justifyContent: 'space-between', color: tokens.colorNeutralForeground3 },
  over: { color: tokens.colorPaletteRedForeground1 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  preview: { maxWidth: '96px', maxHeight: '96px', borderRadius: tokens.borderRadiusMedium, display: 'block' },
  stack: { display: 'flex', flexDirection: 'column', gap: '6px' },
})

type SchemaType = string | string[] | undefined

/** A typed value back from an input: numbers for numeric schemas, undefined for an emptied field. */
export function coerce(raw: string, type: SchemaType, emptyValue?: unknown): unknown {
  if (raw === '') return emptyValue
  const types = Array.isArray(type) ? type : [type]
  if (types.includes('integer') || types.includes('number')) {
    const value = Number(raw)
    return Number.isFinite(value) ? value : raw
  }
  return raw
}

const blur = (props: WidgetProps) => (event: SyntheticEvent<HTMLElement>) =>
  props.onBlur(props.id, (event.target as HTMLInputElement).value)
const focus = (props: WidgetProps) => (event: SyntheticEvent<HTMLElement>) =>
  props.onFocus(props.id, (event.target as HTMLInputElement).value)

function TextWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  return (
    <Input
      className={styles.full}
      id={props.id}
      name={props.htmlName ?? props.id}
      value={props.value === undefined || props.value === null ? '' : String(props.value)}
      placeholder={props.placeholder ? t(props.placeholder) : undefined}
      disabled={props.disabled}
      readOnly={props.readonly}
      autoFocus={props.autofocus}
      onChange={(_, data) => props.onChange(coerce(data.value, props.schema.type, props.options.emptyValue))}
      onBlur={blur(props)}
      onFocus={focus(props)}
    />
  )
}

function NumberWidget(props: WidgetProps) {
  const styles = useStyles()
  return (
    <Input
      className={styles.full}
      id={props.id}
      type="number"
      value={props.value === undefined || props.value === null ? '' : String(props.value)}
      disabled={props.disabled}
      readOnly={props.readonly}
      onChange={(_, data) =>
        props.onChange(coerce(data.value, props.schema.type ?? 'number', props.options.emptyValue))
      }
      onBlur={blur(props)}
      onFocus={focus(props)}
    />
  )
}

/** Money stays the decimal string it is (SPEC: money is numeric, never a float). */
function MoneyWidget(props: WidgetProps) {
  const styles = useStyles()
  return (
    <Input
      className={mergeClasses(styles.full, styles.mono)}
      id={props.id}
      inputMode="decimal"
      value={props.value ?? ''}
      disabled={props.disabled}
      readOnly={props.readonly}
      onChange={(_, data) => props.onChange(data.value === '' ? props.options.emptyValue : data.value.trim())}
      onBlur={blur(props)}
      onFocus={focus(props)}
    />
  )
}

function TextareaWidget(props: WidgetProps) {
  const styles = useStyles()
  return (
    <Textarea
      className={styles.full}
      id={props.id}
      resize="vertical"
      rows={Number(props.options.rows ?? 4)}
      value={props.value ?? ''}
      disabled={props.disabled}
      readOnly={props.readonly}
      onChange={(_, data) => props.onChange(data.value === '' ? props.options.emptyValue : data.value)}
      onBlur={blur(props)}
      onFocus={focus(props)}
    />
  )
}

function SelectWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const options = props.options.enumOptions ?? []
  const index = enumOptionsIndexForValue(props.value, options, false)
  return (
    <Select
      className={styles.full}
      id={props.id}
      value={index === undefined ? '' : String(index)}
      disabled={props.disabled || props.readonly}
      onChange={(_, data) =>
        props.onChange(
          data.value === '' ? props.options.emptyValue : enumOptionsValueForIndex(data.value, options, undefined),
        )
      }
      onBlur={blur(props)}
      onFocus={focus(props)}
    >
      <option value="">{t('ui.selectPlaceholder')}</option>
      {options.map((option, i) => (
        <option key={String(option.value)} value={String(i)}>
          {t(String(option.label))}
        </option>
      ))}
    </Select>
  )
}

function CheckboxWidget(props: WidgetProps) {
  const { t } = useTranslation()
  return (
    <Checkbox
      id={props.id}
      checked={props.value === true}
      disabled={props.disabled || props.readonly}
      label={props.hideLabel ? undefined : t(props.label)}
      onChange={(_, data) => props.onChange(data.checked === true)}
    />
  )
}

function DateWidget(props: WidgetProps) {
  const styles = useStyles()
  return (
    <Input
      className={styles.full}
      id={props.id}
      type="date"
      value={props.value ?? ''}
      disabled={props.disabled}
      readOnly={props.readonly}
      onChange={(_, data) => props.onChange(data.value === '' ? props.options.emptyValue : data.value)}
    />
  )
}

/** `datetime-local` edits local time; the value is the ISO instant the schema's date-time format wants. */
function DateTimeWidget(props: WidgetProps) {
  const styles = useStyles()
  const date = props.value ? new Date(props.value) : null
  const local =
    date && !Number.isNaN(date.getTime())
      ? new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
      : ''
  return (
    <Input
      className={styles.full}
      id={props.id}
      type="datetime-local"
      value={local}
      disabled={props.disabled}
      readOnly={props.readonly}
      onChange={(_, data) =>
        props.onChange(data.value === '' ? props.options.emptyValue : new Date(data.value).toISOString())
      }
    />
  )
}

/** Two calendar days, kept as `[from, to]`. */
function DateRangeWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const [from = '', to = ''] = Array.isArray(props.value) ? (props.value as string[]) : []
  const set = (next: [string, string]) => props.onChange(next[0] || next[1] ? next : props.options.emptyValue)
  return (
    <div className={styles.range}>
      <Input
        type="date"
        aria-label={t('ui.dateFrom')}
        value={from}
        disabled={props.disabled || props.readonly}
        onChange={(_, data) => set([data.value, to])}
      />
      <span>–</span>
      <Input
        type="date"
        aria-label={t('ui.dateTo')}
        value={to}
        disabled={props.disabled || props.readonly}
        onChange={(_, data) => set([from, data.value])}
      />
    </div>
  )
}

/** SPEC §5 free text (35 characters × 7 lines): the line under the cursor and the totals, live. */
function TextBlockWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const limits = (props.schema as { wbTextBlock?: { lineLength?: number; maxLines?: number } }).wbTextBlock
  const lineLength = Number(props.options.lineLength ?? limits?.lineLength ?? 35)
  const maxLines = Number(props.options.maxLines ?? limits?.maxLines ?? 7)
  const text = String(props.value ?? '')
  const [cursor, setCursor] = useState(text.length)
  const status = textBlockStatus(text, cursor, { lineLength, maxLines })
  const track = (event: SyntheticEvent<HTMLTextAreaElement>) => setCursor(event.currentTarget.selectionStart ?? 0)
  return (
    <div className={styles.stack}>
      <Textarea
        className={mergeClasses(styles.full, styles.mono)}
        id={props.id}
        rows={Math.min(maxLines, 7)}
        resize="vertical"
        value={text}
        disabled={props.disabled}
        readOnly={props.readonly}
        onChange={(event, data) => {
          setCursor(event.currentTarget.selectionStart ?? data.value.length)
          props.onChange(data.value === '' ? props.options.emptyValue : data.value)
        }}
        onSelect={track}
        onKeyUp={track}
        onClick={track}
        onBlur={blur(props)}
      />
      <Caption1 className={styles.counter} aria-live="polite">
        <span className={status.lineTooLong ? styles.over : undefined}>
          {t('ui.textBlockLine', { line: status.line, chars: status.chars, lineLength })}
        </span>
        <span className={status.tooManyLines ? styles.over : undefined}>
          {t('ui.textBlockLines', { lines: status.lines, maxLines })}
        </span>
      </Caption1>
    </div>
  )
}

/** Reference look-ups (ports, carriers, …) until the search selects exist: the code, typed. */
function ReferenceWidget(props: WidgetProps) {
  return <TextWidget {...props} />
}

/** Uploads until the file service exists: the stored address, and a preview for images. */
function FileWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const value = typeof props.value === 'string' ? props.value : ''
  const image = /\.(png|jpe?g|gif|svg|webp)(\?|$)/i.test(value)
  return (
    <div className={styles.stack}>
      {value && image && <img className={styles.preview} src={value} alt="" />}
      {value && !image && (
        <Link href={value} target="_blank" rel="noopener">
          {value}
        </Link>
      )}
      <TextWidget {...props} />
      <Caption1>{t('ui.uploadComingSoon')}</Caption1>
    </div>
  )
}

/** Rows of a sub-table until the editable grid exists: how many there are. */
function SubTableWidget(props: WidgetProps) {
  const { t } = useTranslation()
  const rows = Array.isArray(props.value) ? props.value.length : 0
  return <Text>{t('ui.subTableRows', { count: rows })}</Text>
}

export const WIDGET_REGISTRY: Record<WidgetName, Widget> = {
  text: TextWidget,
  textarea: TextareaWidget,
  number: NumberWidget,
  money: MoneyWidget,
  select: SelectWidget,
  portSelect: ReferenceWidget,
  airportSelect: ReferenceWidget,
  carrierSelect: ReferenceWidget,
  currencySelect: ReferenceWidget,
  countrySelect: ReferenceWidget,
  containerTypeSelect: ReferenceWidget,
  date: DateWidget,
  dateRange: DateRangeWidget,
  datetime: DateTimeWidget,
  checkbox: CheckboxWidget,
  fileUpload: FileWidget,
  imageUpload: FileWidget,
  richText: TextareaWidget,
  textBlock: TextBlockWidget,
  subTable: SubTableWidget,
}

/** rjsf's own widget names, so a field without `ui:widget` is drawn with Fluent too. */
export const RJSF_DEFAULT_WIDGETS: Record<string, Widget> = {
  TextWidget,
  TextareaWidget,
  SelectWidget,
  CheckboxWidget,
  DateWidget,
  DateTimeWidget,
  UpDownWidget: NumberWidget,
}
