import {
  Caption1,
  Checkbox,
  FieldContextProvider,
  Input,
  makeStyles,
  mergeClasses,
  Select,
  Spinner,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components'
import { enumOptionsIndexForValue, enumOptionsValueForIndex, type Widget, type WidgetProps } from '@rjsf/utils'
import { lazy, Suspense, type SyntheticEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WIDGETS } from '../../model/registries.ts'
import { storedValue, WIDGET_LOOKUPS } from './lookups.ts'
import { decimalsOf, moneyInput, moneyValue } from './money.ts'
import { PermissionTreeWidget } from './PermissionTree.tsx'
import { ReferenceCombobox } from './ReferenceCombobox.tsx'
import { textBlockStatus } from './textBlock.ts'
import { UploadWidget } from './upload.tsx'

/**
 * The form widgets of model/registries.ts WIDGETS, drawn with Fluent UI v9 (our own rjsf theme,
 * DESIGN §4): plain inputs, reference look-ups with remote search, money, uploads, rich text (loaded
 * only by forms that have it) and the text block. Array fields of objects are drawn by the sub-table
 * templates (./SubTable.tsx), not by a widget.
 */

const RichTextEditor = lazy(() => import('./RichTextEditor.tsx'))

export type WidgetName = (typeof WIDGETS)[number]

const useStyles = makeStyles({
  full: { width: '100%' },
  range: { display: 'flex', gap: '6px', alignItems: 'center' },
  counter: { display: 'flex', justifyContent: 'space-between', color: tokens.colorNeutralForeground3 },
  over: { color: tokens.colorPaletteRedForeground1 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
  preview: { maxWidth: '96px', maxHeight: '96px', borderRadius: tokens.borderRadiusMedium, display: 'block' },
  stack: { display: 'flex', flexDirection: 'column', gap: '6px' },
  choices: { border: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: '0 16px' },
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

/**
 * Money stays the decimal string it is (SPEC: money is numeric, never a float): the box takes only what
 * the field's pattern allows — 10 integer digits and its decimals (3 unless the YAML says) — as it is
 * typed. A paired currency field is drawn beside it by the form's layout (runtime/forms/theme.tsx).
 */
function MoneyWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const decimals = Number(props.options.decimals ?? decimalsOf(props.schema.pattern))
  const stored = props.value === undefined || props.value === null ? '' : String(props.value)
  const [text, setText] = useState(stored)
  // A value set from outside (a reset, a reload) replaces what was being typed.
  const shown = moneyValue(text) === moneyValue(stored) ? text : stored
  return (
    <Input
      className={mergeClasses(styles.full, styles.mono)}
      id={props.id}
      inputMode="decimal"
      value={shown}
      disabled={props.disabled}
      readOnly={props.readonly}
      title={t('widget.moneyHint', { decimals })}
      onChange={(_, data) => {
        const next = moneyInput(data.value, decimals)
        if (next === null) return
        setText(next)
        props.onChange(moneyValue(next) ?? props.options.emptyValue)
      }}
      onBlur={(event) => {
        setText(moneyValue(shown) ?? '')
        props.onBlur(props.id, event.target.value)
      }}
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

/**
 * A multiple choice (an enum field with `multiple: true`, a list of values): one tick box per value, each
 * labelled by its own option; the values stay in the YAML's order. rjsf hands it the list's label and
 * `multiple`.
 */
function ChoicesWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const options = props.options.enumOptions ?? []
  const chosen: unknown[] = Array.isArray(props.value) ? props.value : []
  return (
    <fieldset className={styles.choices} id={props.id} aria-label={props.label ? t(props.label) : undefined}>
      {/* Each box is labelled by its option, not by the field around the group. */}
      <FieldContextProvider value={undefined}>
        {options.map((option) => (
          <Checkbox
            key={String(option.value)}
            label={t(String(option.label))}
            value={String(option.value)}
            checked={chosen.includes(option.value)}
            disabled={props.disabled || props.readonly}
            onChange={(_, data) =>
              props.onChange(
                options
                  .map((o) => o.value)
                  .filter((v) => (v === option.value ? data.checked === true : chosen.includes(v))),
              )
            }
          />
        ))}
      </FieldContextProvider>
    </fieldset>
  )
}

function SelectWidget(props: WidgetProps) {
  if (props.multiple) return <ChoicesWidget {...props} />
  return <SingleSelect {...props} />
}

function SingleSelect(props: WidgetProps) {
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

/**
 * A reference field (one value, or several when the schema is an array) picked from a look-up with
 * remote search (./ReferenceCombobox.tsx). `ui:options.ref` names the entity; the named widgets
 * (portSelect…) default to theirs.
 */
function ReferenceWidget(props: WidgetProps) {
  const { t } = useTranslation()
  const entity = String(props.options.ref ?? '')
  const multiple = props.schema.type === 'array'
  const itemType = multiple ? (props.schema.items as { type?: unknown } | undefined)?.type : props.schema.type
  const raw: unknown[] = Array.isArray(props.value) ? props.value : props.value == null ? [] : [props.value]
  const values = raw.filter((v) => v !== '').map(String)
  return (
    <ReferenceCombobox
      entity={entity}
      id={props.id}
      values={values}
      multiple={multiple}
      label={props.label ? t(props.label) : undefined}
      disabled={props.disabled || props.readonly}
      placeholder={props.placeholder ? t(props.placeholder) : undefined}
      mode={props.options.mode === 'sea' || props.options.mode === 'air' ? props.options.mode : undefined}
      filter={lookupFilterOf(props.options.lookupFilter)}
      freeform={props.options.freeform === true}
      onChange={(next) => {
        const typed = next.map((v) => storedValue(v, itemType))
        props.onChange(
          multiple ? (typed.length ? typed : props.options.emptyValue) : (typed[0] ?? props.options.emptyValue),
        )
      }}
      onBlur={() => props.onBlur(props.id, props.value)}
      onFocus={() => props.onFocus(props.id, props.value)}
    />
  )
}

/** A ref field's look-up filter as schemaForm.ts withLookupFilters fills it: text parameters only. */
const lookupFilterOf = (value: unknown): Record<string, string> | undefined =>
  value && typeof value === 'object'
    ? Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : undefined

const withRef = (props: WidgetProps, widget: keyof typeof WIDGET_LOOKUPS) => ({
  ...props,
  options: { ...props.options, ref: props.options.ref ?? WIDGET_LOOKUPS[widget] },
})
const PortSelect = (props: WidgetProps) => <ReferenceWidget {...withRef(props, 'portSelect')} />
const AirportSelect = (props: WidgetProps) => <ReferenceWidget {...withRef(props, 'airportSelect')} />
const CarrierSelect = (props: WidgetProps) => <ReferenceWidget {...withRef(props, 'carrierSelect')} />
const CurrencySelect = (props: WidgetProps) => <ReferenceWidget {...withRef(props, 'currencySelect')} />
const CountrySelect = (props: WidgetProps) => <ReferenceWidget {...withRef(props, 'countrySelect')} />
const ContainerTypeSelect = (props: WidgetProps) => <ReferenceWidget {...withRef(props, 'containerTypeSelect')} />

/** Rich text, edited as HTML in a Lexical editor that loads with the first form that has one. */
function RichTextWidget(props: WidgetProps) {
  const { t } = useTranslation()
  return (
    <Suspense fallback={<Spinner size="tiny" label={t('widget.loadingEditor')} />}>
      <RichTextEditor
        id={props.id}
        value={typeof props.value === 'string' ? props.value : ''}
        disabled={props.disabled || props.readonly}
        ariaLabel={props.label ? t(props.label) : undefined}
        placeholder={props.placeholder ? t(props.placeholder) : undefined}
        onChange={(html) => props.onChange(html === '' ? props.options.emptyValue : html)}
      />
    </Suspense>
  )
}

/** A sub-table named on a field that is not an array of rows: how many values it has. */
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
  portSelect: PortSelect,
  airportSelect: AirportSelect,
  carrierSelect: CarrierSelect,
  currencySelect: CurrencySelect,
  countrySelect: CountrySelect,
  containerTypeSelect: ContainerTypeSelect,
  date: DateWidget,
  dateRange: DateRangeWidget,
  datetime: DateTimeWidget,
  checkbox: CheckboxWidget,
  fileUpload: UploadWidget,
  imageUpload: UploadWidget,
  richText: RichTextWidget,
  textBlock: TextBlockWidget,
  subTable: SubTableWidget,
  permissionTree: PermissionTreeWidget,
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
  /** A ref to a tenant entity with a look-up (company, role): `ui:options.ref` says which. */
  ReferenceWidget,
}
