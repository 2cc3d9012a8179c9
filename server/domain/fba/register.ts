import { type SqlBool, sql } from 'kysely'
import { onPermissionsShown } from '../../auth/withheld.ts'
import type { DerivationContext, EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { registerFbaOrders } from './orders.ts'
import { fbaGate, withheldPermissions } from './service.ts'

/**
 * FBA addresses and products (issue #26, schemas/fbaAddress.yaml, fbaProduct.yaml) as the engine serves them:
 * only to enterprises whose FBA service is on (./service.ts), each enterprise's own behind the company wall,
 * an address picked from Amazon's fulfilment centres filled from it, one product per SKU and enterprise.
 */
export function register(engine: EngineRegistry): void {
  engine.gate('fbaAddress', fbaGate)
  engine.gate('fbaProduct', fbaGate)
  onPermissionsShown(withheldPermissions)
  // SPEC §6 "FBA addresses can be public to colleagues": a user who sees only their own rows (data scope
  // self) sees too the addresses colleagues of the same enterprise made public — to read and pick, not to
  // change or delete: a write keeps the data scope's own rows. The company wall stays.
  engine.visibility('fbaAddress', ({ call, table, defaults, purpose }) => {
    const { session } = call
    if (
      purpose === 'write' ||
      session.dataScope !== 'self' ||
      session.companyId === null ||
      session.companyUserType === 1
    )
      return defaults
    const column = (name: string) => sql.ref(`${table}.${name}`)
    return [
      sql<SqlBool>`${column('company')} = ${session.companyId}`,
      sql<SqlBool>`(${column('created_by')} = ${session.userId} or ${column('public_to_colleagues')} is true)`,
    ]
  })
  engine.derivation('fbaAddressFromCentre', fbaAddressFromCentre)
  engine.derivation('fbaAddressCode', uniqueInCompany('fba_address', 'code', 'fba.addressCodeTaken'))
  engine.derivation('fbaProductSku', uniqueInCompany('fba_product', 'sku', 'fba.skuTaken'))
  registerFbaOrders(engine)
}

const fieldRefusal = (field: string, message: string) =>
  new ApiError('validation', {}, [{ field, message, params: {} }])

/**
 * A delivery address picked from a fulfilment centre takes the centre's country, state, city, street and
 * postcode (what Amazon's carriers deliver to), whatever was typed; a pickup address keeps none.
 */
async function fbaAddressFromCentre({ trx, data }: DerivationContext): Promise<Record<string, unknown>> {
  const code = data.fulfilmentCentre
  if (code === undefined || code === null || code === '') return {}
  if (data.purpose !== 2) return { fulfilmentCentre: null }
  const { rows } = await sql<{
    country: string
    state: string
    city: string
    address_line1: string
    zip_code: string
  }>`select country, state, city, address_line1, zip_code from ref_amazon_fc where code = ${code}`.execute(trx)
  const centre = rows[0]
  if (!centre) throw fieldRefusal('fulfilmentCentre', 'fba.fulfilmentCentreUnknown')
  return {
    country: centre.country,
    state: centre.state,
    city: centre.city,
    addressLine1: centre.address_line1,
    zipCode: centre.zip_code,
  }
}

/**
 * One value per enterprise (the table's unique index on company and the column holds it at the end): checked
 * first so the form says which field and why, in the user's language, rather than a bare 400003.
 */
function uniqueInCompany(table: 'fba_address' | 'fba_product', column: 'code' | 'sku', message: string) {
  return async ({ trx, call, before, data }: DerivationContext): Promise<Record<string, unknown>> => {
    const value = data[column]
    const company = before?.company ?? call.session.companyId
    if (typeof value !== 'string' || company === null || company === undefined) return {}
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)}
      where tenant_id = ${call.tenantId} and company = ${company} and ${sql.ref(column)} = ${value}
        and id <> ${before?.id ?? 0} limit 1`.execute(trx)
    if (rows.length) throw fieldRefusal(column, message)
    return {}
  }
}
