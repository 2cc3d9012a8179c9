import { sql } from 'kysely'
import type { TestApp } from './app.ts'
import { inDays, today } from './clock.ts'

/** Bookings the guard suites place: the same parties and lanes the booking tests use. */

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
  container_type: string | null
}

/** A booking from a demo FCL rate Shanghai → Los Angeles valid today (the tenant's day), as the rate page sends. */
export async function fromCurrentRate(test: TestApp, tenantId: number) {
  // Days compared as text: a raw date column differs between the drivers (docs/TESTING.md).
  const { rows } = await sql<RateRow>`
    select id, carrier, container_prices -> 0 ->> 'containerType' as container_type
    from freight_rate
    where tenant_id = ${tenantId} and mode = 'FCL' and pol = 'CNSHA' and pod = 'USLAX'
      and to_char(valid_from, 'YYYY-MM-DD') <= ${today()} and to_char(valid_to, 'YYYY-MM-DD') >= ${today()}
    order by id limit 1`.execute(test.database.db)
  const rate = rows[0]
  if (!rate) throw new Error('seed: no FCL rate CNSHA-USLAX valid today')
  return {
    rateId: rate.id,
    ...directFcl({
      carrier: rate.carrier,
      containers: [{ containerType: rate.container_type ?? '45G1', quantity: 1 }],
    }),
  }
}
