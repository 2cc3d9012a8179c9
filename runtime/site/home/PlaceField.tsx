import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { quietClient } from '../../quietClient.ts'
import { useClickAway } from '../../shell/MenuButton.tsx'
import { usePopupStyles } from '../../shell/styles.ts'
import { DEBOUNCE_MS, type LookupOption } from '../../widgets/lookups.ts'

/**
 * The home page's port (or airport) field: the same look-up as the rate page (screens/basicData.yaml
 * portFuzzyQuery, by code or by name in the reader's language), drawn as a plain WAI-ARIA combobox — the
 * home page's script budget has no room for Fluent's Combobox. What the visitor picks is carried as its
 * code; a name typed and not picked is resolved by `resolvePlace` when the search is sent.
 */

export type PlaceKind = 'port' | 'airport'

/** What the field holds: the text shown, and the code once a place is chosen (null while typing). */
export interface PlaceValue {
  text: string
  code: string | null
}

export const NO_PLACE: PlaceValue = { text: '', code: null }

const lookup = (kind: PlaceKind) =>
  kind === 'airport' ? quietClient.booking.airportFuzzyQuery : quietClient.booking.portFuzzyQuery

export async function findPlaces(kind: PlaceKind, keyword: string, signal?: AbortSignal): Promise<LookupOption[]> {
  return (await lookup(kind)({ keyword, limit: '8' }, signal)).content.list
}

/**
 * The code a typed text stands for, among the look-up's answers to it: a code or a name equal to the text
 * (any case), else the only answer; null when the text names no place or several.
 */
export function pickPlace(text: string, options: readonly LookupOption[]): string | null {
  const wanted = text.trim().toLowerCase()
  if (!wanted) return null
  const exact = options.find(
    (option) => option.value.toLowerCase() === wanted || (option.name ?? '').toLowerCase() === wanted,
  )
  if (exact) return exact.value
  return options.length === 1 ? (options[0] as LookupOption).value : null
}

/** The value's code: the one picked, else the place its text names (asking the look-up), else null. */
export async function resolvePlace(kind: PlaceKind, value: PlaceValue): Promise<string | null> {
  if (value.code) return value.code
  if (!value.text.trim()) return null
  return pickPlace(value.text, await findPlaces(kind, value.text.trim()))
}

const useStyles = makeStyles({
  root: { position: 'relative', display: 'flex', flexGrow: 1, flexBasis: '140px' },
  input: { width: '100%', minWidth: 0, boxSizing: 'border-box' },
  list: { left: 0, right: 0, maxHeight: '280px', overflowY: 'auto' },
  option: {
    display: 'flex',
    gap: '8px',
    padding: '6px 10px',
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    textAlign: 'start',
  },
  active: { backgroundColor: tokens.colorNeutralBackground1Hover },
  code: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3 },
  status: { padding: '6px 10px', color: tokens.colorNeutralForeground3 },
})

export function PlaceField({
  kind,
  value,
  onChange,
  label,
  placeholder,
  invalid,
  className,
}: {
  kind: PlaceKind
  value: PlaceValue
  onChange: (value: PlaceValue) => void
  label: string
  placeholder: string
  invalid?: boolean
  /** The input's look (the quick search's fields). */
  className?: string
}) {
  const styles = useStyles()
  const popup = usePopupStyles()
  const { t } = useTranslation()
  const listId = useId()
  const root = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [options, setOptions] = useState<LookupOption[] | null>(null)
  const typed = value.code ? '' : value.text.trim()

  useEffect(() => {
    if (!open || !typed) {
      setOptions(null)
      return
    }
    const controller = new AbortController()
    const timer = setTimeout(() => {
      findPlaces(kind, typed, controller.signal).then(
        (list) => {
          setOptions(list)
          setActive(list.length ? 0 : -1)
        },
        () => controller.signal.aborted || setOptions([]),
      )
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [kind, typed, open])

  useClickAway(root, open, () => setOpen(false))

  const choose = (option: LookupOption) => {
    onChange({ text: option.label, code: option.value })
    setOpen(false)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const list = options ?? []
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(true)
      if (list.length) setActive((at) => (at + (event.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length)
    } else if (event.key === 'Enter' && open && list[active]) {
      // Enter picks the highlighted place; the form is sent with the next Enter.
      event.preventDefault()
      choose(list[active] as LookupOption)
    } else if (event.key === 'Escape' && open) {
      event.preventDefault()
      setOpen(false)
    }
  }

  const shown = open && typed !== '' && options !== null
  return (
    <div className={styles.root} ref={root}>
      <input
        className={mergeClasses(className, styles.input)}
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-invalid={invalid || undefined}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        value={value.text}
        placeholder={placeholder}
        onChange={(event) => {
          onChange({ text: event.target.value, code: null })
          setOpen(true)
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {shown && (
        <div id={listId} role="listbox" aria-label={label} className={mergeClasses(popup.surface, styles.list)}>
          {(options ?? []).map((option, index) => (
            <div
              key={option.value}
              id={`${listId}-${index}`}
              role="option"
              // The input keeps the focus (aria-activedescendant); an option is reached by the arrows.
              tabIndex={-1}
              aria-selected={index === active}
              className={mergeClasses(styles.option, index === active && styles.active)}
              // Picked before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault()
                choose(option)
              }}
              onMouseEnter={() => setActive(index)}
            >
              <span className={styles.code}>{option.code ?? option.value}</span>
              <span>{option.name ?? option.label}</span>
            </div>
          ))}
          {options?.length === 0 && <div className={styles.status}>{t('site.noPlace')}</div>}
        </div>
      )}
    </div>
  )
}
