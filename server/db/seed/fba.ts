import { type Kysely, sql } from 'kysely'
import { addDays, DEFAULT_TIME_ZONE, dayIn } from '../../../rules/calendar.ts'
import { chargeableTotal, chargeableWeight } from '../../../rules/fbaWeight.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import type { DB } from '../schema.ts'
import { insertAll } from './rates.ts'

/**
 * The demo enterprise's FBA set-up (issue #26): Hangzhou Minghui Textile (entadmin's company, FBA enabled) asked
 * for the service a month before the seed's day, keeps its Xiaoshan warehouse as the pickup address and three
 * Amazon fulfilment centres as delivery addresses (one private to its operator, entop), and sells silk and
 * cotton goods under its own brand plus one book. Deterministic: fixed names, codes, ASINs; dates from the day
 * the seed runs. Ningbo Haitong (the second customer) has not asked: it is where the activation is shown.
 */

const CUSTOMER = '杭州明辉纺织品进出口有限公司'

type Address = Record<string, unknown> & { by: 'entadmin' | 'entop' }

export const DEMO_FBA_ADDRESSES: readonly Address[] = [
  {
    by: 'entadmin',
    code: 'HZ-XS-01',
    name: '明辉萧山仓',
    purpose: 1,
    country: 'CN',
    state: '浙江省',
    city: '杭州市',
    district: '萧山区',
    addressLine1: '经济技术开发区建设一路 66 号 3 号库',
    zipCode: '311215',
    contact: '陈静',
    companyName: CUSTOMER,
    phone: '0571-82876610',
    email: 'chenjing@minghui-textile.example',
    publicToColleagues: true,
    addressType: 1,
  },
  ...(
    [
      ['ONT8', 'Moreno Valley', '24208 San Michele Rd', '92551', 'entadmin', true],
      ['LGB8', 'Rialto', '1568 N Linden Ave', '92376', 'entadmin', true],
      ['EWR4', 'Robbinsville', '50 New Canton Way', '08691', 'entop', false],
    ] as const
  ).map(([code, city, street, zip, by, shared]) => ({
    by,
    code: `AMZ-${code}`,
    name: `Amazon ${code}`,
    purpose: 2,
    country: 'US',
    fulfilmentCentre: code,
    state: code === 'EWR4' ? 'NJ' : 'CA',
    city,
    addressLine1: street,
    zipCode: zip,
    companyName: 'Amazon.com Services LLC',
    publicToColleagues: shared,
    addressType: 1,
  })),
]

export const DEMO_FBA_PRODUCTS: readonly Record<string, unknown>[] = [
  {
    sku: 'MH-SILK-SCARF-NV',
    brand: 'Minghui',
    nameCn: '桑蚕丝方巾 藏青',
    nameEn: 'Mulberry silk square scarf, navy',
    material: '100% mulberry silk',
    usage: 'Fashion accessory',
    origin: 'CN',
    colour: 'Navy',
    model: 'SQ-90',
    asin: 'B0C7K4M2XQ',
    length: 25,
    width: 18,
    height: 2,
    weight: 0.12,
    price: '24.99',
    currency: 'USD',
  },
  {
    sku: 'MH-PILLOW-SET-2',
    brand: 'Minghui',
    nameCn: '纯棉枕套两件装',
    nameEn: 'Cotton pillowcase, set of two',
    material: '100% cotton, 300 thread count',
    usage: 'Bedding',
    origin: 'CN',
    colour: 'White',
    model: 'PC-51',
    asin: 'B0D3F8R1LT',
    length: 32,
    width: 24,
    height: 4,
    weight: 0.46,
    price: '18.50',
    currency: 'USD',
  },
  {
    sku: 'MH-BOOK-SILKROAD',
    brand: 'Minghui',
    nameCn: '丝绸之路图册',
    nameEn: 'The Silk Road, an illustrated history',
    material: 'Paper',
    usage: 'Book',
    origin: 'CN',
    asin: '0306406152',
    length: 28,
    width: 22,
    height: 3,
    weight: 1.1,
    price: '35.00',
    currency: 'USD',
  },
]

type Box = { boxNo: string; quantity: number; weight: number; length: number; width: number; height: number }

/**
 * The demo enterprise's FBA orders (issue #26 part 2), one per stage the seller watches on the tabs: to Amazon's
 * Californian and New Jersey centres, scarves, pillowcases and the book in cartons of realistic sizes; numbered as
 * the built-in rule numbers them on the day they were made (days before the seed's day, so today's numbers
 * stay free), their chargeable weights worked out as the server does at the default divisor (6000).
 */
