/**
 * Money is a decimal string ("1234.560"): never a float (DESIGN, docs/DECISIONS.md). What the amount
 * box accepts as the user types or pastes: digits, one point, a leading minus, at most 10 integer digits
 * (SPEC §5: capped at 10^10) and the field's decimals (3 unless it says otherwise). Thousands separators
 * and spaces in pasted text are dropped.
 */

export const MONEY_INTEGER_DIGITS = 10
export const DEFAULT_MONEY_DECIMALS = 3

/** The text to keep for what was typed, or null to keep the previous text (the keystroke is refused). */
export function moneyInput(raw: string, decimals = DEFAULT_MONEY_DECIMALS, negative = true): string | null {
  const text = raw.replace(/[\s,\u00a0]/g, '')
  if (text === '' || (negative && text === '-')) return text
  const places = decimals > 0 ? `(\\.\\d{0,${decimals}})?` : ''
  const shape = new RegExp(`^${negative ? '-?' : ''}\\d{1,${MONEY_INTEGER_DIGITS}}${places}$`)
  return shape.test(text) ? text : null
}

/** The value to store once the user leaves the box: '12.' becomes '12', '-' and '' become empty. */
export function moneyValue(text: string): string | undefined {
  if (text === '' || text === '-') return undefined
  return text.endsWith('.') ? text.slice(0, -1) : text
}

/** The decimals a money field's JSON Schema pattern allows (`\d{1,3}` → 3; none → 0). */
export function decimalsOf(pattern: unknown): number {
  if (typeof pattern !== 'string') return DEFAULT_MONEY_DECIMALS
  const match = /\\\.\\d\{1,(\d+)\}/.exec(pattern)
  return match ? Number(match[1]) : 0
}
