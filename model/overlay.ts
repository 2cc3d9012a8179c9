import type { FieldDef } from './definitions.ts'
import type { ManifestEndpoint, ManifestEntity, ManifestScreen } from './resolve.ts'

/**
 * Tenant overlays (DESIGN §1): what one tenant changes on one screen without a rebuild. Pure functions
 * shared by the server (which validates, stores and enforces overlays) and the portal (which merges them
 * into the screens it draws and checks an overlay live while an administrator types it). The document's
 * shape is model/overlay.schema.json; this module adds what a JSON Schema cannot say: the names
 * must exist on the screen, and rules may only tighten the screen's own.
 */

export const OVERLAY_LANGUAGES = ['zh', 'en', 'ja', 'es'] as const
export type OverlayLanguage = (typeof OVERLAY_LANGUAGES)[number]
export type OverlayLabel = string | Partial<Record<OverlayLanguage, string>>

export interface FieldRuleOverlay {
  required?: true
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  pattern?: string
  enum?: (string | number)[]
}

export interface OverlayDocument {
  columns?: {
    hidden?: string[]
    order?: string[]
    labels?: Record<string, OverlayLabel>
    widths?: Record<string, number>
  }
  search?: { hidden?: string[]; order?: string[]; labels?: Record<string, OverlayLabel> }
  fields?: {
    hidden?: string[]
    readOnly?: string[]
    order?: string[]
    labels?: Record<string, OverlayLabel>
    defaults?: Record<string, string | number | boolean>
    rules?: Record<string, FieldRuleOverlay>
  }
  actions?: { hidden?: string[] }
  paging?: { pageSize?: number }
}

/** A problem with an overlay: where (a path into the document), a locale key and its parameters. */
export interface OverlayProblem {
  path: string
  message: string
  params?: Record<string, string | number>
}

export interface OverlayOptions {
  /** The screen saves through a hand-written endpoint (see saveEndpointIsCustom). */
  customSave?: boolean
}

/** Whether a screen's records are saved by a hand-written endpoint rather than the generic engine. */
export function savesThroughCustomEndpoint(
  endpoints: readonly Pick<ManifestEndpoint, 'kind' | 'method' | 'screens'>[],
  screen: string,
): boolean {
  return endpoints.some((e) => e.kind === 'custom' && e.method !== 'GET' && e.screens.includes(screen))
}

/** Screens a tenant may overlay: generic screens drawn from the manifest. */
export function overlayable(screen: Pick<ManifestScreen, 'kind' | 'entity' | 'status'>): boolean {
  return screen.status === 'built' && !!screen.entity && ['list', 'form', 'detail'].includes(screen.kind ?? '')
}

/** Fields a form may show or a caller may send: the entity's fields less the ones the system sets. */
function formFields(entity: Pick<ManifestEntity, 'fields' | 'states'>): string[] {
  return Object.keys(entity.fields).filter((name) => name !== entity.states?.field)
}

const STRING_TYPES = new Set(['string', 'textBlock', 'richText', 'date', 'datetime', 'enum', 'ref'])
const NUMBER_TYPES = new Set(['integer', 'number', 'money'])

/**
 * What is wrong with an overlay of `screen` (already valid against the meta-schema), in document order.
 * Empty when it may be saved.
 */
