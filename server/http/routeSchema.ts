import type { FastifySchemaCompiler } from 'fastify'
import type { JsonSchema } from '../../model/jsonschema.ts'
import type { ManifestEntity } from '../../model/resolve.ts'
import { ApiError } from './errors.ts'
import { validateBody } from './validation.ts'

/**
 * The Fastify schema of every route (docs/DECISIONS.md, "Where a request is validated"): its querystring and
 * body parts are the JSON Schemas the YAML compiles to, and each part is checked by the validator already
 * compiled from that same schema — an entity's generated standalone validator (generated/validators.js), or
 * the engine's plan for a list, a detail, a delete or a transition. Fastify compiles nothing: the compiler
 * below only looks the check up, and a schema without one stops the server at boot.
 *
 * A check answers the input as the handler takes it (ids read as numbers, defaults filled in, empty optional
 * fields left out) or refuses it with the ApiError the error handler answers: the same envelope, codes and
 * per-field messages in the caller's language as the handlers' own checks gave.
 */

/** What a route part's check does with the part: the value to go on with, or throws an ApiError. */
export type PartCheck = (input: unknown) => unknown

/** A check as Fastify runs a validator: `{ value }` replaces the request part, `{ error }` refuses it. */
type FastifyCheck = (input: unknown) => { value: unknown } | { error: Error }

const checks = new WeakMap<object, FastifyCheck>()

/**
 * Names the check a schema is validated with. The schema is what the route declares (and what it was
 * compiled from); the same schema object given twice keeps its first check, as both are the same code.
 */
export function checkedBy<S extends JsonSchema>(schema: S, check: PartCheck): S {
  if (!checks.has(schema))
    checks.set(schema, (input) => {
      try {
        return { value: check(input) }
      } catch (error) {
        if (error instanceof ApiError) return { error }
        throw error
      }
    })
  return schema
}

/** The check of an entity's input: its generated validator, as `validateBody` runs it (./validation.ts). */
export function entityInput(entity: ManifestEntity): JsonSchema {
  return checkedBy(entity.schema, (input) => validateBody(entity, input ?? {}))
}

/**
 * The check of an entity's input sent in a query string, where every value is text: a whole number for an
 * integer field or an enum of numbers, a number for a number field and true or false for a boolean are read as
 * such first (the
 * SPEC's GET twins of calls whose bodies carry numbers, spaCancel's id and version); anything else is left
 * to the entity's validator, which refuses it in the caller's language.
 */
export function queryInput(entity: ManifestEntity): JsonSchema {
  return checkedBy(queryBound(entity), (input) => validateBody(entity, fromQueryText(entity, input ?? {})))
}

/** The same schema object for one entity's query (checkedBy keys its check by the object). */
const querySchemas = new WeakMap<ManifestEntity, JsonSchema>()
function queryBound(entity: ManifestEntity): JsonSchema {
  const found = querySchemas.get(entity)
  if (found) return found
  const schema = { ...entity.schema }
  querySchemas.set(entity, schema)
  return schema
}

/** A ref to an entity (its id, an integer), not to a reference list's code. */
function idRef(entity: ManifestEntity, key: string): boolean {
  const properties = (entity.schema as { properties?: Record<string, { type?: unknown }> }).properties
  return entity.fields[key]?.type === 'ref' && properties?.[key]?.type === 'integer'
}

/**
 * A comparison in the name, as DCSA's queries write it (`eventCreatedDateTime:gte=…`, one of :eq :gt :gte :lt
 * :lte): the field of that name with the operator as its suffix (eventCreatedDateTimeGte), where the entity has
 * one; any other name is left as sent, for the validator to refuse if unknown.
 */
function operatorField(entity: ManifestEntity, key: string): string {
  const match = /^([A-Za-z][A-Za-z0-9]*):(eq|gt|gte|lt|lte)$/.exec(key)
  if (!match) return key
  const name = `${match[1]}${(match[2] as string).charAt(0).toUpperCase()}${(match[2] as string).slice(1)}`
  return entity.fields[name] ? name : key
}

function fromQueryText(entity: ManifestEntity, input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const out: Record<string, unknown> = {}
  for (const [sent, value] of Object.entries(input)) {
    const key = operatorField(entity, sent)
    const field = entity.fields[key]
    const type = field?.type
    const numericEnum = type === 'enum' && field?.values?.some((v) => typeof v.value === 'number')
    if (typeof value !== 'string' || field?.multiple) out[key] = value
    else if (numericEnum && /^-?\d{1,10}$/.test(value)) out[key] = Number(value)
    else if ((type === 'integer' || idRef(entity, key)) && /^-?\d{1,15}$/.test(value)) out[key] = Number(value)
    else if (type === 'number' && /^-?\d{1,15}(\.\d{1,10})?$/.test(value)) out[key] = Number(value)
    else if (type === 'boolean' && (value === 'true' || value === 'false')) out[key] = value === 'true'
    else out[key] = value
  }
  return out
}

/**
 * The API's validator compiler: the precompiled check of the schema. A route schema nobody named a check for
 * is a mistake of ours, found at boot rather than compiled here at a cost every start would pay.
 */
export const precompiledValidator: FastifySchemaCompiler<JsonSchema> = ({ schema, method, url, httpPart }) => {
  const check = checks.get(schema as object)
  if (!check)
    throw new Error(
      `${method} ${url}: the ${httpPart} schema has no precompiled check; name one with checkedBy (server/http/routeSchema.ts)`,
    )
  return check
}
