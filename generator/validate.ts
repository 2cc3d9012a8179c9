import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { _, type ErrorObject, type ValidateFunction } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import standaloneCode from 'ajv/dist/standalone/index.js'
import addFormats from 'ajv-formats'
import type { AccessDef, AreaDef, EntityDef, FieldDef, PermissionList, ScreenDef } from '../model/definitions.ts'
import { SYSTEM_FIELDS } from '../model/jsonschema.ts'
import { COMPONENTS, WIDGETS } from '../model/registries.ts'
import { type ConfigError, didYouMean, formatPath, listOf } from './errors.ts'
import { LANGUAGES, locate, type SourceFile, type Sources } from './load.ts'

type Path = (string | number)[]

const META = ['entity', 'screens', 'access'] as const
let metaValidators: Record<(typeof META)[number], ValidateFunction> | undefined

export function metaSchema(kind: (typeof META)[number]): Record<string, unknown> {
  const file = fileURLToPath(new URL(`./meta/${kind}.schema.json`, import.meta.url))
  return JSON.parse(readFileSync(file, 'utf8'))
}

/**
 * The meta-schema validators. Compiling them costs a fifth of a second, more than the rest of a check,
 * so the compiled code is cached under node_modules/.cache/waybill, keyed by the meta-schemas' hash.
 */
function validators() {
  if (metaValidators) return metaValidators
  const schemas = Object.fromEntries(META.map((kind) => [kind, metaSchema(kind)])) as Record<
    (typeof META)[number],
    object
  >
  const hash = createHash('sha256').update(JSON.stringify(schemas)).digest('hex').slice(0, 16)
  const cacheFile = fileURLToPath(new URL(`../node_modules/.cache/waybill/meta-${hash}.cjs`, import.meta.url))
  const require = createRequire(import.meta.url)
  if (!existsSync(cacheFile)) {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      verbose: true,
      schemas: META.map((kind) => ({ ...schemas[kind], $id: kind })),
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    })
    addFormats.default(ajv)
    try {
      mkdirSync(dirname(cacheFile), { recursive: true })
      writeFileSync(cacheFile, standaloneCode(ajv, { entity: 'entity', screens: 'screens', access: 'access' }))
    } catch {
      // A read-only tree: compile in memory every time.
      metaValidators = {
        entity: ajv.getSchema('entity'),
        screens: ajv.getSchema('screens'),
        access: ajv.getSchema('access'),
      } as never
      return metaValidators as NonNullable<typeof metaValidators>
    }
  }
  metaValidators = require(cacheFile)
  return metaValidators as NonNullable<typeof metaValidators>
}

const pointerToPath = (pointer: string): Path =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))

/** Keeps only the errors of the `oneOf` branch the author meant (the one whose `kind` matched). */
function pruneOneOf(errors: ErrorObject[]): ErrorObject[] {
  const keep: ErrorObject[] = []
  const oneOfAt = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath))
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'oneOf') continue
    const owner = [...oneOfAt].find((p) => error.instancePath.startsWith(p) && /\/oneOf\/\d+\//.test(error.schemaPath))
    if (owner !== undefined) {
      const branch = /\/oneOf\/(\d+)\//.exec(error.schemaPath)?.[1]
      const constFailed = errors.some(
        (e) => e.instancePath.startsWith(owner) && e.keyword === 'const' && e.schemaPath.includes(`/oneOf/${branch}/`),
      )
      if (constFailed) continue
    }
    keep.push(error)
  }
  // A value that is neither a string nor a list (permissionList): one message is enough.
  return keep.filter(
    (e, i) => keep.findIndex((o) => o.instancePath === e.instancePath && o.keyword === e.keyword) === i,
  )
}