export function overlayProblems(
  document: OverlayDocument,
  screen: ManifestScreen,
  entity: Pick<ManifestEntity, 'fields' | 'states'>,
  options: OverlayOptions = {},
): OverlayProblem[] {
  const problems: OverlayProblem[] = []
  const columns = (screen.columns ?? []).map((c) => c.field)
  const search = (screen.search ?? []).map((s) => s.field)
  const fields = formFields(entity)
  const actions = [...(screen.actions?.row ?? []), ...(screen.actions?.toolbar ?? [])].map((a) => a.name)

  const known = (path: string, names: Iterable<string> | undefined, allowed: string[], message: string) => {
    for (const [index, name] of [...(names ?? [])].entries()) {
      if (!allowed.includes(name))
        problems.push({ path: `${path}/${index}`, message, params: { name, allowed: allowed.join(', ') || '—' } })
    }
  }
  const knownKeys = (path: string, map: Record<string, unknown> | undefined, allowed: string[], message: string) => {
    for (const name of Object.keys(map ?? {}))
      if (!allowed.includes(name))
        problems.push({ path: `${path}/${name}`, message, params: { name, allowed: allowed.join(', ') || '—' } })
  }

  known('/columns/hidden', document.columns?.hidden, columns, 'overlay.unknownColumn')
  known('/columns/order', document.columns?.order, columns, 'overlay.unknownColumn')
  knownKeys('/columns/labels', document.columns?.labels, columns, 'overlay.unknownColumn')
  knownKeys('/columns/widths', document.columns?.widths, columns, 'overlay.unknownColumn')
  if (columns.length && document.columns?.hidden && columns.every((c) => document.columns?.hidden?.includes(c)))
    problems.push({ path: '/columns/hidden', message: 'overlay.allColumnsHidden' })

  known('/search/hidden', document.search?.hidden, search, 'overlay.unknownSearch')
  known('/search/order', document.search?.order, search, 'overlay.unknownSearch')
  knownKeys('/search/labels', document.search?.labels, search, 'overlay.unknownSearch')

  const f = document.fields
  known('/fields/hidden', f?.hidden, fields, 'overlay.unknownField')
  known('/fields/readOnly', f?.readOnly, fields, 'overlay.unknownField')
  known('/fields/order', f?.order, fields, 'overlay.unknownField')
  knownKeys('/fields/labels', f?.labels, fields, 'overlay.unknownField')
  knownKeys('/fields/defaults', f?.defaults, fields, 'overlay.unknownField')
  knownKeys('/fields/rules', f?.rules, fields, 'overlay.unknownField')
  known('/actions/hidden', document.actions?.hidden, actions, 'overlay.unknownAction')

  for (const [name, value] of Object.entries(f?.defaults ?? {})) {
    const field = entity.fields[name]
    if (field && !defaultFits(field, value))
      problems.push({ path: `/fields/defaults/${name}`, message: 'overlay.defaultType', params: { name } })
  }
  for (const [name, rule] of Object.entries(f?.rules ?? {})) {
    const field = entity.fields[name]
    if (field) problems.push(...looserRules(`/fields/rules/${name}`, field, rule))
  }
  // A hand-written save endpoint takes the record whole: it cannot keep a locked required field as stored.
  if (options.customSave) {
    for (const part of ['hidden', 'readOnly'] as const)
      for (const [index, name] of (f?.[part] ?? []).entries())
        if (entity.fields[name]?.required)
          problems.push({ path: `/fields/${part}/${index}`, message: 'overlay.requiredLocked', params: { name } })
  }
  // A hidden field the form cannot fill must come with a default, or no record could be saved.
  for (const [index, name] of (f?.hidden ?? []).entries()) {
    const field = entity.fields[name]
    const required = field?.required || f?.rules?.[name]?.required
    if (field && required && f?.defaults?.[name] === undefined && field.default === undefined)
      problems.push({ path: `/fields/hidden/${index}`, message: 'overlay.hiddenRequired', params: { name } })
  }
  return problems
}

function defaultFits(field: FieldDef, value: unknown): boolean {
  if (NUMBER_TYPES.has(field.type))
    return typeof value === 'number' || (field.type === 'money' && typeof value === 'string')
  if (field.type === 'boolean') return typeof value === 'boolean'
  if (field.type === 'enum') return (field.values ?? []).some((v) => v.value === value)
  return typeof value === 'string'
}

/** The rule must say no more than the field allows already: every bound at least as tight as the YAML's. */
function looserRules(path: string, field: FieldDef, rule: FieldRuleOverlay): OverlayProblem[] {
  const problems: OverlayProblem[] = []
  const textual = STRING_TYPES.has(field.type)
  const numeric = NUMBER_TYPES.has(field.type)
  const wrongType = (key: string) =>
    problems.push({ path: `${path}/${key}`, message: 'overlay.ruleType', params: { rule: key, type: field.type } })
  const looser = (key: string, limit: number) =>
    problems.push({ path: `${path}/${key}`, message: 'overlay.ruleLooser', params: { rule: key, limit } })

  for (const key of ['minLength', 'maxLength', 'pattern'] as const)
    if (rule[key] !== undefined && !textual) wrongType(key)
  for (const key of ['minimum', 'maximum'] as const) if (rule[key] !== undefined && !numeric) wrongType(key)
  if (rule.enum && !['enum', 'string', 'integer', 'ref'].includes(field.type)) wrongType('enum')

  if (rule.maxLength !== undefined && field.maxLength !== undefined && rule.maxLength > field.maxLength)
    looser('maxLength', field.maxLength)
  if (rule.minLength !== undefined && field.minLength !== undefined && rule.minLength < field.minLength)
    looser('minLength', field.minLength)
  if (rule.maximum !== undefined && field.maximum !== undefined && rule.maximum > field.maximum)
    looser('maximum', field.maximum)
  const floor = field.minimum ?? field.exclusiveMinimum
  if (rule.minimum !== undefined && floor !== undefined && rule.minimum < floor) looser('minimum', floor)
  if (rule.minLength !== undefined && rule.maxLength !== undefined && rule.minLength > rule.maxLength)
    problems.push({ path: `${path}/minLength`, message: 'overlay.ruleEmpty', params: { rule: 'minLength' } })
  if (rule.minimum !== undefined && rule.maximum !== undefined && rule.minimum > rule.maximum)
    problems.push({ path: `${path}/minimum`, message: 'overlay.ruleEmpty', params: { rule: 'minimum' } })
  if (rule.enum && field.type === 'enum') {
    const values = (field.values ?? []).map((v) => v.value)
    for (const [index, value] of rule.enum.entries())
      if (!values.includes(value))
        problems.push({ path: `${path}/enum/${index}`, message: 'overlay.ruleEnum', params: { value: String(value) } })
  }
  if (rule.pattern !== undefined) {
    try {
      new RegExp(rule.pattern, 'u')
    } catch {
      problems.push({ path: `${path}/pattern`, message: 'overlay.rulePattern' })
    }
  }
  return problems
}

