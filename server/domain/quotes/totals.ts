import type { DerivationContext } from '../../engine/effects.ts'

/** Quote amounts, subtotals and total (issue #8): built in the quote work. */
export async function quoteTotals(_context: DerivationContext): Promise<Record<string, unknown>> {
  return {}
}
