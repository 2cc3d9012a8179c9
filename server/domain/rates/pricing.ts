import { sql, type Transaction } from 'kysely'
import type { PricedRate as PricedRateContent, RateCharge } from '../../../generated/content.ts'
import {
  type AirBreak,
  airFreight,
  applyMarkup,
  chargeableWeightKg,
  convert,
  format,
  lclFreight,
  multiply,
  nextDeparture,
  revenueTons,
  roundScaled,
  scaled,
  sum,
} from '../../../rules/pricing.ts'
import type { DB } from '../../db/schema.ts'
import { nameChain, snakeCase } from '../../engine/index.ts'
import type { Session } from '../../http/context.ts'
import type { Language } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'

/**
 * Prices one stored rate for one caller: the caller's price level on the freight, the cargo's quantities,
 * the surcharges, every line converted into the asked currency. Exact decimals throughout (rules/pricing.ts).
 */

export interface RateRow {
  id: number
  rate_no: string
  mode: 'FCL' | 'LCL' | 'AIR'
  carrier: string
  carrier_name: string | null
  origin: string
  origin_name: string | null
  destination: string
  destination_name: string | null
  valid_from: string
  valid_to: string
  currency: string
  charge_unit: string
  transit_days: number
  cut_off_day: number | null
  departure_days: string | null
  container_prices: { containerType: string; price: string }[] | null
  price_per_cbm: string | null
  price_per_ton: string | null
  minimum_charge: string | null
  air_breaks: AirBreak[] | null
  surcharges: Surcharge[] | null
  remarks: string | null
}

interface Surcharge {
  code: string
  name: string
  category: 'origin' | 'freight' | 'destination'
  unit: 'shipment' | 'container' | 'wm' | 'kg'
  amount: string
  currency: string
}

export interface Cargo {
  containerType: string
  containers: number
  cbm: string
  weightKg: string
}

export interface PricingContext {
  date: string
  /** The level's markup in percent (a decimal string), or null for none. */
  markupPercent: string | null
  /** Rate to CNY by currency, and the minor units of each currency. */
  rates: Map<string, { rateToCny: string; minorUnits: number }>
  /** The currency to answer in; null: each rate in its own. */
  currency: string | null
  allIn: boolean
  chargeDisplay: 'all' | 'major' | 'none'
}

/** One line of a priced rate (schemas/rateCharge.yaml): its amount in its own currency and converted. */
export type ChargeLine = RateCharge

/** A rate priced for one caller, as the rate calls answer it (schemas/pricedRate.yaml). */
export type PricedRate = Omit<PricedRateContent, 'expired' | 'priceLevel'>

/** The reference list each alias of rateSelect joins. */
const NAMED = { c: 'carrier', op: 'port', dp: 'port', oa: 'airport', da: 'airport' } as const

/** The SQL that reads rates with their display names; `where` narrows it. */
export function rateSelect(language: Language) {
  // The names labels and look-ups give (server/engine/labels.ts nameChain): the language's, then English.
  const name = (alias: keyof typeof NAMED) => {
    const fields = loadManifest().entities[NAMED[alias]]?.fields ?? {}
    const chain = nameChain(language, (field) => fields[field] !== undefined)
    return sql`coalesce(${sql.join(chain.map((field) => sql`nullif(${sql.ref(`${alias}.${snakeCase(field)}`)}, '')`))})`
  }
  return sql`
    select r.id, r.rate_no, r.mode, r.carrier, ${name('c')} as carrier_name,
      coalesce(r.pol, r.origin_airport) as origin, coalesce(${name('op')}, ${name('oa')}) as origin_name,
      coalesce(r.pod, r.destination_airport) as destination, coalesce(${name('dp')}, ${name('da')}) as destination_name,
      to_char(r.valid_from, 'YYYY-MM-DD') as valid_from, to_char(r.valid_to, 'YYYY-MM-DD') as valid_to,
      r.currency, r.charge_unit, r.transit_days, r.cut_off_day, r.departure_days, r.container_prices,
      r.price_per_cbm::text as price_per_cbm, r.price_per_ton::text as price_per_ton,
      r.minimum_charge::text as minimum_charge, r.air_breaks, r.surcharges, r.remarks
    from freight_rate r
    left join ref_carrier c on c.code = r.carrier
    left join ref_port op on op.code = r.pol
    left join ref_port dp on dp.code = r.pod
    left join ref_airport oa on oa.code = r.origin_airport
    left join ref_airport da on da.code = r.destination_airport
  `
}