function metaErrors(file: SourceFile): ConfigError[] {
  const validate = validators()[file.kind]
  if (validate(file.data)) return []
  return pruneOneOf(validate.errors ?? []).map((e) => {
    const path = pointerToPath(e.instancePath)
    const at = (extra: string) => locate(file, [...path, extra])
    switch (e.keyword) {
      case 'additionalProperties': {
        const name = String(e.params.additionalProperty)
        const allowed = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {})
        const guess = didYouMean(name, allowed)
        return {
          file: file.path,
          ...at(name),
          path: formatPath([...path, name]),
          message: `unknown property "${name}"`,
          expected: allowed.length ? `one of ${listOf(allowed, 30)}` : undefined,
          fix: guess ? `did you mean "${guess}"?` : 'remove it',
        }
      }
      case 'required': {
        const name = String(e.params.missingProperty)
        return {
          file: file.path,
          ...locate(file, path),
          path: formatPath(path),
          message: `missing required property "${name}"`,
          fix: `add ${name}:`,
        }
      }
      case 'enum':
        return {
          file: file.path,
          ...locate(file, path),
          path: formatPath(path),
          message: `${JSON.stringify(valueAt(file.data, path))} is not allowed here`,
          expected: `one of ${listOf((e.params.allowedValues as unknown[]).map(String), 30)}`,
          fix: suggestion(valueAt(file.data, path), (e.params.allowedValues as unknown[]).map(String)),
        }
      default:
        return {
          file: file.path,
          ...locate(file, path),
          path: formatPath(path),
          message: `${e.message ?? 'invalid'}${e.keyword === 'pattern' ? ` (found ${JSON.stringify(valueAt(file.data, path))})` : ''}`,
          expected: (e.parentSchema as { description?: string })?.description,
        }
    }
  })
}

function suggestion(value: unknown, options: Iterable<string>): string | undefined {
  const guess = typeof value === 'string' ? didYouMean(value, options) : undefined
  return guess ? `did you mean "${guess}"?` : undefined
}

function valueAt(data: unknown, path: Path): unknown {
  let node = data as Record<string | number, unknown> | undefined
  for (const step of path) node = node?.[step] as Record<string | number, unknown> | undefined
  return node
}

const asList = (p: PermissionList | undefined): string[] => (p === undefined ? [] : Array.isArray(p) ? p : [p])

/**
 * Checks the whole configuration: each file against its meta-schema, then every cross-reference.
 * Reports every error it finds in one run.
 */
