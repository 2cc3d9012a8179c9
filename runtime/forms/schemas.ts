import schemas from '../../generated/entity-schemas.json'
import type { JsonSchema } from '../../model/jsonschema.ts'
import type { PortalEntity } from '../screens/manifest.ts'

/**
 * The entities' JSON Schemas, which only forms need: they are kept out of the manifest every workbench
 * page loads (generator/emit emitPortalManifest) and come with the form engine instead.
 */
const bySchemaName = schemas as unknown as Record<string, JsonSchema>

/** The entity with its JSON Schema: what rjsf and the precompiled validators work on. */
export type FormEntity = PortalEntity & { schema: JsonSchema }

export function withSchema<E extends Pick<PortalEntity, 'entity'>>(entity: E): E & { schema: JsonSchema } {
  const schema = bySchemaName[entity.entity]
  if (!schema) throw new Error(`No JSON Schema for ${entity.entity}: run \`waybill generate\``)
  return { ...entity, schema }
}