/** The caller's freight level: their company's, else the tenant's default; null when there is none. */
export async function levelOf(
  trx: Transaction<DB>,
  tenantId: number,
  session: Session | null,
): Promise<{ code: string; markupPercent: string } | null> {
  const companyId = session?.companyUserType !== 1 ? (session?.companyId ?? null) : null
  const { rows } = await sql<{ code: string; markup: string }>`
    select l.code, l.markup_percent::text as markup from price_level l
    where l.tenant_id = ${tenantId} and (
      l.id = (select a.price_level from price_level_assignment a where a.tenant_id = ${tenantId} and a.company = ${companyId})
      or (l.is_default and not exists (
        select 1 from price_level_assignment a where a.tenant_id = ${tenantId} and a.company = ${companyId})))
    order by l.is_default limit 1
  `.execute(trx)
  const row = rows[0]
  return row ? { code: row.code, markupPercent: row.markup } : null
}

/** The caller's level, the exchange rates on a day and the caller's individuationCurrency, in one query. */
export async function callerPricing(
  trx: Transaction<DB>,
  tenantId: number,
  session: Session | null,
  date: string,
): Promise<{
  level: { code: string; markupPercent: string } | null
  rates: Map<string, { rateToCny: string; minorUnits: number }>
  own: string | null
}> {
  const companyId = session?.companyUserType !== 1 ? (session?.companyId ?? null) : null
  const { rows } = await sql<{
    level: { code: string; markup: string } | null
    rates: { currency: string; rate: string; minor: number | null }[] | null
    own: string | null
  }>`
    select
      (select json_build_object('code', l.code, 'markup', l.markup_percent::text) from price_level l
        where l.tenant_id = ${tenantId} and (
          l.id = (select a.price_level from price_level_assignment a where a.tenant_id = ${tenantId} and a.company = ${companyId})
          or (l.is_default and not exists (
            select 1 from price_level_assignment a where a.tenant_id = ${tenantId} and a.company = ${companyId})))
        order by l.is_default limit 1) as level,
      (select json_agg(json_build_object('currency', x.currency, 'rate', x.rate, 'minor', x.minor)) from (
        select distinct on (e.currency) e.currency, e.rate_to_cny::text as rate, c.minor_units as minor
        from exchange_rate e left join ref_currency c on c.code = e.currency
        where e.tenant_id = ${tenantId} and e.effective_date <= ${date}
        order by e.currency, e.effective_date desc) x) as rates,
      (select u.individuation_currency from app_user u where u.id = ${session?.userId ?? null} and u.tenant_id = ${tenantId}) as own
  `.execute(trx)
  const row = rows[0]
  const rates = new Map<string, { rateToCny: string; minorUnits: number }>()
  for (const r of row?.rates ?? []) rates.set(r.currency, { rateToCny: r.rate, minorUnits: r.minor ?? 2 })
  if (!rates.has('CNY')) rates.set('CNY', { rateToCny: '1', minorUnits: 2 })
  return {
    level: row?.level ? { code: row.level.code, markupPercent: row.level.markup } : null,
    rates,
    own: row?.own ?? null,
  }
}

/** The latest exchange rate of each currency on a day, with the currency's minor units. */
export async function ratesOn(trx: Transaction<DB>, tenantId: number, date: string) {
  const { rows } = await sql<{ currency: string; rate: string; minor: number | null }>`
    select distinct on (e.currency) e.currency, e.rate_to_cny::text as rate, c.minor_units as minor
    from exchange_rate e left join ref_currency c on c.code = e.currency
    where e.tenant_id = ${tenantId} and e.effective_date <= ${date}
    order by e.currency, e.effective_date desc
  `.execute(trx)
  const map = new Map<string, { rateToCny: string; minorUnits: number }>()
  for (const row of rows) map.set(row.currency, { rateToCny: row.rate, minorUnits: row.minor ?? 2 })
  if (!map.has('CNY')) map.set('CNY', { rateToCny: '1', minorUnits: 2 })
  return map
}

type Weekday = PricedRate['departureDays'][number]
const isWeekday = (n: number): n is Weekday => Number.isInteger(n) && n >= 1 && n <= 7
const parseDays = (text: string | null): Weekday[] => (text ? text.split(',').map(Number).filter(isWeekday) : [])

