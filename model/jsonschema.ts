import type { EntityDef, FieldDef } from './definitions.ts'
import overlaySchema from './overlay.schema.json'

/** JSON Schema (2020-12) of what a caller may send for an entity: the validators' input. */
export type JsonSchema = Record<string, unknown>

/** Fields every entity row has, kept by the engine; a caller may send `id` and `version` back on update. */
export const SYSTEM_FIELDS = ['id', 'version', 'createdAt', 'updatedAt', 'createdBy'] as const

const DEFAULT_MONEY_DECIMALS = 3
/** SPEC §5: freight rate numbers are capped at 10^10 with 3 decimals. */
const MONEY_LIMIT = 1e10

/**
 * Every list, object and text a caller may send is bounded (issue #17): the YAML may tighten these, and
 * the same bounds hold in the portal's forms and in the server's validation, so no body makes the work
 * of one request grow without limit.
 */
export const DEFAULT_BOUNDS = {
  /** A text field without its own maxLength. */
  maxLength: 255,
  /** A multiple choice (refs, enum values) without its own maxItems. */
  maxChoices: 100,
  /** A sub-table (type: array) without its own maxItems. */
  maxRows: 1000,
  /** A rich text without its own maxLength. */
  richTextLength: 100_000,
} as const
/** ISO 8601 date-time with fractions and offset fits well within this. */
const DATETIME_LENGTH = 40

export function isReferenceList(entities: Record<string, EntityDef>, name: string | undefined): boolean {
  return !!name && !!entities[name]?.reference
}

/**
 * The permission catalogue's names (screens/access.yaml), for `permissionTree` fields: their items are an
 * enum of these. Without it (a search parameter's schema) an item is any permission-shaped name.
 */
export type PermissionNames = readonly string[] | undefined

/** How long a permission name may be: the catalogue's are well within it. */
const PERMISSION_NAME = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$', maxLength: 64 } as const

export function fieldSchema(
  field: FieldDef,
  entities: Record<string, EntityDef>,
  permissions?: PermissionNames,
): JsonSchema {
  const one = singleFieldSchema(field, entities, permissions)
  if (field.multiple && field.type !== 'array' && field.type !== 'list' && field.type !== 'object') {
    const list: JsonSchema = { type: 'array', items: one, uniqueItems: true }
    list.maxItems = field.maxItems ?? field.maxFiles ?? DEFAULT_BOUNDS.maxChoices
    // Required means present; at least one entry unless the field says how many (`minItems: 0`: present, maybe empty).
    const least = field.minItems ?? (field.required ? 1 : undefined)
    if (least) list.minItems = least
    // The list is the field a form draws (a multiple choice): it carries the label too, or a form falls
    // back to the bare field name ("services" on the booking form).
    if (field.label) list.title = field.label
    return list
  }
  return one
}

