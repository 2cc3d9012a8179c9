import { type Kysely, sql } from 'kysely'
import { isoContainer, unlocode } from '../../../rules/formats.ts'
import { dayStart } from '../../domain/tracking/view.ts'
import { now as clockNow } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'
import { OCEAN_CARRIERS } from './reference/index.ts'

/**
 * Shipments and their DCSA Track & Trace histories for cargo tracking (issue #6): sea and air, with
 * customs events, one cancelled, one changed in the last 24 hours, linked to the seeded orders. Fixed
 * data, placed relative to the seed time (`now`) so that "added within 24 h" and "changed within 24 h"
 * (SPEC §9) hold on a fresh database. Real UN/LOCODEs, SCACs, airlines and vessel names.
 */

/** Numbers the tests and the README use. */
export const TRACKING_SAMPLES = {
  /** Sea, under way, ETA corrected 5 hours before the seed: "changed within 24 h". */
  container: 'CSQU3054383',
  /** Sea, arrived at Rotterdam, declared, examined and released there about 30–40 hours before the seed. */
  arrivedContainer: 'MSKU9070323',
  arrivedBl: 'MAEU264118305',
  /** Air, booked the day before the seed, not flown yet: "added within 24 h". */
  airWaybill: '160-26034186',
  /** Sea, cancelled before sailing. */
  cancelledBl: 'MEDUSH712640',
  /** The acme tenant's container, which localhost must never find. */
  acmeContainer: 'OOLU1182334',
} as const

type Kind = 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT'

interface EventPlan {
  /** Hours relative to the seed time (negative: before it). */
  at: number
  /** When the event was recorded, if not when it happened (estimates are recorded before). */
  recorded?: number
  kind: Kind
  cls?: 'ACT' | 'PLN' | 'EST'
  /** SHIPMENT: `SUBM/CUS`; TRANSPORT: `DEPA`; EQUIPMENT: `LOAD/LADEN`. */
  code: string
  place?: string
  container?: string
  vessel?: string
  voyage?: string
  /** Index (in this plan) of the event this one corrects. */
  corrects?: number
  remark?: string
}

interface ShipmentPlan {
  tenant: 'demo' | 'acme'
  /** Which seeded order it belongs to: the n-th order (by id) in that state. */
  order: { state: string; index: number } | null
  mode: 1 | 2
  blNo?: string
  hbl?: string
  mawb?: string
  containers: { containerNo: string; sizeType: string; sealNo: string }[]
  carrier: string
  vessel: string
  voyage: string
  pol: string
  pod: string
  originAirport?: string
  destinationAirport?: string
  cancelled?: boolean
  events: EventPlan[]
}

const D = 24

