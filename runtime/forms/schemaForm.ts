import type { ErrorSchema } from '@rjsf/utils'
import type { ErrorObject } from 'ajv'
import type { FieldDef, UiRule } from '../../model/definitions.ts'
import type { ManifestEntity } from '../../model/resolve.ts'
import { DERIVED, type DeriveContext, type DerivedName, isDerivedName } from '../../rules/derived.ts'
import { fileLimits } from '../../rules/fileLimits.ts'
import { requiredWhenHolds } from '../../rules/keywords.ts'
import { type FieldError, toFieldErrors } from '../../rules/messages.ts'
import { fieldRulesOf, inactiveFields, type RuleContext, ruleState, withoutInactive } from '../../rules/uiRules.ts'
import type { ServerFieldError } from '../api.ts'
import { hasLookup } from '../widgets/lookups.ts'

/**
 * The pure half of the generic form: which widget draws a field, the uiSchema of a screen's form
 * layout, which record values go into the form, and how validator and server errors become messages.
 */

export interface FormSection {
  title: string
  columns?: number
  fields: string[]
  /** The section's UI rules (screen YAML), besides each field's own (rules/uiRules.ts). */
  rules?: UiRule[]
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
      // A tenant entity with a look-up (company, role) gets the same search select, told which (ui:options.ref).
      return REF_WIDGETS[field.ref ?? ''] ?? (hasLookup(field.lookup ?? field.ref) ? 'ReferenceWidget' : 'text')
    case 'string':
      // A text with a look-up (an FBA product line's SKU): the search select, typing kept (ui:options.freeform).
      if (hasLookup(field.lookup)) return 'ReferenceWidget'
      return (field.maxLength ?? 0) > 255 ? 'textarea' : 'text'
    case 'file':
      return fileLimits(field).image ? 'imageUpload' : 'fileUpload'
    case 'richText':
      return 'richText'
    case 'array':
      return 'subTable'
    case 'permissionTree':
      return 'permissionTree'
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
  entity: Pick<ManifestEntity, 'fields' | 'schema'> & { entity?: string },
  sections: FormSection[],
): Record<string, unknown> {
  const shown = new Set(sections.flatMap((s) => s.fields))
  // A shown money field brings its currency along: the two are drawn as one (runtime/forms/theme.tsx).
  for (const name of [...shown]) {
    const currency = entity.fields[name]?.type === 'money' ? currencyFieldOf(entity.fields, name) : undefined
    if (currency) shown.add(currency)
  }
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
    // Read-only in the YAML or by a tenant overlay: shown, not edited (the server ignores it too).
    if (field.readOnly) entry['ui:readonly'] = true
    if (field.values) entry['ui:enumNames'] = field.values.map((v) => v.label)
    if (field.type === 'textBlock') entry['ui:options'] = { lineLength: field.lineLength, maxLines: field.maxLines }
    if (field.type === 'permissionTree' && field.sideField) entry['ui:options'] = { sideField: field.sideField }
    Object.assign(entry, widgetUi(entity, name, field))
    // An array of rows is drawn by the sub-table templates, not by a widget.
    if ('ui:ArrayFieldTemplate' in entry) delete entry['ui:widget']
    ui[name] = entry
  }
  return ui
}

/**
 * The uiSchema with each ref field's `lookupFilter` filled from the data (`{ carrier: 'MAEU' }` for the
 * booking agent while the order names Maersk), so its look-up asks for those rows only. A filter field left
 * empty narrows nothing.
 */
export function withLookupFilters(
  ui: Record<string, unknown>,
  entity: Pick<ManifestEntity, 'fields'>,
  data: Record<string, unknown>,
): Record<string, unknown> {
  let out = ui
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!field.lookupFilter || !ui[name]) continue
    const filter: Record<string, string> = {}
    for (const [param, source] of Object.entries(field.lookupFilter)) {
      const value = data[source]
      if (typeof value === 'string' || typeof value === 'number') filter[param] = String(value)
    }
    const entry = ui[name] as Record<string, unknown>
    out = { ...out, [name]: { ...entry, 'ui:options': { ...(entry['ui:options'] as object), lookupFilter: filter } } }
  }
  return out
}

/**
 * The uiSchema with the required mark on every field that an entity rule makes required for this data
 * (`requiredWhen` while its condition holds: "Pick-up address" once "Pick-up needed" is ticked), so the mark
 * shows before a submit is refused. Only fields the uiSchema draws; the others are left as they are.
 */