function singleFieldSchema(
  field: FieldDef,
  entities: Record<string, EntityDef>,
  permissions: PermissionNames,
): JsonSchema {
  const s: JsonSchema = {}
  const copy = (...keys: (keyof FieldDef)[]) => {
    for (const key of keys) if (field[key] !== undefined) s[key] = field[key]
  }
  switch (field.type) {
    case 'string':
      s.type = 'string'
      s.wbText = true
      copy('minLength', 'maxLength', 'pattern', 'format')
      if (s.maxLength === undefined) s.maxLength = DEFAULT_BOUNDS.maxLength
      if (field.required && s.minLength === undefined) s.minLength = 1
      break
    case 'textBlock':
      s.type = 'string'
      s.wbText = true
      s.wbTextBlock = { lineLength: field.lineLength ?? 35, maxLines: field.maxLines ?? 7 }
      s.maxLength = (field.lineLength ?? 35) * (field.maxLines ?? 7) + (field.maxLines ?? 7) * 2
      if (field.required) s.minLength = 1
      break
    case 'richText':
      s.type = 'string'
      s.wbText = true
      s.maxLength = field.maxLength ?? DEFAULT_BOUNDS.richTextLength
      if (field.required) s.minLength = 1
      break
    case 'integer':
      s.type = 'integer'
      copy('minimum', 'maximum', 'exclusiveMinimum')
      if (s.maximum === undefined) s.maximum = 2_147_483_647
      if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -2_147_483_648
      break
    case 'number':
      s.type = 'number'
      copy('minimum', 'maximum', 'exclusiveMinimum')
      if (s.maximum === undefined) s.maximum = MONEY_LIMIT
      if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -MONEY_LIMIT
      if (field.decimals !== undefined) s.wbDecimals = field.decimals
      break
    case 'money': {
      // Exact decimals travel as strings: "1234.500". Never a float.
      const places = field.decimals ?? DEFAULT_MONEY_DECIMALS
      s.type = 'string'
      s.pattern = places ? `^-?\\d{1,10}(\\.\\d{1,${places}})?$` : '^-?\\d{1,10}$'
      s.maxLength = 12 + places
      // JSON Schema's bounds do not apply to strings: the decimal keywords compare them exactly.
      if (field.minimum !== undefined) s.wbDecimalMinimum = field.minimum
      if (field.exclusiveMinimum !== undefined) s.wbDecimalExclusiveMinimum = field.exclusiveMinimum
      if (field.maximum !== undefined) s.wbDecimalMaximum = field.maximum
      break
    }
    case 'boolean':
      s.type = 'boolean'
      // An agreement: present is not enough, it must be ticked.
      if (field.ticked) s.const = true
      break
    case 'date':
      s.type = 'string'
      s.format = 'date'
      s.maxLength = 10
      break
    case 'datetime':
      s.type = 'string'
      s.format = 'date-time'
      s.maxLength = DATETIME_LENGTH
      break
    case 'enum': {
      const values = (field.values ?? []).map((v) => v.value)
      // The type lets ajv compare a multiple enum's items as scalars (uniqueItems without its deep-equal helper).
      if (values.every((v) => typeof v === 'string')) s.type = 'string'
      else if (values.every((v) => Number.isInteger(v))) s.type = 'integer'
      s.enum = values
      break
    }
    case 'ref':
      // Reference lists (ports, carriers…) are keyed by their code; entities by id.
      if (isReferenceList(entities, field.ref)) {
        Object.assign(s, { type: 'string', minLength: 1, maxLength: 64, wbText: true })
        // A code of the list, or one of its named shape (an HS code: a subheading or a national code beginning with one).
        copy('format')
      } else Object.assign(s, { type: 'integer', minimum: 1 })
      break
    case 'file':
      Object.assign(s, { type: 'string', minLength: 1, maxLength: 128, wbText: true })
      break
    case 'permissionTree':
      // The names a role may hold, no name twice: the catalogue bounds the list.
      s.type = 'array'
      s.uniqueItems = true
      s.items = permissions ? { type: 'string', enum: [...permissions] } : { ...PERMISSION_NAME }
      s.maxItems = permissions?.length || DEFAULT_BOUNDS.maxChoices
      break
    case 'array': {
      s.type = 'array'
      s.items =
        field.of && !field.items
          ? field.of === 'json'
            ? {}
            : { type: field.of }
          : objectSchema(field.items ?? {}, entities, [], permissions)
      copy('minItems', 'maxItems')
      if (field.required && s.minItems === undefined) s.minItems = 1
      if (s.maxItems === undefined) s.maxItems = DEFAULT_BOUNDS.maxRows
      break
    }
    case 'object':
      Object.assign(s, objectSchema(entities[field.entity ?? '']?.fields ?? {}, entities, []))
      break
    case 'map':
      Object.assign(s, {
        type: 'object',
        additionalProperties: field.of === 'json' || !field.of ? {} : { type: field.of },
        maxProperties: DEFAULT_BOUNDS.maxChoices,
      })
      break
    case 'list':
      s.type = 'array'
      s.items = objectSchema(entities[field.entity ?? '']?.fields ?? {}, entities, [])
      copy('minItems', 'maxItems')
      if (s.maxItems === undefined) s.maxItems = DEFAULT_BOUNDS.maxRows
      break
  }
  if (field.default !== undefined) s.default = field.default
  if (field.label) s.title = field.label
  return s
}

