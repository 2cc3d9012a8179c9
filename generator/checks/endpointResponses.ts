import {
  type AreaDef,
  type EntityDef,
  type FieldDef,
  RESPONSE_WORDS,
  type ResponseDef,
  responseOf,
} from '../../model/definitions.ts'
import { type ConfigError, didYouMean, formatPath, listOf } from '../errors.ts'
import { locate, type SourceFile, type Sources } from '../load.ts'

/**
 * Every hand-written endpoint says what it answers (issue #19): `response:` is an entity, `{ entity, nullable }`,
 * `{ list: entity }`, `{ page: entity }`, `binary` or `none`, and names entities that exist; a file (`binary`) is
 * answered to a GET, or to a POST that sends a body (issue #28's exports); `status:` goes with `document` only. Fields that nest
 * an answer's objects (`type: object` / `type: list`) name an entity, and no entity nests itself.
 */

type Path = (string | number)[]

const WORDS: readonly string[] = RESPONSE_WORDS
const EXPECTED = 'an entity, { entity, nullable: true }, { list: entity }, { page: entity }, binary, none or count'

function at(file: SourceFile, path: Path, message: string, expected?: string, fix?: string): ConfigError {
  return { file: file.path, ...locate(file, path), path: formatPath(path), message, expected, fix }
}

/** A response of a form the meta-schema accepts (another form is left for it to report). */
function wellFormed(response: unknown): response is ResponseDef {
  if (typeof response === 'string') return true
  if (!response || typeof response !== 'object' || Array.isArray(response)) return false
  const keys = Object.keys(response).filter((key) => key !== 'nullable')
  const named = (response as Record<string, unknown>)[keys[0] ?? '']
  return keys.length === 1 && ['entity', 'list', 'page'].includes(keys[0] as string) && typeof named === 'string'
}

/** The entity a response names and the path of that name inside it, if it names one. */
function responseEntity(response: ResponseDef): { name: string; path: Path } | undefined {
  if (typeof response === 'string') return WORDS.includes(response) ? undefined : { name: response, path: [] }
  if ('list' in response) return { name: response.list, path: ['list'] }
  if ('page' in response) return { name: response.page, path: ['page'] }
  return { name: response.entity, path: ['entity'] }
}

function entitiesOf(sources: Sources): Map<string, { def: EntityDef; file: SourceFile }> {
  const found = new Map<string, { def: EntityDef; file: SourceFile }>()
  for (const file of sources.files) {
    const def = file.data as EntityDef | null
    if (file.kind === 'entity' && def && typeof def.entity === 'string') found.set(def.entity, { def, file })
  }
  return found
}

