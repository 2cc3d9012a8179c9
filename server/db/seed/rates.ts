import type { Kysely } from 'kysely'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { DEFAULT_TIME_ZONE, dayIn } from '../../../rules/calendar.ts'
import { columnsOf, toDbValue } from '../../engine/columns.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'
import { seededRandom } from './random.ts'
import {
  CARGO_AIRLINES,
  CARGO_AIRPORTS,
  DEMO_EXCHANGE_RATES_TO_CNY,
  OCEAN_CARRIERS,
  SEA_PORTS,
} from './reference/index.ts'

/**
 * The demo tenant's sales rates: FCL, LCL and air out of China and Southeast Asia to the US coasts, North
 * Europe, the Mediterranean, the Middle East and Oceania, by real carriers (SCAC / IATA) between real
 * ports (UN/LOCODE) and airports (IATA); price levels, the demo customer's level, exchange rates of the nine
 * SPEC §9 currencies and the home page's special lines. acme gets a few rates of its own, so tenant
 * isolation has something to hide.
 *
 * Deterministic: a seeded generator and prices from fixed tables. Validity is anchored on the day the seed
 * runs (each lane has an expired period, a current one, and on some lanes a future one), so a fresh database
 * always has rates valid today whatever day that is. Inserted in multi-row batches: a few thousand rows in
 * well under a second on PGlite.
 */

const DAY_MS = 86_400_000

/** Sea origins: the main Chinese gateways and Southeast Asian hubs. */
const SEA_ORIGINS = ['CNSHA', 'CNNGB', 'CNSZX', 'CNYTN', 'CNQIN', 'CNTXG', 'CNXMN', 'SGSIN', 'VNSGN', 'THLCH']

interface Region {
  ports: string[]
  /** USD for one 40'HQ (base level), and the transit days from Shanghai. */
  base40hq: number
  transit: number
  destinationCurrency: string
  destinationCharge: number
}

const REGIONS: Region[] = [
  {
    ports: ['USLAX', 'USLGB', 'USOAK', 'USSEA', 'USTIW', 'CAVAN'],
    base40hq: 2150,
    transit: 16,
    destinationCurrency: 'USD',
    destinationCharge: 420,
  },
  {
    ports: ['USNYC', 'USSAV', 'USCHS', 'USORF', 'USBAL', 'USJAX'],
    base40hq: 3250,
    transit: 34,
    destinationCurrency: 'USD',
    destinationCharge: 480,
  },
  {
    ports: ['NLRTM', 'DEHAM', 'BEANR', 'GBFXT', 'FRLEH', 'DEBRV'],
    base40hq: 1850,
    transit: 32,
    destinationCurrency: 'EUR',
    destinationCharge: 310,
  },
  {
    ports: ['ESVLC', 'ITGOA', 'GRPIR', 'TRAMB', 'ESBCN', 'EGPSD'],
    base40hq: 2050,
    transit: 28,
    destinationCurrency: 'EUR',
    destinationCharge: 290,
  },
  {
    ports: ['AEJEA', 'SAJED', 'SADMM', 'OMSOH', 'QAHMD', 'KWSAA'],
    base40hq: 1450,
    transit: 20,
    destinationCurrency: 'USD',
    destinationCharge: 350,
  },
  {
    ports: ['AUSYD', 'AUMEL', 'AUBNE', 'AUFRE', 'NZAKL', 'NZTRG'],
    base40hq: 1350,
    transit: 18,
    destinationCurrency: 'AUD',
    destinationCharge: 520,
  },
]

/** Price per container type relative to a 40'HQ (ISO size-type codes of the containerType list). */
const CONTAINER_FACTORS: [code: string, factor: number][] = [
  ['22G1', 0.56],
  ['42G1', 0.93],
  ['45G1', 1],
  ['L5G1', 1.14],
]

const AIR_ORIGINS = ['PVG', 'CAN', 'SZX', 'PEK', 'HKG', 'XMN', 'SIN', 'BKK']
const AIR_DESTINATIONS: [code: string, perKg: number, transit: number][] = [
  ['LAX', 34, 2],
  ['JFK', 38, 3],
  ['ORD', 37, 3],
  ['FRA', 30, 2],
  ['AMS', 29, 2],
  ['LHR', 31, 2],
  ['CDG', 30, 2],
  ['MXP', 31, 3],
  ['DXB', 22, 2],
  ['DOH', 23, 2],
  ['SYD', 26, 2],
  ['MEL', 27, 3],
]
const AIR_BREAKS: [minKg: number, factor: number][] = [
  [45, 1],
  [100, 0.9],
  [300, 0.82],
  [500, 0.76],
  [1000, 0.7],
]

