import { Field, Input, makeStyles, mergeClasses, Subtitle2, tokens } from '@fluentui/react-components'
import {
  type FieldTemplateProps,
  getUiOptions,
  type ObjectFieldTemplateProps,
  type RegistryWidgetsType,
  type TemplatesType,
} from '@rjsf/utils'
import { useTranslation } from 'react-i18next'
import { RJSF_DEFAULT_WIDGETS, WIDGET_REGISTRY } from '../widgets/index.tsx'
import { SubTableCellsTemplate, SubTableRowTemplate, SubTableTemplate } from '../widgets/SubTable.tsx'
import type { FormSection } from './schemaForm.ts'

/** What the form passes down to the templates besides the schema. */
export interface FormContext {
  /** Section fields the schema does not carry (e.g. the username): shown read-only. */
  readOnlyValues: Record<string, string>
  /** Their labels (locale keys). */
  fieldLabels: Record<string, string>
  /** The form's values now: a widget drawn by another field's value reads it (the permission tree's side). */
  formData?: Record<string, unknown>
  /** The tenant's site settings, which derived values read (rules/derived.ts: the FBA divisor). */
  settings?: Record<string, unknown> | null
}

const useStyles = makeStyles({
  section: { border: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '12px' },
  legend: { margin: 0 },
  sections: { display: 'flex', flexDirection: 'column', gap: '24px' },
  grid: { display: 'grid', gap: '12px 24px', alignItems: 'start' },
  hidden: { display: 'none' },
  sectionRule: { borderTop: `1px solid ${tokens.colorNeutralStroke2}`, paddingTop: '16px' },
  // Money and its currency side by side: the amount takes the room, the currency a code's width.
  moneyPair: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(140px, 40%)', gap: '8px' },
  // A sub-table cell's label: the column header shows it; screen readers still get it per cell.
  visuallyHidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
})

/** Label, required mark and the field's messages around a widget, as a Fluent Field. */
function FieldTemplate(props: FieldTemplateProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const { id, label, required, rawErrors, children, hidden, displayLabel, schema } = props
  if (hidden) return <div className={styles.hidden}>{children}</div>
  // The root object and nested objects draw their own headings.
  if (schema.type === 'object') return children
  const errors = [...new Set(rawErrors ?? [])]
  const cell = getUiOptions(props.uiSchema).cell === true
  return (
    <Field
      // A checkbox carries its own label; a sub-table cell's is its column header.
      label={
        cell && label
          ? { children: t(label), htmlFor: id, className: styles.visuallyHidden }
          : displayLabel && label && schema.type !== 'boolean'
            ? { children: t(label), htmlFor: id }
            : undefined
      }
      // Required by the schema, or by an entity rule that holds for the data now (withRuleMarks).
      required={required || getUiOptions(props.uiSchema).ruleRequired === true}
      validationState={errors.length ? 'error' : 'none'}
      validationMessage={errors.length ? errors.join(' ') : undefined}
    >
      {children}
    </Field>
  )
}

/** The root object: the screen's form sections, each a grid of its fields (SPEC screens' `form:`). */
function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const sections = getUiOptions(props.uiSchema).sections as FormSection[] | undefined
  if (!sections) return <div className={styles.section}>{props.properties.map((p) => p.content)}</div>
  const context = (props.registry.formContext ?? { readOnlyValues: {}, fieldLabels: {} }) as FormContext
  const byName = new Map(props.properties.map((p) => [p.name, p]))
  const placed = new Set(sections.flatMap((s) => s.fields))
  // Hidden by a UI rule (schemaForm.ts withUiRules): not drawn anywhere.
  const ruleHidden = new Set((getUiOptions(props.uiSchema).ruleHidden as string[] | undefined) ?? [])
  // A money field's currency is drawn beside it, not in a cell of its own.
  const currencyOf = new Map<string, string>()
  for (const p of props.properties) {
    const currency = getUiOptions(props.uiSchema?.[p.name]).currencyField
    if (typeof currency === 'string' && byName.has(currency)) currencyOf.set(p.name, currency)
  }
  const paired = new Set(currencyOf.values())
  for (const currency of paired) placed.add(currency)
  return (
    <div className={styles.sections}>
      {sections.map((section, index) => (
        <section
          key={section.title || index}
          className={mergeClasses(styles.section, index > 0 && styles.sectionRule)}
          aria-label={section.title ? t(section.title) : undefined}
        >
          {section.title && (
            <Subtitle2 as="h2" className={styles.legend}>
              {t(section.title)}
            </Subtitle2>
          )}
          <div
            className={styles.grid}
            style={{ gridTemplateColumns: `repeat(${section.columns ?? 1}, minmax(0, 1fr))` }}
          >
            {section.fields.map((name) => {
              const property = byName.get(name)
              const currency = currencyOf.get(name)
              if (property && currency && !property.hidden)
                return (
                  <div key={name} className={styles.moneyPair} data-money-pair={name}>
                    {property.content}
                    {byName.get(currency)?.content}
                  </div>
                )
              if (paired.has(name) && [...currencyOf.keys()].some((money) => placed.has(money))) return null
              if (property) return property.hidden ? null : <div key={name}>{property.content}</div>
              if (!(name in context.readOnlyValues)) return null
              return (
                <Field key={name} label={t(context.fieldLabels[name] ?? `field.${name}`)}>
                  <Input readOnly value={context.readOnlyValues[name]} aria-readonly="true" />
                </Field>
              )
            })}
          </div>
        </section>
      ))}
      {props.properties
        .filter((p) => (p.hidden || !placed.has(p.name)) && !ruleHidden.has(p.name))
        .map((p) => (
          <div key={p.name} className={styles.hidden}>
            {p.content}
          </div>
        ))}
    </div>
  )
}

const Nothing = () => null

/** Our Fluent UI v9 theme for rjsf (the published one pulls React 17 peers, DESIGN §4). */
export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  ObjectFieldTemplate,
  // Messages sit under their fields; no list above the form, no duplicate under each widget.
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  DescriptionFieldTemplate: Nothing,
  TitleFieldTemplate: Nothing,
  ButtonTemplates: { SubmitButton: Nothing } as unknown as TemplatesType['ButtonTemplates'],
  // Chosen by name from the uiSchema (runtime/forms/schemaForm.ts) for arrays of rows.
  ...({
    subTable: SubTableTemplate,
    subTableRow: SubTableRowTemplate,
    subTableCells: SubTableCellsTemplate,
  } as Partial<TemplatesType>),
}

export const widgets: RegistryWidgetsType = { ...RJSF_DEFAULT_WIDGETS, ...WIDGET_REGISTRY }