/** The freight's unit price on this rate for the cargo (level applied), or null when the rate cannot carry it. */
export function freightOf(
  rate: RateRow,
  cargo: Cargo,
  markup: string | null,
): { unitPrice: string; amount: string; quantity: string; unit: string } | null {
  const up = (price: string | null) => (price ? applyMarkup(price, markup) : null)
  if (rate.mode === 'FCL') {
    const line = rate.container_prices?.find((p) => p.containerType === cargo.containerType)
    if (!line) return null
    const unitPrice = applyMarkup(line.price, markup)
    return {
      unitPrice,
      amount: format(roundScaled(multiply(scaled(unitPrice), scaled(cargo.containers)), 2), 2),
      quantity: String(cargo.containers),
      unit: 'container',
    }
  }
  if (rate.mode === 'LCL') {
    const perCbm = up(rate.price_per_cbm)
    if (!perCbm) return null
    return {
      unitPrice: perCbm,
      amount: lclFreight(cargo.cbm, cargo.weightKg, {
        perCbm,
        perTon: up(rate.price_per_ton),
        minimum: up(rate.minimum_charge),
      }),
      quantity: revenueTons(cargo.cbm, cargo.weightKg),
      unit: 'wm',
    }
  }
  const breaks = (rate.air_breaks ?? []).map((b) => ({ minKg: b.minKg, price: applyMarkup(b.price, markup) }))
  if (!breaks.length) return null
  const weight = chargeableWeightKg(cargo.weightKg, cargo.cbm)
  return {
    unitPrice: breaks[0]?.price as string,
    amount: airFreight(weight, breaks, up(rate.minimum_charge)),
    quantity: weight,
    unit: 'kg',
  }
}

/** Prices a rate, or null when it cannot carry the cargo or a currency has no exchange rate. */
export function priceRate(rate: RateRow, cargo: Cargo, ctx: PricingContext): PricedRate | null {
  const freight = freightOf(rate, cargo, ctx.markupPercent)
  if (!freight) return null
  const target = ctx.currency ?? rate.currency
  const to = ctx.rates.get(target)
  if (!to) return null
  const quantityOf = (unit: Surcharge['unit']): string =>
    unit === 'shipment'
      ? '1'
      : unit === 'container'
        ? rate.mode === 'FCL'
          ? String(cargo.containers)
          : '1'
        : unit === 'wm'
          ? revenueTons(cargo.cbm, cargo.weightKg)
          : rate.mode === 'AIR'
            ? chargeableWeightKg(cargo.weightKg, cargo.cbm)
            : cargo.weightKg
  const lines: ChargeLine[] = []
  const add = (line: Omit<ChargeLine, 'converted'>): boolean => {
    const from = ctx.rates.get(line.currency)
    if (!from) return false
    lines.push({ ...line, converted: convert(line.amount, from.rateToCny, to.rateToCny, to.minorUnits) })
    return true
  }
  if (
    !add({
      code: 'FRT',
      name: rate.mode === 'AIR' ? 'Air freight' : 'Ocean freight',
      category: 'freight',
      unit: freight.unit,
      quantity: freight.quantity,
      unitPrice: freight.unitPrice,
      amount: freight.amount,
      currency: rate.currency,
    })
  )
    return null
  if (ctx.allIn) {
    for (const s of rate.surcharges ?? []) {
      const quantity = quantityOf(s.unit)
      const amount = format(roundScaled(multiply(scaled(quantity), scaled(s.amount)), 2), 2)
      if (!add({ ...s, quantity, unitPrice: s.amount, amount })) return null
    }
  }
  const totalsByCurrency: Record<string, string> = {}
  for (const line of lines)
    totalsByCurrency[line.currency] = sum([totalsByCurrency[line.currency] ?? '0', line.amount], 2)
  const decimals = to.minorUnits
  const priced: PricedRate = {
    id: rate.id,
    rateNo: rate.rate_no,
    mode: rate.mode,
    carrier: rate.carrier,
    carrierName: rate.carrier_name,
    origin: rate.origin,
    originName: rate.origin_name,
    destination: rate.destination,
    destinationName: rate.destination_name,
    validFrom: rate.valid_from,
    validTo: rate.valid_to,
    transitDays: rate.transit_days,
    cutOffDay: rate.cut_off_day,
    departureDays: parseDays(rate.departure_days),
    nextDeparture: nextDeparture(ctx.date, parseDays(rate.departure_days), rate.valid_to),
    rateCurrency: rate.currency,
    chargeUnit: rate.charge_unit,
    containerType: rate.mode === 'FCL' ? cargo.containerType : null,
    chargeableQuantity: freight.quantity,
    freight: { unitPrice: freight.unitPrice, amount: freight.amount, currency: rate.currency },
    total: sum(
      lines.map((l) => l.converted),
      decimals,
    ),
    currency: target,
    totalsByCurrency,
    remarks: rate.remarks,
  }
  if (ctx.chargeDisplay === 'all') priced.charges = lines
  if (ctx.chargeDisplay === 'major') {
    const order: Surcharge['category'][] = ['origin', 'freight', 'destination']
    priced.categories = order
      .map((category) => ({
        category,
        amount: sum(
          lines.filter((l) => l.category === category).map((l) => l.converted),
          decimals,
        ),
      }))
      .filter((c) => lines.some((l) => l.category === c.category))
  }
  return priced
}