const SHIPMENTS: ShipmentPlan[] = [
  {
    tenant: 'demo',
    order: { state: 'booked', index: 0 },
    mode: 1,
    blNo: 'COSU6312345670',
    containers: [
      { containerNo: 'CSQU3054383', sizeType: '45G1', sealNo: 'CN1458823' },
      { containerNo: 'CSNU6120045', sizeType: '22G1', sealNo: 'CN1458824' },
    ],
    carrier: 'COSU',
    vessel: 'COSCO SHIPPING ARIES',
    voyage: '052E',
    pol: 'CNSHA',
    pod: 'USLAX',
    events: [
      { at: -15 * D, kind: 'SHIPMENT', code: 'RECE/CBR' },
      { at: -14 * D, kind: 'SHIPMENT', code: 'CONF/BKG' },
      { at: -12 * D, kind: 'EQUIPMENT', code: 'PICK/EMPTY', place: 'CNSHA', container: 'CSQU3054383' },
      { at: -12 * D + 3, kind: 'EQUIPMENT', code: 'PICK/EMPTY', place: 'CNSHA', container: 'CSNU6120045' },
      { at: -11 * D, kind: 'EQUIPMENT', code: 'GTIN/LADEN', place: 'CNSHA', container: 'CSQU3054383' },
      { at: -11 * D + 2, kind: 'EQUIPMENT', code: 'GTIN/LADEN', place: 'CNSHA', container: 'CSNU6120045' },
      { at: -11 * D + 6, kind: 'SHIPMENT', code: 'SUBM/CUS', place: 'CNSHA' },
      { at: -10 * D - 12, kind: 'SHIPMENT', code: 'RELS/CUS', place: 'CNSHA' },
      { at: -10 * D - 4, kind: 'EQUIPMENT', code: 'LOAD/LADEN', place: 'CNSHA', container: 'CSQU3054383' },
      { at: -10 * D - 3, kind: 'EQUIPMENT', code: 'LOAD/LADEN', place: 'CNSHA', container: 'CSNU6120045' },
      { at: -10 * D, kind: 'TRANSPORT', code: 'DEPA', place: 'CNSHA', vessel: 'COSCO SHIPPING ARIES', voyage: '052E' },
      { at: -9 * D, kind: 'SHIPMENT', code: 'ISSU/TRD' },
      // Index 12: the estimate the carrier corrected 5 hours before the seed (index 13).
      {
        at: 6 * D,
        recorded: -10 * D + 2,
        kind: 'TRANSPORT',
        cls: 'EST',
        code: 'ARRI',
        place: 'USLAX',
        vessel: 'COSCO SHIPPING ARIES',
        voyage: '052E',
      },
      {
        at: 7 * D + 6,
        recorded: -5,
        kind: 'TRANSPORT',
        cls: 'EST',
        code: 'ARRI',
        place: 'USLAX',
        vessel: 'COSCO SHIPPING ARIES',
        voyage: '052E',
        corrects: 12,
        remark: 'Berth congestion at San Pedro Bay',
      },
    ],
  },
  {
    tenant: 'demo',
    order: { state: 'booked', index: 1 },
    mode: 1,
    blNo: 'MAEU264118305',
    containers: [
      { containerNo: 'MSKU9070323', sizeType: '45G1', sealNo: 'ML-CN4471029' },
      { containerNo: 'MRKU5526136', sizeType: '45G1', sealNo: 'ML-CN4471030' },
    ],
    carrier: 'MAEU',
    vessel: 'MAERSK ESSEN',
    voyage: '411W',
    pol: 'CNNGB',
    pod: 'NLRTM',
    events: [
      { at: -40 * D, kind: 'SHIPMENT', code: 'CONF/BKG' },
      { at: -36 * D, kind: 'EQUIPMENT', code: 'GTIN/LADEN', place: 'CNNGB', container: 'MSKU9070323' },
      { at: -36 * D + 1, kind: 'EQUIPMENT', code: 'GTIN/LADEN', place: 'CNNGB', container: 'MRKU5526136' },
      { at: -35 * D, kind: 'SHIPMENT', code: 'SUBM/CUS', place: 'CNNGB' },
      { at: -35 * D + 8, kind: 'SHIPMENT', code: 'RELS/CUS', place: 'CNNGB' },
      { at: -34 * D - 6, kind: 'EQUIPMENT', code: 'LOAD/LADEN', place: 'CNNGB', container: 'MSKU9070323' },
      { at: -34 * D, kind: 'TRANSPORT', code: 'DEPA', place: 'CNNGB', vessel: 'MAERSK ESSEN', voyage: '411W' },
      { at: -33 * D, kind: 'SHIPMENT', code: 'ISSU/TRD' },
      { at: -20 * D, kind: 'TRANSPORT', code: 'ARRI', place: 'SGSIN', vessel: 'MAERSK ESSEN', voyage: '411W' },
      { at: -19 * D, kind: 'TRANSPORT', code: 'DEPA', place: 'SGSIN', vessel: 'MAERSK ESSEN', voyage: '411W' },
      { at: -44, kind: 'TRANSPORT', code: 'ARRI', place: 'NLRTM', vessel: 'MAERSK ESSEN', voyage: '411W' },
      { at: -42, kind: 'EQUIPMENT', code: 'DISC/LADEN', place: 'NLRTM', container: 'MSKU9070323' },
      { at: -41, kind: 'EQUIPMENT', code: 'DISC/LADEN', place: 'NLRTM', container: 'MRKU5526136' },
      { at: -40, kind: 'SHIPMENT', code: 'SUBM/CUS', place: 'NLRTM' },
      { at: -37, kind: 'SHIPMENT', code: 'HOLD/CUS', place: 'NLRTM', remark: 'Selected for physical examination' },
      { at: -35, kind: 'EQUIPMENT', code: 'INSP/LADEN', place: 'NLRTM', container: 'MSKU9070323' },
      { at: -31, kind: 'SHIPMENT', code: 'RELS/CUS', place: 'NLRTM' },
      { at: -30, kind: 'EQUIPMENT', code: 'GTOT/LADEN', place: 'NLRTM', container: 'MSKU9070323' },
    ],
  },
  {
    tenant: 'demo',
    order: null,
    mode: 2,
    mawb: '160-26034186',
    hbl: 'HYPVG2603017',
    containers: [],
    carrier: 'CX',
    vessel: 'CX 289',
    voyage: 'CX289',
    pol: 'CNSHA',
    pod: 'DEFRA',
    originAirport: 'PVG',
    destinationAirport: 'FRA',
    events: [
      { at: -22, kind: 'SHIPMENT', code: 'RECE/CBR' },
      { at: -20, kind: 'SHIPMENT', code: 'CONF/BKG' },
      { at: -6, kind: 'SHIPMENT', code: 'ISSU/TRD' },
      { at: -5, kind: 'SHIPMENT', code: 'SUBM/CUS', place: 'CNSHA' },
      {
        at: 18,
        recorded: -20,
        kind: 'TRANSPORT',
        cls: 'PLN',
        code: 'DEPA',
        place: 'CNSHA',
        vessel: 'CX 365',
        voyage: 'CX365',
      },
      {
        at: 30,
        recorded: -20,
        kind: 'TRANSPORT',
        cls: 'PLN',
        code: 'ARRI',
        place: 'DEFRA',
        vessel: 'CX 289',
        voyage: 'CX289',
      },
    ],
  },
  {
    tenant: 'demo',
    order: { state: 'cancelled', index: 0 },
    mode: 1,
    blNo: 'MEDUSH712640',
    containers: [{ containerNo: 'MSCU4521908', sizeType: '45G1', sealNo: 'MSC0912273' }],
    carrier: 'MSCU',
    vessel: 'MSC GULSUN',
    voyage: 'FE612W',
    pol: 'CNSHA',
    pod: 'DEHAM',
    cancelled: true,
    events: [
      { at: -20 * D, kind: 'SHIPMENT', code: 'RECE/CBR' },
      { at: -19 * D, kind: 'SHIPMENT', code: 'CONF/BKG' },
      { at: -17 * D, kind: 'SHIPMENT', code: 'VOID/BKG', remark: 'Cancelled by the shipper' },
    ],
  },
  {
    tenant: 'demo',
    order: { state: 'booked', index: 2 },
    mode: 1,
    blNo: 'HLCUSHA2603144',
    containers: [{ containerNo: 'TGHU8812760', sizeType: '22G1', sealNo: 'HL7720154' }],
    carrier: 'HLCU',
    vessel: 'BERLIN EXPRESS',
    voyage: '014W',
    pol: 'CNSHA',
    pod: 'SGSIN',
    events: [
      { at: -9 * D, kind: 'SHIPMENT', code: 'CONF/BKG' },
      { at: -7 * D, kind: 'EQUIPMENT', code: 'GTIN/LADEN', place: 'CNSHA', container: 'TGHU8812760' },
      { at: -6 * D, kind: 'EQUIPMENT', code: 'LOAD/LADEN', place: 'CNSHA', container: 'TGHU8812760' },
      { at: -6 * D + 5, kind: 'TRANSPORT', code: 'DEPA', place: 'CNSHA', vessel: 'BERLIN EXPRESS', voyage: '014W' },
      { at: -5 * D, kind: 'SHIPMENT', code: 'ISSU/TRD' },
      {
        at: 1 * D,
        recorded: -6 * D + 5,
        kind: 'TRANSPORT',
        cls: 'EST',
        code: 'ARRI',
        place: 'SGSIN',
        vessel: 'BERLIN EXPRESS',
        voyage: '014W',
      },
    ],
  },
  {
    tenant: 'acme',
    order: { state: 'booked', index: 0 },
    mode: 1,
    blNo: 'OOLU2603114470',
    containers: [{ containerNo: 'OOLU1182334', sizeType: '45G1', sealNo: 'OO3381205' }],
    carrier: 'ONEY',
    vessel: 'ONE HARMONY',
    voyage: '038E',
    pol: 'CNYTN',
    pod: 'USLAX',
    events: [
      { at: -12 * D, kind: 'SHIPMENT', code: 'CONF/BKG' },
      { at: -8 * D, kind: 'TRANSPORT', code: 'DEPA', place: 'CNYTN', vessel: 'ONE HARMONY', voyage: '038E' },
    ],
  },
]

