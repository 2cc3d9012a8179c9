import { type OutputUnit, Validator } from '@cfworker/json-schema'
import { LineCounter, parseDocument } from 'yaml'
import overlayMetaSchema from './overlay.schema.json'
import { type OverlayDocument, type OverlayOptions, type OverlayProblem, overlayProblems } from './overlay.ts'
import type { ManifestEntity, ManifestScreen } from './resolve.ts'

/**
 * An overlay as an administrator types it (YAML) → its document, or what is wrong with it and where.
 * The same function checks the text live in the portal's editor and again on the server when it is
 * saved. The meta-schema runs on @cfworker/json-schema, which interprets the schema instead of
 * compiling it to code: no `eval`, so a strict Content-Security-Policy holds in the browser.
 */

export interface SourceProblem extends OverlayProblem {
  /** 1-based, where the YAML says it. */
  line?: number
  column?: number
}

export interface ReadOverlay {
  document?: OverlayDocument
  problems: SourceProblem[]
}

const metaValidator = new Validator(overlayMetaSchema as never, '2020-12', false)

/** Keywords that only say "something below failed": the error below says what. */
const SUMMARY_KEYWORDS = new Set(['properties', 'additionalProperties', '$ref', 'oneOf', 'anyOf', 'allOf', 'items'])

export function readOverlaySource(
  source: string,
  screen: ManifestScreen,
  entity: Pick<ManifestEntity, 'fields' | 'states'>,
  options: OverlayOptions = {},
): ReadOverlay {
  const lineCounter = new LineCounter()
  const parsed = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true })
  if (parsed.errors.length) {
    return {
      problems: parsed.errors.map((error) => {
        const at = lineCounter.linePos(error.pos[0])
        return { path: '', message: 'overlay.yaml', params: { detail: error.code }, line: at.line, column: at.col }
      }),
    }
  }
  const value = parsed.toJS() ?? {}
  const locate = (path: string): Pick<SourceProblem, 'line' | 'column'> => {
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
    for (let length = segments.length; length >= 0; length--) {
      const node = parsed.getIn(segments.slice(0, length), true) as { range?: [number, number, number] } | undefined
      if (node?.range) {
        const at = lineCounter.linePos(node.range[0])
        return { line: at.line, column: at.col }
      }
    }
    return {}
  }
  const withPlace = (problem: OverlayProblem): SourceProblem => ({ ...problem, ...locate(problem.path) })

  const shapeProblems = metaProblems(value)
  if (shapeProblems.length) return { problems: shapeProblems.map(withPlace) }
  const document = value as OverlayDocument
  const problems = overlayProblems(document, screen, entity, options).map(withPlace)
  return problems.length ? { problems } : { document, problems }
}

/** The meta-schema's complaints, the deepest one per place, as locale keys with their parameters. */
export function metaProblems(value: unknown): OverlayProblem[] {
  const result = metaValidator.validate(value)
  if (result.valid) return []
  const leaves = result.errors.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword))
  const places = leaves.map((e) => pointer(e.instanceLocation))
  const deepest = leaves.filter((_, i) => !places.some((other, j) => j !== i && other.startsWith(`${places[i]}/`)))
  const seen = new Set<string>()
  const problems: OverlayProblem[] = []
  for (const error of deepest) {
    const path = pointer(error.instanceLocation)
    if (seen.has(path)) continue
    seen.add(path)
    problems.push(describe(error, path))
  }
  return problems
}

const pointer = (location: string) => location.replace(/^#/, '')

function describe(error: OutputUnit, path: string): OverlayProblem {
  const name = decodeURIComponent(path.split('/').pop() ?? '')
  const limit = schemaAt(error.keywordLocation)
  switch (error.keyword) {
    case 'false':
      return { path, message: 'overlay.unknownKey', params: { name } }
    case 'type': {
      const expected = [limit ?? 'object'].flat()[0] as string
      return { path, message: `validation.type_${expected}` }
    }
    case 'const':
    case 'enum':
      return { path, message: 'validation.enum', params: { values: [limit ?? ''].flat().join(', ') } }
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return { path, message: `validation.${error.keyword}`, params: { limit: Number(limit) } }
    case 'pattern':
      return { path, message: 'overlay.name', params: { name } }
    case 'uniqueItems':
      return { path, message: 'validation.uniqueItems' }
    case 'minProperties':
      return { path, message: 'overlay.empty' }
    default:
      return { path, message: 'validation.invalid' }
  }
}

/** The schema value a keyword location points at, following `$ref`s into `$defs`. */
function schemaAt(location: string): unknown {
  let node: unknown = overlayMetaSchema
  for (const segment of location.replace(/^#\//, '').split('/')) {
    if (node && typeof node === 'object' && segment === '$ref') {
      const ref = (node as { $ref: string }).$ref
      node = schemaAt(ref)
      continue
    }
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[decodeURIComponent(segment)] : undefined
  }
  return node
}