const day = (anchor: number, offset: number) => new Date(anchor + offset * DAY_MS).toISOString().slice(0, 10)
const money = (value: number) => value.toFixed(2)

export interface RateSeedOptions {
  /** The day validity is anchored on (default: today). */
  today?: string
}

/** The demo tenant's rate records in the API shape, deterministic for a given anchor day. */
export function demoRates(today: string): Record<string, unknown>[] {
  const anchor = Date.parse(`${today}T00:00:00Z`)
  const random = seededRandom(20260307)
  const carriers = OCEAN_CARRIERS.map((c) => c.scac).slice(0, 14)
  const airlines = CARGO_AIRLINES.map((a) => a.iata)
  const ports = new Set(SEA_PORTS.map((p) => p.code))
  const airports = new Set(CARGO_AIRPORTS.map((a) => a.iata))
  // Three periods per rate line: ended a month ago, current, and (on some lanes) starting after it.
  const periods: { from: number; to: number; factor: number; future?: boolean }[] = [
    { from: -75, to: -31, factor: 1.06 },
    { from: -30, to: 45, factor: 1 },
    { from: 46, to: 120, factor: 0.97, future: true },
  ]
  const rates: Record<string, unknown>[] = []
  let seq = 0
  const next = (prefix: string) => `${prefix}-${String(++seq).padStart(6, '0')}`

  for (const origin of SEA_ORIGINS) {
    if (!ports.has(origin)) throw new Error(`seed: ${origin} is not a known port`)
    const southeast = !origin.startsWith('CN')
    for (const region of REGIONS) {
      for (const pod of region.ports) {
        if (!ports.has(pod)) continue
        const laneCarriers = random.some(carriers, random.int(4, 6))
        for (const carrier of laneCarriers) {
          const carrierFactor = 0.9 + random.int(0, 20) / 100
          const transitDays = region.transit + (southeast ? 3 : 0) + random.int(-2, 4)
          const departures = random.some([1, 2, 3, 4, 5, 6, 7], random.int(1, 2))
          for (const period of periods) {
            if (period.future && random.int(0, 2) > 0) continue
            const base = region.base40hq * carrierFactor * period.factor * (southeast ? 1.05 : 1)
            rates.push({
              rateNo: next('FCL'),
              mode: 'FCL',
              carrier,
              pol: origin,
              pod,
              validFrom: day(anchor, period.from),
              validTo: day(anchor, period.to),
              currency: 'USD',
              chargeUnit: 'container',
              transitDays,
              cutOffDay: ((departures[0] as number) + 4) % 7 || 7,
              departureDays: departures.join(','),
              containerPrices: CONTAINER_FACTORS.filter(([code]) => code !== 'L5G1' || random.int(0, 1) === 1).map(
                ([containerType, factor]) => ({ containerType, price: money(Math.round(base * factor)) }),
              ),
              surcharges: [
                {
                  code: 'THC',
                  name: 'Origin terminal handling',
                  category: 'origin',
                  unit: 'container',
                  amount: southeast ? '165.00' : '1100.00',
                  currency: southeast ? 'USD' : 'CNY',
                },
                {
                  code: 'DOC',
                  name: 'Documentation',
                  category: 'origin',
                  unit: 'shipment',
                  amount: southeast ? '55.00' : '450.00',
                  currency: southeast ? 'USD' : 'CNY',
                },
                { code: 'SEAL', name: 'Seal', category: 'origin', unit: 'container', amount: '50.00', currency: 'CNY' },
                {
                  code: 'BAF',
                  name: 'Bunker adjustment',
                  category: 'freight',
                  unit: 'container',
                  amount: money(random.int(9, 24) * 10),
                  currency: 'USD',
                },
                {
                  code: 'DTHC',
                  name: 'Destination terminal handling',
                  category: 'destination',
                  unit: 'container',
                  amount: money(region.destinationCharge),
                  currency: region.destinationCurrency,
                },
              ],
              remarks: null,
            })
          }
        }
        // LCL: one or two consolidators' rates per lane and period (no future period).
        for (const carrier of random.some(carriers, random.int(1, 2))) {
          for (const period of periods.slice(0, 2)) {
            const perCbm = Math.round((region.base40hq / 58) * (0.9 + random.int(0, 20) / 100) * period.factor)
            rates.push({
              rateNo: next('LCL'),
              mode: 'LCL',
              carrier,
              pol: origin,
              pod,
              validFrom: day(anchor, period.from),
              validTo: day(anchor, period.to),
              currency: 'USD',
              chargeUnit: 'wm',
              transitDays: region.transit + 5 + random.int(0, 4),
              cutOffDay: 3,
              departureDays: String(random.int(4, 7)),
              pricePerCbm: money(perCbm),
              pricePerTon: money(Math.round(perCbm * 1.1)),
              minimumCharge: money(perCbm),
              surcharges: [
                {
                  code: 'CFS',
                  name: 'Container freight station',
                  category: 'origin',
                  unit: 'wm',
                  amount: '180.00',
                  currency: 'CNY',
                },
                {
                  code: 'DOC',
                  name: 'Documentation',
                  category: 'origin',
                  unit: 'shipment',
                  amount: '300.00',
                  currency: 'CNY',
                },
                {
                  code: 'DCFS',
                  name: 'Destination CFS',
                  category: 'destination',
                  unit: 'wm',
                  amount: money(Math.round(region.destinationCharge / 12)),
                  currency: region.destinationCurrency,
                },
              ],
              remarks: null,
            })
          }
        }
      }
    }
  }

  for (const origin of AIR_ORIGINS) {
    if (!airports.has(origin)) throw new Error(`seed: ${origin} is not a known airport`)
    for (const [destination, perKg, transit] of AIR_DESTINATIONS) {
      if (!airports.has(destination)) continue
      for (const airline of random.some(airlines, random.int(3, 5))) {
        for (const period of periods.slice(0, 2)) {
          const base = perKg * (0.85 + random.int(0, 30) / 100) * period.factor
          rates.push({
            rateNo: next('AIR'),
            mode: 'AIR',
            carrier: airline,
            originAirport: origin,
            destinationAirport: destination,
            validFrom: day(anchor, period.from),
            validTo: day(anchor, period.to),
            currency: 'CNY',
            chargeUnit: 'kg',
            transitDays: transit + random.int(0, 2),
            departureDays: random.some([1, 2, 3, 4, 5, 6, 7], random.int(3, 7)).join(','),
            airBreaks: AIR_BREAKS.map(([minKg, factor]) => ({ minKg, price: money(base * factor) })),
            minimumCharge: money(Math.round(base * 20)),
            surcharges: [
              { code: 'FSC', name: 'Fuel surcharge', category: 'freight', unit: 'kg', amount: '5.20', currency: 'CNY' },
              {
                code: 'SCC',
                name: 'Security surcharge',
                category: 'freight',
                unit: 'kg',
                amount: '1.20',
                currency: 'CNY',
              },
              {
                code: 'THC',
                name: 'Terminal handling',
                category: 'origin',
                unit: 'kg',
                amount: '0.80',
                currency: 'CNY',
              },
              {
                code: 'AWB',
                name: 'Air waybill fee',
                category: 'origin',
                unit: 'shipment',
                amount: '100.00',
                currency: 'CNY',
              },
            ],
            remarks: null,
          })
        }
      }
    }
  }
  return rates
}