function objectSchema(
  fields: Record<string, FieldDef>,
  entities: Record<string, EntityDef>,
  extra: string[],
  permissions?: PermissionNames,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const [name, field] of Object.entries(fields)) {
    if (field.readOnly) continue
    properties[name] = fieldSchema(field, entities, permissions)
    if (field.required) required.push(name)
  }
  // A field the entity declares under one of these names (a query's text `id`) keeps its own schema.
  for (const name of extra)
    if (!fields[name]) properties[name] = { type: 'integer', minimum: 1, maximum: 2_147_483_647 }
  // maxProperties says what additionalProperties: false implies, as a bound a validator checks first.
  const schema: JsonSchema = {
    type: 'object',
    properties,
    additionalProperties: false,
    maxProperties: Object.keys(properties).length,
  }
  if (required.length) schema.required = required
  return schema
}

/** The input schema of an entity, `$id` = the entity name (the validators' export names). */
export function entitySchema(
  entity: EntityDef,
  entities: Record<string, EntityDef>,
  permissions?: PermissionNames,
): JsonSchema {
  if (entity.extends && entity.stored === false)
    return { $id: entity.entity, title: entity.label, ...bodySchema(entity, entities, permissions) }
  const fields = { ...entity.fields }
  if (entity.states) delete fields[entity.states.field]
  const schema = objectSchema(fields, entities, ['id', 'version'], permissions)
  const rules = (entity.rules ?? []).map((rule): JsonSchema => {
    switch (rule.kind) {
      case 'compare':
        return { wbCompare: rule }
      case 'atLeastOne':
        return { wbAtLeastOne: rule }
      case 'sumEquals':
        return { wbSumEquals: rule }
      case 'uniqueItems':
        return { wbUniqueBy: rule }
      case 'itemsIn':
        return { wbItemsIn: rule }
      case 'requiredWhen':
        return { wbRequiredWhen: rule }
      case 'excludedWhen':
        return { wbExcludedWhen: rule }
      case 'startsWith':
        return { wbStartsWith: rule }
      case 'currencyDecimals':
        return { wbCurrencyDecimals: rule }
    }
  })
  return { $id: entity.entity, title: entity.label, ...schema, ...(rules.length ? { allOf: rules } : {}) }
}

/** What the engine keeps on a stored row and ignores in a body: sent back by a form, never set by it. */
export const IGNORED_ROW_KEYS = ['createdAt', 'updatedAt', 'createdBy', 'labels', 'history'] as const

/** A value a body may carry and the server ignores: any JSON, marked read-only. */
const IGNORED: JsonSchema = { readOnly: true, description: 'Read-only: accepted and ignored.' }

/**
 * The input schema of a body that extends an entity (resolved: its fields hold the ones it takes, named by
 * `extends.fields`): its own fields as any entity's; each taken field optional and nullable (null clears
 * it), a read-only one accepted with any value and ignored; a stored entity's id and version (null: a new
 * row) and what the engine keeps besides (IGNORED_ROW_KEYS) too. The extended entity's rules are not
 * repeated: the engine checks the whole record when the handler writes it.
 */
function bodySchema(entity: EntityDef, entities: Record<string, EntityDef>, permissions: PermissionNames): JsonSchema {
  const taken = new Set(entity.extends?.fields ?? [])
  const own = Object.fromEntries(Object.entries(entity.fields).filter(([name]) => !taken.has(name)))
  const schema = objectSchema(own, entities, [], permissions)
  const properties = schema.properties as Record<string, JsonSchema>
  for (const name of taken) properties[name] = takenSchema(entity.fields[name] as FieldDef, entities, permissions)
  if (entities[entity.extends?.entity ?? '']?.stored !== false) {
    const id = { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 }
    properties.id ??= id
    properties.version ??= id
    for (const name of IGNORED_ROW_KEYS) properties[name] ??= IGNORED
  }
  return { ...schema, maxProperties: Object.keys(properties).length }
}

/** A field a body takes: read-only, any value; else its own schema or null, a sub-table's read-only columns any. */
function takenSchema(field: FieldDef, entities: Record<string, EntityDef>, permissions: PermissionNames): JsonSchema {
  if (field.readOnly) return ignored(field)
  const schema = fieldSchema(field, entities, permissions)
  if (field.type === 'array' && field.items) {
    const row = schema.items as JsonSchema
    const columns = row.properties as Record<string, JsonSchema>
    for (const [name, column] of Object.entries(field.items)) if (column.readOnly) columns[name] = ignored(column)
    row.maxProperties = Object.keys(columns).length
  }
  return orNull(schema)
}

