/**
 * Named checks the entity YAML can ask for with `format:`. The generated validators import these,
 * so the portal's forms and the server run the same code.
 */

/** ISO 6346 container number: owner code (3 letters), category (U, J or Z), 6 digits, check digit. */
export function isoContainer(value: string): boolean {
  if (!/^[A-Z]{3}[UJZ]\d{7}$/.test(value)) return false
  let sum = 0
  for (let i = 0; i < 10; i++) {
    const ch = value.charCodeAt(i)
    let n: number
    if (i < 4) {
      // A=10 … Z=38, skipping multiples of 11.
      n = ch - 55
      n += Math.floor((n - 1) / 10)
    } else n = ch - 48
    sum += n * 2 ** i
  }
  return (sum % 11) % 10 === value.charCodeAt(10) - 48
}

/** Air waybill: 3-digit airline prefix and an 8-digit serial whose last digit is the first seven mod 7. */
export function airWaybill(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '')
  if (!/^\d{11}$/.test(digits)) return false
  return Number(digits.slice(3, 10)) % 7 === Number(digits[10])
}

/**
 * An HS code (SPEC §9 "HS code sources: customs code or US code"): a Harmonized System 2022 subheading of 6
 * digits, or a national tariff code of 8 or 10 digits that begins with one — China customs' 10-digit code, the
 * US HTS 8-digit subheading or 10-digit statistical number. That the first six digits are a subheading on the
 * Harmonized System list is the server's check (server/domain/blInstructions/hsCode.ts), the list being its.
 */
export function hsCode(value: string): boolean {
  return /^\d{6}(\d{2}|\d{4})?$/.test(value)
}

/**
 * An Amazon Standard Identification Number (issue #26): `B0` and 8 upper-case letters or digits, or — for a
 * book — its ISBN-10, whose tenth character (0–9 or X for ten) makes the weighted sum 10·d1 + 9·d2 + … + 1·d10
 * a multiple of 11.
 */
export function asin(value: string): boolean {
  if (/^B0[A-Z0-9]{8}$/.test(value)) return true
  return isbn10(value)
}

/** ISBN-10 without hyphens: nine digits and a check character (X stands for ten). */
export function isbn10(value: string): boolean {
  if (!/^\d{9}[\dX]$/.test(value)) return false
  let sum = 0
  for (let i = 0; i < 10; i++) sum += (10 - i) * (value[i] === 'X' ? 10 : Number(value[i]))
  return sum % 11 === 0
}

/** UN/LOCODE: ISO 3166 country code and a 3-character location (letters and digits 2–9). */
export function unlocode(value: string): boolean {
  return /^[A-Z]{2}[A-Z2-9]{3}$/.test(value)
}

export function email(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value)
}

/** Mainland China mobile numbers: 11 digits starting 13–19. */
export function chinaMobile(value: string): boolean {
  return /^1[3-9]\d{9}$/.test(value)
}

/** SPEC §5: letters and digits only, fewer than 32 characters, not digits only. */
export function username(value: string): boolean {
  return /^[A-Za-z0-9]{1,31}$/.test(value) && !/^\d+$/.test(value)
}

/** SPEC §5, the stricter reading: 8–20 characters with upper case, lower case, a digit and a special character. */
export function password(value: string): boolean {
  return (
    value.length >= 8 &&
    value.length <= 20 &&
    /[A-Z]/.test(value) &&
    /[a-z]/.test(value) &&
    /\d/.test(value) &&
    /[^A-Za-z0-9]/.test(value)
  )
}

export function url(value: string): boolean {
  return /^https?:\/\/[^\s]+$/.test(value) || value.startsWith('/')
}

export function date(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  // Round-trip through the calendar so 2026-02-30 is refused rather than rolled over to March.
  const parsed = new Date(Date.UTC(year, month - 1, day))
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day
}

export function dateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value) &&
    date(value.slice(0, 10)) &&
    !Number.isNaN(Date.parse(value))
  )
}

/** The named formats of the entity YAML, plus JSON Schema's own date and date-time. */
export const formats: Record<string, (value: string) => boolean> = {
  isoContainer,
  airWaybill,
  hsCode,
  unlocode,
  asin,
  email,
  chinaMobile,
  username,
  password,
  url,
  date,
  'date-time': dateTime,
}
