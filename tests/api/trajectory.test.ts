import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { type Cell, type ImportProblem as Problem, workbook as sheetOf, XLSX } from '../support/workbook.ts'

/**
 * Trajectory management (screens/operatorOrders.yaml trajectoryList / trajectoryEvents, issue #23): operators
 * add an event to a shipment and correct one by a new event, one by one or from a workbook through the engine's
 * import, every row through recordTrackingEvents in one transaction; the public tracking page shows them.
 */

const test = setupTestApp()

const { call, ok } = bearerCalls(test)

const workbook = (rows: Cell[][]) => sheetOf(rows, 'events')

async function upload(token: string, bytes: Buffer, language = 'en_US', host = 'localhost') {
  const file = { name: 'events.xlsx', bytes }
  const response = await bearerCalls(test).upload('/api/booking/trajectory/event/import', token, file, {
    host,
    language,
  })
  return response.json() as { code: string; content: { imported: number; problems: Problem[] } }
}

interface TrackedEvent {
  id: number
  eventDateTime: string
  transportEventTypeCode?: string
  equipmentEventTypeCode?: string
  unLocationCode?: string
  corrected: boolean
  correction: boolean
}

/** The events the tracking page shows an operator for a number. */
async function trackedEvents(token: string, number: string): Promise<TrackedEvent[]> {
  const body = (
    await test.app.inject({
      method: 'POST',
      url: '/api/booking/public/api/tracking/query',
      headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
      payload: { numbers: number },
    })
  ).json()
  expect(body.code).toBe('0000')
  return body.content.results[0].shipments[0].events
}

let demo = 0
let acme = 0
/** The seeded sea shipment of CSQU3054383 (B/L COSU6312345670), its order and that order's number. */
let shipment = 0
let order = 0
let orderNo = ''
/** The shipment of MAEU264118305 (arrived at Rotterdam). */
let arrived = 0
/** An event of acme's shipment, which localhost's operators must never reach. */
let acmeEvent = 0

