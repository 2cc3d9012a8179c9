import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import type { ErrorObject, ValidateFunction } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'

/**
 * Real answers against generated/openapi.json (issue #19): `answerProblems(method, path, status, body)` lists
 * how an answer differs from what the document declares for that path, method and status — ajv with strict
 * types, `additionalProperties` as declared, formats checked. An answer the document does not describe at all
 * (a path, method or status it does not name, a JSON body where it declares none) is a problem too.
 */

type Doc = Record<string, unknown>

const DOCUMENT_ID = 'https://waybill.invalid/openapi.json'
const DOCUMENT_URL = new URL('../../generated/openapi.json', import.meta.url)

export interface AnswerProblem {
  method: string
  path: string
  status: number
  /** ajv's errors, as `<instancePath> <message>` (params appended), or why the answer has no schema. */
  errors: string[]
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

function resolveRef(document: Doc, value: unknown): Doc | undefined {
  let node = value as Doc | undefined
  while (node && typeof node.$ref === 'string') {
    const ref = node.$ref
    node = ref
      .slice(2)
      .split('/')
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((at, key) => (at as Doc | undefined)?.[key], document) as Doc | undefined
  }
  return node
}

const describeError = (e: ErrorObject) =>
  `${e.instancePath || '/'} ${e.message ?? e.keyword}${
    e.keyword === 'additionalProperties'
      ? `: ${(e.params as { additionalProperty: string }).additionalProperty}`
      : e.keyword === 'enum'
        ? `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues).slice(0, 120)}`
        : ''
  }`

export interface AnswerChecker {
  readonly document: Doc
  /** Problems of one answer; [] when it conforms. `body` is the parsed JSON, or undefined when not JSON. */
  problems(method: string, path: string, status: number, body: unknown, contentType?: string): string[]
}

/** A checker over a document (the generated one unless given). */
export function answerChecker(document: Doc = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8')) as Doc): AnswerChecker {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: true,
    allowUnionTypes: true,
    strictTuples: true,
    allErrors: true,
  })
  addFormats(ajv)
  // The document's own keywords: extensions (x-wb-…) and OpenAPI's annotations.
  const extensions = new Set<string>()
  const collect = (value: unknown) => {
    if (Array.isArray(value)) for (const v of value) collect(v)
    else if (value && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        if (key.startsWith('x-')) extensions.add(key)
        collect(v)
      }
  }
  collect(document.components)
  collect(document.paths)
  // The document's own members at its root are no schema keywords: the root is only where $refs point into.
  const root = Object.keys(document).filter((key) => !['$id', '$schema', '$defs'].includes(key))
  ajv.addVocabulary([...new Set([...extensions, ...root, 'example', 'discriminator', 'xml', 'externalDocs'])])
  ajv.addSchema({ ...document, $id: DOCUMENT_ID } as never)
  const compiled = new Map<string, ValidateFunction>()
  const paths = document.paths as Record<string, Record<string, Doc>>

  return {
    document,
    problems(method, path, status, body, contentType = 'application/json') {
      const type = contentType.split(';')[0]?.trim() ?? ''
      const operation = paths[path]?.[method.toLowerCase()]
      if (!operation) {
        // A path the server does not serve answers its not-found envelope, as the document's notFound says.
        const notFound = `#/${pointer('components', 'responses', 'notFound', 'content', 'application/json', 'schema')}`
        if (status === 404 && type === 'application/json') return validateAt(notFound, body)
        return [`the document has no ${method} ${path}`]
      }
      const responses = operation.responses as Record<string, unknown>
      const key = String(status)
      const response = resolveRef(document, responses[key] ?? responses[`${key[0]}XX`] ?? responses.default)
      if (!response) return [`${method} ${path} declares no ${status} answer`]
      // An answer with nothing (a 204) where the document declares nothing either.
      if (type === 'none' && response.content === undefined) return []
      const media = (response.content ?? {}) as Record<string, Doc>
      if (!media[type] && media['*/*']) return []
      if (!media[type])
        return [
          `${method} ${path} ${status} declares no ${type} answer (only ${Object.keys(media).join(', ') || 'none'})`,
        ]
      if (type !== 'application/json') return []
      const declared = responses[key] as Doc | undefined
      const at =
        declared && typeof declared.$ref === 'string'
          ? `${declared.$ref}/${pointer('content', type, 'schema')}`
          : `#/${pointer('paths', path, method.toLowerCase(), 'responses', key, 'content', type, 'schema')}`
      return validateAt(at, body)
    },
  }

  function validateAt(at: string, body: unknown): string[] {
    let validate = compiled.get(at)
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${at}` })
      compiled.set(at, validate)
    }
    if (validate(body)) return []
    // oneOf reports every branch; the envelope's two (success, business error) are told apart by `code`.
    const errors = validate.errors ?? []
    const code = (body as { code?: unknown } | null)?.code
    const relevant = errors.filter((e) => (code === '0000' ? !e.schemaPath.includes('BusinessError') : true))
    return [...new Set((relevant.length ? relevant : errors).map(describeError))].slice(0, 20)
  }
}

/**
 * Every answer an API test's inject gets is checked and the misfits recorded (issue #19: every hand-written
 * answer now conforms). WAYBILL_CHECK_ANSWERS=0 turns it off, to tell a misfit from a test's own failure.
 */
export const CHECK_ANSWERS = process.env.WAYBILL_CHECK_ANSWERS !== '0'
const LOG = new URL('../../test-results/openapi-answers.jsonl', import.meta.url)

/**
 * Wraps `app.inject` so each answer under /api is checked against the document; answers the document does
 * not describe go into the list this returns (and, with `log`, one JSON line each into
 * test-results/openapi-answers.jsonl, so that a run over many files can be read afterwards).
 */
export function checkAnswersOf(app: FastifyInstance, source: string): AnswerProblem[] {
  const found: AnswerProblem[] = []
  let checker: AnswerChecker | undefined
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>
  const wrapped = async (options: InjectOptions | string) => {
    const response = await inject(options)
    const request = typeof options === 'string' ? { method: 'GET', url: options } : options
    const url = typeof request.url === 'string' ? request.url : (request.url?.pathname ?? '')
    const path = url.split('?')[0] ?? ''
    const method = (request.method ?? 'GET').toUpperCase()
    if (!path.startsWith('/api/')) return response
    checker ??= answerChecker()
    const contentType = String(response.headers['content-type'] ?? '')
    let body: unknown
    if (contentType.startsWith('application/json')) {
      try {
        body = response.json()
      } catch {
        body = response.body
      }
    }
    let errors: string[]
    try {
      errors = checker.problems(method, path, response.statusCode, body, contentType || 'none')
    } catch (error) {
      // A schema ajv cannot compile is the document's fault, recorded like a misfit; the test goes on.
      errors = [`the check failed: ${(error as Error).message}`]
    }
    if (errors.length) {
      const problem = { method, path, status: response.statusCode, errors }
      found.push(problem)
      mkdirSync(new URL('.', LOG), { recursive: true })
      appendFileSync(LOG, `${JSON.stringify({ source, ...problem })}\n`)
    }
    return response
  }
  // inject() with options answers a promise; the chained form (inject().get()) is left alone.
  app.inject = ((options?: InjectOptions | string, callback?: unknown) =>
    options === undefined || callback !== undefined
      ? (inject as (...args: unknown[]) => unknown)(options, callback)
      : wrapped(options)) as FastifyInstance['inject']
  return found
}