/** The locale key an overlaid label is known by (its texts are added at load: overlayTexts). */
export function overlayLabelKey(screen: string, part: 'columns' | 'search' | 'fields', name: string): string {
  return `tenant.${screen}.${part}.${name}`
}

/**
 * The texts of an overlay's labels per language, keyed by overlayLabelKey. A language the tenant left
 * out nests the screen's own key (`$t(field.orderNo)`), so it keeps reading as before.
 */
export function overlayTexts(
  screen: ManifestScreen,
  entity: Pick<ManifestEntity, 'fields'>,
  document: OverlayDocument,
): Record<OverlayLanguage, Record<string, string>> {
  const texts = Object.fromEntries(OVERLAY_LANGUAGES.map((l) => [l, {}])) as Record<
    OverlayLanguage,
    Record<string, string>
  >
  const own = {
    columns: (name: string) => screen.columns?.find((c) => c.field === name)?.label ?? entity.fields[name]?.label,
    search: (name: string) => screen.search?.find((s) => s.field === name)?.label ?? entity.fields[name]?.label,
    fields: (name: string) => entity.fields[name]?.label,
  }
  for (const part of ['columns', 'search', 'fields'] as const) {
    for (const [name, label] of Object.entries(document[part]?.labels ?? {})) {
      const key = overlayLabelKey(screen.name, part, name)
      const base = own[part](name) ?? name
      for (const language of OVERLAY_LANGUAGES) {
        const text = typeof label === 'string' ? label : label[language]
        texts[language][key] = text ?? `$t(${base})`
      }
    }
  }
  return texts
}

/** `names` in the order the overlay gives first, then the rest in their own order. */
function reorder<T>(items: T[], nameOf: (item: T) => string, order: string[] | undefined): T[] {
  if (!order?.length) return items
  const rank = (item: T) => {
    const index = order.indexOf(nameOf(item))
    return index === -1 ? order.length : index
  }
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map((x) => x.item)
}

const without = (names: string[] | undefined) => (name: string) => !names?.includes(name)

/** The screen as the tenant sees it. Pure: the manifest's objects are not changed. */
export function overlayScreen(screen: ManifestScreen, document: OverlayDocument | undefined): ManifestScreen {
  if (!document) return screen
  const { columns, search, actions, paging } = document
  const label = (part: 'columns' | 'search', name: string, own: string | undefined) =>
    document[part]?.labels?.[name] !== undefined ? overlayLabelKey(screen.name, part, name) : own
  const next: ManifestScreen = { ...screen }
  if (screen.columns)
    next.columns = reorder(
      screen.columns.filter((c) => without(columns?.hidden)(c.field)),
      (c) => c.field,
      columns?.order,
    ).map((c) => {
      const width = columns?.widths?.[c.field] ?? c.width
      const text = label('columns', c.field, c.label)
      return { ...c, ...(width !== undefined ? { width } : {}), ...(text !== undefined ? { label: text } : {}) }
    })
  if (screen.search)
    next.search = reorder(
      screen.search.filter((s) => without(search?.hidden)(s.field)),
      (s) => s.field,
      search?.order,
    ).map((s) => {
      const text = label('search', s.field, s.label)
      return { ...s, ...(text !== undefined ? { label: text } : {}) }
    })
  if (screen.actions && actions?.hidden?.length)
    next.actions = {
      ...(screen.actions.row ? { row: screen.actions.row.filter((a) => without(actions.hidden)(a.name)) } : {}),
      ...(screen.actions.toolbar
        ? { toolbar: screen.actions.toolbar.filter((a) => without(actions.hidden)(a.name)) }
        : {}),
    }
  if (paging?.pageSize) {
    const sizes = screen.paging?.pageSizes ?? []
    next.paging = {
      ...screen.paging,
      pageSize: paging.pageSize,
      ...(sizes.length ? { pageSizes: [...new Set([...sizes, paging.pageSize])].sort((a, b) => a - b) } : {}),
    }
  }
  if (screen.form && document.fields) {
    const hidden = document.fields.hidden
    next.form = {
      ...screen.form,
      sections: screen.form.sections
        .map((section) => ({
          ...section,
          fields: reorder(section.fields.filter(without(hidden)), (name) => name, document.fields?.order),
        }))
        .filter((section) => section.fields.length > 0),
    }
  }
  return next
}

