import { sql, type Transaction } from 'kysely'
import { convert, format, revenueTons, scaled, sum } from '../../../rules/pricing.ts'
import { type CurrencyRate, quoteFigures } from '../../../rules/quotes.ts'
import type { DB } from '../../db/schema.ts'
import { laneQuery } from '../rates/handlers.ts'
import { type Cargo, freightOf, type RateRow } from '../rates/pricing.ts'

/**
 * The rate an inquiry's lane matches (issue #8): the automatic quote is written from it, and its cost is
 * one side of a quote's amount due. Rates are searched and priced with the rate search's own code
 * (server/domain/rates): a sea inquiry matches FCL rates of its port pair with a price for every
 * container type it asks for, an air inquiry AIR rates by chargeable weight. Rail and truck have no rates.
 */

export interface InquiryRow {
  id: number
  state: string
  transport_modes: number[] | null
  customer_company: number | null
  origin: string
  destination: string
  need_pick_up: boolean | null
  pick_up_address: string | null
  delivery_to_consignee: boolean | null
  delivery_address: string | null
  containers: { containerType: string; quantity: number }[] | null
  packages: { packageCount: number; grossWeight: number; length: number; width: number; height: number }[] | null
}

export async function readInquiry(trx: Transaction<DB>, tenantId: number, id: number): Promise<InquiryRow | null> {
  const { rows } = await sql<InquiryRow>`
    select id, state, transport_modes, customer_company, origin, destination, need_pick_up, pick_up_address,
      delivery_to_consignee, delivery_address, containers, packages
    from inquiry where tenant_id = ${tenantId} and id = ${id}`.execute(trx)
  return rows[0] ?? null
}

/** A charge line of a quote as the entity stores it (schemas/quote.yaml charges), amount left to the totals. */
export interface DraftLine {
  chargeType: 'freight' | 'origin' | 'destination' | 'trucking'
  name: string
  quantity: number
  unit: 'container' | 'shipment' | 'cbm' | 'kg' | 'ton'
  unitPrice: string
  currency: string
  remarks?: string
}

export interface RateMatch {
  rate: RateRow
  lines: DraftLine[]
  /** The lines' total in CNY, how matches are compared. */
  totalCny: string
}

/** CBM and kg of the inquiry's packages (dimensions in cm per package, gross weight per line). */
export function measures(inquiry: InquiryRow): { cbm: string; weightKg: string } {
  const volumes: string[] = []
  const weights: string[] = []
  for (const p of inquiry.packages ?? []) {
    const cm3 = scaled(p.length) * scaled(p.width) * scaled(p.height) * BigInt(p.packageCount)
    // cm³ (scaled³ by 10^18) → m³ scaled by 10^6: divide by 10^12 × 10^6.
    volumes.push(format(cm3 / 10n ** 18n, 6))
    weights.push(String(p.grossWeight))
  }
  return { cbm: sum(volumes.length ? volumes : ['0'], 3), weightKg: sum(weights.length ? weights : ['0'], 3) }
}

const SURCHARGE_UNITS = { shipment: 'shipment', container: 'container', wm: 'cbm', kg: 'kg' } as const

/** The charge lines one rate gives the inquiry (freight with `markup` percent), or null when it cannot carry it. */
function linesOf(rate: RateRow, inquiry: InquiryRow, markup: string | null): DraftLine[] | null {
  const { cbm, weightKg } = measures(inquiry)
  const lines: DraftLine[] = []
  const containers = inquiry.containers ?? []
  if (rate.mode === 'FCL') {
    if (!containers.length) return null
    for (const c of containers) {
      const cargo: Cargo = { containerType: c.containerType, containers: c.quantity, cbm, weightKg }
      const freight = freightOf(rate, cargo, markup)
      if (!freight) return null
      lines.push({
        chargeType: 'freight',
        name: `Ocean freight ${c.containerType}`,
        quantity: c.quantity,
        unit: 'container',
        unitPrice: freight.unitPrice,
        currency: rate.currency,
      })
    }
  } else {
    const freight = freightOf(rate, { containerType: '', containers: 0, cbm, weightKg }, markup)
    if (!freight) return null
    lines.push({
      chargeType: 'freight',
      name: 'Air freight',
      quantity: Number(freight.quantity),
      unit: 'kg',
      unitPrice: freight.unitPrice,
      currency: rate.currency,
    })
  }
  const count = containers.reduce((n, c) => n + c.quantity, 0)
  for (const s of rate.surcharges ?? []) {
    const quantity =
      s.unit === 'shipment'
        ? 1
        : s.unit === 'container'
          ? Math.max(count, 1)
          : s.unit === 'wm'
            ? Number(revenueTons(cbm, weightKg))
            : Number(weightKg)
    if (!(quantity > 0)) continue
    lines.push({
      chargeType: s.category,
      name: s.name,
      quantity,
      unit: SURCHARGE_UNITS[s.unit],
      unitPrice: s.amount,
      currency: s.currency,
    })
  }
  return lines
}

/** The cheapest rate valid on `date` for the inquiry in a transport mode (1 sea, 2 air), priced with `markup`. */
export async function cheapestRate(
  trx: Transaction<DB>,
  tenantId: number,
  inquiry: InquiryRow,
  transportMode: number,
  date: string,
  markup: string | null,
  rates: ReadonlyMap<string, CurrencyRate>,
): Promise<RateMatch | null> {
  const mode = transportMode === 1 ? 'FCL' : transportMode === 2 ? 'AIR' : null
  if (!mode) return null
  const query = laneQuery(tenantId, { mode, origin: inquiry.origin, destination: inquiry.destination }, date, 'en')
  const { rows } = await query.execute(trx)
  let best: RateMatch | null = null
  for (const rate of rows) {
    const lines = linesOf(rate, inquiry, markup)
    if (!lines) continue
    const total = quoteFigures(lines, 'CNY', rates).total
    if (total === null) continue
    if (!best || scaled(total) < scaled(best.totalCny)) best = { rate, lines, totalCny: total }
  }
  return best
}

/** The match's cost in a currency (its CNY total converted), or null without that currency's rate. */
export function costIn(match: RateMatch, currency: string, rates: ReadonlyMap<string, CurrencyRate>): string | null {
  const to = rates.get(currency)
  return to ? convert(match.totalCny, '1', to.rateToCny, to.minorUnits) : null
}