export function withRuleMarks(
  ui: Record<string, unknown>,
  entity: Pick<ManifestEntity, 'rules'>,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const now = (entity.rules ?? []).flatMap((rule) =>
    rule.kind === 'requiredWhen' && requiredWhenHolds(data, rule) ? [rule.field] : [],
  )
  if (!now.length) return ui
  const marked = { ...ui }
  for (const name of now) {
    const entry = marked[name] as Record<string, unknown> | undefined
    if (!entry || entry['ui:widget'] === 'hidden') continue
    marked[name] = { ...entry, 'ui:options': { ...(entry['ui:options'] as object), ruleRequired: true } }
  }
  return marked
}

/** The UI rules of a form: each field's own (entity YAML) and its section's (screen YAML). */
export function formRules(entity: Pick<ManifestEntity, 'fields'>, sections: readonly FormSection[]) {
  return fieldRulesOf(entity.fields, sections)
}

/**
 * The uiSchema as the YAML's UI rules leave it for this data (rules/uiRules.ts, judged as the server judges
 * a write: on the record without what the rules turn off): a hidden field is not drawn (`ruleHidden`, and
 * a section left with no field goes), a disabled one is drawn read-only (`ui:disabled`).
 */
export function withUiRules(
  ui: Record<string, unknown>,
  entity: Pick<ManifestEntity, 'fields'>,
  data: Record<string, unknown>,
  context: RuleContext = {},
): Record<string, unknown> {
  const options = (ui['ui:options'] ?? {}) as { sections?: FormSection[] }
  const sections = options.sections ?? []
  const rules = formRules(entity, sections)
  if (!rules.size) return ui
  const inactive = inactiveFields(rules, withoutInactive(rules, data, context), context)
  if (!inactive.size) return ui
  const out = { ...ui }
  const hidden: string[] = []
  for (const [name, state] of inactive) {
    if (state.hidden) hidden.push(name)
    else if (out[name]) out[name] = { ...(out[name] as object), 'ui:disabled': true }
  }
  out['ui:options'] = {
    ...options,
    sections: sections
      .map((section) => ({ ...section, fields: section.fields.filter((name) => !hidden.includes(name)) }))
      .filter((section) => section.fields.length > 0),
    ruleHidden: hidden,
  }
  return out
}

/** Whether any field a section shows is disabled by rules for this data (a flow's "choose the route first"). */
export function someDisabled(
  entity: Pick<ManifestEntity, 'fields'>,
  sections: readonly FormSection[],
  data: Record<string, unknown>,
): boolean {
  const rules = formRules(entity, sections)
  const kept = withoutInactive(rules, data)
  return sections.some((section) => section.fields.some((name) => ruleState(rules.get(name), kept).disabled))
}

/** A money field's currency: a sibling `<name>Currency`, else `currency`, referring to the currency list. */
export function currencyFieldOf(fields: Record<string, FieldDef>, name: string): string | undefined {
  const own = name.split('.').pop() ?? name
  return [`${own}Currency`, 'currency'].find(
    (other) => fields[other]?.type === 'ref' && fields[other]?.ref === 'currency',
  )
}

/**
 * What the richer widgets need from the field's YAML: which list a look-up searches, an upload's limits
 * and target, money's decimals and currency, and for an array of rows the sub-table templates
 * (runtime/widgets/SubTable.tsx) with each cell's own widget.
 */
function widgetUi(
  entity: Pick<ManifestEntity, 'fields'> & { entity?: string },
  name: string,
  field: FieldDef,
): Record<string, unknown> {
  const widget = widgetFor(field)
  switch (field.type) {
    case 'string':
      return widget === 'ReferenceWidget' ? { 'ui:options': { ref: field.lookup, freeform: true } } : {}
    case 'ref':
      // A narrower look-up (`lookup:`) is told to the list's own select too: the inquiry's offered container types.
      return widget === 'ReferenceWidget' || field.lookup ? { 'ui:options': { ref: field.lookup ?? field.ref } } : {}
    case 'file':
      return { 'ui:options': { ...fileLimits(field), entity: entity.entity ?? '', field: name } }
    case 'money': {
      const currencyField = currencyFieldOf(entity.fields, name)
      return { 'ui:options': { decimals: field.decimals ?? 3, ...(currencyField ? { currencyField } : {}) } }
    }
    case 'array': {
      if (!field.items || widget !== 'subTable') return {}
      // A derived column (derive:, rules/derived.ts) is shown after the row's inputs, worked out as the user types.
      const derived = derivedColumns(field.items)
      const items: Record<string, unknown> = {
        'ui:ObjectFieldTemplate': 'subTableCells',
        ...(derived.length ? { 'ui:options': { derived } } : {}),
      }
      for (const [itemName, item] of Object.entries(field.items)) {
        if (item.readOnly) continue
        const cell = widgetUi({ fields: field.items, entity: entity.entity }, `${name}.${itemName}`, item)
        const options = { ...((cell['ui:options'] as object | undefined) ?? {}), cell: true }
        items[itemName] = {
          'ui:widget': widgetFor(item),
          ...(item.values ? { 'ui:enumNames': item.values.map((v) => v.label) } : {}),
          ...cell,
          'ui:options': options,
        }
      }
      return {
        'ui:ArrayFieldTemplate': 'subTable',
        'ui:ArrayFieldItemTemplate': 'subTableRow',
        'ui:options': { orderable: false, copyable: false, ...(derived.length ? { derived } : {}) },
        items,
      }
    }
    default:
      return {}
  }
}

