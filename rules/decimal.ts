/**
 * Exact decimal arithmetic for money and measures given as strings ("1234.560") or numbers.
 * Values are scaled to integers of 10^-6 in a BigInt, so sums never pick up float error.
 */
const SCALE = 6
const FACTOR = 10n ** BigInt(SCALE)

export function toScaled(value: unknown): bigint | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value
  if (typeof text !== 'string') return undefined
  const match = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text.trim())
  if (!match) return undefined
  const [, sign, whole, fraction = '', exponent] = match
  let digits = `${whole}${fraction}`
  let point = (whole as string).length + Number(exponent ?? 0)
  if (point < 0) {
    digits = '0'.repeat(-point) + digits
    point = 0
  }
  digits = digits.padEnd(point + SCALE, '0')
  const scaled = BigInt(digits.slice(0, point + SCALE) || '0')
  return sign ? -scaled : scaled
}

export function compareDecimal(a: unknown, b: unknown): number | undefined {
  const x = toScaled(a)
  const y = toScaled(b)
  if (x === undefined || y === undefined) return undefined
  return x < y ? -1 : x > y ? 1 : 0
}

export function formatScaled(value: bigint, decimals: number): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const whole = abs / FACTOR
  const fraction = (abs % FACTOR).toString().padStart(SCALE, '0').slice(0, decimals)
  return `${negative ? '-' : ''}${whole}${decimals ? `.${fraction}` : ''}`
}

/** Number of digits after the decimal point as written. */
export function decimalPlaces(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : String(value ?? '')
  const dot = text.indexOf('.')
  return dot < 0 || /e/i.test(text) ? 0 : text.length - dot - 1
}

/**
 * An exact amount string with thousands separators ("1234567.50" → "1,234,567.50"); never a float. Money reads
 * this way wherever the portal shows it: rate cards, list and detail cells, a bill's totals.
 */
export function groupDigits(amount: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(amount)) return amount
  const negative = amount.startsWith('-')
  const [whole = '0', fraction] = (negative ? amount.slice(1) : amount).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`
}