export function validateSources(sources: Sources): ConfigError[] {
  const errors: ConfigError[] = sources.problems.map((p) => ({
    file: p.path,
    line: p.line,
    col: p.col,
    path: '',
    message: p.message,
  }))
  const valid = sources.files.filter((file) => {
    const found = metaErrors(file)
    errors.push(...found)
    return found.length === 0
  })

  const entityFiles = valid.filter((f) => f.kind === 'entity')
  const areaFiles = valid.filter((f) => f.kind === 'screens')
  const accessFiles = valid.filter((f) => f.kind === 'access')
  const entities: Record<string, EntityDef> = {}
  const entityFile: Record<string, SourceFile> = {}
  const err = (file: SourceFile, path: Path, message: string, expected?: string, fix?: string): void => {
    errors.push({ file: file.path, ...locate(file, path), path: formatPath(path), message, expected, fix })
  }

  for (const file of entityFiles) {
    const def = file.data as EntityDef
    const stem = file.path.replace(/^.*\//, '').replace(/\.ya?ml$/, '')
    if (def.entity !== stem)
      err(
        file,
        ['entity'],
        `entity "${def.entity}" is in a file named ${stem}.yaml`,
        undefined,
        `rename the file to ${def.entity}.yaml or the entity to ${stem}`,
      )
    if (entities[def.entity])
      err(file, ['entity'], `entity "${def.entity}" is defined twice (also in ${entityFile[def.entity]?.path})`)
    entities[def.entity] = def
    entityFile[def.entity] = file
  }

  // Access: permissions and roles.
  const permissions = new Set<string>()
  if (accessFiles.length === 0) {
    errors.push({
      file: 'screens/access.yaml',
      line: 1,
      col: 1,
      path: '',
      message: 'the permission catalogue is missing',
      fix: 'create screens/access.yaml with permissions: and roles:',
    })
  }
  for (const file of accessFiles.slice(1))
    err(
      file,
      [],
      `a second permission catalogue (the first is ${accessFiles[0]?.path})`,
      undefined,
      'merge it into one file',
    )
  const access = accessFiles[0]?.data as AccessDef | undefined
  for (const name of Object.keys(access?.permissions ?? {})) permissions.add(name)
  const checkPermission = (file: SourceFile, path: Path, name: string) => {
    if (!permissions.has(name))
      err(
        file,
        path,
        `unknown permission "${name}"`,
        'a permission of screens/access.yaml',
        suggestion(name, permissions) ?? `add ${name} to screens/access.yaml permissions`,
      )
  }
  if (access && accessFiles[0]) {
    for (const [role, def] of Object.entries(access.roles)) {
      if (def.permissions === '*') continue
      def.permissions.forEach((p, i) =>
        checkPermission(accessFiles[0] as SourceFile, ['roles', role, 'permissions', i], p),
      )
    }
  }

  // Entities: references, widgets, rules, states, examples' shape.
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    const checkFields = (fields: Record<string, FieldDef>, base: Path) => {
      for (const [name, field] of Object.entries(fields)) {
        const at = [...base, name]
        if (field.type === 'ref' && !field.ref)
          err(
            file,
            [...at, 'type'],
            'a ref field needs ref:',
            'the name of an entity or reference list',
            'add ref: port (for example)',
          )
        if (field.ref && !entities[field.ref])
          err(
            file,
            [...at, 'ref'],
            `unknown entity or reference list "${field.ref}"`,
            `one of ${listOf(Object.keys(entities).sort(), 40)}`,
            suggestion(field.ref, Object.keys(entities)) ?? `create schemas/${field.ref}.yaml`,
          )
        const isStateField = base.length === 1 && def.states?.field === name
        if (field.type === 'enum' && !field.values && !isStateField)
          err(
            file,
            [...at, 'type'],
            'an enum field needs values:',
            'a list of { value, label } (the state field takes its values from states:)',
          )
        if (field.type === 'array' && !field.items)
          err(file, [...at, 'type'], 'an array field needs items:', 'the fields of one row')
        if (field.widget && !(WIDGETS as readonly string[]).includes(field.widget))
          err(
            file,
            [...at, 'widget'],
            `unknown widget "${field.widget}"`,
            `one of ${listOf(WIDGETS, 30)}`,
            suggestion(field.widget, WIDGETS),
          )
        if (field.items) checkFields(field.items, [...at, 'items'])
      }
    }
    checkFields(def.fields, ['fields'])
    if (def.display && !def.fields[def.display])
      err(
        file,
        ['display'],
        `unknown field "${def.display}"`,
        `a field of ${def.entity}`,
        suggestion(def.display, Object.keys(def.fields)),
      )
    const fieldNames = Object.keys(def.fields)
    const needField = (path: Path, name: string, within = def.fields, what = def.entity) => {
      if (!within[name])
        err(
          file,
          path,
          `unknown field "${name}" of ${what}`,
          `one of ${listOf(Object.keys(within), 30)}`,
          suggestion(name, Object.keys(within)),
        )
    }
    ;(def.rules ?? []).forEach((rule, i) => {
      const at: Path = ['rules', i]
      switch (rule.kind) {
        case 'compare':
          needField([...at, 'field'], rule.field)
          needField([...at, 'other'], rule.other)
          break
        case 'atLeastOne':
          rule.fields.forEach((f, j) => needField([...at, 'fields', j], f))
          break
        case 'requiredWhen':
          needField([...at, 'field'], rule.field)
          needField([...at, 'when', 'field'], rule.when.field)
          break
        case 'excludedWhen': {
          // Every value named must be one the field can take, or the rule could never fire.
          const needValues = (path: Path, name: string, values: readonly (string | number)[]) => {
            const allowed = def.fields[name]?.values?.map((v) => v.value)
            if (!allowed) return
            values.forEach((value, j) => {
              if (!allowed.includes(value))
                err(
                  file,
                  [...path, j],
                  `"${value}" is not a value of ${def.entity}.${name}`,
                  `one of ${listOf(allowed.map(String), 30)}`,
                )
            })
          }
          needField([...at, 'field'], rule.field)
          needField([...at, 'when', 'field'], rule.when.field)
          needValues([...at, 'values'], rule.field, rule.values)
          needValues([...at, 'when', 'includesAny'], rule.when.field, rule.when.includesAny)
          break
        }
        case 'sumEquals':
        case 'uniqueItems': {
          const arrayName = rule.kind === 'sumEquals' ? rule.of : rule.field
          needField([...at, rule.kind === 'sumEquals' ? 'of' : 'field'], arrayName)
          const array = def.fields[arrayName]
          if (array && array.type !== 'array')
            err(
              file,
              [...at, rule.kind === 'sumEquals' ? 'of' : 'field'],
              `"${arrayName}" is not an array field`,
              'a field of type: array',
            )
          if (rule.kind === 'sumEquals') {
            needField([...at, 'field'], rule.field)
            if (array?.items) needField([...at, 'item'], rule.item, array.items, `${def.entity}.${arrayName}`)
          } else if (array?.items)
            rule.by.forEach((b, j) =>
              needField([...at, 'by', j], b, array.items as Record<string, FieldDef>, `${def.entity}.${arrayName}`),
            )
          break
        }
      }
    })
    if (def.states) {
      const states = Object.keys(def.states.values)
      const needState = (path: Path, name: string) => {
        if (!def.states?.values[name])
          err(file, path, `unknown state "${name}"`, `one of ${listOf(states)}`, suggestion(name, states))
      }
      needState(['states', 'initial'], def.states.initial)
      for (const [i, name] of (def.states.deletableIn ?? []).entries()) needState(['states', 'deletableIn', i], name)
      const stateField = def.fields[def.states.field]
      if (stateField && stateField.type !== 'string' && stateField.type !== 'enum')
        err(
          file,
          ['fields', def.states.field, 'type'],
          'the state field must be a string or enum',
          'type: enum (or leave the field out: the state machine adds it)',
        )
      for (const [name, t] of Object.entries(def.states.transitions)) {
        t.from.forEach((s, i) => needState(['states', 'transitions', name, 'from', i], s))
        needState(['states', 'transitions', name, 'to'], t.to)
        checkPermission(file, ['states', 'transitions', name, 'permission'], t.permission)
      }
    }
    for (const [i, index] of (def.storage?.indexes ?? []).entries()) {
      index.fields.forEach((f, j) => {
        if (!def.fields[f] && !(SYSTEM_FIELDS as readonly string[]).includes(f) && f !== def.states?.field)
          needField(['storage', 'indexes', i, 'fields', j], f)
      })
      const field = def.fields[index.fields[0] as string]
      if (index.method === 'gin' && (index.unique || index.fields.length !== 1 || field?.type !== 'array'))
        err(
          file,
          ['storage', 'indexes', i, 'method'],
          'a gin index finds the rows whose list holds a value: one list field (type: array), not unique',
          `{ fields: [<a list field>], method: gin }`,
        )
    }
    void fieldNames
  }

  // Screens: names, routes, permissions, entities, fields, links, actions, components.
  const screenAt = new Map<string, { file: SourceFile; path: Path }>()
  const routeAt = new Map<string, string>()
  const endpointAt = new Map<string, string>()
  for (const file of areaFiles) {
    const area = file.data as AreaDef
    area.screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      const previous = screenAt.get(screen.name)
      if (previous)
        err(
          file,
          [...at, 'name'],
          `screen name "${screen.name}" is defined twice (also ${previous.file.path}:${locate(previous.file, [...previous.path, 'name']).line})`,
          'a unique route name',
          'rename one of them',
        )
      else screenAt.set(screen.name, { file, path: at })
      const routeKey = screen.route
      const routeOwner = routeAt.get(routeKey)
      if (routeOwner)
        err(
          file,
          [...at, 'route'],
          `route ${screen.route} is defined twice (also by screen ${routeOwner})`,
          'each path once',
          'merge the two screens; list both permissions in one screen',
        )
      else routeAt.set(routeKey, screen.name)
    })
  }
  const screenNames = [...screenAt.keys()]
  for (const file of areaFiles) {
    const area = file.data as AreaDef
    area.screens.forEach((screen: ScreenDef, i) => {
      const at: Path = ['screens', i]
      asList(screen.permission).forEach((p, j) =>
        checkPermission(file, Array.isArray(screen.permission) ? [...at, 'permission', j] : [...at, 'permission'], p),
      )
      if (screen.access !== 'permission' && screen.permission === undefined && screen.layout === 'workbench') {
        // An open workbench page is allowed, but rare enough to say nothing.
      }
      if (screen.component && !(COMPONENTS as readonly string[]).includes(screen.component))
        err(
          file,
          [...at, 'component'],
          `unknown component "${screen.component}"`,
          `a component registered in the runtime: ${listOf(COMPONENTS, 40)}`,
          suggestion(screen.component, COMPONENTS) ?? 'register it in model/registries.ts and runtime/registry.ts',
        )
      if (screen.redirect && !screenAt.has(screen.redirect))
        err(
          file,
          [...at, 'redirect'],
          `unknown screen "${screen.redirect}"`,
          'a screen name',
          suggestion(screen.redirect, screenNames),
        )
      const entity = screen.entity ? entities[screen.entity] : undefined
      if (screen.entity && !entity)
        err(
          file,
          [...at, 'entity'],
          `unknown entity "${screen.entity}"`,
          `one of ${listOf(Object.keys(entities).sort(), 40)}`,
          suggestion(screen.entity, Object.keys(entities)) ?? `create schemas/${screen.entity}.yaml`,
        )
      const known = entity
        ? [...Object.keys(entity.fields), ...SYSTEM_FIELDS, ...(entity.states ? [entity.states.field] : [])]
        : []
      const needField = (path: Path, name: string) => {
        if (entity && !known.includes(name))
          err(
            file,
            path,
            `unknown field "${name}" of entity ${entity.entity}`,
            `one of ${listOf(known, 30)}`,
            suggestion(name, known)
              ? `did you mean "${suggestion(name, known)?.replace(/^did you mean "|"\?$/g, '')}"?`
              : `add ${name} to schemas/${entity.entity}.yaml`,
          )
      }
      screen.columns?.forEach((c, j) => {
        needField([...at, 'columns', j, 'field'], c.field)
        const needScreens = (path: (string | number)[], choice: string | string[]) =>
          (Array.isArray(choice) ? choice : [choice]).forEach((target, k) => {
            if (!screenAt.has(target))
              err(
                file,
                Array.isArray(choice) ? [...path, k] : path,
                `unknown screen "${target}"`,
                'a screen name',
                suggestion(target, screenNames),
              )
          })
        if (c.link) needScreens([...at, 'columns', j, 'link'], c.link)
        if (c.linkBy) {
          needField([...at, 'columns', j, 'linkBy', 'field'], c.linkBy.field)
          for (const [value, target] of Object.entries(c.linkBy.routes))
            needScreens([...at, 'columns', j, 'linkBy', 'routes', value], target)
        }
      })
      screen.search?.forEach((s, j) => {
        needField([...at, 'search', j, 'field'], s.field)
        if ((s.op === 'between' || s.op === 'dateRange') && s.params && s.params.length !== 2)
          err(file, [...at, 'search', j, 'params'], `${s.op} needs two params (begin and end)`, '[beginKey, endKey]')
      })
      screen.form?.sections.forEach((section, j) =>
        section.fields.forEach((f, k) => needField([...at, 'form', 'sections', j, 'fields', k], f)),
      )
      for (const kind of ['toolbar', 'row'] as const) {
        screen.actions?.[kind]?.forEach((action, j) => {
          const ap: Path = [...at, 'actions', kind, j]
          asList(action.permission).forEach((p, k) =>
            checkPermission(
              file,
              Array.isArray(action.permission) ? [...ap, 'permission', k] : [...ap, 'permission'],
              p,
            ),
          )
          if (action.route && !screenAt.has(action.route))
            err(
              file,
              [...ap, 'route'],
              `unknown screen "${action.route}"`,
              'a screen name',
              suggestion(action.route, screenNames),
            )
          if (action.transition) {
            const transitions = Object.keys(entity?.states?.transitions ?? {})
            if (!entity?.states)
              err(
                file,
                [...ap, 'transition'],
                `entity ${screen.entity ?? '(none)'} has no state machine`,
                'an entity with states:',
              )
            else if (!transitions.includes(action.transition))
              err(
                file,
                [...ap, 'transition'],
                `unknown transition "${action.transition}" of ${entity.entity}`,
                `one of ${listOf(transitions)}`,
                suggestion(action.transition, transitions),
              )
          }
          if (action.endpoint === 'import' && (kind !== 'toolbar' || screen.kind !== 'list'))
            err(
              file,
              [...ap, 'endpoint'],
              "an import action reads a file into the whole list: only a list screen's toolbar offers it",
              'actions.toolbar of a kind: list screen',
            )
          if (action.endpoint && !screen.endpoints?.[action.endpoint])
            err(
              file,
              [...ap, 'endpoint'],
              `the screen binds no ${action.endpoint} endpoint`,
              `one of ${listOf(Object.keys(screen.endpoints ?? {}))}`,
            )
        })
      }
      for (const [kind, endpoint] of Object.entries(screen.endpoints ?? {})) {
        const key = `${endpoint.method} ${endpoint.path}`
        const owner = endpointAt.get(key)
        if (owner && owner !== `${screen.name}.${kind}`) {
          // The same call may serve several screens (a list and its detail); its permissions are merged.
        } else endpointAt.set(key, `${screen.name}.${kind}`)
        asList(endpoint.permission).forEach((p, k) =>
          checkPermission(
            file,
            Array.isArray(endpoint.permission)
              ? [...at, 'endpoints', kind, 'permission', k]
              : [...at, 'endpoints', kind, 'permission'],
            p,
          ),
        )
        if (!screen.entity)
          err(file, [...at, 'endpoints', kind], "an endpoint binding needs the screen's entity", 'entity: <name>')
        if (kind === 'import' && endpoint.method !== 'POST')
          err(
            file,
            [...at, 'endpoints', kind, 'method'],
            'an import receives the file as multipart/form-data',
            'method: POST',
            'method: POST (the same path answers the template to GET)',
          )
      }
      if (screen.status === 'built' && screen.kind === 'list' && !screen.endpoints?.list)
        err(file, [...at, 'endpoints'], 'a built list screen needs endpoints.list', '{ method, path }')
      detailErrors(screen, at, entity).forEach((e) => err(file, e.path, e.message, e.expected, e.fix))
      if (screen.status === 'built' && !screen.kind)
        err(file, [...at, 'kind'], 'a built screen needs kind:', 'list, detail, form or custom')
    })
  }

  // Hand-written endpoints: unique names and paths, known entities and permissions.
  const customNames = new Map<string, string>()
  for (const file of areaFiles) {
    ;((file.data as AreaDef).endpoints ?? []).forEach((endpoint, i) => {
      const at: Path = ['endpoints', i]
      const previous = customNames.get(endpoint.name)
      if (previous)
        err(
          file,
          [...at, 'name'],
          `endpoint name "${endpoint.name}" is used twice (also in ${previous})`,
          'a unique handler name',
        )
      else customNames.set(endpoint.name, file.path)
      const key = `${endpoint.method} ${endpoint.path}`
      const owner = endpointAt.get(key)
      // A screen may bind a hand-written endpoint (owner "<screen>.<kind>"); two declarations of one call may not.
      if (owner && !owner.includes('.'))
        err(file, [...at, 'path'], `${key} is already declared as ${owner}`, 'each method and path once')
      else endpointAt.set(key, endpoint.name)
      for (const prop of ['body', 'response'] as const) {
        const name = endpoint[prop]
        if (name && !entities[name])
          err(
            file,
            [...at, prop],
            `unknown entity "${name}"`,
            `one of ${listOf(Object.keys(entities).sort(), 40)}`,
            suggestion(name, Object.keys(entities)) ?? `create schemas/${name}.yaml`,
          )
      }
      asList(endpoint.permission).forEach((p, k) =>
        checkPermission(file, Array.isArray(endpoint.permission) ? [...at, 'permission', k] : [...at, 'permission'], p),
      )
      if (endpoint.public && endpoint.permission !== undefined)
        err(
          file,
          [...at, 'public'],
          'a public endpoint cannot need a permission',
          'public: true or a permission, not both',
        )
    })
  }

  // Locale keys: every key the configuration names, in every language.
  for (const file of valid) {
    for (const { key, path } of localeKeys(file.data)) {
      const missing = LANGUAGES.filter((lang) => sources.locales[lang]?.[key] === undefined)
      if (missing.length) {
        const [namespace, ...rest] = key.split('.')
        err(
          file,
          path,
          `locale key "${key}" is missing in ${missing.join(', ')}`,
          `a string at "${rest.join('.')}" in locales/<lang>/${namespace}.json`,
          `add it to ${missing.map((l) => `locales/${l}/${namespace}.json`).join(', ')}`,
        )
      }
    }
  }
  return errors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col)
}