const countEvents = async (tenant: number) =>
  withTenant(test.database.db, tenant, async (trx) =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from tracking_event where tenant_id = ${tenant}`.execute(trx))
        .rows[0]?.n,
    ),
  )

beforeAll(async () => {
  const db = test.database.db
  demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  acme = (await db.selectFrom('tenant').select('id').where('code', '=', 'acme').executeTakeFirstOrThrow()).id
  await withTenant(db, demo, async (trx) => {
    const { rows } = await sql<{ id: number; booking_order: number; order_no: string }>`
      select s.id, s.booking_order, o.order_no from shipment s join booking_order o on o.id = s.booking_order
      where s.bl_no = 'COSU6312345670'`.execute(trx)
    shipment = rows[0]?.id ?? 0
    order = rows[0]?.booking_order ?? 0
    orderNo = rows[0]?.order_no ?? ''
    arrived = (
      await trx
        .selectFrom('shipment')
        .select('id')
        .where('bl_no', '=', TRACKING_SAMPLES.arrivedBl)
        .executeTakeFirstOrThrow()
    ).id
  })
  await withTenant(db, acme, async (trx) => {
    acmeEvent = (
      await sql<{ id: number }>`select min(id) as id from tracking_event where tenant_id = ${acme}`.execute(trx)
    ).rows[0]?.id as number
  })
  expect(shipment && order && orderNo && arrived && acmeEvent).toBeTruthy()
})

const arrival = {
  eventType: 'TRANSPORT',
  eventClassifierCode: 'ACT',
  transportEventTypeCode: 'ARRI',
  unLocationCode: 'USLAX',
  vesselName: 'COSCO SHIPPING ARIES',
  carrierVoyageNumber: '052E',
  eventDateTime: '2026-03-20T06:00:00Z',
}

describe('trajectory management', () => {
  it('lists shipments and a shipment’s events, adds one and corrects it by a new event', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const shipments = await ok('POST', '/api/booking/trajectory/shipment/list', operator, {
      searchParams: { blNo: 'COSU6312345' },
    })
    expect(shipments.list.map((s: { id: number }) => s.id)).toEqual([shipment])
    expect(
      (await call('POST', '/api/booking/trajectory/event/add', customer, { id: shipment, ...arrival })).json().code,
    ).toBe('220000')
    const missing = (
      await call('POST', '/api/booking/trajectory/event/add', operator, {
        ...arrival,
        id: shipment,
        unLocationCode: undefined,
      })
    ).json()
    expect(missing.content.fieldErrors[0]).toMatchObject({ field: 'unLocationCode', key: 'validation.required' })

    const added = await ok('POST', '/api/booking/trajectory/event/add', operator, { id: shipment, ...arrival })
    expect(added).toMatchObject({ shipment, transportEventTypeCode: 'ARRI', correctsEvent: null })
    const fixed = await ok('POST', '/api/booking/trajectory/event/correct', operator, {
      id: added.id,
      ...arrival,
      eventDateTime: '2026-03-20T09:30:00Z',
      remark: 'Arrival time corrected by the terminal',
    })
    expect(fixed).toMatchObject({ shipment, correctsEvent: added.id, eventDateTime: '2026-03-20T09:30:00.000Z' })

    const events = await ok('POST', '/api/booking/trajectory/event/list', operator, {
      searchParams: { shipment },
      pageSize: 200,
    })
    const ids = events.list.map((e: { id: number }) => e.id)
    expect(ids).toContain(added.id)
    expect(ids).toContain(fixed.id)
    expect(events.list.every((e: { shipment: number }) => e.shipment === shipment)).toBe(true)

    // The tracking page keeps the corrected event, marked, and shows the correction in force.
    const tracked = await trackedEvents(operator, TRACKING_SAMPLES.container)
    expect(tracked.find((e) => e.id === added.id)).toMatchObject({ corrected: true })
    expect(tracked.find((e) => e.id === fixed.id)).toMatchObject({ corrected: false, correction: true })
  })

  it('imports a workbook of events by B/L and order number, each through recordTrackingEvents once', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    await ok('POST', '/api/shipmentSubscription/add', customer, {
      order,
      eventTypes: ['TRANSPORT', 'EQUIPMENT'],
      channels: ['inApp'],
    })
    const notices = async () =>
      withTenant(test.database.db, demo, async (trx) =>
        Number((await sql<{ n: string }>`select count(*) as n from shipment_notice`.execute(trx)).rows[0]?.n),
      )
    const noticesBefore = await notices()
    const before = await countEvents(demo)
    const file = workbook([
      [
        'shipment',
        'eventType',
        'eventClassifierCode',
        'transportEventTypeCode',
        'equipmentEventTypeCode',
        'equipmentReference',
        'emptyIndicatorCode',
        'unLocationCode',
        'vesselName',
        'carrierVoyageNumber',
        'eventDateTime',
      ],
      [
        'COSU6312345670',
        'EQUIPMENT',
        'ACT',
        null,
        'DISC',
        'CSQU3054383',
        'LADEN',
        'USLAX',
        null,
        null,
        '2026-03-21T02:00:00Z',
      ],
      [orderNo, 'EQUIPMENT', 'ACT', null, 'GTOT', 'CSQU3054383', 'LADEN', 'USLAX', null, null, '2026-03-22T08:00:00Z'],
      [
        TRACKING_SAMPLES.arrivedBl,
        'TRANSPORT',
        'ACT',
        'DEPA',
        null,
        null,
        null,
        'NLRTM',
        'MAERSK ESSEN',
        '231W',
        '2026-03-25T10:00:00Z',
      ],
    ])
    const answer = await upload(operator, file)
    expect(answer.code).toBe('0000')
    expect(answer.content).toEqual({ imported: 3, problems: [] })
    expect(await countEvents(demo)).toBe(before + 3)
    // The subscription follows the order of COSU6312345670: told once of each of its two imported events.
    expect(await notices()).toBe(noticesBefore + 2)

    const tracked = await trackedEvents(operator, TRACKING_SAMPLES.container)
    expect(
      tracked.filter((e) => e.equipmentEventTypeCode === 'GTOT' && e.eventDateTime === '2026-03-22T08:00:00.000Z'),
    ).toHaveLength(1)
    const departures = await trackedEvents(operator, TRACKING_SAMPLES.arrivedBl)
    expect(departures.some((e) => e.transportEventTypeCode === 'DEPA' && e.unLocationCode === 'NLRTM')).toBe(true)
    expect(arrived).toBeGreaterThan(0)
  })

  it('reports every bad cell by row and column in the user’s language, and writes nothing', async () => {
    const operator = await test.login('opadmin')
    const before = await countEvents(demo)
    const rows: Cell[][] = [
      [
        'shipment',
        'eventType',
        'eventClassifierCode',
        'transportEventTypeCode',
        'equipmentEventTypeCode',
        'equipmentReference',
        'emptyIndicatorCode',
        'unLocationCode',
        'eventDateTime',
      ],
      // Good: would be imported if the file had no problem.
      ['COSU6312345670', 'TRANSPORT', 'ACT', 'ARRI', null, null, null, 'USLAX', '2026-03-20T06:00:00Z'],
      // No shipment of that number.
      ['NOSUCHBL0001', 'TRANSPORT', 'ACT', 'ARRI', null, null, null, 'USLAX', '2026-03-20T06:00:00Z'],
      // Container check digit wrong.
      ['COSU6312345670', 'EQUIPMENT', 'ACT', null, 'LOAD', 'CSQU3054384', 'LADEN', 'CNSHA', '2026-03-01T08:30:00Z'],
      // A transport event without its code.
      ['COSU6312345670', 'TRANSPORT', 'ACT', null, null, null, null, 'USLAX', '2026-03-20T06:00:00Z'],
      // acme's B/L: another tenant's shipment is not found.
      ['OOLU2603114470', 'TRANSPORT', 'ACT', 'ARRI', null, null, null, 'USLAX', '2026-03-20T06:00:00Z'],
    ]
    const answer = await upload(operator, workbook(rows))
    expect(answer.content.imported).toBe(0)
    const found = answer.content.problems.map((p) => [p.row, p.column, p.key])
    expect(found).toEqual([
      [3, 'A', 'import.unknownReference'],
      [4, 'F', 'validation.format_isoContainer'],
      [5, 'D', 'validation.required'],
      [6, 'A', 'import.unknownReference'],
    ])
    expect(answer.content.problems[0]?.message).toContain('NOSUCHBL0001')
    expect(await countEvents(demo)).toBe(before)

    const chinese = await upload(operator, workbook(rows), 'zh_CN')
    expect(chinese.content.problems).toHaveLength(4)
    expect(chinese.content.problems[0]?.message).not.toBe(answer.content.problems[0]?.message)
    expect(chinese.content.problems[0]?.message).toMatch(/[\u4e00-\u9fff]/)
  })

  it('keeps tenants apart: no list, correction or import reaches another tenant’s shipment', async () => {
    const operator = await test.login('opadmin')
    const acmeBefore = await countEvents(acme)
    const shipments = await ok('POST', '/api/booking/trajectory/shipment/list', operator, {
      searchParams: { blNo: 'OOLU2603114470' },
    })
    expect(shipments.total).toBe(0)
    const correction = await call('POST', '/api/booking/trajectory/event/correct', operator, {
      id: acmeEvent,
      ...arrival,
    })
    expect(correction.json().code).toBe('404')
    const added = await call('POST', '/api/booking/trajectory/event/add', operator, { id: 999999, ...arrival })
    expect(added.json().code).toBe('404')
    expect(await countEvents(acme)).toBe(acmeBefore)
  })

  it('answers the template workbook of the import', async () => {
    const operator = await test.login('opadmin')
    const response = await call('GET', '/api/booking/trajectory/event/import', operator)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('spreadsheetml')
    const book = XLSX.read(response.rawPayload, { type: 'buffer' })
    const [header] = XLSX.utils.sheet_to_json<Cell[]>(book.Sheets[book.SheetNames[0] as string] as never, { header: 1 })
    expect(header).toContain('Event type')
  })
})
