import {
  type AccessDef,
  type AreaDef,
  type ContentShape,
  type CustomEndpointDef,
  contentShape,
  type EndpointKind,
  type EntityDef,
  type FieldDef,
  type ImportSheets,
  type ListTabs,
  type PermissionList,
  type RuleDef,
  responseOf,
  type ScreenDef,
} from './definitions.ts'
import { entitySchema, type JsonSchema } from './jsonschema.ts'
import type { Sources } from './sources.ts'

export interface ManifestEntity extends EntityDef {
  /** false: a request or view shape with no table of its own. */
  stored: boolean
  table: string
  scope: 'tenant' | 'global'
  /** The input JSON Schema, `$id` = entity name. */
  schema: JsonSchema
}

export interface ManifestScreen extends Omit<ScreenDef, 'permission'> {
  area: string
  layout: NonNullable<ScreenDef['layout']>
  /** Any one of these lets a user in; empty = no permission needed. */
  permissions: string[]
  /** Detail and form screens: show the record's history. */
  history?: boolean
}

export interface ManifestEndpoint {
  /** `<screen>.<kind>` of the first screen that binds it, `<entity>.transition`, or a custom endpoint's name. */
  id: string
  kind: EndpointKind | 'transition' | 'custom'
  /** The entity stored or, for custom endpoints, the request body's entity (may be empty). */
  entity: string
  /** Custom endpoints: what the answer's content is (an entity, a list or a page of one, binary, none). */
  content?: ContentShape
  /** Custom endpoints: the entity the content is shaped like (itself, or an item of its list or page). */
  response?: string
  summary?: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Below the /api gateway prefix. */
  path: string
  /** Any one of these allows the call (for transitions, each transition's own permission is checked too). */
  permissions: string[]
  public: boolean
  /** A signed-in session only: an API key is refused (issue #29). */
  sessionOnly?: boolean
  /** The code a caller without `permissions` is answered, where the SPEC names its own (CustomEndpointDef.refusal). */
  refusal?: string
  /** A standard's document answered with another success status than its method's (CustomEndpointDef.status). */
  status?: 200 | 201 | 204
  screens: string[]
  /** For list and export endpoints: the search parameters and their operators, from the screens that bind it. */
  search?: ScreenDef['search']
  /** For a list endpoint a screen with tabs binds: the counts its answer carries, by the field's values. */
  tabs?: ListTabs
  /** A fixed condition of the binding (field → allowed values): rows outside it are not found. */
  filter?: Record<string, (string | number | boolean)[]>
  /** An import's parameters besides the file (an entity, stored: false): set on every imported row. */
  input?: string
  /** An import whose array fields come on sheets of their own, each row naming its record by `key`. */
  sheets?: ImportSheets
  /** Another method and path of the endpoint with this id: the same input, answer, access and code. */
  servedAs?: string
  /** A custom endpoint that fires this transition of the entity's state machine (its engine does the work). */
  fires?: { entity: string; name: string }
}

export interface Manifest {
  version: 1
  areas: { name: string; label: string; menu: AreaDef['menu'] }[]
  entities: Record<string, ManifestEntity>
  screens: ManifestScreen[]
  endpoints: ManifestEndpoint[]
  permissions: AccessDef['permissions']
  roles: Record<string, { label: string; companyUserType: 1 | 2 | 3; dataScope: 'all' | 'self'; permissions: string[] }>
}

const asList = (p: PermissionList | undefined): string[] => (p === undefined ? [] : Array.isArray(p) ? p : [p])
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

