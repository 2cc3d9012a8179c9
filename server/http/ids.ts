import { ApiError } from './errors.ts'

/** Ids are PostgreSQL `integer` (serial) columns: 1 … 2^31 − 1. */
export const MAX_ID = 2_147_483_647

/**
 * Reads a record id from a query string (text) or a body (a number) and answers it, or refuses the field
 * the way a schema would: not a whole number, below 1, or beyond the column's range (issue #17: an id of
 * 99999999999999999999 or 1e308 reached the database and answered 500).
 */
export function parseId(value: unknown, field = 'id'): number {
  const refuse = (message: string, params: Record<string, unknown> = {}) =>
    new ApiError('validation', {}, [{ field, message, params }])
  if (value === undefined || value === null || value === '') throw refuse('validation.required')
  // Text of digits reads as its number: one beyond 2^53 is inexact, but far beyond the range all the same.
  const id =
    typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN
  if (Number.isNaN(id)) throw refuse('validation.type_integer')
  if (id < 1) throw refuse('validation.minimum', { limit: 1 })
  if (id > MAX_ID) throw refuse('validation.maximum', { limit: MAX_ID })
  if (!Number.isInteger(id)) throw refuse('validation.type_integer')
  return id
}

/**
 * The id a value names, or null when it names none (not a whole number in 1 … MAX_ID, as a number or as
 * digits): for lookups that skip what cannot be an id rather than refuse it — a label, a code list, an
 * import's references. What is beyond the column's range never reaches the database.
 */
export function idOrNull(value: unknown): number | null {
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,10}$/.test(value)
        ? Number(value)
        : Number.NaN
  return Number.isInteger(id) && id >= 1 && id <= MAX_ID ? id : null
}
