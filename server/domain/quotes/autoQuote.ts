import type { EffectContext } from '../../engine/effects.ts'

/** Automatic quotes from the tenant's quote configuration (issue #8): built in the quote work. */
export async function autoQuote(_context: EffectContext): Promise<void> {}
