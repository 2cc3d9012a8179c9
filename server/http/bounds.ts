import type { ValidateFunction } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import type { JsonSchema } from '../../model/jsonschema.ts'
import type { ManifestEntity } from '../../model/resolve.ts'
import { toFieldErrors } from '../../rules/messages.ts'
import { ApiError } from './errors.ts'

/**
 * Bounded work per request (issue #17, docs/SECURITY.md). Two checks come before an entity's full
 * validation, whose every-error report costs time in proportion to what is wrong:
 *
 * - a body limit per route, from the largest body the entity's schema accepts (at least
 *   DEFAULT_BODY_LIMIT, at most MAX_BODY_LIMIT), so Fastify refuses anything bigger with 413 before parsing;
 * - the body's shape against the schema's bounds only (maxItems, maxProperties, unknown keys), checked by a
 *   validator that stops at the first failure, so 100,000 unknown keys or list items cost one answer.
 */

/** Any JSON body of a route without an entity of its own (searches, ids, transitions). */
export const DEFAULT_BODY_LIMIT = 64 * 1024
/** No JSON body is larger; files go as multipart, with their own limits. */
export const MAX_BODY_LIMIT = 2 * 1024 * 1024

/** UTF-8 takes at most 4 bytes for one code point (JSON Schema counts code points). */
const BYTES_PER_CHARACTER = 4

/** The schema's type; of a nullable one (`[type, 'null']`, a field a body takes from the entity it extends), the type. */
const typeOf = (schema: JsonSchema): unknown =>
  Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type

/** The size of the largest JSON text the schema accepts, roughly from above. */
function largestJson(schema: JsonSchema): number {
  switch (typeOf(schema)) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
      let size = 2
      for (const [name, property] of Object.entries(properties)) size += name.length + 4 + largestJson(property)
      return size
    }
    case 'array':
      return 2 + ((schema.maxItems as number | undefined) ?? 1) * (largestJson((schema.items ?? {}) as JsonSchema) + 1)
    case 'string': {
      if (Array.isArray(schema.enum)) return 2 + Math.max(0, ...schema.enum.map((v) => String(v).length))
      return 2 + ((schema.maxLength as number | undefined) ?? 64) * BYTES_PER_CHARACTER
    }
    default:
      return 24
  }
}

/** The body limit of a route that takes the entity's body. */
export function bodyLimitOf(entity: ManifestEntity | undefined): number {
  if (!entity) return DEFAULT_BODY_LIMIT
  return Math.min(MAX_BODY_LIMIT, Math.max(DEFAULT_BODY_LIMIT, largestJson(entity.schema)))
}

/**
 * The schema's structure and its size bounds, nothing else: no types, formats, patterns or cross-field
 * rules (the full validation reports those, null for an optional list included).
 */
function boundsSchema(schema: JsonSchema): JsonSchema {
  if (typeOf(schema) === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
    const out: JsonSchema = {
      properties: Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, boundsSchema(p)])),
    }
    for (const key of ['additionalProperties', 'maxProperties'] as const)
      if (schema[key] !== undefined) out[key] = schema[key]
    return out
  }
  if (typeOf(schema) === 'array') {
    const out: JsonSchema = { items: boundsSchema((schema.items ?? {}) as JsonSchema) }
    if (schema.maxItems !== undefined) out.maxItems = schema.maxItems
    return out
  }
  return {}
}

// Stops at the first failure: the point of this check is that its cost does not grow with the errors.
// Untyped on purpose: each bound applies to its own kind of value (ajv's strictTypes would ask for a type).
const ajv = new Ajv2020({ allErrors: false, strict: false })
const compiled = new Map<string, ValidateFunction>()

/** Refuses a body outside the entity's bounds with the first field that passes them (an ApiError). */
export function checkBounds(entity: ManifestEntity, body: unknown): void {
  let validate = compiled.get(entity.entity)
  if (!validate) {
    validate = ajv.compile(boundsSchema(entity.schema))
    compiled.set(entity.entity, validate)
  }
  if (!validate(body)) throw new ApiError('validation', {}, toFieldErrors(validate.errors, { fields: entity.fields }))
}
