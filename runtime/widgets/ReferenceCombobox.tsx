import { Caption1, Combobox, makeStyles, mergeClasses, Option, tokens } from '@fluentui/react-components'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useClient } from '../client.tsx'
import { codesParam, DEBOUNCE_MS, type LookupOption, lookupCall, rememberOptionFields } from './lookups.ts'

/**
 * A select whose options come from the server as the user types (screens/basicData.yaml look-ups):
 * ports, carriers, currencies… by code or name, shown as "CNSHA — Shanghai" in the reader's language,
 * and the tenant's companies and roles by name. One value or several (`multiple`). The values are what
 * the field stores (codes, or ids as text); their labels are looked up once by `codes`.
 *
 * Fluent's Combobox brings the keyboard: arrows move through the options, Enter picks, Escape closes,
 * and the listbox is announced as the user types. Its open button is named in the reader's language (Fluent
 * names it "Open …" in English whatever the language). The input and the buttons are the field's full
 * 32 px high, so that they stay 24 px touch targets in the layout drawn at 75 % (WCAG 2.5.8).
 */

const useStyles = makeStyles({
  full: { width: '100%', minWidth: 0 },
  status: { display: 'block', padding: '6px 12px', color: tokens.colorNeutralForeground3 },
  code: { fontFamily: tokens.fontFamilyMonospace, marginRight: '6px' },
  // The field is 32 px high inside its 1 px border: its input and its buttons span all of it (over the
  // border, which stays drawn), so that at 75 % they are still 24 px.
  fullHeight: { height: '32px', marginTop: '-1px', marginBottom: '-1px' },
  // The icon in the middle by padding, not display: Fluent hides the clear button with display: none.
  button: { minWidth: '32px', paddingTop: '6px', '& svg': { marginLeft: 'auto', marginRight: 'auto' } },
})

export interface ReferenceComboboxProps {
  /** The referenced entity (port, carrier, company…): which look-up to ask. */
  entity: string
  values: string[]
  multiple?: boolean
  onChange: (values: string[]) => void
  id?: string
  ariaLabel?: string
  /** What the field is called, for its open button's name (else `ariaLabel`). */
  label?: string
  disabled?: boolean
  placeholder?: string
  /** Narrows carriers to sea or air. */
  mode?: 'sea' | 'air'
  /** More look-up parameters from the record (a ref field's `lookupFilter`: the booking agents of a carrier). */
  filter?: Record<string, string>
  /** A text field's look-up: what is typed is kept as the value on leaving the field (an FBA product's SKU). */
  freeform?: boolean
  onBlur?: () => void
  onFocus?: () => void
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

export function ReferenceCombobox({
  entity,
  values,
  multiple = false,
  onChange,
  id,
  ariaLabel,
  label = ariaLabel,
  disabled,
  placeholder,
  mode,
  filter,
  freeform = false,
  onBlur,
  onFocus,
}: ReferenceComboboxProps) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const call = useMemo(() => lookupCall(client, entity), [client, entity])
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState<string | null>(null)
  const keyword = useDebounced(typed ?? '', DEBOUNCE_MS)
  // Labels of values picked or looked up, so a chosen value keeps its text while the search moves on.
  const known = useRef(new Map<string, LookupOption>())
  const language = i18n.language

  const codes = codesParam(values)
  const selected = useQuery({
    queryKey: ['lookup', entity, language, 'codes', codes],
    queryFn: async ({ signal }) => (await call?.({ codes }, signal))?.content.list ?? [],
    enabled: !!call && !!codes && values.some((v) => !known.current.has(`${language}:${v}`)),
    staleTime: 5 * 60_000,
  })
  for (const option of selected.data ?? []) known.current.set(`${language}:${option.value}`, option)
  rememberOptionFields(entity, selected.data ?? [])

  const search = useQuery({
    queryKey: ['lookup', entity, language, 'keyword', keyword, mode ?? '', filter ?? {}],
    queryFn: async ({ signal }) =>
      (await call?.({ keyword: keyword || undefined, limit: '20', ...(mode ? { mode } : {}), ...filter }, signal))
        ?.content.list ?? [],
    enabled: !!call && open,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  })
  for (const option of search.data ?? []) known.current.set(`${language}:${option.value}`, option)
  rememberOptionFields(entity, search.data ?? [])

  const labelOf = (value: string) => known.current.get(`${language}:${value}`)?.label ?? value
  const shown = values.map(labelOf).join(', ')
  const results = search.data ?? []
  // The chosen values stay among the options (a multi-select shows them ticked) even when the search moved on.
  const options = [
    ...values
      .filter((v) => !results.some((o) => o.value === v))
      .map((v) => known.current.get(`${language}:${v}`) ?? { value: v, name: v, label: v }),
    ...results,
  ]
  const waiting = open && (search.isFetching || (typed ?? '') !== keyword)

  return (
    <Combobox
      className={styles.full}
      id={id}
      aria-label={ariaLabel}
      aria-busy={waiting}
      disabled={disabled}
      multiselect={multiple}
      clearable={!disabled}
      placeholder={placeholder ?? t('widget.lookupPlaceholder')}
      value={typed ?? shown}
      selectedOptions={values}
      open={open}
      onOpenChange={(_, data) => {
        setOpen(data.open)
        if (!data.open) setTyped(null)
      }}
      onChange={(event) => {
        setTyped(event.target.value)
        setOpen(true)
      }}
      onOptionSelect={(_, data) => {
        const next = multiple ? data.selectedOptions : data.optionValue ? [data.optionValue] : []
        setTyped(null)
        onChange(next)
      }}
      onBlur={() => {
        // A free text field keeps what was typed when no option was picked (an option picked clears `typed`).
        const text = typed?.trim()
        if (freeform && !multiple && text && text !== values[0]) onChange([text])
        setTyped(null)
        onBlur?.()
      }}
      onFocus={onFocus}
      expandIcon={{
        className: mergeClasses(styles.fullHeight, styles.button),
        'aria-label': label ? t('ui.showOptionsOf', { name: label }) : t('ui.showOptions'),
      }}
      clearIcon={{ className: mergeClasses(styles.fullHeight, styles.button) }}
      input={{ className: styles.fullHeight }}
    >
      {options.map((option) => (
        <Option key={option.value} value={option.value} text={option.label}>
          {option.code && option.code !== option.label ? (
            <>
              <span className={styles.code}>{option.code}</span>
              {option.name}
            </>
          ) : (
            option.label
          )}
        </Option>
      ))}
      {open && (
        <Caption1 className={styles.status} aria-live="polite">
          {search.isError
            ? t('widget.lookupFailed')
            : waiting
              ? t('widget.searching')
              : results.length === 0
                ? t('widget.noMatches')
                : ''}
        </Caption1>
      )}
    </Combobox>
  )
}
