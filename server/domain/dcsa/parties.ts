import type { Party, PartyContactDetail } from './types.ts'

/**
 * B/L text blocks (35 × 7: SPEC §5) as DCSA parties. The first line of a block is the party's name; the
 * others are its address, which DCSA takes as at most five unstructured lines (a sixth and seventh line
 * join the fifth, so nothing the customer typed is lost).
 */

const ADDRESS_LINES = 5
/** DCSA's `partyName` is at most 70 characters; a B/L line is at most 35, so a name never needs cutting. */

export function linesOf(block: string): string[] {
  return block
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

export function partyOf(block: string): Party | null {
  const [name, ...address] = linesOf(block)
  if (!name) return null
  if (!address.length) return { partyName: name }
  const addressLines =
    address.length > ADDRESS_LINES
      ? [...address.slice(0, ADDRESS_LINES - 1), address.slice(ADDRESS_LINES - 1).join(' ')]
      : address
  return { partyName: name, addressLines }
}

/** "SAME AS CONSIGNEE" and its usual spellings: the consignee is the party to notify. */
export function isSameAsConsignee(block: string): boolean {
  return /^\s*same\s+as\s+(the\s+)?consignee\.?\s*$/i.test(block)
}

/** A consignee "TO ORDER" (or "TO ORDER OF …") makes the B/L negotiable. */
export function isToOrder(consignee: string): boolean {
  return /^\s*to\s+(the\s+)?order\b/i.test(consignee)
}

/** The document's contact: DCSA wants a name with a phone or an e-mail (`PartyContactDetail`). */
export function contactOf(contact: { name: string; phone: string; email: string }): PartyContactDetail | null {
  const name = contact.name.trim()
  const phone = contact.phone.trim()
  const email = contact.email.trim()
  if (!name || (!phone && !email)) return null
  return { name, ...(phone ? { phone } : {}), ...(email ? { email } : {}) }
}

/**
 * Countries of the EU's Import Control System 2 (the EU member states, Norway and Switzerland): goods
 * delivered there need the ICS2 data, which DCSA asks for with `isCargoDeliveredInICS2Zone`.
 */
const ICS2_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'NO',
  'CH',
])

export function inIcs2Zone(unLocode: string): boolean {
  return ICS2_COUNTRIES.has(unLocode.slice(0, 2).toUpperCase())
}
