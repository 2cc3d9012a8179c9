import { sql } from 'kysely'
import type { DerivationContext, EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { nextDocumentNo } from '../orders/numbering.ts'
import { fbaGate } from './service.ts'

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
}

type Line = { sku?: unknown; hsCode?: unknown }

/** Each product line's SKU is one of the enterprise's FBA products and its HS code on the shared list. */
async function fbaOrderLines({ trx, call, before, data }: DerivationContext): Promise<Record<string, unknown>> {
  const lines = (Array.isArray(data.products) ? data.products : []) as Line[]
  if (!lines.length) return {}
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
  lines.forEach((line, i) => {
    if (typeof line.sku === 'string' && !known.has(line.sku))
      errors.push({ field: `products[${i}].sku`, message: 'fba.skuUnknown', params: {} })
    if (typeof line.hsCode === 'string' && !hs.has(line.hsCode.slice(0, 6)))
      errors.push({ field: `products[${i}].hsCode`, message: 'validation.unknownReference', params: {} })
  })
  if (errors.length) throw new ApiError('validation', {}, errors)
  return {}
}
