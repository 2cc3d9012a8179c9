import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The HS code is a subheading of the Harmonized System list (ref_hs_code, the getCommodityCodes look-up), or a
 * national tariff code of 8 or 10 digits (China customs, US HTS: SPEC §9) whose first six digits are one; the
 * field's `format: hsCode` has checked the digits on both sides. A code whose subheading the list does not hold
 * is refused on the field, in the caller's language.
 */
export async function hsSubheading(context: DerivationContext): Promise<Record<string, unknown>> {
  const code = context.data.hsCode
  if (typeof code !== 'string' || !code) return {}
  const { rows } = await sql<{ code: string }>`
    select code from ref_hs_code where code = ${code.slice(0, 6)}`.execute(context.trx)
  if (!rows.length) throw new ApiError('validation', {}, [{ field: 'hsCode', message: 'bl.hsCodeUnknown', params: {} }])
  return {}
}
