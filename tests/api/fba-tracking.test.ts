import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { administratorOf, bearerCalls } from '../support/calls.ts'
import { now } from '../support/clock.ts'

/**
 * FBA order tracking (issue #26 "Tracking"): each operator move records its DCSA milestone at the server's time,
 * the arrival records the last-mile carrier (its number checked per carrier), the operator adds the carrier's
 * events, and a tracking search by the FBA order number answers them — to a visitor without prices, products,
 * boxes or addresses; to another tenant's host and another enterprise not at all.
 */

const t = setupTestApp()
const { answer, ok } = bearerCalls(t)

const ADD = '/api/booking/fba/order/add'
const TRANSITION = '/api/fbaOrder/transition'
const LAST_MILE = '/api/booking/fba/order/lastMile/event/add'
const HAITONG = '宁波海通汽车零部件有限公司'

type Row = Record<string, unknown> & { id: number; version: number; orderNo: string }
interface FbaEvent {
  milestone: string
  eventType: string
  eventClassifierCode: string
  transportEventTypeCode: string | null
  equipmentEventTypeCode: string | null
  shipmentEventTypeCode: string | null
  eventDateTime: string
  location: string | null
  unLocationCode: string | null
  signedBy: string | null
}
interface FbaTrack {
  view: string
  orderNo: string
  state: string
  warehouseCode: string
  fcCity: string | null
  arrivalPort: string | null
  lastMileCarrier: string | null
  lastMileTrackingNo: string | null
  events: FbaEvent[]
}
interface Result {
  number: string
  found: boolean
  shipments: unknown[]
  fbaOrders: FbaTrack[]
}

const fieldErrors = (body: { content?: { fieldErrors?: { field: string; key: string }[] } }) =>
  (body.content?.fieldErrors ?? []).map((e) => `${e.field}: ${e.key}`)

const order = {
  customerReferenceNo: 'MH-PO-2612-11',
  platformSource: 'amazon',
  shipmentId: 'FBA17Q2M8KX4',
  referenceId: '7QK2M8XA',
  collectionType: 1,
  deliveryType: 1,
  customsType: 1,
  insuranceCurrency: 'USD',
  insuranceAmount: '1500.00',
  warehouseCode: 'ONT8',
  boxes: [{ boxNo: 'MH-T01', quantity: 3, weight: 14.2, length: 60, width: 40, height: 40 }],
  products: [
    {
      boxNo: 'MH-T01',
      sku: 'MH-SILK-SCARF-NV',
      hsCode: '621410',
      nameCn: '桑蚕丝方巾 藏青',
      nameEn: 'Mulberry silk square scarf, navy',
      quantity: 90,
      declaredPrice: '6.75',
    },
  ],
}

let nextIp = 1
/** A search as a visitor (no token) or a user, from an address of its own so allowances stay apart. */
const track = async (numbers: string, options: { token?: string; host?: string } = {}) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/booking/fba/public/api/getOrderTrack',
    headers: {
      host: options.host ?? 'localhost',
      language: 'en_US',
      'x-forwarded-for': `10.77.0.${nextIp++}`,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    payload: { numbers },
  })
  const body = response.json()
  expect(body.code, JSON.stringify(body).slice(0, 300)).toBe('0000')
  return { text: response.body, results: body.content.results as Result[] }
}

let opadmin = ''
let entadmin = ''
let row: Row

const move = async (transition: string, input?: Record<string, unknown>) =>
  answer('POST', TRANSITION, opadmin, {
    id: row.id,
    version: row.version,
    transition,
    ...(input ? { input } : {}),
  })
const moved = async (transition: string, input?: Record<string, unknown>) => {
  const body = await move(transition, input)
  expect(body.code, `${transition} ${JSON.stringify(body).slice(0, 300)}`).toBe('0000')
  row = body.content as Row
}

beforeAll(async () => {
  ;[opadmin, entadmin] = await Promise.all([t.login('opadmin'), t.login('entadmin')])
  row = (await ok('POST', ADD, entadmin, order)) as Row
})