export const DEMO_FBA_ORDERS: readonly {
  daysAgo: number
  state: string
  order: Record<string, unknown>
  boxes: Box[]
  skus: [boxNo: string, sku: string, quantity: number][]
}[] = [
  {
    daysAgo: 2,
    state: 'created',
    order: {
      customerReferenceNo: 'MH-PO-2612-05',
      shipmentId: 'FBA17Q2W8KZ3',
      referenceId: '7RT2KX9M',
      warehouseCode: 'ONT8',
    },
    boxes: [
      { boxNo: 'MH05-01', quantity: 4, weight: 11.2, length: 60, width: 40, height: 35 },
      { boxNo: 'MH05-02', quantity: 2, weight: 18.6, length: 55, width: 45, height: 40 },
    ],
    skus: [
      ['MH05-01', 'MH-SILK-SCARF-NV', 480],
      ['MH05-02', 'MH-PILLOW-SET-2', 60],
    ],
  },
  {
    daysAgo: 6,
    state: 'inbound',
    order: {
      customerReferenceNo: 'MH-PO-2612-03',
      shipmentId: 'FBA16M4N7PQ2',
      referenceId: '4HV8ZL2C',
      warehouseCode: 'LGB8',
    },
    boxes: [{ boxNo: 'MH03-01', quantity: 6, weight: 14.8, length: 58, width: 38, height: 36 }],
    skus: [['MH03-01', 'MH-PILLOW-SET-2', 180]],
  },
  {
    daysAgo: 19,
    state: 'shipped',
    order: {
      customerReferenceNo: 'MH-PO-2611-21',
      shipmentId: 'FBA15X9C3DR8',
      referenceId: '9QW3MB7T',
      warehouseCode: 'EWR4',
    },
    boxes: [
      { boxNo: 'MH21-01', quantity: 3, weight: 9.4, length: 50, width: 40, height: 30 },
      { boxNo: 'MH21-02', quantity: 1, weight: 22.0, length: 45, width: 35, height: 30 },
    ],
    skus: [
      ['MH21-01', 'MH-SILK-SCARF-NV', 360],
      ['MH21-02', 'MH-BOOK-SILKROAD', 20],
    ],
  },
  {
    daysAgo: 41,
    state: 'delivered',
    order: {
      customerReferenceNo: 'MH-PO-2611-02',
      shipmentId: 'FBA15B2H6JT4',
      referenceId: '2KD9XN5R',
      warehouseCode: 'ONT8',
    },
    boxes: [{ boxNo: 'MH02-01', quantity: 5, weight: 12.1, length: 60, width: 40, height: 40 }],
    skus: [['MH02-01', 'MH-SILK-SCARF-NV', 600]],
  },
]

/**
 * The milestones of an order's journey (schemas/fbaOrderEvent.yaml) as the operators' moves record them: days
 * after the order was made and the time of day in Shanghai; an order has those of the states it has passed.
 * Ningbo to Long Beach (the Californian centres) or New York (EWR4); the delivered one's last mile by UPS.
 */
const JOURNEY: readonly {
  milestone: string
  codes: Record<string, string>
  day: number
  time: string
  place?: 'departure' | 'arrival' | 'centre'
}[] = [
  {
    milestone: 'received',
    codes: { event_type: 'EQUIPMENT', equipment_event_type_code: 'GTIN' },
    day: 2,
    time: '14:20',
  },
  {
    milestone: 'leftWarehouse',
    codes: { event_type: 'EQUIPMENT', equipment_event_type_code: 'GTOT' },
    day: 4,
    time: '09:10',
  },
  {
    milestone: 'departed',
    codes: { event_type: 'TRANSPORT', transport_event_type_code: 'DEPA' },
    day: 6,
    time: '18:00',
    place: 'departure',
  },
  {
    milestone: 'arrived',
    codes: { event_type: 'TRANSPORT', transport_event_type_code: 'ARRI' },
    day: 21,
    time: '06:30',
    place: 'arrival',
  },
  {
    milestone: 'delivered',
    codes: { event_type: 'EQUIPMENT', equipment_event_type_code: 'DROP' },
    day: 25,
    time: '11:45',
    place: 'centre',
  },
]
const MILESTONES_BY_STATE: Record<string, number> = {
  created: 0,
  inbound: 1,
  outbound: 2,
  shipped: 3,
  arrived: 4,
  delivered: 5,
}

const HS_BY_SKU: Record<string, string> = {
  'MH-SILK-SCARF-NV': '621410',
  'MH-PILLOW-SET-2': '630231',
  'MH-BOOK-SILKROAD': '490199',
}
const DECLARED_BY_SKU: Record<string, string> = {
  'MH-SILK-SCARF-NV': '6.50',
  'MH-PILLOW-SET-2': '5.20',
  'MH-BOOK-SILKROAD': '9.80',
}

