import type { EngineRegistry } from '../../engine/index.ts'
import { nextDailyNo } from '../orders/numbering.ts'
import { offeredContainers } from './containers.ts'
import { inquiryQuoted, inquiryWithdrawn, quoteBooked } from './effects.ts'

/** Inquiries (schemas/inquiry.yaml) and the states their quotes and orders move them through. */
export function register(engine: EngineRegistry): void {
  /** quote, send: its inquiry becomes quoted. */
  engine.effect('inquiryQuoted', inquiryQuoted)
  /** inquiry, withdraw: its quotes still open are withdrawn with it. */
  engine.effect('inquiryWithdrawn', inquiryWithdrawn)
  /** order, submit: the quote it was booked from becomes booked, and so does that quote's inquiry. */
  engine.effect('quoteBooked', quoteBooked)
  /** inquiry, before it is written: only the container types the tenant offers. */
  engine.derivation('offeredContainers', offeredContainers)
  /** INQ, the tenant's day and a daily sequence. */
  engine.numbering('inquiryNo', (trx, tenantId, _record, at) => nextDailyNo(trx, tenantId, 'INQ', at))
}
