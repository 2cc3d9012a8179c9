import { scaled } from '../../../rules/pricing.ts'

/** SPEC §5: a price has at most 10 integer digits and 3 decimals. */
const PRICE = /^\d{1,10}(\.\d{1,3})?$/

export type PriceProblem = 'required' | 'format' | 'positive' | 'notBelow'

/**
 * Checks a price the user typed for a special rate: at most 3 decimals and 10^10, above zero, and (when a
 * list price is known) below it. Exact decimals, never floats.
 */
export function priceProblem(typed: string, below?: string | null): PriceProblem | null {
  const text = typed.trim()
  if (!text) return 'required'
  if (!PRICE.test(text)) return 'format'
  if (scaled(text) <= 0n) return 'positive'
  if (below && scaled(text) >= scaled(below)) return 'notBelow'
  return null
}