export async function seedFba(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const day = dayIn(now(), DEFAULT_TIME_ZONE)
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst()
  if (!tenant) return
  const { rows: companies } = await sql<{ id: number }>`select id from company
    where tenant_id = ${tenant.id} and name = ${CUSTOMER}`.execute(db)
  const company = companies[0]?.id
  if (company === undefined) return
  const { rows: users } = await sql<{ id: number; username: string }>`select id, username from app_user
    where tenant_id = ${tenant.id} and username in ('entadmin', 'entop')`.execute(db)
  const userId = (name: string) => users.find((u) => u.username === name)?.id
  await sql`update company set fba_applied_at = ${`${addDays(day, -30)}T09:30:00+08:00`}::timestamptz,
      fba_apply_note = ${'Silk scarves, bedding and books to Amazon US, about 300 cartons a month'}
    where id = ${company}`.execute(db)
  const addresses = await insertAll(
    db,
    manifest,
    tenant.id,
    'fbaAddress',
    DEMO_FBA_ADDRESSES.map(({ by: _, ...address }) => ({ ...address, company })),
  )
  const products = await insertAll(
    db,
    manifest,
    tenant.id,
    'fbaProduct',
    DEMO_FBA_PRODUCTS.map((product, i) => ({ ...product, listedDate: addDays(day, -400 + i * 90), company })),
  )
  // The owner is a system column (created_by), which insertAll leaves to the engine: each row's author.
  for (const [i, id] of addresses.entries())
    await sql`update fba_address set created_by = ${userId(DEMO_FBA_ADDRESSES[i]?.by ?? 'entadmin')} where id = ${id}`.execute(
      db,
    )
  for (const id of products)
    await sql`update fba_product set created_by = ${userId('entadmin')} where id = ${id}`.execute(db)

  const divisor = 6000
  const orders = await insertAll(
    db,
    manifest,
    tenant.id,
    'fbaOrder',
    DEMO_FBA_ORDERS.map(({ daysAgo, state, order, boxes, skus }) => ({
      ...order,
      orderNo: `FBA${addDays(day, -daysAgo).replaceAll('-', '').slice(2)}0001`,
      platformSource: 'amazon',
      storeId: 'MINGHUI-US',
      collectionType: 1,
      deliveryType: 1,
      customsType: 1,
      state,
      boxes: boxes.map((box) => ({ ...box, chargeableWeight: Number(chargeableWeight(box, divisor)) })),
      chargeableWeightTotal: Number(chargeableTotal(boxes, divisor)),
      products: skus.map(([boxNo, sku, quantity]) => {
        const product = DEMO_FBA_PRODUCTS.find((p) => p.sku === sku) ?? {}
        return {
          boxNo,
          sku,
          hsCode: HS_BY_SKU[sku],
          nameCn: product.nameCn,
          nameEn: product.nameEn,
          brand: product.brand,
          quantity,
          declaredPrice: DECLARED_BY_SKU[sku],
          salesLink: `https://www.amazon.com/dp/${String(product.asin)}`,
        }
      }),
      company,
    })),
  )
  for (const [i, id] of orders.entries())
    await sql`update fba_order set created_by = ${userId('entadmin')},
        created_at = ${`${addDays(day, -(DEMO_FBA_ORDERS[i]?.daysAgo ?? 0))}T10:15:00+08:00`}::timestamptz
      where id = ${id}`.execute(db)

  // Their milestones so far, by the operator (opadmin), and the ports and last-mile carrier the moves recorded.
  const { rows: operators } = await sql<{ id: number }>`select id from app_user
    where tenant_id = ${tenant.id} and username = 'opadmin'`.execute(db)
  for (const [i, id] of orders.entries()) {
    const seeded = DEMO_FBA_ORDERS[i]
    if (!seeded) continue
    const passed = JOURNEY.slice(0, MILESTONES_BY_STATE[seeded.state] ?? 0)
    const arrival = seeded.order.warehouseCode === 'EWR4' ? 'USNYC' : 'USLGB'
    const ports = { departure: 'CNNGB', arrival, centre: null }
    for (const step of passed) {
      const at = `${addDays(day, -seeded.daysAgo + step.day)}T${step.time}:00+08:00`
      await sql`insert into fba_order_event (tenant_id, fba_order, milestone, event_type, event_classifier_code,
          transport_event_type_code, equipment_event_type_code, event_date_time, location, un_location_code, created_by)
        values (${tenant.id}, ${id}, ${step.milestone}, ${step.codes.event_type}, 'ACT',
          ${step.codes.transport_event_type_code ?? null}, ${step.codes.equipment_event_type_code ?? null},
          ${at}::timestamptz, ${step.place === 'centre' ? String(seeded.order.warehouseCode) : null},
          ${step.place ? ports[step.place] : null}, ${operators[0]?.id ?? null})`.execute(db)
    }
    const reached = (milestone: string) => passed.some((p) => p.milestone === milestone)
    await sql`update fba_order set departure_port = ${reached('departed') ? 'CNNGB' : null},
        arrival_port = ${reached('arrived') ? arrival : null},
        last_mile_carrier = ${reached('arrived') ? 'ups' : null},
        last_mile_tracking_no = ${reached('arrived') ? `1Z4R72W803${String(40_000_000 + i * 7919).slice(0, 8)}` : null}
      where id = ${id}`.execute(db)
  }
}
