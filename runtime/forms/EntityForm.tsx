import Form from '@rjsf/core'
import type { RJSFSchema } from '@rjsf/utils'
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8'
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as validators from '../../generated/validators.js'
import { withoutInactive } from '../../rules/uiRules.ts'
import { RequestError, type ServerFieldError } from '../api.ts'
import i18next from '../i18n.ts'
import { overlayRuleFailures } from '../overlays/rules.ts'
import type { TenantEntity } from '../overlays/useTenantScreen.ts'
import type { PortalEntity } from '../screens/manifest.ts'
import { useSiteSettings } from '../site/SiteSettings.tsx'
import { optionFieldsOf } from '../widgets/lookups.ts'
import {
  applyFills,
  buildUiSchema,
  type FormSection,
  formRules,
  formSections,
  liveDerivedValues,
  localizeErrors,
  pickFormData,
  readOnlyValues,
  serverErrorTree,
  withLookupFilters,
  withRuleMarks,
  withUiRules,
} from './schemaForm.ts'
import { type FormEntity, withSchema } from './schemas.ts'
import { type FormContext, templates, widgets } from './theme.tsx'

type Data = Record<string, unknown>

/** A tenant overlay's hidden fields are not in the form (the server ignores them too). */
function withoutHidden(sections: FormSection[], hidden: string[] | undefined): FormSection[] {
  if (!hidden?.length) return sections
  return sections
    .map((section) => ({ ...section, fields: section.fields.filter((name) => !hidden.includes(name)) }))
    .filter((section) => section.fields.length > 0)
}

/** What a new record starts with: the fields' defaults (the YAML's, or a tenant overlay's). */
function fieldDefaults(entity: FormEntity): Data {
  const properties = (entity.schema as { properties?: Record<string, unknown> }).properties ?? {}
  return Object.fromEntries(
    Object.entries(entity.fields)
      .filter(([name, field]) => field.default !== undefined && Object.hasOwn(properties, name))
      .map(([name, field]) => [name, field.default]),
  )
}

/**
 * One validator per entity: the generated, precompiled ajv functions (keyed by schema `$id` = entity
 * name), the same the server runs; messages come from rules/messages.ts keys in the reader's language.
 */
const validatorCache = new Map<string, ReturnType<typeof createPrecompiledValidator>>()
function validatorFor(entity: FormEntity) {
  let validator = validatorCache.get(entity.entity)
  if (!validator) {
    validator = createPrecompiledValidator(
      validators as unknown as ValidatorFunctions,
      entity.schema as RJSFSchema,
      (errors) => localizeErrors(errors, entity.fields, (key, params) => i18next.t(key, params)),
    )
    validatorCache.set(entity.entity, validator)
  }
  return validator
}

export interface EntityFormProps {
  id: string
  entity: PortalEntity
  sections?: FormSection[]
  /** The record being edited (also the source of read-only section fields). */
  record?: Data | null
  /** A new record's values given by the page (a screen's `form.prefill`), over the fields' defaults. */
  prefill?: Data | null
  disabled?: boolean
  /** Saves; a rejected RequestError with field errors shows them under their fields. */
  onSubmit: (data: Data) => Promise<void>
  /** Every edit's data, for a screen that shows figures worked out of it (a quote's live totals). */
  onChange?: (data: Data) => void
  formRef?: RefObject<Form | null>
}

/**
 * The generic form (DESIGN §4): rjsf on our Fluent theme, validated before anything is sent, and again
 * showing what the server refused.
 */