const ignored = (field: FieldDef): JsonSchema => ({ ...IGNORED, ...(field.label ? { title: field.label } : {}) })

/** The schema, or null. */
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type !== 'string') return { anyOf: [schema, { type: 'null' }] }
  const out: JsonSchema = { ...schema, type: [schema.type, 'null'] }
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null]
  return out
}

/**
 * The JSON Schema of what an answer carries for an entity (a custom endpoint's `response:`): every field,
 * read-only ones too, `required` ones always there, `nullable` ones possibly null, nested `object` and `list`
 * fields by `nested` (the entity's own content schema inline, unless the caller asks for a reference — the
 * types emitter names them). No `$id`, no checks of our own: it describes, it does not validate input.
 */
/** Documents the model owns that an answer may carry (`type: object, schema: overlay`), as JSON Schemas. */
export function modelSchema(name: NonNullable<FieldDef['schema']>): JsonSchema {
  const {
    $schema: _schema,
    $id: _id,
    title: _title,
    description: _description,
    ...schema
  } = overlaySchema as JsonSchema
  return name === 'overlay' ? schema : {}
}

export function contentSchema(
  entity: EntityDef,
  entities: Record<string, EntityDef>,
  nested: (name: string) => JsonSchema = (name) =>
    name.startsWith('schema:')
      ? modelSchema(name.slice(7) as 'overlay')
      : contentSchema(entities[name] as EntityDef, entities, nested),
  /** Any JSON value (a `map` of `json`): no constraint; the types emitter names it. */
  json: JsonSchema = {},
): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const [name, field] of Object.entries(entity.fields)) {
    properties[name] = contentField(field, entities, nested, json)
    if (field.required) required.push(name)
  }
  return { type: 'object', properties, additionalProperties: false, ...(required.length ? { required } : {}) }
}

/** JSON Schema's own formats an answer's schema may name. */
const STANDARD_FORMATS = ['date', 'date-time', 'email', 'uri']

function contentField(
  field: FieldDef,
  entities: Record<string, EntityDef>,
  nested: (name: string) => JsonSchema,
  json: JsonSchema,
): JsonSchema {
  let s: JsonSchema
  if (field.type === 'object') s = nested(field.schema ? `schema:${field.schema}` : (field.entity as string))
  else if (field.type === 'list') s = { type: 'array', items: nested(field.entity as string) }
  else if (field.type === 'map')
    s = {
      type: 'object',
      additionalProperties: field.entity
        ? nested(field.entity)
        : !field.of || field.of === 'json'
          ? json
          : { type: field.of },
    }
  else if (field.type === 'array' && field.of && !field.items)
    s = { type: 'array', items: field.of === 'json' ? json : { type: field.of } }
  else if (field.type === 'array') {
    const rows = { entity: '', label: '', fields: field.items ?? {} }
    s = { type: 'array', items: contentSchema(rows, entities, nested, json) }
  } else {
    // The input schema's type and format; its bounds and our keywords say nothing about an answer.
    const input = fieldSchema({ ...field, required: false, default: undefined, label: undefined }, entities)
    const one = (input.type === 'array' ? input.items : input) as JsonSchema
    // A format JSON Schema names (a date, an email) says what the value is; ours (rules/formats.ts: unlocode,
    // isoContainer…) are checks of input, unknown to a reader of the answer's schema.
    const keep = (schema: JsonSchema): JsonSchema =>
      Object.fromEntries(
        Object.entries(schema).filter(
          ([key, value]) =>
            ['type', 'enum'].includes(key) || (key === 'format' && STANDARD_FORMATS.includes(value as string)),
        ),
      )
    s = input.type === 'array' ? { type: 'array', items: keep(one) } : keep(input)
  }
  if (!field.nullable) return s
  if (typeof s.type === 'string' && !s.enum) return { ...s, type: [s.type, 'null'] }
  return { anyOf: [s, { type: 'null' }] }
}