describe('FBA order milestones', () => {
  it('records a DCSA milestone at the server time for each operator move, the ports and the fulfilment centre', async () => {
    const before = now().getTime()
    // Created only: found, no milestones yet.
    const fresh = (await track(row.orderNo)).results[0] as Result
    expect(fresh.found).toBe(true)
    expect(fresh.fbaOrders[0]?.events).toEqual([])

    await moved('receive')
    await moved('dispatch')
    await moved('ship', { departurePort: 'CNSZX' })
    // The carrier's number must be in its shape (UPS: 1Z and 16), and a carrier needs a number.
    expect(
      fieldErrors(
        await move('arrive', { arrivalPort: 'USLGB', lastMileCarrier: 'ups', lastMileTrackingNo: '123456789012' }),
      ),
    ).toEqual(['lastMileTrackingNo: fba.lastMileNumberFormat'])
    expect(fieldErrors(await move('arrive', { arrivalPort: 'USLGB', lastMileCarrier: 'ups' }))).toEqual([
      'lastMileTrackingNo: validation.required',
    ])
    await moved('arrive', { arrivalPort: 'USLGB', lastMileCarrier: 'ups', lastMileTrackingNo: '1Z999AA10123456784' })
    expect(row.lastMileCarrier).toBe('ups')
    await moved('deliver')

    const [result] = (await track(row.orderNo)).results as [Result]
    const fba = result.fbaOrders[0] as FbaTrack
    expect(fba.state).toBe('delivered')
    expect(fba.fcCity).toBeTruthy()
    expect(fba.lastMileTrackingNo).toBe('1Z999AA10123456784')
    // Newest first, each with its DCSA codes and place.
    expect(
      fba.events.map((e) => [
        e.milestone,
        e.eventType,
        e.transportEventTypeCode ?? e.equipmentEventTypeCode ?? e.shipmentEventTypeCode,
        e.unLocationCode ?? e.location,
      ]),
    ).toEqual([
      ['delivered', 'EQUIPMENT', 'DROP', 'ONT8'],
      ['arrived', 'TRANSPORT', 'ARRI', 'USLGB'],
      ['departed', 'TRANSPORT', 'DEPA', 'CNSZX'],
      ['leftWarehouse', 'EQUIPMENT', 'GTOT', null],
      ['received', 'EQUIPMENT', 'GTIN', null],
    ])
    for (const e of fba.events) {
      expect(e.eventClassifierCode).toBe('ACT')
      // The server's clock (WAYBILL_NOW), not the wall clock's.
      expect(Math.abs(new Date(e.eventDateTime).getTime() - before)).toBeLessThan(60_000)
    }
  })

  it('records a problem and a cancellation too', async () => {
    let other = (await ok('POST', ADD, entadmin, order)) as Row
    const step = async (transition: string) => {
      const body = await answer('POST', TRANSITION, opadmin, { id: other.id, version: other.version, transition })
      expect(body.code, transition).toBe('0000')
      other = body.content as Row
    }
    await step('markProblem')
    await step('void')
    const fba = (await track(other.orderNo)).results[0]?.fbaOrders[0] as FbaTrack
    expect(fba.events.map((e) => [e.milestone, e.shipmentEventTypeCode])).toEqual([
      ['cancelled', 'VOID'],
      ['problem', 'HOLD'],
    ])
  })
})