type ScreenError = { path: Path; message: string; expected?: string; fix?: string }

/**
 * What only a detail screen must get right: the call that loads its record, one place per field, record
 * actions in the header (a detail has no rows), and history only where an audit log exists. Field names,
 * transitions, routes and permissions are checked with every other screen's.
 */
function detailErrors(screen: ScreenDef & { history?: boolean }, at: Path, entity?: EntityDef): ScreenError[] {
  const errors: ScreenError[] = []
  if (screen.kind !== 'detail') {
    if (screen.history !== undefined)
      errors.push({
        path: [...at, 'history'],
        message: 'history: belongs to detail screens',
        expected: 'kind: detail',
        fix: 'remove history: or make the screen kind: detail',
      })
    return errors
  }
  if (screen.status === 'built' && !screen.endpoints?.detail)
    errors.push({
      path: [...at, 'endpoints'],
      message: 'a built detail screen needs endpoints.detail',
      expected: '{ method, path } of the call that answers one record by id',
      fix: 'add endpoints: { detail: { method: GET, path: … } } (the list screen that links here may already bind one)',
    })
  if (screen.actions?.row)
    errors.push({
      path: [...at, 'actions', 'row'],
      message: 'a detail screen has no rows',
      expected: 'actions.toolbar: the buttons of the record shown',
      fix: 'rename row: to toolbar:',
    })
  screen.actions?.toolbar?.forEach((action, j) => {
    if (action.endpoint)
      errors.push({
        path: [...at, 'actions', 'toolbar', j, 'endpoint'],
        message: `endpoint: ${action.endpoint} does nothing on a detail screen`,
        expected: 'transition: (a state change) or route: (opened with the record id)',
        fix: 'edit and delete from the list screen, or open a form screen with route:',
      })
  })
  const shownIn = new Map<string, number>()
  screen.form?.sections.forEach((section, j) =>
    section.fields.forEach((field, k) => {
      const first = shownIn.get(field)
      if (first === undefined) shownIn.set(field, j)
      else
        errors.push({
          path: [...at, 'form', 'sections', j, 'fields', k],
          message: `field "${field}" is shown twice (also in form.sections[${first}])`,
          expected: 'each field in one section',
          fix: 'remove one of them',
        })
    }),
  )
  if (screen.form)
    screen.columns?.forEach((column, j) => {
      if (!shownIn.has(column.field))
        errors.push({
          path: [...at, 'columns', j, 'field'],
          message: `field "${column.field}" is in no section, so this column changes nothing`,
          expected: 'a field of form.sections[].fields',
          fix: `add ${column.field} to a section, or remove the column`,
        })
    })
  if (screen.history && entity && (entity.stored === false || entity.scope === 'global'))
    errors.push({
      path: [...at, 'history'],
      message: `entity ${entity.entity} keeps no history`,
      expected: 'a stored tenant entity: the audit log records its changes and transitions',
      fix: 'remove history:',
    })
  return errors
}

const LOCALE_PROPERTIES = new Set(['label', 'title', 'message', 'confirm'])

/** Every locale key a file names: the values of label, title, message and confirm properties. */
export function localeKeys(data: unknown, path: Path = []): { key: string; path: Path }[] {
  if (Array.isArray(data)) return data.flatMap((item, i) => localeKeys(item, [...path, i]))
  if (!data || typeof data !== 'object') return []
  const found: { key: string; path: Path }[] = []
  for (const [name, value] of Object.entries(data)) {
    if (path[0] === 'examples') continue
    if (LOCALE_PROPERTIES.has(name) && typeof value === 'string') found.push({ key: value, path: [...path, name] })
    else found.push(...localeKeys(value, [...path, name]))
  }
  return found
}
