import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { _, type ErrorObject, type ValidateFunction } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import standaloneCode from 'ajv/dist/standalone/index.js'
import addFormats from 'ajv-formats'
import { cachedModule } from '../cache.ts'
import { type ConfigError, didYouMean, formatPath, listOf } from '../errors.ts'
import { locate, type SourceFile, type Sources } from '../load.ts'
import { type CheckContext, type Path, suggestion } from './context.ts'

const META = ['entity', 'screens', 'access'] as const
type MetaKind = (typeof META)[number]
let metaValidators: Record<MetaKind, ValidateFunction> | undefined

export function metaSchema(kind: MetaKind): Record<string, unknown> {
  const file = fileURLToPath(new URL(`../meta/${kind}.schema.json`, import.meta.url))
  return JSON.parse(readFileSync(file, 'utf8'))
}

/**
 * The meta-schema validators. Compiling them costs a fifth of a second, more than the rest of a check,
 * so the compiled code is cached under node_modules/.cache/waybill, keyed by the meta-schemas' hash.
 */
function validators() {
  if (metaValidators) return metaValidators
  const schemas = Object.fromEntries(META.map((kind) => [kind, metaSchema(kind)])) as Record<MetaKind, object>
  const hash = createHash('sha256').update(JSON.stringify(schemas)).digest('hex').slice(0, 16)
  metaValidators = cachedModule<Record<MetaKind, ValidateFunction>>('meta', hash, () => {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      verbose: true,
      schemas: META.map((kind) => ({ ...schemas[kind], $id: kind })),
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    })
    addFormats.default(ajv)
    return standaloneCode(ajv, { entity: 'entity', screens: 'screens', access: 'access' })
  })
  return metaValidators
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

function valueAt(data: unknown, path: Path): unknown {
  let node = data as Record<string | number, unknown> | undefined
  for (const step of path) node = node?.[step] as Record<string | number, unknown> | undefined
  return node
}

const found = new WeakMap<SourceFile, ConfigError[]>()

/** One file against the meta-schema of its kind (remembered: the context asks, then the check). */
export function metaErrors(file: SourceFile): ConfigError[] {
  const known = found.get(file)
  if (known) return known
  const errors = validateFile(file)
  found.set(file, errors)
  return errors
}

/**
 * Properties a vocabulary no longer has, and what says the same now: the error names the replacement rather than
 * the nearest spelling.
 */
const RETIRED: Record<string, { instead: string; fix: string }> = {
  shows: {
    instead: 'reveals',
    fix: 'use reveals: <the text field of the call’s answer> — what the server answers once is shown in a dialog with a copy button (shows: was retired; docs/CONFIGURATION.md)',
  },
}

function validateFile(file: SourceFile): ConfigError[] {
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
        const retired = RETIRED[name]
        return {
          file: file.path,
          ...at(name),
          path: formatPath([...path, name]),
          message: `unknown property "${name}"`,
          expected: allowed.length ? `one of ${listOf(allowed, 30)}` : undefined,
          fix:
            retired && allowed.includes(retired.instead)
              ? retired.fix
              : guess
                ? `did you mean "${guess}"?`
                : 'remove it',
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

/** The files that passed their meta-schema: the only ones cross-checked. */
export function validFiles(sources: Sources): SourceFile[] {
  return sources.files.filter((file) => metaErrors(file).length === 0)
}

/** What could not be read (YAML or JSON syntax), then every file's shape against its meta-schema. */
export function checkMetaSchema({ sources }: CheckContext): ConfigError[] {
  return [
    ...sources.problems.map((p) => ({ file: p.path, line: p.line, col: p.col, path: '', message: p.message })),
    ...sources.files.flatMap(metaErrors),
  ]
}
