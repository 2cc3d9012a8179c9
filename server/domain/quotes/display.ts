import type { Transaction } from 'kysely'
import { type DisplayLine, type QuoteDisplay, shapeQuote } from '../../../rules/quoteDisplay.ts'
import { type CurrencyRate, quoteFigures } from '../../../rules/quotes.ts'
import type { DB } from '../../db/schema.ts'
import type { AnswerShape, ApiRow } from '../../engine/index.ts'
import { loadManifest } from '../../manifest.ts'
import { now, tenantDay } from '../../tenancy/clock.ts'
import { ratesOn } from '../rates/pricing.ts'
import { quoteSettings } from './review.ts'

/**
 * What a customer is answered of a quote (SPEC §9 display modes, issue #25): by the quote calls
 * (server/domain/quotes/handlers.ts) and by every engine answer of a quote row (`answer`, registered for
 * `quote`: the customer's own reject answers the row). The lines the site's display modes hide are not in
 * the answer, nor their labels; the freight total and the review stay the provider's.
 */

const PROVIDER = 1

/** The charge types in the quote's YAML order: major categories are listed in it. */
export function chargeTypeOrder(): string[] {
  const type = loadManifest().entities.quote?.fields.charges?.items?.chargeType
  return (type?.values ?? []).map((v) => String(v.value))
}

interface QuoteMoney {
  charges: DisplayLine[]
  currency: string
  total: string
  freightTotal?: string | null
  review?: unknown
}

/**
 * A quote as a customer is shown it (rules/quoteDisplay.ts). A quote saved before its freight total was kept has
 * it worked out with the same conversion at the rates given (today's).
 */
export function forCustomer<Q extends QuoteMoney>(
  quote: Q,
  display: QuoteDisplay,
  order: readonly string[],
  rates: ReadonlyMap<string, CurrencyRate>,
) {
  const { freightTotal, review: _review, ...row } = quote
  const freight =
    freightTotal ??
    quoteFigures(
      quote.charges.filter((line) => line.chargeType === 'freight'),
      quote.currency,
      rates,
    ).total ??
    '0'
  const shown = shapeQuote(
    { charges: quote.charges as Q['charges'], total: quote.total, freightTotal: freight },
    display,
    order,
  )
  return { ...row, ...shown, displayItems: display.items, displayCharges: display.charges }
}

/** The engine's answers of quote rows: whole for the provider's operators, shaped for a customer. */
export const customerQuoteRows: AnswerShape = async ({ trx, call, rows }) => {
  if (call.session.companyUserType === PROVIDER || !rows.length) return rows
  const { display } = await quoteSettings(trx, call.tenantId)
  const rates = await todaysRates(trx, call.tenantId)
  return rows.map((row) => {
    // The row keeps the quote's own shape (its answer schema): the category sums are the quote calls' alone.
    const {
      categories: _categories,
      displayItems: _items,
      displayCharges: _charges,
      ...shaped
    } = forCustomer(row as unknown as QuoteMoney, display, chargeTypeOrder(), rates)
    const labels = Object.fromEntries(
      Object.entries((row.labels ?? {}) as Record<string, unknown>).filter(([key]) => !key.startsWith('charges.')),
    )
    return { ...(shaped as ApiRow), freightTotal: null, review: null, labels }
  })
}

async function todaysRates(trx: Transaction<DB>, tenantId: number): Promise<ReadonlyMap<string, CurrencyRate>> {
  return ratesOn(trx, tenantId, await tenantDay(trx, tenantId, now()))
}