/** acme's own few rates: Shenzhen to Long Beach. */
function acmeRates(today: string): Record<string, unknown>[] {
  const anchor = Date.parse(`${today}T00:00:00Z`)
  return ['MAEU', 'COSU', 'CMDU'].map((carrier, i) => ({
    rateNo: `ACME-FCL-${i + 1}`,
    mode: 'FCL',
    carrier,
    pol: 'CNSHA',
    pod: 'USLAX',
    validFrom: day(anchor, -10),
    validTo: day(anchor, 30),
    currency: 'USD',
    chargeUnit: 'container',
    transitDays: 17 + i,
    departureDays: '5',
    containerPrices: [{ containerType: '45G1', price: money(1990 + i * 40) }],
    surcharges: [],
  }))
}

/** Freight levels: the default for visitors and unassigned customers, and two better ones. */
export const DEMO_PRICE_LEVELS = [
  {
    code: 'PUBLIC',
    name: 'Public',
    markupPercent: 10,
    isDefault: true,
    remarks: 'Visitors and customers without a level',
  },
  { code: 'KEY', name: 'Key account', markupPercent: 3, isDefault: false, remarks: null },
  { code: 'VIP', name: 'Strategic account', markupPercent: 0, isDefault: false, remarks: null },
]

/** The demo customer company's level. */
export const DEMO_CUSTOMER_LEVEL = 'KEY'

