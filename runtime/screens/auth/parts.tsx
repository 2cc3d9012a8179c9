import {
  Field,
  Input,
  type InputProps,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Text,
  Title2,
  tokens,
} from '@fluentui/react-components'
import {
  type FormEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useState,
} from 'react'
import { useTranslation } from 'react-i18next'
import { RequestError } from '../../api.ts'
import { siteName, useSiteSettings } from '../../site/SiteSettings.tsx'
import { entityDef, type PortalEntity } from '../manifest.ts'
import { type Problem, type Problems, serverProblems, type Validate } from './authForm.ts'

/**
 * What the three sign-in pages share: the card they sit on, a text field drawn from its body entity's YAML
 * (label, required mark, length, the message under it), and the generated validators, loaded after the page
 * shows (they are the server's own checks). The code field and its "send code" button are ./CodeField.tsx.
 */

export const useAuthStyles = makeStyles({
  page: {
    flexGrow: 1,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: '64px 16px',
    background: `linear-gradient(135deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground2} 60%)`,
  },
  card: {
    width: '400px',
    maxWidth: '100%',
    boxSizing: 'border-box',
    padding: '36px 40px',
    display: 'flex',
    flexDirection: 'column',
    gap: '18px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow16,
  },
  wide: { width: '520px' },
  form: { display: 'flex', flexDirection: 'column', gap: '16px' },
  links: { display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: '8px' },
  subtitle: { color: tokens.colorNeutralForeground3, marginTop: '4px' },
  // The code field and its "send code" button on one line.
  codeRow: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: '8px', alignItems: 'start' },
  sendButton: { minWidth: '128px', marginTop: '26px' },
  tablist: { display: 'flex', gap: '4px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  tab: {
    appearance: 'none',
    border: 'none',
    background: 'none',
    cursor: 'pointer',
    padding: '10px 12px',
    marginBottom: '-1px',
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    color: tokens.colorNeutralForeground2,
    borderBottom: '3px solid transparent',
    ':hover': { color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  tabSelected: {
    color: tokens.colorNeutralForeground1,
    fontWeight: tokens.fontWeightSemibold,
    borderBottomColor: tokens.colorCompoundBrandStroke,
  },
  // An input keeps to its column (beside the send button it would otherwise take its natural width).
  input: { width: '100%', minWidth: 0, boxSizing: 'border-box' },
  inputText: { width: '100%', minWidth: 0 },
})

let validators: Promise<Record<string, unknown>> | null = null

/** The generated validator of a body entity (generated/validators.js: the server runs the same). */
export async function validatorOf(entity: string): Promise<Validate> {
  validators ??= import('../../../generated/validators.js').then((module) => module as Record<string, unknown>)
  validators.catch(() => {
    validators = null
  })
  const found = (await validators)[entity]
  if (typeof found !== 'function') throw new Error(`No validator for ${entity}: run \`waybill generate\``)
  return found as Validate
}

/** Starts loading the validators once the page shows, so the first submit does not wait for them. */
export function usePreloadValidators(): void {
  useEffect(() => {
    validatorOf('passwordLogin').catch(() => undefined)
  }, [])
}

/** A body entity of the screen's `forms:` (its manifest part is loaded before the screen draws). */
export function formEntity(name: string): PortalEntity {
  const entity = entityDef(name)
  if (!entity) throw new Error(`The screen's manifest part has no ${name}: name it in the screen's forms:`)
  return entity
}

/** A problem's text in the reader's language. */
export function useProblemText(): (problem: Problem | undefined) => string | undefined {
  const { t } = useTranslation()
  return (problem) => (problem ? ('text' in problem ? problem.text : t(problem.key, problem.params)) : undefined)
}

/** The card every sign-in page sits on: its heading, a line below it and the refusal that concerns no field. */
export function AuthCard(props: {
  title: string
  /** The locale key of the line below the heading, which names the site (`{{site}}`). */
  subtitleKey?: string
  failure?: string | null
  wide?: boolean
  onSubmit?: (event: FormEvent) => void
  children: ReactNode
}) {
  const styles = useAuthStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const body = (
    <>
      <div>
        <Title2 as="h1">{props.title}</Title2>
        {props.subtitleKey && (
          <Text block className={styles.subtitle}>
            {t(props.subtitleKey, { site: siteName(settings, i18n.language) })}
          </Text>
        )}
      </div>
      {props.failure && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{props.failure}</MessageBarBody>
        </MessageBar>
      )}
      {props.children}
    </>
  )
  const className = props.wide ? `${styles.card} ${styles.wide}` : styles.card
  return (
    <div className={styles.page}>
      {props.onSubmit ? (
        <form className={className} onSubmit={props.onSubmit} noValidate aria-label={props.title}>
          {body}
        </form>
      ) : (
        <section className={className} aria-label={props.title}>
          {body}
        </section>
      )}
    </div>
  )
}

