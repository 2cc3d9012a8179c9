import { DEFAULT_TIME_ZONE, dayIn } from '../../rules/calendar.ts'
import type { TestApp } from './app.ts'

/** Bookings the guard suites place: the same parties and lanes the booking tests use. */

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

const PARTIES = {
  shipper: 'NINGBO HAITONG AUTO PARTS CO., LTD.\nNO. 6 GANGKOU ROAD, BEILUN\nNINGBO 315800 CHINA',
  consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
  notifyParty: 'SAME AS CONSIGNEE',
}

/** A complete direct FCL booking Shanghai → Los Angeles (no rate, no quote: source direct). */
export const directFcl = (extra: object = {}) => ({
  entrustType: 'entrusted',
  transportMode: 1,
  containerLoadType: 'FCL',
  pol: 'CNSHA',
  pod: 'USLAX',
  carrier: 'MAEU',
  etd: inDays(10),
  tradeTerm: 'FOB',
  containers: [{ containerType: '45G1', quantity: 1 }],
  goodsDescription: 'AUTO PARTS',
  hsCode: '870899',
  ...PARTIES,
  ...extra,
})

interface RateRow {
  id: number
  carrier: string
  pol: string
  pod: string
  valid_from: Date | string
  valid_to: Date | string
  container_prices: { containerType: string }[] | null
}

const day = (d: Date | string) => (d instanceof Date ? d.toISOString().slice(0, 10) : d)

/** A booking from a demo FCL rate Shanghai → Los Angeles valid today (the tenant's day), as the rate page sends. */
export async function fromCurrentRate(test: TestApp, tenantId: number) {
  const today = dayIn(new Date(), DEFAULT_TIME_ZONE)
  const rows = (await test.database.db
    .selectFrom('freight_rate' as never)
    .select(['id', 'carrier', 'pol', 'pod', 'valid_from', 'valid_to', 'container_prices'] as never[])
    .where('tenant_id' as never, '=', tenantId as never)
    .where('mode' as never, '=', 'FCL' as never)
    .where('pol' as never, '=', 'CNSHA' as never)
    .where('pod' as never, '=', 'USLAX' as never)
    .orderBy('id' as never)
    .execute()) as unknown as RateRow[]
  const rate = rows.find((r) => day(r.valid_from) <= today && day(r.valid_to) >= today)
  if (!rate) throw new Error('seed: no FCL rate CNSHA-USLAX valid today')
  return {
    rateId: rate.id,
    ...directFcl({
      carrier: rate.carrier,
      containers: [{ containerType: rate.container_prices?.[0]?.containerType ?? '45G1', quantity: 1 }],
    }),
  }
}