/**
 * The entity as the tenant's forms on this screen see it: relabelled, defaults, read-only fields, and
 * hidden fields dropped from what the form edits (the JSON Schema is left as it is: it is the key of
 * the precompiled validator; the overlay's own rules run beside it, see overlayRuleSchema).
 */
export function overlayEntity<E extends Pick<ManifestEntity, 'fields'>>(
  screenName: string,
  entity: E,
  document: OverlayDocument | undefined,
): E & { hiddenFields?: string[] } {
  const f = document?.fields
  if (!f) return entity
  const fields: Record<string, FieldDef> = {}
  const order = reorder(Object.keys(entity.fields), (name) => name, f.order)
  for (const name of order) {
    const field = entity.fields[name] as FieldDef
    const next: FieldDef = { ...field }
    if (f.labels?.[name] !== undefined) next.label = overlayLabelKey(screenName, 'fields', name)
    if (f.defaults?.[name] !== undefined) next.default = f.defaults[name]
    if (f.readOnly?.includes(name)) next.readOnly = true
    if (f.rules?.[name]?.required) next.required = true
    fields[name] = next
  }
  return { ...entity, fields, ...(f.hidden?.length ? { hiddenFields: [...f.hidden] } : {}) }
}

/**
 * A JSON Schema (draft 2020-12, no custom keywords) of the overlays' extra rules over a request body,
 * or null when they have none. Several overlays (screens sharing an endpoint) all apply. The portal
 * checks it with an eval-free validator, the server with ajv.
 */
export function overlayRuleSchema(
  documents: OverlayDocument | OverlayDocument[] | undefined,
): Record<string, unknown> | null {
  const schemas = [documents ?? []]
    .flat()
    .map(ruleSchemaOf)
    .filter((s) => s !== null)
  if (schemas.length <= 1) return schemas[0] ?? null
  return { allOf: schemas }
}

function ruleSchemaOf(document: OverlayDocument): Record<string, unknown> | null {
  const rules = document.fields?.rules
  if (!rules || !Object.keys(rules).length) return null
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [name, rule] of Object.entries(rules)) {
    const { required: mustHave, ...bounds } = rule
    if (mustHave) required.push(name)
    const textual = bounds.minLength !== undefined || bounds.maxLength !== undefined || bounds.pattern !== undefined
    const numeric = bounds.minimum !== undefined || bounds.maximum !== undefined
    properties[name] = { ...(textual ? { type: 'string' } : numeric ? { type: 'number' } : {}), ...bounds }
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) }
}

/**
 * Several screens' overlays over one endpoint (an endpoint some screens share) as one for hiding and
 * locking: the union of what they hide or lock. (Their rules all apply: overlayRuleSchema takes them all.)
 */
export function combineOverlays(documents: OverlayDocument[]): OverlayDocument | undefined {
  if (!documents.length) return undefined
  if (documents.length === 1) return documents[0]
  const union = (pick: (d: OverlayDocument) => string[] | undefined) => [
    ...new Set(documents.flatMap((d) => pick(d) ?? [])),
  ]
  const defaults = Object.assign({}, ...documents.map((d) => d.fields?.defaults ?? {}))
  return {
    columns: { hidden: union((d) => d.columns?.hidden) },
    fields: { hidden: union((d) => d.fields?.hidden), readOnly: union((d) => d.fields?.readOnly), defaults },
  }
}
