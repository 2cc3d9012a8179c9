import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The codes a record names of the shared reference lists (ports, currencies, container types…) are on those
 * lists: the engine checks a code's shape, not that it exists, so an entity that is *over* a list — a container
 * setting, a trucking fee's port — names `knownReferences` in `effects.beforeWrite` and an unknown code is
 * refused at its field (validation.unknownReference) instead of stored. Top-level ref fields only.
 */
export async function knownReferences(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, manifest, entity, data } = context
  const unknown: { field: string; message: string; params: Record<string, unknown> }[] = []
  for (const [name, field] of Object.entries(entity.fields)) {
    const value = data[name]
    if (field.type !== 'ref' || typeof value !== 'string' || !value) continue
    const list = manifest.entities[field.ref ?? '']
    if (!list?.reference || !list.table) continue
    const { rows } = await sql<{ code: string }>`
      select code from ${sql.table(list.table)} where code = ${value}`.execute(trx)
    if (!rows.length) unknown.push({ field: name, message: 'validation.unknownReference', params: {} })
  }
  if (unknown.length) throw new ApiError('validation', {}, unknown)
  return {}
}