function check(plan: ShipmentPlan) {
  for (const c of plan.containers)
    if (!isoContainer(c.containerNo)) throw new Error(`seed: ${c.containerNo} fails the ISO 6346 check`)
  for (const code of [plan.pol, plan.pod, ...plan.events.map((e) => e.place ?? 'CNSHA')])
    if (!unlocode(code)) throw new Error(`seed: ${code} is not a UN/LOCODE`)
  if (plan.mode === 1 && !OCEAN_CARRIERS.some((c) => c.scac === plan.carrier))
    throw new Error(`seed: ${plan.carrier} is not a known carrier`)
}

/** Inserts the shipments and events; `now` is the seed time the recent events are placed around. */
export async function seedTracking(db: Kysely<DB>, now = clockNow()): Promise<void> {
  const hours = (h: number) => new Date(now.getTime() + h * 3_600_000)
  for (const plan of SHIPMENTS) {
    check(plan)
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', plan.tenant).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      const customer = await trx
        .selectFrom('company')
        .select('id')
        .where('company_type', '=', 2)
        .orderBy('id')
        .executeTakeFirstOrThrow()
      // booking_order is the engine's table of schemas/order.yaml (seeded by orders.ts just before).
      const order = plan.order
        ? (
            await sql<{ id: number; etd: string | null; eta: string | null }>`select id,
              to_char(etd, 'YYYY-MM-DD') as etd, to_char(eta, 'YYYY-MM-DD') as eta from booking_order
              where state = ${plan.order.state} order by id offset ${plan.order.index} limit 1`.execute(trx)
          ).rows[0]
        : undefined
      const recorded = plan.events.map((e) => e.recorded ?? Math.min(e.at, 0))
      const createdAt = hours(Math.min(...recorded))
      const actual = (code: string, place: string) =>
        plan.events.find(
          (e) => e.kind === 'TRANSPORT' && (e.cls ?? 'ACT') === 'ACT' && e.code === code && e.place === place,
        )
      const latest = (code: string, place: string) =>
        [...plan.events].reverse().find((e) => e.kind === 'TRANSPORT' && e.code === code && e.place === place)
      const when = (e: EventPlan | undefined) => (e ? hours(e.at) : null)
      const estimate = (code: string, place: string) =>
        [...plan.events]
          .reverse()
          .find((e) => e.kind === 'TRANSPORT' && (e.cls ?? 'ACT') !== 'ACT' && e.code === code && e.place === place)
      // The schedule as a confirmed order leaves it (server/domain/orders/shipment.ts): the order's days,
      // at midnight UTC, until a carrier's estimate gives a time; without an order, the carrier's events.
      const scheduled = (code: string, place: string, day: string | null | undefined) =>
        estimate(code, place) || !day ? when(latest(code, place)) : dayStart(day)
      const shipment = await trx
        .insertInto('shipment')
        .values({
          tenant_id: tenant.id,
          created_at: createdAt,
          updated_at: hours(Math.max(...recorded)),
          booking_order: order?.id ?? null,
          transport_mode: plan.mode,
          bl_no: plan.blNo ?? null,
          hbl: plan.hbl ?? null,
          mawb: plan.mawb ?? null,
          containers: JSON.stringify(plan.containers),
          carrier: plan.carrier,
          vessel: plan.vessel,
          voyage: plan.voyage,
          pol: plan.pol,
          pod: plan.pod,
          origin_airport: plan.originAirport ?? null,
          destination_airport: plan.destinationAirport ?? null,
          etd: scheduled('DEPA', plan.pol, order?.etd),
          eta: scheduled('ARRI', plan.pod, order?.eta),
          atd: when(actual('DEPA', plan.pol)),
          ata: when(actual('ARRI', plan.pod)),
          cancelled: plan.cancelled ?? false,
          customer_company: customer.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const ids: number[] = []
      for (const [index, e] of plan.events.entries()) {
        const [code, extra] = e.code.split('/') as [string, string | undefined]
        const row = await trx
          .insertInto('tracking_event')
          .values({
            tenant_id: tenant.id,
            created_at: hours(recorded[index] as number),
            updated_at: hours(recorded[index] as number),
            shipment: shipment.id,
            event_type: e.kind,
            event_classifier_code: e.cls ?? 'ACT',
            event_date_time: hours(e.at),
            event_created_date_time: hours(recorded[index] as number),
            shipment_event_type_code: e.kind === 'SHIPMENT' ? code : null,
            document_type_code: e.kind === 'SHIPMENT' ? (extra ?? null) : null,
            transport_event_type_code: e.kind === 'TRANSPORT' ? code : null,
            equipment_event_type_code: e.kind === 'EQUIPMENT' ? code : null,
            empty_indicator_code: e.kind === 'EQUIPMENT' ? (extra ?? null) : null,
            equipment_reference: e.container ?? null,
            un_location_code: e.place ?? null,
            vessel_name: e.vessel ?? null,
            carrier_voyage_number: e.voyage ?? null,
            corrects_event: e.corrects !== undefined ? (ids[e.corrects] ?? null) : null,
            remark: e.remark ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        ids.push(row.id)
      }
    })
  }
}
