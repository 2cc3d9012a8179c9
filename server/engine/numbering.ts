import type { Transaction } from 'kysely'
import type { FieldDef } from '../../model/definitions.ts'
import type { DB } from '../db/schema.ts'
import { nextDailyNo, nextOrderNo } from '../domain/orders/numbering.ts'

/**
 * The numbering kinds a field may name (`numbering:` in schemas/, checked by the meta-schema): on create
 * the engine fills such a field from its kind, in the creating transaction. Null leaves the field empty.
 */
export type NumberingKind = NonNullable<FieldDef['numbering']>

export type Numbering = (
  trx: Transaction<DB>,
  tenantId: number,
  record: Record<string, unknown>,
  at: Date,
) => Promise<string | null>

export const NUMBERINGS: Record<NumberingKind, Numbering> = {
  /** The tenant's order-number rule for the record's transport mode (schemas/orderNumberRule.yaml). */
  orderNo: (trx, tenantId, record, at) => nextOrderNo(trx, tenantId, record.transportMode, at),
  inquiryNo: (trx, tenantId, _record, at) => nextDailyNo(trx, tenantId, 'INQ', at),
  quoteNo: (trx, tenantId, _record, at) => nextDailyNo(trx, tenantId, 'QT', at),
}
