import type { AccessDef, AreaDef, EntityDef, FieldDef, PermissionList } from '../../model/definitions.ts'
import { withInherited } from '../../model/resolve.ts'
import { type ConfigError, didYouMean, formatPath } from '../errors.ts'
import { locate, type SourceFile, type Sources } from '../load.ts'

/** A place inside a YAML file: keys and indexes from the document's root. */
export type Path = (string | number)[]

/**
 * What every check reads: the sources, the files that passed their meta-schema (only those are
 * cross-checked: their shape is known), and the indexes most checks need. Built once, never changed.
 */
export interface CheckContext {
  sources: Sources
  /** The files that passed their meta-schema, in load order. */
  files: SourceFile[]
  entityFiles: SourceFile[]
  areaFiles: SourceFile[]
  accessFiles: SourceFile[]
  /** Entities by name (a name defined twice: the last definition). */
  entities: Record<string, EntityDef>
  /** The permission catalogue's names (the first catalogue's). */
  permissions: ReadonlySet<string>
  /** Screens by name (a name defined twice: the first definition), with where they are. */
  screens: ReadonlyMap<string, { file: SourceFile; path: Path }>
  /**
   * "METHOD /path" of every endpoint a screen binds → "screen.kind" of the first screen binding it
   * (the same call may serve several screens: a list and its detail).
   */
  screenEndpoints: ReadonlyMap<string, string>
}

/** A check: every error of one concern, pure, in the order it finds them. */
export type Check = (context: CheckContext) => ConfigError[]

export function createContext(sources: Sources, files: SourceFile[]): CheckContext {
  const entityFiles = files.filter((f) => f.kind === 'entity')
  const areaFiles = files.filter((f) => f.kind === 'screens')
  const accessFiles = files.filter((f) => f.kind === 'access')
  const entities: Record<string, EntityDef> = {}
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    entities[def.entity] = def
  }
  // A stored entity that extends another has the fields it takes (a body's are its own business: a body
  // is not drawn by screens, and its taken fields change shape).
  for (const [name, def] of Object.entries(entities))
    if (def.extends && def.stored !== false && entities[def.extends.entity] && !entities[def.extends.entity]?.extends)
      entities[name] = withInherited(def, entities)
  const access = accessFiles[0]?.data as AccessDef | undefined
  const screens = new Map<string, { file: SourceFile; path: Path }>()
  const screenEndpoints = new Map<string, string>()
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      if (!screens.has(screen.name)) screens.set(screen.name, { file, path: ['screens', i] })
      for (const [kind, endpoint] of Object.entries(screen.endpoints ?? {})) {
        const key = `${endpoint.method} ${endpoint.path}`
        if (!screenEndpoints.has(key)) screenEndpoints.set(key, `${screen.name}.${kind}`)
      }
    })
  }
  return {
    sources,
    files,
    entityFiles,
    areaFiles,
    accessFiles,
    entities,
    permissions: new Set(Object.keys(access?.permissions ?? {})),
    screens,
    screenEndpoints,
  }
}

/** An error at a path of a file, located to its line and column. */
export function errorAt(file: SourceFile, path: Path, message: string, expected?: string, fix?: string): ConfigError {
  return { file: file.path, ...locate(file, path), path: formatPath(path), message, expected, fix }
}

/** A collector of errors: `report(file, path, message, expected?, fix?)` and the list it fills. */
export function collector(): {
  errors: ConfigError[]
  report: (file: SourceFile, path: Path, message: string, expected?: string, fix?: string) => void
} {
  const errors: ConfigError[] = []
  return { errors, report: (...args) => void errors.push(errorAt(...args)) }
}

export function suggestion(value: unknown, options: Iterable<string>): string | undefined {
  const guess = typeof value === 'string' ? didYouMean(value, options) : undefined
  return guess ? `did you mean "${guess}"?` : undefined
}

export const asList = (p: PermissionList | undefined): string[] => (p === undefined ? [] : Array.isArray(p) ? p : [p])

/** The path of a `permission:` that is one name or a list of them: the property, or the item. */
export const permissionPath = (p: PermissionList | undefined, at: Path, i: number): Path =>
  Array.isArray(p) ? [...at, 'permission', i] : [...at, 'permission']

/** Every field of an entity, nested rows included, with its path (`fields.x`, `fields.x.items.y`). */
export function eachField(def: EntityDef): { name: string; field: FieldDef; path: Path; topLevel: boolean }[] {
  const found: { name: string; field: FieldDef; path: Path; topLevel: boolean }[] = []
  const walk = (fields: Record<string, FieldDef>, base: Path) => {
    for (const [name, field] of Object.entries(fields)) {
      const path = [...base, name]
      found.push({ name, field, path, topLevel: base.length === 1 })
      if (field.items) walk(field.items, [...path, 'items'])
    }
  }
  walk(def.fields, ['fields'])
  return found
}

/** Errors in the order `waybill check` prints them: by file, line and column (stable for ties). */
export function sortErrors(errors: ConfigError[]): ConfigError[] {
  return errors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col)
}