export function endpointResponses(sources: Sources): ConfigError[] {
  const errors: ConfigError[] = []
  const entities = entitiesOf(sources)
  const unknown = (file: SourceFile, path: Path, name: string) =>
    errors.push(
      at(
        file,
        path,
        `unknown entity "${name}"`,
        `one of ${listOf([...entities.keys()].sort(), 40)}`,
        didYouMean(name, entities.keys())
          ? `did you mean "${didYouMean(name, entities.keys())}"?`
          : `create schemas/${name}.yaml`,
      ),
    )

  for (const file of sources.files) {
    if (file.kind !== 'screens') continue
    ;((file.data as AreaDef | null)?.endpoints ?? []).forEach((endpoint, i) => {
      const base: Path = ['endpoints', i]
      const response = responseOf(endpoint)
      // Another path of an endpoint answers what that endpoint answers.
      if (response === undefined && endpoint.servedAs) return
      if (response === undefined) {
        errors.push(
          at(
            file,
            base,
            `endpoint "${endpoint.name}" does not say what it answers`,
            EXPECTED,
            'add response: — the typed client and the handler types are built from it',
          ),
        )
        return
      }
      if (!wellFormed(response)) return
      // A success status of its own is a published standard's (DCSA's 204 to PUT …/secret): the envelope's is 200.
      if (endpoint.status !== undefined && response !== 'document')
        errors.push(
          at(
            file,
            [...base, 'status'],
            'status: is the success status of a standard’s document; this endpoint answers the envelope (200)',
            'response: document',
            'or leave status: out',
          ),
        )
      const named = responseEntity(response)
      if (named && !entities.has(named.name)) unknown(file, [...base, 'response', ...named.path], named.name)
      // A file is fetched (a link's GET) or asked for by what a POST sends (SPEC §7's exportPvList and its chart's
      // filters); a POST with nothing to send is a GET, and a PUT or DELETE changes something rather than fetching it.
      if (response === 'binary' && endpoint.method !== 'GET' && endpoint.method !== 'POST')
        errors.push(
          at(
            file,
            [...base, 'response'],
            `a file is answered to a GET or a POST, not a ${endpoint.method}`,
            'method: GET or POST',
            'or answer an entity',
          ),
        )
      else if (response === 'binary' && endpoint.method === 'POST' && !endpoint.body)
        errors.push(
          at(
            file,
            [...base, 'method'],
            'a file answered to a POST is asked for by its body, and this POST sends none',
            'body: the entity the request sends',
            'or method: GET',
          ),
        )
    })
  }

  for (const [name, { def, file }] of entities) {
    if (WORDS.includes(name))
      errors.push(at(file, ['entity'], `"${name}" is a word of response:, not an entity name`, 'another name'))
    const walk = (fields: Record<string, FieldDef>, base: Path) => {
      for (const [fieldName, field] of Object.entries(fields ?? {})) {
        const path = [...base, fieldName]
        const nests = field.type === 'object' || field.type === 'list'
        if (field.schema && field.type !== 'object')
          errors.push(at(file, [...path, 'schema'], 'only object fields name a schema', 'type: object'))
        else if (field.type === 'object' && field.schema && field.entity)
          errors.push(at(file, [...path, 'schema'], 'an object is shaped by an entity or a schema, not both'))
        else if (nests && !field.entity && !field.schema)
          errors.push(
            at(
              file,
              [...path, 'type'],
              `an ${field.type} field needs entity:`,
              'the entity each object is shaped like',
            ),
          )
        else if (nests && field.entity && !entities.has(field.entity)) unknown(file, [...path, 'entity'], field.entity)
        else if (field.type === 'map' && !field.of === !field.entity)
          errors.push(
            at(
              file,
              [...path, 'type'],
              'a map field needs of: or entity:',
              'string, integer, number, boolean, json or an entity',
            ),
          )
        else if (field.type === 'map' && field.entity && !entities.has(field.entity))
          unknown(file, [...path, 'entity'], field.entity)
        else if (!nests && field.type !== 'map' && field.entity)
          errors.push(
            at(
              file,
              [...path, 'entity'],
              'only object, list and map fields name an entity',
              'type: object, list or map',
            ),
          )
        if (field.items) walk(field.items, [...path, 'items'])
      }
    }
    walk(def.fields, ['fields'])
    const cycle = nestingCycle(name, entities)
    if (cycle)
      errors.push(
        at(
          file,
          ['entity'],
          `${cycle.join(' → ')}: an answer's objects cannot nest themselves`,
          'nesting that ends',
          'answer the inner objects by id',
        ),
      )
  }
  return errors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col)
}

/** The chain of nested entities that leads from `start` back to itself, if any. */
function nestingCycle(start: string, entities: Map<string, { def: EntityDef }>): string[] | undefined {
  const nested = (name: string): string[] => {
    const out: string[] = []
    const walk = (fields: Record<string, FieldDef> | undefined) => {
      for (const field of Object.values(fields ?? {})) {
        if (field.entity) out.push(field.entity)
        walk(field.items)
      }
    }
    walk(entities.get(name)?.def.fields)
    return out
  }
  const seen = new Set<string>()
  const search = (name: string, chain: string[]): string[] | undefined => {
    for (const next of nested(name)) {
      if (next === start) return [...chain, next]
      if (seen.has(next)) continue
      seen.add(next)
      const found = search(next, [...chain, next])
      if (found) return found
    }
    return undefined
  }
  return search(start, [start])
}

/**
 * The sources as validateSources reads them: a custom endpoint's `response:` the name of its entity, or
 * absent for `binary` and `none` (it checks the entity-name form only; this module checks the rest).
 */
export function withEntityResponses(sources: Sources): Sources {
  return {
    ...sources,
    files: sources.files.map((file) => {
      const area = file.data as AreaDef | null
      if (file.kind !== 'screens' || !area?.endpoints?.length) return file
      const endpoints = area.endpoints.map((endpoint) => {
        const response = responseOf(endpoint)
        if (!wellFormed(response)) return endpoint
        const { response: _response, ...rest } = endpoint
        const named = responseEntity(response)
        return named ? { ...rest, response: named.name } : rest
      })
      return { ...file, data: { ...area, endpoints } }
    }),
  }
}
