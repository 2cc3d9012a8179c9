import { sql } from 'kysely'
import type { DerivationContext, EngineRegistry } from '../../engine/index.ts'
import { fileInfo } from '../../files/store.ts'
import { ApiError } from '../../http/errors.ts'
import { nextDocumentNo } from '../orders/numbering.ts'
import { fbaGate } from './service.ts'
import { fbaEventTime, fbaLastMileNumber } from './tracking.ts'

/**
 * FBA orders (issue #26 part 2, schemas/fbaOrder.yaml) as the engine serves them: behind the FBA gate, numbered
 * by the tenant's rule for the document `fba` (FBA + the day + a sequence without one), every product line a
 * SKU of the enterprise's products with an HS code of the shared list. Each box's chargeable weight and the
 * order's total are derived fields (`derive:`, rules/derived.ts) the engine writes, whatever the caller sent.
 */
export function registerFbaOrders(engine: EngineRegistry): void {
  engine.gate('fbaOrder', fbaGate)
  engine.numbering('fbaOrderNo', (trx, tenantId, _record, at) => nextDocumentNo(trx, tenantId, 'fba', 'FBA', at))
  engine.derivation('fbaOrderLines', fbaOrderLines)
  // Tracking (./tracking.ts): each move's milestone at the server's time, the last-mile carrier's number.
  engine.derivation('fbaEventTime', fbaEventTime)
  engine.effect('fbaLastMileNumber', fbaLastMileNumber)
}

type Line = { sku?: unknown; hsCode?: unknown }

/** Each product line's SKU is one of the enterprise's FBA products and its HS code on the shared list. */
async function fbaOrderLines({ trx, call, before, data }: DerivationContext): Promise<Record<string, unknown>> {
  const lines = (Array.isArray(data.products) ? data.products : []) as Line[]
  const company = before?.company ?? call.session.companyId
  const skus = [...new Set(lines.map((l) => l.sku).filter((s): s is string => typeof s === 'string'))]
  const codes = [...new Set(lines.map((l) => l.hsCode).filter((s): s is string => typeof s === 'string'))]
  const known = new Set<string>()
  if (skus.length && company !== null && company !== undefined) {
    const { rows } = await sql<{ sku: string }>`select sku from fba_product
      where tenant_id = ${call.tenantId} and company = ${company} and sku in (${sql.join(skus)})`.execute(trx)
    for (const r of rows) known.add(r.sku)
  }
  const hs = new Set<string>()
  if (codes.length) {
    const { rows } = await sql<{ code: string }>`select code from ref_hs_code
      where code in (${sql.join(codes.map((c) => c.slice(0, 6)))})`.execute(trx)
    for (const r of rows) hs.add(r.code)
  }
  const errors: { field: string; message: string; params: Record<string, unknown> }[] = []
  errors.push(...(await unreadableFiles({ trx, call, before, data })))
  lines.forEach((line, i) => {
    if (typeof line.sku === 'string' && !known.has(line.sku))
      errors.push({ field: `products[${i}].sku`, message: 'fba.skuUnknown', params: {} })
    if (typeof line.hsCode === 'string' && !hs.has(line.hsCode.slice(0, 6)))
      errors.push({ field: `products[${i}].hsCode`, message: 'validation.unknownReference', params: {} })
  })
  if (errors.length) throw new ApiError('validation', {}, errors)
  return {}
}

/** SPEC §9 company user type 1: the forwarder's own staff. */
const OPERATOR = 1

/**
 * Each file row names a file the caller may read (server/files/store.ts: their own upload, their enterprise's, or
 * any of the tenant's for an operator): an id of another enterprise's document, or one that never was, is refused
 * at its row rather than kept as a link nobody on the order can open.
 */
async function unreadableFiles({ trx, call, data }: Pick<DerivationContext, 'trx' | 'call' | 'before' | 'data'>) {
  const rows = (Array.isArray(data.files) ? data.files : []) as { file?: unknown }[]
  const ids = rows.map((row) => row.file).filter((id): id is string => typeof id === 'string')
  if (!ids.length) return []
  const { userId, companyId, companyUserType } = call.session
  const readable = new Set(
    (
      await fileInfo(trx, call.tenantId, [...new Set(ids)], {
        userId,
        companyId,
        operator: companyUserType === OPERATOR,
      })
    ).map((file) => file.uuid),
  )
  return rows.flatMap((row, i) =>
    typeof row.file === 'string' && !readable.has(row.file)
      ? [{ field: `files[${i}].file`, message: 'validation.unknownReference', params: {} }]
      : [],
  )
}
