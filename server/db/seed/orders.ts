import type { Kysely } from 'kysely'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { columnsOf, toDbValue } from '../../engine/columns.ts'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'
import { seededRandom } from './random.ts'
import { OCEAN_CARRIERS, SEA_PORTS } from './reference/index.ts'

/**
 * Booking orders of the demo tenant's customer (and a few of acme's, so tenant isolation has something to
 * hide): sea freight out of Chinese ports in every order state, placed by the enterprise users. Deterministic:
 * a seeded generator and fixed dates, so every fresh database holds the same orders.
 */

export const DEMO_ORDER_COUNT = 36
export const ACME_ORDER_COUNT = 6
/** Orders are dated around this day. */
const BASE_DAY = Date.UTC(2026, 2, 2)

interface Lane {
  pol: string
  pod: string
  transitDays: number
  consignee: string
  deliveryAddress: string
}

const LANES: Lane[] = [
  {
    pol: 'CNSHA',
    pod: 'USLAX',
    transitDays: 16,
    consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
    deliveryAddress: '1200 Harbor Blvd, Long Beach, CA 90802, USA',
  },
  {
    pol: 'CNNGB',
    pod: 'NLRTM',
    transitDays: 32,
    consignee: 'DUTCH LINEN TRADING B.V.\nWAALHAVEN O.Z. 81\n3087 BM ROTTERDAM NETHERLANDS',
    deliveryAddress: 'Waalhaven O.Z. 81, 3087 BM Rotterdam, Netherlands',
  },
  {
    pol: 'CNSHA',
    pod: 'DEHAM',
    transitDays: 34,
    consignee: 'HANSEATIC TEXTIL GMBH\nSTEINHOEFT 11\n20459 HAMBURG GERMANY',
    deliveryAddress: 'Steinhöft 11, 20459 Hamburg, Germany',
  },
  {
    pol: 'CNYTN',
    pod: 'USNYC',
    transitDays: 35,
    consignee: 'EAST COAST APPAREL LLC\n350 FIFTH AVENUE SUITE 5000\nNEW YORK NY 10118 USA',
    deliveryAddress: '350 Fifth Avenue, New York, NY 10118, USA',
  },
  {
    pol: 'CNNGB',
    pod: 'GBFXT',
    transitDays: 30,
    consignee: 'BRITANNIA HOME LTD\n2 DOCK ROAD\nFELIXSTOWE IP11 3SW UK',
    deliveryAddress: '2 Dock Road, Felixstowe IP11 3SW, United Kingdom',
  },
  {
    pol: 'CNSHA',
    pod: 'SGSIN',
    transitDays: 7,
    consignee: 'ASIA TRADING PTE LTD\n10 ANSON ROAD\nSINGAPORE 079903',
    deliveryAddress: '10 Anson Road, Singapore 079903',
  },
]

const CARRIERS: { code: string; vessels: string[] }[] = [
  { code: 'MAEU', vessels: ['MAERSK ESSEN', 'MAERSK EINDHOVEN', 'MAERSK HONAM'] },
  { code: 'COSU', vessels: ['COSCO SHIPPING ARIES', 'COSCO SHIPPING GEMINI', 'COSCO FRANCE'] },
  { code: 'MSCU', vessels: ['MSC GULSUN', 'MSC IRINA', 'MSC LORETO'] },
]

/** Later states first appear on older orders, as they would in a real order book. */
const STATES = [
  'booked',
  'booked',
  'accepted',
  'invalid',
  'rejected',
  'returned',
  'withdrawn',
  'cancelled',
  'bargaining',
  'submitted',
  'submitted',
  'unsubmitted',
  'draft',
]

const PACKAGES = ['CARTONS', 'PALLETS', 'BALES', 'ROLLS']

const day = (offset: number) => new Date(BASE_DAY + offset * 86_400_000).toISOString().slice(0, 10)
const pad = (n: number, width: number) => String(n).padStart(width, '0')

interface TenantPlan {
  code: string
  prefix: string
  count: number
  seed: number
  shipper: string
}

const PLANS: TenantPlan[] = [
  {
    code: 'demo',
    prefix: 'HY',
    count: DEMO_ORDER_COUNT,
    seed: 20260302,
    shipper: 'HANGZHOU MINGHUI TEXTILE IMP & EXP\nCO., LTD.\nNO. 318 QIUTAO NORTH ROAD\nHANGZHOU 310020 CHINA',
  },
  {
    code: 'acme',
    prefix: 'AC',
    count: ACME_ORDER_COUNT,
    seed: 20260303,
    shipper: 'DONGGUAN HENGDA ELECTRONICS CO LTD\nCHANG AN TOWN\nDONGGUAN 523850 CHINA',
  },
]

