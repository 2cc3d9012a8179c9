import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The codes a record names of the shared reference lists (ports, currencies, container types…) are on those
 * lists: the engine checks a code's shape, not that it exists, so an entity that is *over* a list — a container
 * setting, a trucking fee's port — names `knownReferences` in `effects.beforeWrite` and an unknown code is
 * refused at its field (validation.unknownReference) instead of stored. Top-level ref fields only, single or
 * multiple.
 */
export async function knownReferences(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, manifest, entity, data } = context
  const unknown: { field: string; message: string; params: Record<string, unknown> }[] = []
  for (const [name, field] of Object.entries(entity.fields)) {
    const value = data[name]
    // One code, or a list of them (a booking agent's carriers: `multiple: true`).
    const codes = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && !!v)
    if (field.type !== 'ref' || !codes.length) continue
    const list = manifest.entities[field.ref ?? '']
    if (!list?.reference || !list.table) continue
    const { rows } = await sql<{ code: string }>`
      select code from ${sql.table(list.table)} where code in (${sql.join(codes)})`.execute(trx)
    if (rows.length < new Set(codes).size)
      unknown.push({ field: name, message: 'validation.unknownReference', params: {} })
  }
  if (unknown.length) throw new ApiError('validation', {}, unknown)
  return {}
}

/**
 * One code of a reference list a hand-written handler stores (a user's region: ref_country), refused at its field
 * when the list has no such code.
 */
export async function knownCode(
  trx: Transaction<DB>,
  table: 'ref_country',
  code: string,
  field: string,
): Promise<void> {
  const { rows } = await sql`select 1 from ${sql.table(table)} where code = ${code}`.execute(trx)
  if (!rows.length)
    throw new ApiError('validation', {}, [{ field, message: 'validation.unknownReference', params: {} }])
}
