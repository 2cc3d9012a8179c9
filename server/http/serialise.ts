import type { EntityDef } from '../../model/definitions.ts'
import { contentSchema, type JsonSchema } from '../../model/jsonschema.ts'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import type { Manifest } from '../manifest.ts'

/**
 * Fastify serialises these endpoints' answers from their YAML `response:` (fast-json-stringify) instead of
 * JSON.stringify. Such a serialiser writes only what the schema names, so an endpoint is listed here only
 * once tests/api/serialise.test.ts shows its answers are the same byte for byte either way.
 */
export const SERIALISED: ReadonlySet<string> = new Set([
  'newsList',
  'newsHot',
  'newsRecommended',
  'newsDetail',
  'sitePages',
  'specialRoutes',
  'roleList',
])

/** WAYBILL_SERIALISE=0 answers every endpoint with JSON.stringify (the test compares the two). */
const enabled = () => process.env.WAYBILL_SERIALISE !== '0'

/** The content schema of an endpoint's answer, from its `response:`; undefined for files and no content. */
export function contentSchemaOf(manifest: Manifest, endpoint: ManifestEndpoint): JsonSchema | undefined {
  const content = endpoint.content
  if (!content || !('entity' in content)) return undefined
  const entities = manifest.entities as Record<string, EntityDef>
  const entity = entities[content.entity]
  if (!entity) return undefined
  const one = contentSchema(entity, entities)
  switch (content.kind) {
    case 'entity':
      return content.nullable ? { anyOf: [one, { type: 'null' }] } : one
    case 'list':
      return { type: 'array', items: one }
    case 'page':
      return {
        type: 'object',
        required: ['list', 'total', 'pageNum', 'pageSize'],
        properties: {
          list: { type: 'array', items: one },
          total: { type: 'integer' },
          pageNum: { type: 'integer' },
          pageSize: { type: 'integer' },
        },
      }
  }
}

/**
 * The route's `schema.response` for a listed endpoint: the envelope with its content. A refusal (some are
 * answered with HTTP 200) is written with JSON.stringify: the route's error handler says so (./endpoints.ts).
 */
export function responseSchemaOf(
  manifest: Manifest,
  endpoint: ManifestEndpoint,
): Record<number, JsonSchema> | undefined {
  if (!enabled() || !SERIALISED.has(endpoint.id)) return undefined
  const content = contentSchemaOf(manifest, endpoint)
  if (!content) return undefined
  return {
    200: {
      type: 'object',
      required: ['code', 'message', 'content'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        content,
      },
    },
  }
}