/** The order records of one tenant, in the API shape (what the engine answers), oldest first. */
export function demoOrders(plan: TenantPlan): Record<string, unknown>[] {
  const random = seededRandom(plan.seed)
  const orders: Record<string, unknown>[] = []
  for (let i = 0; i < plan.count; i++) {
    const lane = random.pick(LANES)
    const carrier = random.pick(CARRIERS)
    const state = STATES[Math.min(STATES.length - 1, Math.floor((i * STATES.length) / plan.count))] as string
    const created = -40 + i * 2 + random.int(0, 1)
    const etd = created + random.int(7, 21)
    const fcl = random.int(0, 3) > 0
    const boxes = fcl ? random.int(200, 1400) : random.int(8, 60)
    const sailed = state === 'booked' && etd < 0
    const seq = pad(i + 1, 4)
    orders.push({
      orderNo: `${plan.prefix}${day(created).replaceAll('-', '').slice(2)}${seq}`,
      jobNo:
        state === 'accepted' || state === 'booked' || state === 'invalid'
          ? `${lane.pol.slice(2)}E${pad(2600 + i, 6)}`
          : null,
      businessRefNo: `PO-${plan.code.toUpperCase()}-2026-${pad(100 + i * 7, 4)}`,
      hbl: state === 'booked' ? `${plan.prefix}${lane.pol.slice(2)}${pad(260000 + i * 13, 7)}` : null,
      mbl: state === 'booked' ? `${carrier.code}${pad(264000000 + i * 7919, 9)}` : null,
      transportMode: 1,
      containerLoadType: fcl ? 'FCL' : 'LCL',
      pol: lane.pol,
      pod: lane.pod,
      carrier: carrier.code,
      vessel: random.pick(carrier.vessels),
      voyage: `${pad(random.int(101, 650), 3)}${random.pick(['E', 'W', 'N', 'S'])}`,
      etd: day(etd),
      eta: day(etd + lane.transitDays),
      atd: sailed ? day(etd) : null,
      ata: sailed && etd + lane.transitDays < 0 ? day(etd + lane.transitDays) : null,
      cargoType: fcl ? 'FCL' : 'CFS',
      // One 40' high cube per 68 CBM of cargo (no random draw: the later seeds keep their values).
      containers: fcl ? [{ containerType: '45G1', quantity: Math.max(1, Math.ceil((boxes * 0.052) / 68)) }] : null,
      packageType: random.pick(PACKAGES),
      boxes,
      grossWeight: Number((boxes * (fcl ? 14.5 : 22.25) + random.int(0, 999) / 1000).toFixed(3)),
      volume: Number((boxes * (fcl ? 0.052 : 0.11)).toFixed(3)),
      shipper: plan.shipper,
      consignee: lane.consignee,
      notifyParty: 'SAME AS CONSIGNEE',
      deliveryAddress: lane.deliveryAddress,
      state,
      createdAt: `${day(created)}T0${random.int(1, 9)}:${pad(random.int(0, 59), 2)}:00.000Z`,
    })
  }
  return orders
}

/**
 * Inserts the demo orders for the demo and acme tenants' customer companies. Orders alternate between
 * the enterprise administrator and the enterprise operator, so data scope 'self' has something to hide.
 */
export async function seedOrders(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const entity = manifest.entities.order as ManifestEntity
  await syncEntityTables(db, manifest)
  const known = {
    ports: new Set(SEA_PORTS.map((p) => p.code)),
    carriers: new Set(OCEAN_CARRIERS.map((c) => c.scac)),
  }
  const columns = columnsOf(entity, manifest.entities).filter((c) => !c.system)
  for (const plan of PLANS) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', plan.code).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      const company = await trx
        .selectFrom('company')
        .select('id')
        .where('company_type', '=', 2)
        .orderBy('id')
        .executeTakeFirstOrThrow()
      const users = await trx
        .selectFrom('app_user')
        .select('id')
        .where('company_id', '=', company.id)
        .orderBy('id')
        .execute()
      if (!users.length) throw new Error(`seed: tenant ${plan.code} has no enterprise user`)
      const rows = demoOrders(plan).map((order, i) => {
        for (const code of [order.pol, order.pod])
          if (!known.ports.has(code as string)) throw new Error(`seed: ${code} is not a known port`)
        if (!known.carriers.has(order.carrier as string))
          throw new Error(`seed: ${order.carrier} is not a known carrier`)
        const values: Record<string, unknown> = {
          tenant_id: tenant.id,
          created_by: users[i % users.length]?.id,
          created_at: order.createdAt,
          updated_at: order.createdAt,
        }
        const record: Record<string, unknown> = { ...order }
        if (entity.dataScope?.company) record[entity.dataScope.company] = company.id
        for (const column of columns)
          if (record[column.name] !== undefined) values[column.column] = toDbValue(column, record[column.name])
        return values
      })
      await (trx as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .insertInto(entity.table)
        .values(rows)
        .execute()
    })
  }
}