describe('seeded FBA orders', () => {
  it('carry the milestones of the states they have passed, around the seed day', async () => {
    const { rows } = await sql<{ order_no: string; customer_reference_no: string }>`
      select order_no, customer_reference_no from fba_order
      where tenant_id = (select id from tenant where code = 'demo') and customer_reference_no like 'MH-PO-261%'
      order by customer_reference_no`.execute(t.database.db)
    const byReference = new Map(rows.map((r) => [r.customer_reference_no, r.order_no]))
    const delivered = (await track(String(byReference.get('MH-PO-2611-02')))).results[0]?.fbaOrders[0] as FbaTrack
    expect(delivered.events.map((e) => e.milestone)).toEqual([
      'delivered',
      'arrived',
      'departed',
      'leftWarehouse',
      'received',
    ])
    expect(delivered.lastMileCarrier).toBe('ups')
    const times = delivered.events.map((e) => new Date(e.eventDateTime).getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(Math.max(...times)).toBeLessThan(now().getTime())
    const shipped = (await track(String(byReference.get('MH-PO-2611-21')))).results[0]?.fbaOrders[0] as FbaTrack
    expect(shipped.events.map((e) => e.milestone)).toEqual(['departed', 'leftWarehouse', 'received'])
    const created = (await track(String(byReference.get('MH-PO-2612-05')))).results[0]?.fbaOrders[0] as FbaTrack
    expect(created.events).toEqual([])
  })
})

describe('last-mile events', () => {
  it('are added by the operator once the carrier is known, checked, and shown newest first', async () => {
    const at = new Date(now().getTime() - 3_600_000).toISOString()
    // Not before the cartons have arrived.
    const waiting = (await ok('POST', ADD, entadmin, order)) as Row
    expect(
      fieldErrors(
        await answer('POST', LAST_MILE, opadmin, { id: waiting.id, milestone: 'outForDelivery', eventDateTime: at }),
      ),
    ).toEqual(['milestone: fba.lastMileNotArrived'])
    // Signed needs whom; a time after now is refused; an unknown milestone too.
    expect(
      fieldErrors(await answer('POST', LAST_MILE, opadmin, { id: row.id, milestone: 'signed', eventDateTime: at })),
    ).toEqual(['signedBy: validation.required'])
    const later = new Date(now().getTime() + 3_600_000).toISOString()
    expect(
      fieldErrors(
        await answer('POST', LAST_MILE, opadmin, { id: row.id, milestone: 'outForDelivery', eventDateTime: later }),
      ),
    ).toEqual(['eventDateTime: fba.eventInFuture'])
    expect(
      fieldErrors(await answer('POST', LAST_MILE, opadmin, { id: row.id, milestone: 'lost', eventDateTime: at })),
    ).toEqual(['milestone: validation.enum'])
    expect(
      fieldErrors(
        await answer('POST', LAST_MILE, opadmin, {
          id: row.id,
          milestone: 'outForDelivery',
          eventDateTime: at,
          location: 'x'.repeat(65),
        }),
      ),
    ).toEqual(['location: validation.maxLength'])
    // The seller adds none.
    expect(
      (await answer('POST', LAST_MILE, entadmin, { id: row.id, milestone: 'outForDelivery', eventDateTime: at })).code,
    ).toBe('220000')

    const signedAt = new Date(now().getTime() - 60_000).toISOString()
    // As the operator list's row action sends it: the row's id and version with what the dialog asked.
    const added = await ok('POST', LAST_MILE, opadmin, {
      id: row.id,
      version: row.version,
      milestone: 'signed',
      eventDateTime: signedAt,
      location: 'Moreno Valley CA',
      signedBy: 'J. RAMIREZ',
      remark: 'Dock 14, pallet count checked',
    })
    expect(added).toMatchObject({ milestone: 'signed', eventType: 'SHIPMENT', shipmentEventTypeCode: 'CMPL' })

    const { text, results } = await track(row.orderNo)
    const fba = results[0]?.fbaOrders[0] as FbaTrack
    const signed = fba.events.find((e) => e.milestone === 'signed')
    expect(signed).toMatchObject({ signedBy: 'J. RAMIREZ', location: 'Moreno Valley CA', eventDateTime: signedAt })
    // A visitor reads no price, product, box, address, remark or company.
    for (const secret of [
      '6.75',
      'MH-SILK',
      'Mulberry',
      'MH-T01',
      'declaredPrice',
      'boxes',
      'San Michele',
      'Dock 14',
      '1500',
    ])
      expect(text, secret).not.toContain(secret)
    expect(fba.view).toBe('public')
    expect(Object.keys(signed ?? {})).not.toContain('remark')

    // The seller's own enterprise sees it in full, with the operator's remark.
    const own = (await track(row.orderNo, { token: entadmin })).results[0]?.fbaOrders[0] as FbaTrack
    expect(own.view).toBe('full')
    expect(JSON.stringify(own)).toContain('Dock 14')
  })
})

describe('FBA tracking walls', () => {
  it("answers not found on another tenant's host and to another enterprise; their operator adds nothing", async () => {
    const elsewhere = (await track(row.orderNo, { host: 'acme.localhost' })).results[0] as Result
    expect(elsewhere.found).toBe(false)
    expect(elsewhere.fbaOrders).toEqual([])
    const nbadmin = await administratorOf(t, HAITONG, 'nbfbatrack')
    const theirs = (await track(row.orderNo, { token: nbadmin })).results[0] as Result
    expect(theirs.found).toBe(false)
    const acmeOperator = await t.login('opadmin', 'acme.localhost')
    const at = new Date(now().getTime() - 60_000).toISOString()
    expect(
      (
        await answer(
          'POST',
          LAST_MILE,
          acmeOperator,
          { id: row.id, milestone: 'outForDelivery', eventDateTime: at },
          { host: 'acme.localhost' },
        )
      ).code,
    ).toBe('404')
    // The trackingQuery path answers the same.
    const query = await ok('POST', '/api/booking/public/api/tracking/query', entadmin, { numbers: row.orderNo })
    expect((query.results as Result[])[0]?.fbaOrders[0]?.orderNo).toBe(row.orderNo)
  })
})