export function EntityForm({
  id,
  entity: portal,
  sections,
  record,
  prefill,
  disabled,
  onSubmit,
  onChange,
  formRef,
}: EntityFormProps) {
  const { t, i18n } = useTranslation()
  const entity = useMemo(() => withSchema(portal), [portal])
  const ownRef = useRef<Form | null>(null)
  const ref = formRef ?? ownRef
  const layout = useMemo(
    () => withoutHidden(formSections(entity, sections), (entity as TenantEntity).hiddenFields),
    [entity, sections],
  )
  const overlayRules = (entity as TenantEntity).overlayRules
  // The tenant's site settings, for `{ setting: … }` rules (a feature such as hasBookingAgent).
  const settings = useSiteSettings()
  const ruleContext = useMemo(() => ({ settings: settings as Record<string, unknown> | null }), [settings])
  const uiSchema = useMemo(() => buildUiSchema(entity, layout), [entity, layout])
  const validator = useMemo(() => validatorFor(entity), [entity])
  const [formData, setFormData] = useState<Data>(() => ({
    ...(record ? {} : { ...fieldDefaults(entity), ...pickFormData(entity.schema, prefill) }),
    ...pickFormData(entity.schema, record),
  }))
  // The YAML's UI rules for the data now: hidden fields not drawn, disabled ones read-only.
  const markedUiSchema = useMemo(
    () =>
      withLookupFilters(
        withUiRules(withRuleMarks(uiSchema, entity, formData), entity, formData, ruleContext),
        entity,
        formData,
      ),
    [uiSchema, entity, formData, ruleContext],
  )
  const rules = useMemo(() => formRules(entity, layout), [entity, layout])
  const [serverErrors, setServerErrors] = useState<ServerFieldError[]>([])
  const [attempted, setAttempted] = useState(false)

  const formContext = useMemo<FormContext>(() => {
    const settingValues = settings as Record<string, unknown> | null
    // A derived field (derive:) shows what the data typed so far gives, not the stored value: the server
    // writes the same on save.
    const live = liveDerivedValues(entity.fields, formData, { settings: settingValues })
    const values = readOnlyValues(entity, layout, record)
    for (const name of Object.keys(values)) if (name in live) values[name] = live[name] ?? ''
    const fieldLabels = Object.fromEntries(
      Object.keys(values).map((name) => [name, entity.fields[name]?.label ?? name]),
    )
    return { readOnlyValues: values, fieldLabels, formData, settings: settingValues }
  }, [entity, layout, record, formData, settings])

  // Messages on screen follow a language switch.
  const language = i18n.language
  useEffect(() => {
    if (attempted && language) ref.current?.validateForm()
  }, [language, attempted, ref])

  const extraErrors = useMemo(
    () => serverErrorTree(serverErrors, (key) => (i18n.exists(key) ? t(key) : null)),
    [serverErrors, t, i18n],
  )

  return (
    <Form
      ref={ref}
      id={id}
      schema={entity.schema as RJSFSchema}
      uiSchema={markedUiSchema}
      formData={formData}
      formContext={formContext}
      validator={validator}
      templates={templates}
      widgets={widgets}
      disabled={disabled}
      noHtml5Validate
      showErrorList={false}
      focusOnFirstError
      liveValidate={attempted ? 'onChange' : undefined}
      extraErrors={extraErrors}
      customValidate={
        overlayRules
          ? (data, errors) => {
              // The tenant's tighter rules (an overlay), beside the generated validator's.
              const tree = errors as unknown as Record<
                string,
                { addError?: (message: string) => void; __errors?: string[] }
              >
              for (const failure of overlayRuleFailures(overlayRules, (data ?? {}) as Data)) {
                tree[failure.field] ??= { __errors: [] }
                const node = tree[failure.field] as { __errors?: string[] }
                node.__errors = [...(node.__errors ?? []), t(failure.message, failure.params)]
              }
              return errors
            }
          : undefined
      }
      onChange={(event) => {
        // A look-up value picked fills the fields its YAML `fills:` names (an FBA line from its product).
        const next = applyFills(entity.fields, formData, event.formData as Data, optionFieldsOf)
        setFormData(next)
        onChange?.(next)
        if (serverErrors.length) setServerErrors([])
      }}
      onError={() => setAttempted(true)}
      onSubmit={(event) => {
        setAttempted(true)
        // What the rules turn off is not sent (the server would ignore it).
        void onSubmit(withoutInactive(rules, event.formData as Data, ruleContext)).catch((error: unknown) => {
          if (error instanceof RequestError && error.fieldErrors.length) setServerErrors(error.fieldErrors)
        })
      }}
    />
  )
}
