/**
 * Freight pricing as pure functions over exact decimals (SPEC §5: "amounts are exact decimals end to end").
 * Every amount goes in and out as a decimal string; inside, values are BigInt integers of 10^-6
 * (rules/decimal.ts), and a product or quotient is rounded half up once, where the function says so.
 * The server's rate search (server/domain/rates) and the portal's comparison screens both use these.
 */
import { formatScaled, toScaled } from './decimal.ts'

const FACTOR = 1_000_000n
const ZERO = 0n

/** A decimal string or number as a scaled integer; anything else is an error of the caller. */
export function scaled(value: unknown): bigint {
  const result = toScaled(value)
  if (result === undefined) throw new Error(`not a decimal: ${String(value)}`)
  return result
}

/** Rounds a scaled value half up (away from zero) to `decimals` places, still scaled. */
export function roundScaled(value: bigint, decimals: number): bigint {
  const step = 10n ** BigInt(6 - decimals)
  const negative = value < ZERO
  const abs = negative ? -value : value
  const rounded = ((abs + step / 2n) / step) * step
  return negative ? -rounded : rounded
}

/** Rounds a scaled value up (towards +∞) to a multiple of `step` (scaled). */
function ceilTo(value: bigint, step: bigint): bigint {
  const rest = value % step
  return rest === ZERO ? value : value + (step - rest)
}

/** a × b, exact to 10^-6 (half up at the sixth place). */
export function multiply(a: bigint, b: bigint): bigint {
  const product = a * b
  return (product + (product >= ZERO ? FACTOR / 2n : -FACTOR / 2n)) / FACTOR
}

/** a ÷ b rounded half up to `decimals` places (scaled). */
export function divide(a: bigint, b: bigint, decimals: number): bigint {
  if (b === ZERO) throw new Error('division by zero')
  const step = 10n ** BigInt(6 - decimals)
  // a / b in units of `step`, rounded half up: (2a·F + b·step) / (2b·step) with positive operands.
  const negative = a < ZERO !== b < ZERO
  const x = (a < ZERO ? -a : a) * FACTOR
  const y = (b < ZERO ? -b : b) * step
  const units = (2n * x + y) / (2n * y)
  const result = units * step
  return negative ? -result : result
}

export const format = (value: bigint, decimals: number): string => formatScaled(value, decimals)
// biome-ignore lint/complexity/useMathMinMax: Math.max does not take BigInts.
const max = (...values: bigint[]) => values.reduce((a, b) => (b > a ? b : a))

/** IATA: 1 CBM is charged as 166.67 kg — volume weight (kg) = L × W × H (cm) ÷ 6000 = CBM × 1 000 000 ÷ 6000. */
export const VOLUMETRIC_DIVISOR_CM3_PER_KG = 6000n
const HALF_KG = 500_000n

/**
 * Chargeable weight of air cargo in kg: the greater of the actual weight and the volume weight
 * (CBM × 1 000 000 ÷ 6000, i.e. L×W×H cm ÷ 6000), each rounded up to the next half kilogram as airlines do.
 */
export function chargeableWeightKg(actualKg: string | number, cbm: string | number): string {
  const volumeKg = (scaled(cbm) * 1_000_000n + VOLUMETRIC_DIVISOR_CM3_PER_KG - 1n) / VOLUMETRIC_DIVISOR_CM3_PER_KG
  return format(max(ceilTo(scaled(actualKg), HALF_KG), ceilTo(volumeKg, HALF_KG)), 1)
}

/** Weight or measure (LCL): revenue tons = the greater of CBM and metric tons (1 000 kg ≙ 1 CBM), 3 places. */
export function revenueTons(cbm: string | number, kg: string | number): string {
  const tons = divide(scaled(kg), 1000n * FACTOR, 3)
  return format(max(roundScaled(scaled(cbm), 3), tons), 3)
}

/**
 * LCL ocean freight: the greater of CBM × price per CBM, tons × price per ton and the minimum charge.
 * A price left out does not count; the answer has 2 places.
 */
export function lclFreight(
  cbm: string | number,
  kg: string | number,
  prices: { perCbm?: string | null; perTon?: string | null; minimum?: string | null },
): string {
  const candidates = [ZERO]
  if (prices.perCbm) candidates.push(multiply(scaled(cbm), scaled(prices.perCbm)))
  if (prices.perTon) candidates.push(multiply(divide(scaled(kg), 1000n * FACTOR, 6), scaled(prices.perTon)))
  if (prices.minimum) candidates.push(scaled(prices.minimum))
  return format(roundScaled(max(...candidates), 2), 2)
}

export interface AirBreak {
  /** The break: this price per kg applies from this chargeable weight up (45, 100, 300, 500, 1000 kg…). */
  minKg: number | string
  price: string
}

