/**
 * What a customer sees of a quote (SPEC §9 "quote display modes: every item, major category only, none; all-in
 * charges or freight only", issue #25): the tenant's site settings quoteDisplayItems and quoteDisplayCharges.
 * Pure, over exact decimals: the server shapes every quote it answers a customer with this, so a hidden line is
 * never in the answer (server/domain/quotes/handlers.ts). Amounts are added only within one currency; the one
 * figure across currencies is the total the server converted when the quote was saved (all-in: `total`,
 * freight only: `freightTotal`).
 */
import { decimalPlaces } from './decimal.ts'
import { sum } from './pricing.ts'

export type QuoteItemsMode = 'every' | 'category' | 'none'
export type QuoteChargesMode = 'allIn' | 'freightOnly'

export interface QuoteDisplay {
  items: QuoteItemsMode
  charges: QuoteChargesMode
}

/** A site without the settings: every line, totals all-in (what quotes showed before the settings). */
export const DEFAULT_QUOTE_DISPLAY: QuoteDisplay = { items: 'every', charges: 'allIn' }

const ITEMS: readonly QuoteItemsMode[] = ['every', 'category', 'none']
const CHARGES: readonly QuoteChargesMode[] = ['allIn', 'freightOnly']

/** The display modes of a tenant's site settings; a missing or unknown value keeps the default. */
export function quoteDisplayOf(settings: Record<string, unknown> | null | undefined): QuoteDisplay {
  const items = settings?.quoteDisplayItems
  const charges = settings?.quoteDisplayCharges
  return {
    items: ITEMS.includes(items as QuoteItemsMode) ? (items as QuoteItemsMode) : DEFAULT_QUOTE_DISPLAY.items,
    charges: CHARGES.includes(charges as QuoteChargesMode)
      ? (charges as QuoteChargesMode)
      : DEFAULT_QUOTE_DISPLAY.charges,
  }
}

export interface DisplayLine {
  chargeType: string
  currency: string
  amount?: string | null
}

/** One major category's lines of one currency, added. */
export interface CategorySum<T extends string = string> {
  chargeType: T
  currency: string
  amount: string
}

export interface ShownQuote<L extends DisplayLine> {
  /** The lines the customer sees (every item), else none. */
  charges: L[]
  /** The lines summed per category and currency (major category only), else none. */
  categories: CategorySum<L['chargeType']>[]
  /** Per currency of the counted lines, in the order they first appear. */
  subtotals: { currency: string; amount: string }[]
  /** In the quote's currency: all-in, or the freight lines' total (freight only). */
  total: string
}

/** Amounts of one currency added, kept to the places they are written with (JPY "12000", USD "3701.00"). */
function added(amounts: string[]): string {
  return sum(amounts, Math.max(0, ...amounts.map(decimalPlaces)))
}

function byKey<T>(list: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of list) groups.set(key(item), [...(groups.get(key(item)) ?? []), item])
  return groups
}

/**
 * A quote as the display modes show it. `categoryOrder` is the charge types in the order the quote's YAML lists
 * them (schemas/quote.yaml chargeType); a category it does not name comes after, in the order of the lines.
 */
export function shapeQuote<L extends DisplayLine>(
  quote: { charges: readonly L[]; total: string; freightTotal: string },
  display: QuoteDisplay,
  categoryOrder: readonly string[] = [],
): ShownQuote<L> {
  const counted = quote.charges.filter((line) => display.charges === 'allIn' || line.chargeType === 'freight')
  const priced = counted.filter((line): line is L & { amount: string } => typeof line.amount === 'string')
  const subtotals = [...byKey(priced, (line) => line.currency)].map(([currency, lines]) => ({
    currency,
    amount: added(lines.map((line) => line.amount)),
  }))
  const rank = (type: string) => {
    const at = categoryOrder.indexOf(type)
    return at < 0 ? categoryOrder.length : at
  }
  const categories =
    display.items === 'category'
      ? [...byKey(priced, (line) => `${line.chargeType}\u0000${line.currency}`).values()]
          .map((lines) => ({
            chargeType: (lines[0] as L).chargeType,
            currency: (lines[0] as L).currency,
            amount: added(lines.map((line) => line.amount)),
          }))
          .sort((a, b) => rank(a.chargeType) - rank(b.chargeType))
      : []
  return {
    charges: display.items === 'every' ? [...counted] : [],
    categories,
    subtotals,
    total: display.charges === 'allIn' ? quote.total : quote.freightTotal,
  }
}
