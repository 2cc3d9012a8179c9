import type { Transaction } from 'kysely'
import type { DerivationName, EffectName } from '../../model/definitions.ts'
import type { ManifestEntity } from '../../model/resolve.ts'
import type { DB } from '../db/schema.ts'
import { inquiryQuoted, inquiryWithdrawn, quoteBooked } from '../domain/inquiries/effects.ts'
import { createShipment } from '../domain/orders/shipment.ts'
import { orderSource } from '../domain/orders/source.ts'
import { autoQuote } from '../domain/quotes/autoQuote.ts'
import { quoteTotals } from '../domain/quotes/totals.ts'
import type { Manifest } from '../manifest.ts'
import type { ApiRow, EngineCall } from './core.ts'

/**
 * The effects an entity may name (`effects:` of an entity, `effects:` of a transition; the meta-schema's
 * `$defs.effect` lists them): work on other records that a create, update or transition causes, run by
 * the engine in the same transaction after the row is written. A failing effect undoes the whole call.
 * Each is a domain function; this table only names them.
 */

export interface EffectContext {
  trx: Transaction<DB>
  call: EngineCall
  manifest: Manifest
  entity: ManifestEntity
  /** The row before the change (null on create) and after it, as the API answers them. */
  before: ApiRow | null
  after: ApiRow
  /** The time the call runs at (numbering, validity), as the engine reads it. */
  at: Date
}

export type Effect = (context: EffectContext) => Promise<void>

export const EFFECTS: Record<EffectName, Effect> = {
  /** inquiry, after create: automatic quotes from the tenant's quote configuration where a rate matches. */
  autoQuote,
  /** quote, send: its inquiry becomes quoted. */
  inquiryQuoted,
  /** inquiry, withdraw: its quotes still open are withdrawn with it. */
  inquiryWithdrawn,
  /** order, submit: the quote it was booked from becomes booked, and so does that quote's inquiry. */
  quoteBooked,
  /** order, accept: the confirmed order's shipment, so tracking finds it by order number. */
  createShipment,
}

export async function runEffects(names: readonly EffectName[] | undefined, context: EffectContext): Promise<void> {
  for (const name of names ?? []) await EFFECTS[name](context)
}

export interface DerivationContext {
  trx: Transaction<DB>
  call: EngineCall
  manifest: Manifest
  entity: ManifestEntity
  /** The stored row on update, null on create. */
  before: ApiRow | null
  /** The checked record about to be written (every writable field, as the API shapes it). */
  data: Record<string, unknown>
  at: Date
}

/**
 * Values of the record the server works out itself (amounts, totals, the customer a quote is for): field
 * name → value, read-only fields included. Run after the record is checked and before it is written;
 * an ApiError thrown here answers the call like a validation failure would.
 */
export type Derivation = (context: DerivationContext) => Promise<Record<string, unknown>>

export const DERIVATIONS: Record<DerivationName, Derivation> = {
  /** quote: line amounts, subtotals per currency, the total in the quote's currency; the inquiry's customer. */
  quoteTotals,
  /** order: where it was booked from (a rate valid today, a quote sent to the caller's company, or direct). */
  orderSource,
}

export async function runDerivations(
  names: readonly DerivationName[] | undefined,
  context: DerivationContext,
): Promise<Record<string, unknown>> {
  const derived: Record<string, unknown> = {}
  for (const name of names ?? [])
    Object.assign(derived, await DERIVATIONS[name]({ ...context, data: { ...context.data, ...derived } }))
  return derived
}