export interface EntityFieldProps {
  entity: PortalEntity
  /** The entity's field: its label, required mark and length come from the YAML. */
  field: string
  value: string
  onChange: (value: string) => void
  problem?: Problem
  /** The input's name in the page (defaults to the field's). */
  name?: string
  /** Another label key where the page says it more precisely (the reset page's "mobile number"). */
  label?: string
  type?: InputProps['type']
  autoComplete?: string
  inputMode?: 'numeric' | 'tel' | 'email' | 'text'
  after?: ReactNode
}

/** One text field of a body entity as a Fluent field, its message under it. */
export function EntityField(props: EntityFieldProps) {
  const { t } = useTranslation()
  const styles = useAuthStyles()
  const problemText = useProblemText()
  const def = props.entity.fields[props.field]
  if (!def) throw new Error(`${props.entity.entity} has no field ${props.field}`)
  const message = problemText(props.problem)
  const field = (
    <Field
      label={t(props.label ?? def.label ?? `field.${props.field}`)}
      required={def.required === true}
      validationMessage={message}
      validationState={message ? 'error' : 'none'}
    >
      <Input
        name={props.name ?? props.field}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        maxLength={def.maxLength}
        size="large"
        className={styles.input}
        input={{ className: styles.inputText }}
        value={props.value}
        onChange={(_, data) => props.onChange(data.value)}
      />
    </Field>
  )
  return props.after ? (
    <div className={styles.codeRow}>
      {field}
      {props.after}
    </div>
  ) : (
    field
  )
}

/** The form's values and its messages, field by field. */
export function useFormState<T extends Record<string, string | boolean>>(initial: T) {
  const [values, setValues] = useState<T>(initial)
  const [problems, setProblems] = useState<Problems>({})
  const set = useCallback(<K extends keyof T>(name: K, value: T[K]) => {
    setValues((current) => ({ ...current, [name]: value }))
    // An edited field's message goes; the others stay until the next check.
    setProblems((current) => {
      if (!current[name as string]) return current
      const { [name as string]: _, ...rest } = current
      return rest
    })
  }, [])
  /** What an EntityField of a text field takes from the form: its value, its setter and its problem. */
  const bind = (name: keyof T & string) => ({
    value: String(values[name] ?? ''),
    onChange: (value: string) => set(name, value as T[typeof name]),
    problem: problems[name],
  })
  return { values, set, problems, setProblems, bind }
}

/** A link the router follows in place (a real href, so it opens in a new tab too). */
export function follow(navigate: (to: string) => void, to: string) {
  return (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    navigate(to)
  }
}

/**
 * A refused call as the form shows it: its field errors and a field's catalogue code under the field, the
 * rest (300001's wait, 300005, 300008) above the form, in the words the server wrote in the reader's language.
 */
export function showRefusal(
  error: unknown,
  drawn: readonly string[],
  setProblems: (problems: ReturnType<typeof serverProblems>['fields']) => void,
  onFailure: (message: string | null) => void,
  fallback: string,
  rename: Record<string, string> = {},
): void {
  if (!(error instanceof RequestError)) {
    onFailure(fallback)
    return
  }
  const shown = serverProblems(
    { code: error.code, message: error.message || fallback, fieldErrors: error.fieldErrors },
    drawn,
    rename,
  )
  setProblems(shown.fields)
  onFailure(shown.general)
}

/**
 * A tab list (WAI-ARIA tabs: arrow keys move between the tabs, one tab stop). Not Fluent's TabList: its focus
 * helpers add hidden focusable elements that the accessibility audit refuses (aria-hidden-focus).
 */
export function AuthTabs<T extends string>(props: {
  label: string
  value: T
  tabs: readonly { value: T; label: string }[]
  onChange: (value: T) => void
}) {
  const styles = useAuthStyles()
  const move = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const next = props.tabs[(index + step + props.tabs.length) % props.tabs.length]
    if (!next) return
    props.onChange(next.value)
    document.getElementById(tabId(next.value))?.focus()
  }
  return (
    <div role="tablist" aria-label={props.label} className={styles.tablist}>
      {props.tabs.map((tab, index) => {
        const selected = tab.value === props.value
        return (
          <button
            key={tab.value}
            id={tabId(tab.value)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={panelId(tab.value)}
            tabIndex={selected ? 0 : -1}
            className={selected ? `${styles.tab} ${styles.tabSelected}` : styles.tab}
            onClick={() => props.onChange(tab.value)}
            onKeyDown={(event) => move(event, index)}
          >
            {tab.label}
          </button>
        )
      })}
    </div>
  )
}

export const tabId = (value: string) => `auth-tab-${value}`
export const panelId = (value: string) => `auth-panel-${value}`
