import { sql, type Transaction } from 'kysely'
import { compareDecimal } from '../../../rules/decimal.ts'
import type { FieldError } from '../../../rules/messages.ts'
import { sum } from '../../../rules/pricing.ts'
import { type CurrencyRate, convertAmount, quoteEditable, quoteFigures } from '../../../rules/quotes.ts'
import type { DB } from '../../db/schema.ts'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { ratesOn } from '../rates/pricing.ts'
import { cheapestRate, costIn, type InquiryRow, readInquiry } from './lanes.ts'
import { truckingCharges } from './trucking.ts'

/**
 * What the server works out of a quote before it is written (schemas/quote.yaml `effects.beforeWrite`):
 * the inquiry's checks (in the tenant, open, asking for the quote's mode), each line's amount, subtotals
 * per currency and the total in the quote's currency at the tenant's exchange rates of the day
 * (rules/quotes.ts), the customer it is for, and the low-fee confirmation (SPEC §5/§8).
 */

/** An inquiry takes quotes while it is open. */
const OPEN_INQUIRY = ['submitted', 'quoted']

const refuse = (errors: FieldError[]): never => {
  throw new ApiError('validation', {}, errors)
}

/**
 * The amount due of a quote, in its currency: the higher of the tenant's minimum for the mode (quote
 * configuration, converted from its currency) and the cost of the cheapest matching rate (base prices, no
 * markup) with the trucking fees the inquiry's pick-up and delivery match. Null when there is neither.
 */
export async function amountDue(
  trx: Transaction<DB>,
  tenantId: number,
  inquiry: InquiryRow,
  transportMode: number,
  currency: string,
  rates: ReadonlyMap<string, CurrencyRate>,
  date: string,
): Promise<string | null> {
  const { rows } = await sql<{ minimum: string | null; currency: string | null }>`
    select minimum_amount::text as minimum, currency from quote_config
    where tenant_id = ${tenantId} and transport_mode = ${transportMode} and enabled is not false`.execute(trx)
  const config = rows[0]
  const candidates: string[] = []
  if (config?.minimum) {
    const minimum = convertAmount(config.minimum, config.currency ?? currency, currency, rates)
    if (minimum) candidates.push(minimum)
  }
  const match = await cheapestRate(trx, tenantId, inquiry, transportMode, date, null, rates)
  const cost = match && costIn(match, currency, rates)
  if (cost) {
    // The trucking the inquiry asks for is a cost of the move too: its lines at their prices (no markup).
    const trucking = await truckingCharges(trx, tenantId, inquiry, transportMode, date, rates)
    const withTrucking = trucking.length ? quoteFigures(trucking, currency, rates).total : '0'
    candidates.push(withTrucking === null ? cost : sum([cost, withTrucking], rates.get(currency)?.minorUnits ?? 2))
  }
  return candidates.reduce<string | null>((a, b) => (a === null || (compareDecimal(b, a) ?? 0) > 0 ? b : a), null)
}

export async function quoteTotals({
  trx,
  call,
  before,
  data,
  at,
}: DerivationContext): Promise<Record<string, unknown>> {
  if (before && !quoteEditable(before)) throw new ApiError('320001')
  const inquiry = await readInquiry(trx, call.tenantId, Number(data.inquiry))
  if (!inquiry) refuse([{ field: 'inquiry', message: 'rule.quoteInquiryNotFound', params: {} }])
  const found = inquiry as InquiryRow
  if (!OPEN_INQUIRY.includes(found.state))
    refuse([{ field: 'inquiry', message: 'rule.quoteInquiryClosed', params: {} }])
  const mode = Number(data.transportMode)
  if (!(found.transport_modes ?? []).includes(mode))
    refuse([{ field: 'transportMode', message: 'rule.quoteModeNotInInquiry', params: {} }])

  // The tenant's day of the save: a rate valid "today" in Shanghai is valid at 01:00 there, UTC's yesterday.
  const date = await tenantDay(trx, call.tenantId, at)
  const rates = await ratesOn(trx, call.tenantId, date)
  const lines = (data.charges ?? []) as Record<string, unknown>[]
  const currency = data.currency as string
  const figures = quoteFigures(lines, currency, rates)
  if (figures.missingRates.length) {
    const errors: FieldError[] = []
    if (figures.missingRates.includes(currency))
      errors.push({ field: 'currency', message: 'rule.quoteNoExchangeRate', params: { currency } })
    lines.forEach((line, i) => {
      if (figures.missingRates.includes(line.currency as string) && line.currency !== currency)
        errors.push({
          field: `charges[${i}].currency`,
          message: 'rule.quoteNoExchangeRate',
          params: { currency: line.currency },
        })
    })
    refuse(errors)
  }
  const total = figures.total as string
  // The same conversion over the freight lines alone: what a site showing freight only gives as the total.
  const freightTotal = quoteFigures(
    lines.filter((line) => line.chargeType === 'freight'),
    currency,
    rates,
  ).total
  const due = await amountDue(trx, call.tenantId, found, mode, currency, rates, date)
  const low = due !== null && (compareDecimal(total, due) ?? 0) < 0
  if (low && data.lowFeeConfirmed !== true)
    refuse([{ field: 'lowFeeConfirmed', message: 'rule.quoteLowFee', params: { total, due, currency } }])
  return {
    charges: lines.map((line, i) => ({ ...line, amount: figures.amounts[i] })),
    subtotals: figures.subtotals,
    total,
    freightTotal,
    customerCompany: found.customer_company,
    lowFeeConfirmed: low,
    type: (before?.type as string | undefined) ?? 'manual',
  }
}