/** Builds the manifest from validated sources. Pure, and deterministic: every list has a defined order. */
export function resolveManifest(sources: Sources): Manifest {
  const entityDefs: Record<string, EntityDef> = {}
  for (const file of sources.files)
    if (file.kind === 'entity') entityDefs[(file.data as EntityDef).entity] = file.data as EntityDef
  // The catalogue first: a permissionTree field's schema is an enum of its names.
  const access = sources.files.find((f) => f.kind === 'access')?.data as AccessDef | undefined
  const permissions = access?.permissions ?? {}
  const allPermissions = Object.keys(permissions).sort()
  const entities: Record<string, ManifestEntity> = {}
  const stated = Object.fromEntries(Object.entries(entityDefs).map(([name, def]) => [name, withStateField(def)]))
  for (const name of Object.keys(entityDefs).sort()) {
    const def = withInherited(stated[name] as EntityDef, stated)
    entities[name] = {
      ...def,
      stored: def.stored ?? true,
      table: def.storage?.table ?? snake(name),
      scope: def.scope ?? 'tenant',
      schema: entitySchema(def, entityDefs, allPermissions),
    }
  }

  const roles: Manifest['roles'] = {}
  for (const [name, role] of Object.entries(access?.roles ?? {})) {
    roles[name] = { ...role, permissions: role.permissions === '*' ? allPermissions : [...role.permissions].sort() }
  }

  const areaFiles = sources.files.filter((f) => f.kind === 'screens').map((f) => f.data as AreaDef)
  areaFiles.sort((a, b) => (a.menu?.order ?? 1000) - (b.menu?.order ?? 1000) || a.area.localeCompare(b.area))
  const areas = areaFiles.map((a) => ({ name: a.area, label: a.label, menu: a.menu ?? { place: 'workbench' } }))
  const screens: ManifestScreen[] = []
  for (const area of areaFiles) {
    for (const screen of area.screens) {
      const { permission, ...rest } = screen
      screens.push({
        ...rest,
        area: area.area,
        layout:
          screen.layout ?? (screen.access === 'public' ? 'site' : screen.access === 'open' ? 'main' : 'workbench'),
        permissions: asList(permission),
        ...(screen.search ? { search: withRangeParams(screen.search) } : {}),
        paging:
          screen.kind === 'list' ? { pageSize: 10, pageSizes: [10, 20, 50, 100], ...screen.paging } : screen.paging,
      })
    }
  }

  const byKey = new Map<string, ManifestEndpoint>()
  const aliases: CustomEndpointDef[] = []
  for (const area of areaFiles) {
    for (const custom of area.endpoints ?? []) {
      if (custom.servedAs) {
        aliases.push(custom)
        continue
      }
      const content = contentShape(responseOf(custom))
      byKey.set(`${custom.method} ${custom.path}`, {
        id: custom.name,
        kind: 'custom',
        entity: custom.body ?? '',
        ...(content ? { content } : {}),
        ...(content && 'entity' in content ? { response: content.entity } : {}),
        summary: custom.summary,
        method: custom.method,
        path: custom.path,
        permissions: asList(custom.permission ?? transitionPermission(custom, entityDefs)).sort(),
        public: custom.public ?? false,
        ...(custom.sessionOnly ? { sessionOnly: true } : {}),
        ...(custom.refusal ? { refusal: custom.refusal } : {}),
        ...(custom.status ? { status: custom.status } : {}),
        screens: [],
        ...(custom.transition ? { fires: custom.transition } : {}),
      })
    }
  }
  for (const screen of screens) {
    for (const [kind, binding] of Object.entries(screen.endpoints ?? {}) as [
      EndpointKind,
      NonNullable<ScreenDef['endpoints']>[EndpointKind],
    ][]) {
      if (!binding || !screen.entity) continue
      const key = `${binding.method} ${binding.path}`
      const isPublic = binding.public ?? (screen.access !== 'permission' && binding.permission === undefined)
      const perms = binding.permission !== undefined ? asList(binding.permission) : isPublic ? [] : screen.permissions
      const existing = byKey.get(key)
      if (existing?.kind === 'custom') {
        // The screen uses a hand-written endpoint: its handler, its declared access.
        existing.screens.push(screen.name)
        continue
      }
      if (existing) {
        if (JSON.stringify(existing.filter) !== JSON.stringify(binding.filter))
          throw new Error(`${screen.name}: ${key} is bound elsewhere with another filter`)
        existing.permissions = [...new Set([...existing.permissions, ...perms])].sort()
        existing.screens.push(screen.name)
        if ((kind === 'list' || kind === 'export') && screen.search)
          existing.search = mergeSearch(existing.search, withRangeParams(screen.search))
        continue
      }
      byKey.set(key, {
        id: `${screen.name}.${kind}`,
        kind,
        entity: screen.entity,
        method: binding.method,
        path: binding.path,
        permissions: [...perms].sort(),
        public: isPublic,
        screens: [screen.name],
        ...(kind === 'list' || kind === 'export' ? { search: withRangeParams(screen.search ?? []) } : {}),
        ...(kind === 'list' && screen.tabs ? { tabs: screen.tabs } : {}),
        ...(binding.filter ? { filter: binding.filter } : {}),
        ...(binding.input ? { input: binding.input } : {}),
        ...(binding.sheets ? { sheets: importSheets(screen, binding.sheets, entityDefs) } : {}),
      })
    }
  }
  // The SPEC's other method or path of an endpoint declared above: a copy under its own name, method and path.
  for (const alias of aliases) {
    const target = [...byKey.values()].find((e) => e.id === alias.servedAs)
    if (!target) throw new Error(`endpoint ${alias.name}: servedAs ${alias.servedAs} names no endpoint`)
    byKey.set(`${alias.method} ${alias.path}`, {
      ...structuredClone(target),
      id: alias.name,
      summary: alias.summary,
      method: alias.method,
      path: alias.path,
      servedAs: target.servedAs ?? target.id,
    })
  }
  // One transition endpoint per entity whose state machine a bound screen can drive.
  const bound = new Set([...byKey.values()].filter((e) => e.kind !== 'custom').map((e) => e.entity))
  for (const name of [...bound].sort()) {
    const entity = entities[name]
    if (!entity?.states) continue
    // A transition the engine fires on an update (`onUpdate: true`) is no call's: its permission opens nothing here.
    const callable = Object.values(entity.states.transitions).filter((t) => !t.onUpdate)
    const perms = [...new Set(callable.map((t) => t.permission))].sort()
    byKey.set(`POST /${name}/transition`, {
      id: `${name}.transition`,
      kind: 'transition',
      entity: name,
      method: 'POST',
      path: `/${name}/transition`,
      permissions: perms,
      public: false,
      screens: screens.filter((s) => s.entity === name).map((s) => s.name),
    })
  }
  const endpoints = [...byKey.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  return { version: 1, areas, entities, screens, endpoints, permissions, roles }
}

/**
 * The entities answers are shaped like: every custom endpoint's response entity, the entity of every engine
 * call that answers rows (list, detail, create, update, transition), and the entities nested in them.
 */
const ROW_ANSWERS = new Set<ManifestEndpoint['kind']>(['list', 'detail', 'create', 'update', 'transition'])

export function answerEntities(endpoints: ManifestEndpoint[], entities: Record<string, EntityDef>): string[] {
  const found = new Set<string>()
  const visit = (name: string) => {
    const entity = entities[name]
    if (found.has(name) || !entity) return
    found.add(name)
    const walk = (fields: EntityDef['fields']) => {
      for (const field of Object.values(fields)) {
        if (field.entity) visit(field.entity)
        if (field.items) walk(field.items)
      }
    }
    walk(entity.fields)
  }
  for (const endpoint of endpoints) {
    if (endpoint.content && 'entity' in endpoint.content) visit(endpoint.content.entity)
    if (ROW_ANSWERS.has(endpoint.kind)) visit(endpoint.entity)
  }
  return [...found].sort()
}

function mergeSearch(a: ScreenDef['search'] = [], b: ScreenDef['search'] = []): ScreenDef['search'] {
  const seen = new Set(a.map((s) => `${s.field}:${s.op}`))
  return [...a, ...b.filter((s) => !seen.has(`${s.field}:${s.op}`))]
}

/**
 * An entity that extends another (`extends:`) with the fields it takes, all of them unless it names some;
 * `extends.fields` names every one taken. Its own fields come after them.
 * - A body (stored: false): each taken field optional, nullable (null clears the field), no default (a
 *   partial row leaves out what it does not change).
 * - A stored entity (a record of another's data: the enterprise application keeps the enterprise's fields):
 *   each taken field as the other declares it, required and default included, and the other's cross-field
 *   rules that read only taken fields before its own. The rules are written once.
 */
export function withInherited(def: EntityDef, defs: Record<string, EntityDef>): EntityDef {
  if (!def.extends) return def
  const base = defs[def.extends.entity]
  if (!base) throw new Error(`${def.entity} extends ${def.extends.entity}, which is no entity`)
  const names = def.extends.fields ?? Object.keys(base.fields)
  if (def.stored !== false) {
    const taken = names.flatMap((name) => (base.fields[name] ? [[name, base.fields[name] as FieldDef] as const] : []))
    const rules = (base.rules ?? []).filter((rule) => ruleFields(rule).every((f) => names.includes(f)))
    const all = [...rules, ...(def.rules ?? [])]
    return {
      ...def,
      extends: { entity: def.extends.entity, fields: names },
      fields: { ...Object.fromEntries(taken), ...def.fields },
      ...(all.length ? { rules: all } : {}),
    }
  }
  // With partialRows, a sub-table's rows leave out what they do not know: each column optional.
  const partial = (field: FieldDef): FieldDef =>
    def.extends?.partialRows && field.type === 'array' && field.items
      ? {
          ...field,
          items: Object.fromEntries(
            Object.entries(field.items).map(([column, { required: _r, default: _d, ...rest }]) => [column, rest]),
          ),
        }
      : field
  const taken = names.map((name) => {
    const { required: _required, default: _default, ...field } = base.fields[name] as FieldDef
    return [name, field.readOnly ? field : { ...partial(field), nullable: true }] as const
  })
  return {
    ...def,
    extends: {
      entity: def.extends.entity,
      fields: names,
      ...(def.extends.partialRows ? { partialRows: true } : {}),
    },
    fields: { ...Object.fromEntries(taken), ...def.fields },
  }
}

/** The fields a cross-field rule reads. */
export function ruleFields(rule: RuleDef): string[] {
  switch (rule.kind) {
    case 'compare':
    case 'startsWith':
      return [rule.field, rule.other]
    case 'atLeastOne':
      return rule.fields
    case 'sumEquals':
      return [rule.field, rule.of]
    case 'uniqueItems':
      return [rule.field]
    case 'itemsIn':
      return [rule.field, rule.of]
    case 'requiredWhen':
    case 'excludedWhen':
      return [rule.field, rule.when.field]
    case 'currencyDecimals':
      return rule.item ? [rule.field] : [rule.field, rule.currency]
  }
}

/** The state machine's field is an enum of its states, read-only: only transitions change it. */
function withStateField(def: EntityDef): EntityDef {
  if (!def.states) return def
  const { field, values } = def.states
  const declared = def.fields[field]
  return {
    ...def,
    fields: {
      ...def.fields,
      [field]: {
        ...declared,
        type: 'enum',
        readOnly: true,
        label: declared?.label ?? `field.${field}`,
        values: Object.entries(values).map(([value, v]) => ({ value, label: v.label })),
      },
    },
  }
}

/** An endpoint that fires a transition needs that transition's permission unless it says otherwise. */
function transitionPermission(custom: CustomEndpointDef, defs: Record<string, EntityDef>): PermissionList | undefined {
  if (!custom.transition) return undefined
  const transition = defs[custom.transition.entity]?.states?.transitions[custom.transition.name]
  if (!transition)
    throw new Error(`endpoint ${custom.name}: ${custom.transition.entity} has no transition ${custom.transition.name}`)
  return transition.permission
}

/** Range operators always name their two searchParams keys in the manifest: `<field>Begin` and `<field>End` unless the YAML says. */
function withRangeParams(search: NonNullable<ScreenDef['search']>): NonNullable<ScreenDef['search']> {
  return search.map((s) =>
    (s.op === 'between' || s.op === 'dateRange') && !s.params
      ? { ...s, params: [`${s.field}Begin`, `${s.field}End`] }
      : s,
  )
}

/**
 * An import's sheets, checked against its entity: the key a plain field of it, each item sheet an array field.
 * A mistake stops the build with the screen and what to write instead.
 */
function importSheets(screen: ScreenDef, sheets: ImportSheets, entities: Record<string, EntityDef>): ImportSheets {
  const fields = (screen.entity ? entities[screen.entity]?.fields : undefined) ?? {}
  const key = fields[sheets.key]
  if (!key || key.type === 'array' || key.type === 'file')
    throw new Error(`${screen.name}: import sheets.key ${sheets.key} must be a plain field of ${screen.entity}`)
  for (const item of sheets.items)
    if (fields[item]?.type !== 'array')
      throw new Error(`${screen.name}: import sheets.items ${item} must be an array field of ${screen.entity}`)
  return { key: sheets.key, items: [...sheets.items] }
}
