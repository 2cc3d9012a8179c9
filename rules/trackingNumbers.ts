import { airWaybill, isoContainer } from './formats.ts'

/**
 * The numbers a cargo-tracking search is typed as (SPEC §5 "Tracking search: up to 10 numbers"): the
 * portal refuses before sending and the server refuses the same way, so both import this one function.
 * Both readings of the separator are taken: commas, semicolons (also the full-width ，；、 a Chinese
 * keyboard types), spaces and new lines all separate numbers.
 */

export const MAX_TRACKING_NUMBERS = 10

/**
 * container: ISO 6346 (owner, category, serial, check digit); airWaybill: a master air waybill (3-digit
 * airline prefix, 8-digit serial with the mod-7 check); reference: an order number or a bill-of-lading
 * number, which have no check of their own and are looked up as either.
 */
export type TrackingNumberKind = 'container' | 'airWaybill' | 'reference'

export interface TrackingNumber {
  /** Upper case; an air waybill as `160-26034186`. */
  number: string
  kind: TrackingNumberKind
}

/** Why a search is refused: a locale key of the tracking namespace and its parameters. */
export interface TrackingNumbersError {
  key:
    | 'tracking.errorEmpty'
    | 'tracking.errorTooMany'
    | 'tracking.errorContainerCheck'
    | 'tracking.errorAirWaybillCheck'
    | 'tracking.errorMalformed'
  params: Record<string, string | number>
}

export type TrackingNumbersResult = { ok: true; numbers: TrackingNumber[] } | { ok: false; error: TrackingNumbersError }

const SEPARATORS = /[\s,;，；、]+/u
const CONTAINER_SHAPE = /^[A-Z]{3}[UJZ]\d{7}$/
const AIR_WAYBILL_SHAPE = /^\d{3}-?\d{8}$/
/** Order numbers (HY2603020001) and B/L numbers (COSU6312345670, HYSHA0260000): letters, digits, a hyphen. */
const REFERENCE_SHAPE = /^[A-Z0-9][A-Z0-9-]{3,31}$/

/** One number as typed, classified, or why it is refused. */
export function classifyTrackingNumber(raw: string): TrackingNumber | TrackingNumbersError {
  const value = raw.trim().toUpperCase()
  if (CONTAINER_SHAPE.test(value)) {
    return isoContainer(value)
      ? { number: value, kind: 'container' }
      : { key: 'tracking.errorContainerCheck', params: { number: value } }
  }
  if (AIR_WAYBILL_SHAPE.test(value)) {
    const digits = value.replace('-', '')
    return airWaybill(digits)
      ? { number: `${digits.slice(0, 3)}-${digits.slice(3)}`, kind: 'airWaybill' }
      : { key: 'tracking.errorAirWaybillCheck', params: { number: value } }
  }
  if (REFERENCE_SHAPE.test(value)) return { number: value, kind: 'reference' }
  return { key: 'tracking.errorMalformed', params: { number: raw.trim().slice(0, 40) } }
}

/**
 * Splits, classifies and de-duplicates what was typed. More than 10 numbers, none at all, or any
 * malformed one refuses the whole search (the first problem is named), so nothing is sent.
 */
export function parseTrackingNumbers(text: string): TrackingNumbersResult {
  const tokens = text.split(SEPARATORS).filter((t) => t.length > 0)
  if (!tokens.length) return { ok: false, error: { key: 'tracking.errorEmpty', params: {} } }
  // Counted as typed (a number typed twice counts twice): the stricter reading of "up to 10".
  if (tokens.length > MAX_TRACKING_NUMBERS) {
    return {
      ok: false,
      error: { key: 'tracking.errorTooMany', params: { max: MAX_TRACKING_NUMBERS, count: tokens.length } },
    }
  }
  const numbers: TrackingNumber[] = []
  const seen = new Set<string>()
  for (const token of tokens) {
    const classified = classifyTrackingNumber(token)
    if ('key' in classified) return { ok: false, error: classified }
    if (seen.has(classified.number)) continue
    seen.add(classified.number)
    numbers.push(classified)
  }
  return { ok: true, numbers }
}