const BATCH = 400

/** Records in the API shape into an entity's table for one tenant, in multi-row batches; their ids in order. */
export async function insertAll(
  db: Kysely<DB>,
  manifest: Manifest,
  tenantId: number,
  entityName: string,
  records: Record<string, unknown>[],
): Promise<number[]> {
  const entity = manifest.entities[entityName] as ManifestEntity
  const columns = columnsOf(entity, manifest.entities).filter((c) => !c.system)
  const ids: number[] = []
  await withTenant(db, tenantId, async (trx) => {
    const dynamic = trx as unknown as Kysely<Record<string, Record<string, unknown>>>
    for (let i = 0; i < records.length; i += BATCH) {
      const rows = records.slice(i, i + BATCH).map((record) => {
        const values: Record<string, unknown> = { tenant_id: tenantId }
        for (const column of columns)
          if (record[column.name] !== undefined) values[column.column] = toDbValue(column, record[column.name])
        return values
      })
      const inserted = await dynamic.insertInto(entity.table).values(rows).returning('id').execute()
      ids.push(...inserted.map((r) => r.id as number))
    }
  })
  return ids
}

/** Seeds rates, levels, exchange rates and special lines (after the tenants, companies and entity tables exist). */
export async function seedRates(db: Kysely<DB>, manifest: Manifest, options: RateSeedOptions = {}): Promise<void> {
  // The demo tenants' day (their time zone is the default one), from the server's one clock.
  const today = options.today ?? dayIn(now(), DEFAULT_TIME_ZONE)
  const anchor = Date.parse(`${today}T00:00:00Z`)
  const tenants = await db.selectFrom('tenant').select(['id', 'code']).where('code', 'in', ['demo', 'acme']).execute()
  // Exchange rates from a day before every seeded validity, so a search on any valid day finds them.
  const effectiveDate = day(anchor, -90)
  for (const tenant of tenants) {
    await insertAll(
      db,
      manifest,
      tenant.id,
      'exchangeRate',
      DEMO_EXCHANGE_RATES_TO_CNY.map((r) => ({ currency: r.currency, rateToCny: r.rate_to_cny, effectiveDate })),
    )
    const levelIds = await insertAll(db, manifest, tenant.id, 'priceLevel', DEMO_PRICE_LEVELS)
    const customer = await withTenant(db, tenant.id, (trx) =>
      trx.selectFrom('company').select('id').where('company_type', '=', 2).orderBy('id').executeTakeFirst(),
    )
    const level = levelIds[DEMO_PRICE_LEVELS.findIndex((l) => l.code === DEMO_CUSTOMER_LEVEL)]
    if (customer && level)
      await insertAll(db, manifest, tenant.id, 'priceLevelAssignment', [{ company: customer.id, priceLevel: level }])
    await insertAll(db, manifest, tenant.id, 'rate', tenant.code === 'demo' ? demoRates(today) : acmeRates(today))
    if (tenant.code === 'demo') {
      await insertAll(db, manifest, tenant.id, 'specialLine', [
        {
          title: 'Shanghai → Los Angeles',
          mode: 'FCL',
          origin: 'CNSHA',
          destination: 'USLAX',
          containerType: '45G1',
          sort: 1,
          enabled: true,
        },
        {
          title: 'Ningbo → Rotterdam',
          mode: 'FCL',
          origin: 'CNNGB',
          destination: 'NLRTM',
          containerType: '45G1',
          sort: 2,
          enabled: true,
        },
        {
          title: 'Shenzhen → Hamburg',
          mode: 'FCL',
          origin: 'CNSZX',
          destination: 'DEHAM',
          containerType: '22G1',
          sort: 3,
          enabled: true,
        },
        {
          title: 'Shanghai → Jebel Ali (LCL)',
          mode: 'LCL',
          origin: 'CNSHA',
          destination: 'AEJEA',
          sort: 4,
          enabled: true,
        },
        { title: 'Pudong → Frankfurt (air)', mode: 'AIR', origin: 'PVG', destination: 'FRA', sort: 5, enabled: true },
        {
          title: 'Qingdao → Sydney',
          mode: 'FCL',
          origin: 'CNQIN',
          destination: 'AUSYD',
          containerType: '42G1',
          sort: 6,
          enabled: false,
        },
      ])
    }
  }
}
