import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { booksOnline } from '../clients/services.ts'
import { directOrderService } from '../site/handlers.ts'

/**
 * Where an order is booked from (schemas/order.yaml `effects.beforeWrite`), worked out by the server on
 * every create and update, whichever call stores the order: a rate valid today whose lane, carrier, mode
 * and container types the order keeps; a quote sent to the caller's company, unexpired, whose inquiry's
 * lane and mode the order keeps; or direct, which needs the directlyEntrusted permission and the tenant's
 * online booking (SPEC §2, the check of /b2b/tenant/checkTenant). Only an order not yet submitted (draft,
 * unsubmitted) may be edited, and its source never changes.
 */

const EDITABLE = ['draft', 'unsubmitted']

/** The load types of a rate's mode and of a transport mode (quotes): the order must be one of them. */
const RATE_LOAD_TYPE: Record<string, { transportMode: number; containerLoadType: string }> = {
  FCL: { transportMode: 1, containerLoadType: 'FCL' },
  LCL: { transportMode: 1, containerLoadType: 'LCL' },
  AIR: { transportMode: 2, containerLoadType: 'AIR' },
}

function mismatch(field: string, message: string): ApiError {
  return new ApiError('validation', {}, [{ field, message, params: {} }])
}

interface RateFacts {
  mode: string
  carrier: string
  origin: string
  destination: string
  valid_from: string
  valid_to: string
  container_prices: { containerType: string }[] | null
}

interface QuoteFacts {
  state: string
  valid_until: string
  customer_company: number | null
  transport_mode: number
  carrier: string | null
  origin: string
  destination: string
}

async function checkRate(context: DerivationContext, rateId: number, fresh: boolean): Promise<Record<string, unknown>> {
  const { trx, call, data } = context
  const { rows } = await sql<RateFacts>`
    select mode, carrier, coalesce(pol, origin_airport) as origin, coalesce(pod, destination_airport) as destination,
      to_char(valid_from, 'YYYY-MM-DD') as valid_from, to_char(valid_to, 'YYYY-MM-DD') as valid_to, container_prices
    from freight_rate where tenant_id = ${call.tenantId} and id = ${rateId}`.execute(trx)
  const rate = rows[0]
  if (!rate) throw mismatch('rate', 'rule.orderSourceNotFound')
  // SPEC §8 "freight rate has expired": only a rate valid today (the tenant's day) can be booked.
  const today = await tenantDay(trx, call.tenantId, context.at)
  if (fresh && (rate.valid_to < today || rate.valid_from > today)) throw new ApiError('340001')
  const mode = RATE_LOAD_TYPE[rate.mode]
  if (!mode || data.containerLoadType !== mode.containerLoadType || data.transportMode !== mode.transportMode)
    throw mismatch('containerLoadType', 'rule.orderMatchesRate')
  if (data.pol !== rate.origin) throw mismatch('pol', 'rule.orderMatchesRate')
  if (data.pod !== rate.destination) throw mismatch('pod', 'rule.orderMatchesRate')
  if (data.carrier && data.carrier !== rate.carrier) throw mismatch('carrier', 'rule.orderMatchesRate')
  const priced = new Set((rate.container_prices ?? []).map((p) => p.containerType))
  const containers = (data.containers as { containerType: string }[] | undefined) ?? []
  const unpriced = containers.findIndex((c) => !priced.has(c.containerType))
  if (rate.mode === 'FCL' && unpriced >= 0)
    throw mismatch(`containers[${unpriced}].containerType`, 'rule.orderMatchesRate')
  return { source: 'rate', rate: rateId, quote: null, carrier: rate.carrier }
}

async function checkQuote(
  context: DerivationContext,
  quoteId: number,
  fresh: boolean,
): Promise<Record<string, unknown>> {
  const { trx, call, data } = context
  const { rows } = await sql<QuoteFacts>`
    select q.state, to_char(q.valid_until, 'YYYY-MM-DD') as valid_until, q.customer_company, q.transport_mode,
      q.carrier, i.origin, i.destination
    from quote q join inquiry i on i.id = q.inquiry and i.tenant_id = q.tenant_id
    where q.tenant_id = ${call.tenantId} and q.id = ${quoteId}`.execute(trx)
  const quote = rows[0]
  // Another company's quote is not found, exactly as one that does not exist.
  if (!quote || quote.customer_company === null || quote.customer_company !== bookerCompany(context))
    throw mismatch('quote', 'rule.orderSourceNotFound')
  if (fresh && quote.state !== 'quoted') throw new ApiError('320001')
  if (fresh && quote.valid_until < (await tenantDay(trx, call.tenantId, context.at))) throw new ApiError('340001')
  if (data.transportMode !== quote.transport_mode) throw mismatch('transportMode', 'rule.orderMatchesQuote')
  if (data.pol !== quote.origin) throw mismatch('pol', 'rule.orderMatchesQuote')
  if (data.pod !== quote.destination) throw mismatch('pod', 'rule.orderMatchesQuote')
  return { source: 'quote', quote: quoteId, rate: null }
}

/** SPEC §6: company user type 1 is the provider side. */
const PROVIDER = 1

/**
 * Whose order it is: the caller's company, or the customer enterprise an operator books for (the operators'
 * booking import sets the order's customerCompany, checked by the engine to be an enterprise of the tenant).
 */
function bookerCompany({ call, data }: DerivationContext): number | null {
  return call.session.companyUserType === PROVIDER && typeof data.customerCompany === 'number'
    ? data.customerCompany
    : call.session.companyId
}

async function checkDirect(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, call } = context
  // An operator booking for a customer does so as the forwarder: the customer's own permission is not theirs.
  const forCustomer = call.session.companyUserType === PROVIDER && bookerCompany(context) !== call.session.companyId
  if (!forCustomer && !call.session.permissions.has('directlyEntrusted')) throw new ApiError('220000')
  const tenant = await trx.selectFrom('tenant').select('settings').where('id', '=', call.tenantId).executeTakeFirst()
  // The tenant check of the Direct order menu: no online booking service, no direct order.
  if (!directOrderService((tenant?.settings ?? {}) as Record<string, unknown>)) throw new ApiError('220000')
  // Nor for an enterprise whose online booking the provider has not enabled, or turned off
  // (/clientEnterpriseService): refused on the first call after the change.
  if (!(await booksOnline(trx, { tenantId: call.tenantId, companyId: bookerCompany(context) })))
    throw new ApiError('220000')
  return { source: 'direct', rate: null, quote: null }
}

export async function orderSource(context: DerivationContext): Promise<Record<string, unknown>> {
  const { before, data } = context
  if (before && !EDITABLE.includes(String(before.state))) throw new ApiError('320001')
  const rate = Number(before ? before.rate : data.rate) || null
  const quote = Number(before ? before.quote : data.quote) || null
  // A draft has not been sent to the provider yet: its rate or quote must still be bookable.
  const fresh = !before || before.state === 'draft'
  if (rate && quote) throw mismatch('quote', 'rule.orderOneSource')
  if (rate) return checkRate(context, rate, fresh)
  if (quote) return checkQuote(context, quote, fresh)
  if (before) return { source: before.source ?? 'direct', rate: null, quote: null }
  return checkDirect(context)
}
