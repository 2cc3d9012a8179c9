import type { Kysely } from 'kysely'
import { addDays, DEFAULT_TIME_ZONE, dayIn } from '../../../rules/calendar.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import type { DB } from '../schema.ts'
import { insertAll } from './rates.ts'

/**
 * The demo tenant's trucking fees (/trailerCosts, issue #25): pick-up from the factory towns of the Yangtze
 * delta to the ports of Shanghai (CNSHA) and Ningbo (CNNGB), in CNY, as a forwarder there buys them —
 * per container for FCL, per CBM or ton with a minimum for loose cargo — plus one delivery fee and one
 * expired price, so validity shows. A fixed table, valid around the day the seed runs (the tenant's day).
 */

interface Fee {
  chargeNo: string
  name: string
  feeType: 'pickUp' | 'delivery'
  vendor: string
  transitDays: number
  loadType: 'container' | 'loose'
  origin: string
  destination: string
  chargeLevel: string
  minimumAmount?: string
  calcType: 'container' | 'shipment' | 'cbm' | 'kg' | 'ton'
  /** Validity in days from the seed's day. */
  from: number
  to: number
}

const QIANTANG = 'Hangzhou Qiantang Container Trucking Co., Ltd.'
const HUAXIN = 'Shanghai Huaxin Container Transport Co., Ltd.'
const TONGDA = 'Ningbo Beilun Tongda Logistics Co., Ltd.'
const SHANGMAO = 'Yiwu Shangmao Freight Co., Ltd.'

export const DEMO_TRUCKING_FEES: readonly Fee[] = [
  // Container pick-up to Shanghai.
  fee(
    'TK-HGH-SHA-C',
    'Hangzhou → Shanghai port, per container',
    QIANTANG,
    1,
    'container',
    'Hangzhou/杭州',
    'CNSHA',
    '2350.00',
    'container',
    '2350.00',
  ),
  fee(
    'TK-SZV-SHA-C',
    'Suzhou → Shanghai port, per container',
    HUAXIN,
    1,
    'container',
    'Suzhou/苏州',
    'CNSHA',
    '1650.00',
    'container',
    '1650.00',
  ),
  fee(
    'TK-WUX-SHA-C',
    'Wuxi → Shanghai port, per container',
    HUAXIN,
    1,
    'container',
    'Wuxi/无锡',
    'CNSHA',
    '1850.00',
    'container',
    '1850.00',
  ),
  fee(
    'TK-JIX-SHA-C',
    'Jiaxing → Shanghai port, per container',
    QIANTANG,
    1,
    'container',
    'Jiaxing/嘉兴',
    'CNSHA',
    '1500.00',
    'container',
    '1500.00',
  ),
  // Container pick-up to Ningbo.
  fee(
    'TK-HGH-NGB-C',
    'Hangzhou → Ningbo port, per container',
    TONGDA,
    1,
    'container',
    'Hangzhou/杭州',
    'CNNGB',
    '2100.00',
    'container',
    '2100.00',
  ),
  fee(
    'TK-YIW-NGB-C',
    'Yiwu → Ningbo port, per container',
    SHANGMAO,
    1,
    'container',
    'Yiwu/义乌',
    'CNNGB',
    '2200.00',
    'container',
    '2200.00',
  ),
  fee(
    'TK-SXG-NGB-C',
    'Shaoxing → Ningbo port, per container',
    TONGDA,
    1,
    'container',
    'Shaoxing/绍兴',
    'CNNGB',
    '1900.00',
    'container',
    '1900.00',
  ),
  fee(
    'TK-WNZ-NGB-C',
    'Wenzhou → Ningbo port, per container',
    TONGDA,
    2,
    'container',
    'Wenzhou/温州',
    'CNNGB',
    '3200.00',
    'container',
    '3200.00',
  ),
  // Loose cargo pick-up, by volume or weight with a minimum.
  fee(
    'TK-HGH-SHA-L',
    'Hangzhou → Shanghai CFS, loose',
    QIANTANG,
    1,
    'loose',
    'Hangzhou/杭州',
    'CNSHA',
    '90.00',
    'cbm',
    '450.00',
  ),
  fee(
    'TK-SZV-SHA-L',
    'Suzhou → Shanghai CFS, loose',
    HUAXIN,
    1,
    'loose',
    'Suzhou/苏州',
    'CNSHA',
    '120.00',
    'ton',
    '380.00',
  ),
  fee('TK-YIW-NGB-L', 'Yiwu → Ningbo CFS, loose', SHANGMAO, 1, 'loose', 'Yiwu/义乌', 'CNNGB', '85.00', 'cbm', '400.00'),
  // Delivery from Shanghai port to a bonded warehouse, and last quarter's Hangzhou price (expired).
  {
    ...fee(
      'TK-SHA-WGQ-D',
      'Shanghai port → Waigaoqiao bonded zone',
      HUAXIN,
      1,
      'container',
      'Waigaoqiao/外高桥',
      'CNSHA',
      '800.00',
      'container',
      '800.00',
    ),
    feeType: 'delivery',
  },
  {
    ...fee(
      'TK-HGH-SHA-C-Q3',
      'Hangzhou → Shanghai port, per container',
      QIANTANG,
      1,
      'container',
      'Hangzhou/杭州',
      'CNSHA',
      '2480.00',
      'container',
      '2480.00',
    ),
    from: -120,
    to: -31,
  },
]

function fee(
  chargeNo: string,
  name: string,
  vendor: string,
  transitDays: number,
  loadType: Fee['loadType'],
  origin: string,
  destination: string,
  chargeLevel: string,
  calcType: Fee['calcType'],
  minimumAmount: string,
): Fee {
  return {
    chargeNo,
    name,
    feeType: 'pickUp',
    vendor,
    transitDays,
    loadType,
    origin,
    destination,
    chargeLevel,
    minimumAmount,
    calcType,
    from: -30,
    to: 60,
  }
}

export async function seedTruckingFees(db: Kysely<DB>, manifest: Manifest, today?: string): Promise<void> {
  const day = today ?? dayIn(now(), DEFAULT_TIME_ZONE)
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst()
  if (!tenant) return
  await insertAll(
    db,
    manifest,
    tenant.id,
    'truckingFee',
    DEMO_TRUCKING_FEES.map(({ from, to, ...rest }) => ({
      ...rest,
      currency: 'CNY',
      validFrom: addDays(day, from),
      validTo: addDays(day, to),
    })),
  )
}