/**
 * Air freight for a chargeable weight: the price of the highest break the weight reaches, or — when
 * cheaper — the next break's price over that break's weight (the airline "break point" rule), never less
 * than the minimum charge. 2 places. Weights below the lowest break pay the lowest break's price.
 */
export function airFreight(
  chargeableKg: string | number,
  breaks: readonly AirBreak[],
  minimum?: string | null,
): string {
  const weight = scaled(chargeableKg)
  const sorted = [...breaks].sort((a, b) => (scaled(a.minKg) < scaled(b.minKg) ? -1 : 1))
  if (!sorted.length) return format(minimum ? roundScaled(scaled(minimum), 2) : ZERO, 2)
  let best: bigint | undefined
  for (const [i, brk] of sorted.entries()) {
    const from = scaled(brk.minKg)
    const reached = weight >= from || i === 0
    const amount = multiply(reached ? weight : from, scaled(brk.price))
    if (reached && i + 1 < sorted.length && weight >= scaled((sorted[i + 1] as AirBreak).minKg)) continue
    if (best === undefined || amount < best) best = amount
  }
  const total = max(best ?? ZERO, minimum ? scaled(minimum) : ZERO)
  return format(roundScaled(total, 2), 2)
}

/** A price level's markup (percent, may be negative) on a unit price, rounded half up to 2 places. */
export function applyMarkup(price: string, percent: string | number | null | undefined): string {
  const base = scaled(price)
  if (percent === null || percent === undefined || percent === '' || Number(percent) === 0) {
    return format(roundScaled(base, 2), 2)
  }
  const factor = 100n * FACTOR + scaled(percent)
  return format(divide(base * factor, 100n * FACTOR * FACTOR, 2), 2)
}

/**
 * An amount in one currency expressed in another through their rates to CNY (amount × from ÷ to), rounded
 * half up to the target currency's minor units (0 for JPY and KRW, 2 for the others of SPEC §9).
 */
export function convert(amount: string, fromRateToCny: string, toRateToCny: string, decimals = 2): string {
  if (fromRateToCny === toRateToCny) return format(roundScaled(scaled(amount), decimals), decimals)
  const cny = scaled(amount) * scaled(fromRateToCny)
  return format(divide(cny, scaled(toRateToCny) * FACTOR, decimals), decimals)
}

/** The exact sum of decimal strings, with `decimals` places. */
export function sum(amounts: readonly string[], decimals = 2): string {
  return format(
    amounts.reduce((total, a) => total + scaled(a), ZERO),
    decimals,
  )
}

const DAY_MS = 86_400_000

/** ISO weekday of a YYYY-MM-DD date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay()
  return day === 0 ? 7 : day
}

/**
 * The first sailing (or flight) on or after `from` on one of the ISO weekdays (1 Monday … 7 Sunday), no later
 * than `until` (the rate's last valid day); null when there is none. No weekdays means every day.
 */
export function nextDeparture(
  from: string,
  weekdays: readonly number[] | null | undefined,
  until?: string,
): string | null {
  const start = Date.parse(`${from}T00:00:00Z`)
  for (let i = 0; i < 7; i++) {
    const date = new Date(start + i * DAY_MS).toISOString().slice(0, 10)
    if (until && date > until) return null
    if (!weekdays?.length || weekdays.includes(isoWeekday(date))) return date
  }
  return null
}

export type RateSort = 'cheapest' | 'quickest' | 'earliest'

export interface Sortable {
  id: number
  /** The total in the caller's currency (a decimal string). */
  total: string
  transitDays: number | null
  nextDeparture: string | null
}

/**
 * SPEC §9 quote sorting: cheapest (total), quickest (transit days), earliest (next departure); ties by the
 * total, then the id, so equal pages never overlap. Missing values sort last.
 */
export function compareRates(by: RateSort): (a: Sortable, b: Sortable) => number {
  const byTotal = (a: Sortable, b: Sortable) => {
    const x = scaled(a.total)
    const y = scaled(b.total)
    return x < y ? -1 : x > y ? 1 : 0
  }
  const nullsLast = <T>(a: T | null, b: T | null, cmp: (x: T, y: T) => number) =>
    a === null ? (b === null ? 0 : 1) : b === null ? -1 : cmp(a, b)
  const primary: (a: Sortable, b: Sortable) => number =
    by === 'quickest'
      ? (a, b) => nullsLast(a.transitDays, b.transitDays, (x, y) => x - y)
      : by === 'earliest'
        ? (a, b) => nullsLast(a.nextDeparture, b.nextDeparture, (x, y) => (x < y ? -1 : x > y ? 1 : 0))
        : byTotal
  return (a, b) => primary(a, b) || byTotal(a, b) || a.id - b.id
}
