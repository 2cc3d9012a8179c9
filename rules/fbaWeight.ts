import { formatScaled, toScaled } from './decimal.ts'

/**
 * An FBA carton's chargeable weight (issue #26, SPEC §3 ecommerceEqWeight): the larger of what it weighs and its
 * volumetric weight, length × width × height in centimetres over the tenant's divisor (6000 by default: a cubic
 * metre weighs 166.667 kg), in kilograms to three places, half up. Exact: the sizes are scaled integers, so 0.1
 * cm more never turns into 0.0999… kg. The order's total is each box's times the number of such boxes.
 */
export interface FbaBoxSize {
  quantity: unknown
  weight: unknown
  length: unknown
  width: unknown
  height: unknown
}

const PLACES = 1000n
/** 10^-6 units of rules/decimal.ts. */
const UNIT = 1_000_000n

/** Kilograms to three places, in scaled units (10^-6), rounded half up from an exact ratio. */
function roundKg(numerator: bigint, denominator: bigint): bigint {
  const thousandths = (numerator * PLACES * 2n + denominator) / (denominator * 2n)
  return thousandths * (UNIT / PLACES)
}

/** The box's chargeable weight as a decimal string with three places; undefined when a size is missing. */
export function chargeableWeight(box: FbaBoxSize, divisor: number): string | undefined {
  const [weight, length, width, height] = [box.weight, box.length, box.width, box.height].map(toScaled)
  if (weight === undefined || length === undefined || width === undefined || height === undefined) return undefined
  if (!Number.isInteger(divisor) || divisor <= 0) return undefined
  // (l/U)(w/U)(h/U)/divisor kg = l·w·h / (U³·divisor); in scaled units times U.
  const volumetric = roundKg(length * width * height, UNIT * UNIT * UNIT * BigInt(divisor))
  const actual = roundKg(weight, UNIT)
  // biome-ignore lint/complexity/useMathMinMax: BigInt values, which Math.max does not take
  return formatScaled(actual > volumetric ? actual : volumetric, 3)
}

/** The total over the boxes: each box's chargeable weight times its quantity, three places. */
export function chargeableTotal(boxes: readonly FbaBoxSize[], divisor: number): string | undefined {
  let total = 0n
  for (const box of boxes) {
    const each = toScaled(chargeableWeight(box, divisor))
    const quantity =
      typeof box.quantity === 'number' && Number.isInteger(box.quantity) ? BigInt(box.quantity) : undefined
    if (each === undefined || quantity === undefined) return undefined
    total += each * quantity
  }
  return formatScaled(total, 3)
}
