import type { ErrorObject } from 'ajv'
import type { FieldDef } from '../../generator/model.ts'
import type { ManifestEntity } from '../../generator/resolve.ts'
import { type FieldError, toFieldErrors } from '../../rules/messages.ts'
import type { ServerFieldError } from '../api.ts'

/**
 * The pure half of the generic form: which widget draws a field, the uiSchema of a screen's form
 * layout, which record values go into the form, and how validator and server errors become messages.
 */

export interface FormSection {
  title: string
  columns?: number
  fields: string[]
}

type JsonSchemaLike = { properties?: Record<string, unknown>; [key: string]: unknown }

const REF_WIDGETS: Record<string, string> = {
  port: 'portSelect',
  airport: 'airportSelect',
  carrier: 'carrierSelect',
  currency: 'currencySelect',
  country: 'countrySelect',
  containerType: 'containerTypeSelect',
}

/** The widget (a WIDGETS name) that draws a field: its own `widget:`, else the one for its type. */
export function widgetFor(field: FieldDef): string {
  if (field.widget) return field.widget
  switch (field.type) {
    case 'textBlock':
      return 'textBlock'
    case 'integer':
    case 'number':
      return 'number'
    case 'money':
      return 'money'
    case 'boolean':
      return 'checkbox'
    case 'date':
      return 'date'
    case 'datetime':
      return 'datetime'
    case 'enum':
      return 'select'
    case 'ref':
      return REF_WIDGETS[field.ref ?? ''] ?? 'text'
    case 'file':
      return field.accept?.every((a) => ['png', 'jpg', 'jpeg', 'gif'].includes(a)) ? 'imageUpload' : 'fileUpload'
    case 'richText':
      return 'richText'
    case 'array':
      return 'subTable'
    default:
      return (field.maxLength ?? 0) > 255 ? 'textarea' : 'text'
  }
}

/**
 * The sections a form shows: the screen's own, or one section with every editable field of the entity
 * in declaration order (forms opened from a list).
 */
export function formSections(
  entity: Pick<ManifestEntity, 'fields' | 'schema'>,
  sections?: FormSection[],
): FormSection[] {
  if (sections?.length) return sections
  const properties = Object.keys((entity.schema as JsonSchemaLike).properties ?? {})
  const fields = Object.keys(entity.fields).filter((name) => properties.includes(name))
  return [{ title: '', columns: 2, fields }]
}

/**
 * The uiSchema: widget and option labels per field, the rest (id, version, fields no section names)
 * hidden. Labels stay locale keys: the theme translates them when it draws.
 */
export function buildUiSchema(
  entity: Pick<ManifestEntity, 'fields' | 'schema'>,
  sections: FormSection[],
): Record<string, unknown> {
  const shown = new Set(sections.flatMap((s) => s.fields))
  const ui: Record<string, unknown> = {
    'ui:submitButtonOptions': { norender: true },
    'ui:options': { sections },
  }
  for (const name of Object.keys((entity.schema as JsonSchemaLike).properties ?? {})) {
    const field = entity.fields[name]
    if (!field || !shown.has(name)) {
      ui[name] = { 'ui:widget': 'hidden' }
      continue
    }
    const entry: Record<string, unknown> = { 'ui:widget': widgetFor(field) }
    if (field.values) entry['ui:enumNames'] = field.values.map((v) => v.label)
    if (field.type === 'textBlock') entry['ui:options'] = { lineLength: field.lineLength, maxLines: field.maxLines }
    ui[name] = entry
  }
  return ui
}

/**
 * The record values the form edits: only what the schema knows (it forbids anything else), with
 * read-only fields left out, and nulls dropped (an absent optional field, not a wrong type).
 */
export function pickFormData(
  schema: unknown,
  record: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const properties = Object.keys((schema as JsonSchemaLike).properties ?? {})
  const data: Record<string, unknown> = {}
  for (const name of properties) {
    const value = record?.[name]
    if (value !== null && value !== undefined) data[name] = value
  }
  return data
}

/** Fields a section names that the schema does not carry: shown read-only beside the form (e.g. username). */
export function readOnlyValues(
  entity: Pick<ManifestEntity, 'fields' | 'schema'>,
  sections: FormSection[],
  record: Record<string, unknown> | null | undefined,
): Record<string, string> {
  const properties = new Set(Object.keys((entity.schema as JsonSchemaLike).properties ?? {}))
  const values: Record<string, string> = {}
  for (const name of sections.flatMap((s) => s.fields)) {
    if (properties.has(name)) continue
    const value = record?.[name] ?? (record?.userInfo as Record<string, unknown> | undefined)?.[name]
    values[name] = value === null || value === undefined ? '' : String(value)
  }
  return values
}

const toPointer = (field: string) =>
  field
    ? `/${field
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .join('/')}`
    : ''

/**
 * Rewrites ajv errors in place (the @rjsf/validator-ajv8 localizer hook): each message becomes the
 * translated text of rules/messages.ts's key, and a cross-field rule's error moves to the field it names,
 * so the form shows it under that field rather than above the form.
 */
export function localizeErrors(
  errors: ErrorObject[] | null | undefined,
  fields: ManifestEntity['fields'],
  translate: (key: string, params: Record<string, unknown>) => string,
): void {
  for (const error of errors ?? []) {
    const [fieldError] = toFieldErrors([error], { fields }) as [FieldError?]
    if (!fieldError) continue
    error.message = translate(fieldError.message, fieldError.params)
    if (error.keyword !== 'required' && error.keyword !== 'additionalProperties') {
      error.instancePath = toPointer(fieldError.field)
    }
  }
}

export type ErrorTree = { __errors?: string[]; [field: string]: ErrorTree | string[] | undefined }

/** The server's field errors as rjsf's `extraErrors`, each message from its key in the reader's language. */
export function serverErrorTree(
  fieldErrors: readonly ServerFieldError[],
  translate: (key: string) => string | null,
): ErrorTree {
  const tree: ErrorTree = {}
  for (const error of fieldErrors) {
    const path = error.field ? error.field.replace(/\[(\d+)\]/g, '.$1').split('.') : []
    let node = tree
    for (const step of path) {
      node[step] = (node[step] as ErrorTree | undefined) ?? {}
      node = node[step] as ErrorTree
    }
    node.__errors = [...(node.__errors ?? []), translate(error.key) ?? error.message]
  }
  return tree
}
