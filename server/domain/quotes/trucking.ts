import { sql, type Transaction } from 'kysely'
import { divide, format, multiply, roundScaled, scaled } from '../../../rules/pricing.ts'
import { type CurrencyRate, convertAmount } from '../../../rules/quotes.ts'
import type { DB } from '../../db/schema.ts'
import { type DraftLine, type InquiryRow, measures } from './lanes.ts'

/**
 * The trucking lines of an automatic quote and of the amount due (issue #25; schemas/truckingFee.yaml): an
 * inquiry that needs pick-up gets the tenant's pick-up fee valid today whose destination is the inquiry's origin
 * port, one that asks for delivery to the consignee the delivery fee whose port is its destination; each whose
 * loading fits the quote (a sea quote moves the inquiry's containers, any other loose cargo) and whose place — a
 * city or district, its names separated by `/` — the address names (Hangzhou/杭州; letters compared without
 * case). Of several, the most precise origin (the longest name found), then the cheapest in CNY, then the lowest charge number.
 * The fee's charge level is priced per its calculation type; a line under the minimum amount becomes one
 * shipment at the minimum.
 */

export interface TruckingFeeRow {
  charge_no: string
  name: string
  load_type: 'container' | 'loose'
  calc_type: 'container' | 'shipment' | 'cbm' | 'kg' | 'ton'
  origin: string
  currency: string
  charge_level: string
  minimum_amount: string | null
}

/** What the inquiry moves: its container count, CBM and kg (lanes.ts measures). */
export interface PickUpCargo {
  containers: number
  cbm: string
  weightKg: string
}

const UNITS = { container: 'container', shipment: 'shipment', cbm: 'cbm', kg: 'kg', ton: 'ton' } as const

/**
 * How precisely the address names the place (the length of the longest of its names, `/`-separated, that the
 * address holds: "Hangzhou/杭州"), 0 when it does not: Chinese as written, Latin letters without case.
 */
export function placeNamed(address: string, place: string): number {
  const text = address.toLowerCase()
  let best = 0
  for (const name of place.split('/')) {
    const wanted = name.trim().toLowerCase()
    if (wanted && text.includes(wanted) && wanted.length > best) best = wanted.length
  }
  return best
}

/** The fee's quantity for the cargo, as its calculation type counts it (kg to tons at 3 decimals). */
function quantityOf(fee: TruckingFeeRow, cargo: PickUpCargo): string {
  switch (fee.calc_type) {
    case 'container':
      return String(cargo.containers)
    case 'shipment':
      return '1'
    case 'cbm':
      return cargo.cbm
    case 'kg':
      return cargo.weightKg
    case 'ton':
      return format(divide(scaled(cargo.weightKg), scaled(1000), 3), 3)
  }
}

/** The fee's charge line for the cargo, its minimum applied; null when there is nothing to count. */
export function pickUpLine(fee: TruckingFeeRow, cargo: PickUpCargo, minorUnits: number): DraftLine | null {
  const quantity = quantityOf(fee, cargo)
  if (!(scaled(quantity) > 0n)) return null
  const amount = roundScaled(multiply(scaled(quantity), scaled(fee.charge_level)), minorUnits)
  const minimum = fee.minimum_amount === null ? 0n : scaled(fee.minimum_amount)
  if (amount < minimum)
    return {
      chargeType: 'trucking',
      name: fee.name,
      quantity: 1,
      unit: 'shipment',
      unitPrice: format(minimum, minorUnits),
      currency: fee.currency,
      remarks: `${fee.charge_no} minimum`,
    }
  return {
    chargeType: 'trucking',
    name: fee.name,
    quantity: Number(quantity),
    unit: UNITS[fee.calc_type],
    unitPrice: fee.charge_level,
    currency: fee.currency,
    remarks: fee.charge_no,
  }
}

/**
 * The trucking lines of an inquiry in a transport mode: the matching pick-up fee's (the truck loads at the
 * pick-up address and unloads at the origin port) when it needs pick-up, and the matching delivery fee's (from
 * the destination port to the delivery address) when it asks for delivery to the consignee. None matched, none.
 */
export async function truckingCharges(
  trx: Transaction<DB>,
  tenantId: number,
  inquiry: InquiryRow,
  transportMode: number,
  today: string,
  rates: ReadonlyMap<string, CurrencyRate>,
): Promise<DraftLine[]> {
  const containers = (inquiry.containers ?? []).reduce((n, c) => n + c.quantity, 0)
  const cargo = { containers, ...measures(inquiry) }
  const legs = [
    { feeType: 'pickUp', wanted: inquiry.need_pick_up, address: inquiry.pick_up_address, port: inquiry.origin },
    {
      feeType: 'delivery',
      wanted: inquiry.delivery_to_consignee,
      address: inquiry.delivery_address,
      port: inquiry.destination,
    },
  ] as const
  const lines: DraftLine[] = []
  for (const leg of legs) {
    const address = leg.address ?? ''
    if (!leg.wanted || !address.trim()) continue
    const line = await truckingLine(trx, tenantId, { ...leg, address }, transportMode, today, cargo, rates)
    if (line) lines.push(line)
  }
  return lines
}

/** The most fitting fee's line of one leg (pick-up or delivery), or null when no fee fits. */
async function truckingLine(
  trx: Transaction<DB>,
  tenantId: number,
  leg: { feeType: 'pickUp' | 'delivery'; address: string; port: string },
  transportMode: number,
  today: string,
  cargo: PickUpCargo,
  rates: ReadonlyMap<string, CurrencyRate>,
): Promise<DraftLine | null> {
  const address = leg.address
  const loadType = transportMode === 1 && cargo.containers > 0 ? 'container' : 'loose'
  const { rows } = await sql<TruckingFeeRow>`
    select charge_no, name, load_type, calc_type, origin, currency, charge_level::text as charge_level,
      minimum_amount::text as minimum_amount
    from trucking_fee
    where tenant_id = ${tenantId} and fee_type = ${leg.feeType} and destination = ${leg.port}
      and load_type = ${loadType} and valid_from <= ${today} and valid_to >= ${today}
    order by charge_no`.execute(trx)
  let best: { line: DraftLine; place: number; cny: bigint } | null = null
  for (const fee of rows) {
    const place = placeNamed(address, fee.origin)
    if (!place) continue
    const line = pickUpLine(fee, cargo, rates.get(fee.currency)?.minorUnits ?? 2)
    if (!line) continue
    const amount = format(multiply(scaled(line.quantity), scaled(line.unitPrice)), 6)
    const cny = convertAmount(amount, fee.currency, 'CNY', rates)
    if (cny === null) continue
    const candidate = { line, place, cny: scaled(cny) }
    if (!best || candidate.place > best.place || (candidate.place === best.place && candidate.cny < best.cny))
      best = candidate
  }
  return best?.line ?? null
}