/** A sub-table's derived column: the row field, its label (a locale key) and the derivation that fills it. */
export interface DerivedColumn {
  name: string
  label: string
  derive: DerivedName
}

/** The row fields a derivation of rules/derived.ts fills, in declaration order. */
export function derivedColumns(items: Record<string, FieldDef>): DerivedColumn[] {
  return Object.entries(items).flatMap(([name, item]) =>
    isDerivedName(item.derive) ? [{ name, label: item.label ?? name, derive: item.derive }] : [],
  )
}

/**
 * The record's own derived fields as the form shows them now (text, '' while a size is missing): the FBA order's
 * chargeable weight total under its boxes, from the boxes typed so far and the tenant's settings.
 */
export function liveDerivedValues(
  fields: Record<string, FieldDef>,
  data: Record<string, unknown>,
  context: DeriveContext,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, field] of Object.entries(fields))
    if (isDerivedName(field.derive)) out[name] = DERIVED[field.derive](data, data, context) ?? ''
  return out
}

/**
 * The data with what each changed look-up value fills (a field's `fills:`): a product line whose SKU became one
 * of the enterprise's products takes its names, brand and price. Only where the value changed from `before`, so
 * what the user then types over a filled field stays; a value no option was seen for fills nothing.
 */
export function applyFills(
  fields: Record<string, FieldDef>,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fieldsOf: (lookup: string, value: unknown) => Record<string, string | undefined> | undefined,
): Record<string, unknown> {
  const fill = (own: Record<string, FieldDef>, was: Record<string, unknown>, now: Record<string, unknown>) => {
    let out = now
    for (const [name, field] of Object.entries(own)) {
      if (field.fills && field.lookup && now[name] !== was[name]) {
        const values = fieldsOf(field.lookup, now[name])
        if (!values) continue
        const filled: Record<string, unknown> = {}
        for (const [target, from] of Object.entries(field.fills))
          if (values[from] !== undefined) filled[target] = values[from]
        out = { ...out, ...filled }
      }
      const rows = out[name]
      if (field.items && Array.isArray(rows)) {
        const old = Array.isArray(was[name]) ? (was[name] as unknown[]) : []
        const items = field.items
        const next = rows.map((row, i) =>
          row && typeof row === 'object'
            ? fill(items, (old[i] ?? {}) as Record<string, unknown>, row as Record<string, unknown>)
            : row,
        )
        if (next.some((row, i) => row !== rows[i])) out = { ...out, [name]: next }
      }
    }
    return out
  }
  return fill(fields, before, after)
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
  if (!errors) return
  // A rule over rows (itemsIn) is one ajv error naming several rows: one error per row, each at its cell.
  const extra: ErrorObject[] = []
  for (const error of errors) {
    const [fieldError, ...more] = toFieldErrors([error], { fields }) as FieldError[]
    if (!fieldError) continue
    error.message = translate(fieldError.message, fieldError.params)
    if (error.keyword !== 'required' && error.keyword !== 'additionalProperties') {
      error.instancePath = toPointer(fieldError.field)
      for (const other of more)
        extra.push({
          ...error,
          instancePath: toPointer(other.field),
          message: translate(other.message, other.params),
        })
    }
  }
  errors.push(...extra)
}

/** The server's field errors as rjsf's `extraErrors`, each message from its key in the reader's language. */
export function serverErrorTree(
  fieldErrors: readonly ServerFieldError[],
  translate: (key: string) => string | null,
): ErrorSchema {
  const tree: ErrorSchema = {}
  for (const error of fieldErrors) {
    const path = error.field ? error.field.replace(/\[(\d+)\]/g, '.$1').split('.') : []
    let node: ErrorSchema = tree
    for (const step of path) {
      const next: ErrorSchema = node[step] ?? {}
      node[step] = next
      node = next
    }
    node.__errors = [...(node.__errors ?? []), translate(error.key) ?? error.message]
  }
  return tree
}
