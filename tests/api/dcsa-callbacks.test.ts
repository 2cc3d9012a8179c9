import { createHmac } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { eventUuid } from '../../server/domain/dcsa/tntEvents.ts'
import {
  DCSA_SIGNATURE_HEADER,
  DCSA_SUBSCRIPTION_HEADER,
  verifyDcsaNotification,
} from '../../server/domain/webhooks/signature.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { dcsaErrors } from '../support/dcsa.ts'
import {
  dcsaSubscriptions,
  equipmentEvent,
  OTHER_SECRET,
  SECRET,
  SUBSCRIPTIONS,
  settle,
} from '../support/dcsa-subscriptions.ts'
import { deliveringFile, type Received, type Receiver, receivers } from '../support/receiver.ts'

/**
 * DCSA Track & Trace 2.2 subscriptions called back (issue #29), on real local receivers (node:http on 127.0.0.1)
 * and the real outbox worker: a tracking event that meets a subscription's filters is POSTed to its callbackUrl as
 * the standard's array of events — each the very event GET /v2/events answers, valid against TNT_v2.2.0.yaml —
 * with its Subscription-ID and a Notification-Signature that verifies with the subscription's secret (and fails
 * for a changed body). An event the filters refuse is not sent; another company's and another tenant's never; a
 * receiver that is down is tried again; a private callback is refused at subscription.
 */
const test = setupTestApp()
const { call, get, ok } = bearerCalls(test)
const { deliver } = deliveringFile(test, 'dcsa-callbacks')
const { subscribe, shipmentWith } = dcsaSubscriptions(test)

const EVENTS = '/api/dcsa/tnt/v2/events'
const ACME = 'acme.localhost'
const SCHEMA_OF = { SHIPMENT: 'shipmentEvent', TRANSPORT: 'transportEvent', EQUIPMENT: 'equipmentEvent' } as const

/** Receivers that answer 204, as the standard asks, unless a test says otherwise. */
const { receiver, stopReceivers } = receivers('/dcsa/callback', 204)

let entadmin: string
let operator: string

beforeAll(async () => {
  entadmin = await test.login('entadmin')
  operator = await test.login('opadmin')
})
afterAll(async () => {
  await stopReceivers()
})

describe('a recorded event that meets a subscription’s filters', () => {
  it('is POSTed to its callbackUrl as the standard’s events, signed with its secret', async () => {
    const r = await receiver()
    const callbackUrl = r.url('?shipperRef=erp-42')
    const id = await subscribe(entadmin, {
      callbackUrl,
      eventType: ['EQUIPMENT'],
      equipmentReference: TRACKING_SAMPLES.container,
    })
    const shipment = await shipmentWith(TRACKING_SAMPLES.container)

    const loaded = await ok('POST', '/api/booking/tracking/event/add', operator, {
      ...equipmentEvent(shipment, TRACKING_SAMPLES.container),
    })
    // Not for this subscription: a shipment event of the same shipment, a transport event, another container.
    const document = await ok('POST', '/api/booking/tracking/event/add', operator, {
      shipment,
      eventClassifierCode: 'ACT',
      eventType: 'SHIPMENT',
      shipmentEventTypeCode: 'RELS',
      documentTypeCode: 'CUS',
      unLocationCode: 'USLAX',
      eventDateTime: '2026-12-31T09:00:00Z',
    })
    const otherContainer = await ok('POST', '/api/booking/tracking/event/add', operator, {
      ...equipmentEvent(shipment, TRACKING_SAMPLES.arrivedContainer, 'DISC'),
    })
    await deliver()

    expect(r.received).toHaveLength(1)
    const message = r.received[0] as Received
    expect(message.headers['content-type']).toBe('application/json')
    expect(message.headers['api-version']).toBe('2.2.0')
    expect(message.headers[DCSA_SUBSCRIPTION_HEADER]).toBe(id)
    const signature = message.headers[DCSA_SIGNATURE_HEADER] as string
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/)
    // The standard's check, written out: HMAC-SHA256 of the body's bytes under the secret (its Base64 decoded).
    const expected = createHmac('sha256', Buffer.from(SECRET, 'base64')).update(Buffer.from(message.body, 'utf8'))
    expect(signature).toBe(`sha256=${expected.digest('hex')}`)
    // And the check receivers may copy (server/domain/webhooks/signature.ts) agrees, and refuses what was changed.
    expect(verifyDcsaNotification(signature, message.body, SECRET)).toBe(true)
    expect(verifyDcsaNotification(signature, message.body.replace('LOAD', 'DISC'), SECRET)).toBe(false)
    expect(verifyDcsaNotification(signature, message.body, OTHER_SECRET)).toBe(false)

    const body = JSON.parse(message.body) as Record<string, unknown>[]
    expect(Array.isArray(body)).toBe(true)
    expect(body.map((e) => e.eventID)).toEqual([eventUuid(loaded.id)])
    for (const event of body) {
      const type = event.eventType as keyof typeof SCHEMA_OF
      expect(dcsaErrors('tnt', SCHEMA_OF[type], event), JSON.stringify(event)).toEqual([])
      expect(dcsaErrors('tnt', 'inline_response_200', event), JSON.stringify(event)).toEqual([])
    }
    // The very event GET /v2/events answers.
    const answered = await get(`${EVENTS}?equipmentReference=${TRACKING_SAMPLES.container}&limit=100`, entadmin)
    expect(answered.json()).toContainEqual(body[0])
    expect(body[0]).toMatchObject({
      eventType: 'EQUIPMENT',
      equipmentEventTypeCode: 'LOAD',
      equipmentReference: TRACKING_SAMPLES.container,
    })
    expect(r.events().map((e) => e.eventID)).not.toContain(eventUuid(document.id))
    expect(r.events().map((e) => e.eventID)).not.toContain(eventUuid(otherContainer.id))
    await call('DELETE', `${SUBSCRIPTIONS.replace('subscriptions', 'subscription')}?subscriptionID=${id}`, entadmin)
  })

  it('is tried again while the receiver is down or answers 5xx, and reaches it once it is up', async () => {
    const probe = await receiver()
    const port = probe.port
    await subscribe(entadmin, { callbackUrl: probe.url(), eventType: ['EQUIPMENT'] })
    await probe.stop()
    const shipment = await shipmentWith(TRACKING_SAMPLES.container)
    const event = await ok('POST', '/api/booking/tracking/event/add', operator, {
      ...equipmentEvent(shipment, TRACKING_SAMPLES.container, 'GTOT'),
    })
    await deliver()
    const up = await receiver(port)
    up.status = () => 503
    await settle()
    await deliver()
    expect(up.received).toHaveLength(1)
    up.status = () => 204
    await settle()
    await deliver()
    expect(up.received).toHaveLength(2)
    // Each attempt the same body, signed the same.
    const [first, second] = up.received as [Received, Received]
    expect(second.body).toBe(first.body)
    expect(verifyDcsaNotification(second.headers[DCSA_SIGNATURE_HEADER] as string, second.body, SECRET)).toBe(true)
    expect(up.events().map((e) => e.eventID)).toEqual([eventUuid(event.id), eventUuid(event.id)])
    await deliver()
    expect(up.received).toHaveLength(2)
  })
})

describe('whose events', () => {
  it('never tells another company’s nor another tenant’s events; each tenant’s desk hears its own', async () => {
    const ours = await receiver()
    const otherCompany = await receiver()
    const acmeDesk = await receiver()
    // No filters at all: everything each subscriber may see.
    await subscribe(entadmin, { callbackUrl: ours.url() })
    await subscribe(await test.login('nbclerk'), { callbackUrl: otherCompany.url() })
    const acmeOperator = await test.login('opadmin', ACME)
    await subscribe(acmeOperator, { callbackUrl: acmeDesk.url() }, ACME)

    const demoShipment = await shipmentWith(TRACKING_SAMPLES.container)
    const acmeShipment = await shipmentWith(TRACKING_SAMPLES.acmeContainer)
    const demoEvent = await ok('POST', '/api/booking/tracking/event/add', operator, {
      ...equipmentEvent(demoShipment, TRACKING_SAMPLES.container, 'STUF'),
    })
    const acmeEvent = await ok(
      'POST',
      '/api/booking/tracking/event/add',
      acmeOperator,
      { ...equipmentEvent(acmeShipment, TRACKING_SAMPLES.acmeContainer, 'STUF') },
      { host: ACME },
    )
    await deliver()

    const told = (r: Receiver) => r.events().map((e) => e.eventID)
    expect(told(ours)).toContain(eventUuid(demoEvent.id))
    expect(told(ours)).not.toContain(eventUuid(acmeEvent.id))
    expect(JSON.stringify(ours.events())).not.toContain(TRACKING_SAMPLES.acmeContainer)
    expect(otherCompany.received).toEqual([])
    expect(told(acmeDesk)).toEqual([eventUuid(acmeEvent.id)])
    expect(JSON.stringify(acmeDesk.events())).not.toContain(TRACKING_SAMPLES.container)
    for (const m of [...ours.received, ...acmeDesk.received])
      expect(verifyDcsaNotification(m.headers[DCSA_SIGNATURE_HEADER] as string, m.body, SECRET)).toBe(true)
  })
})

describe('PUT /v2/event-subscriptions/{subscriptionID}/secret', () => {
  it('signs every notification sent afterwards with the new secret; only its own company may change it', async () => {
    const r = await receiver()
    const id = await subscribe(entadmin, { callbackUrl: r.url() })
    const put = (token: string, body: Record<string, unknown>) =>
      call('PUT', '/api/dcsa/tnt/v2/event-subscription/secret', token, body)
    const changed = await put(entadmin, { subscriptionID: id, secret: OTHER_SECRET })
    expect(changed.statusCode, changed.body).toBe(204)
    expect(changed.body).toBe('')

    const shipment = await shipmentWith(TRACKING_SAMPLES.container)
    await ok('POST', '/api/booking/tracking/event/add', operator, {
      ...equipmentEvent(shipment, TRACKING_SAMPLES.container, 'STRP'),
    })
    await deliver()
    expect(r.received.length).toBeGreaterThan(0)
    for (const m of r.received) {
      const signature = m.headers[DCSA_SIGNATURE_HEADER] as string
      expect(verifyDcsaNotification(signature, m.body, OTHER_SECRET)).toBe(true)
      expect(verifyDcsaNotification(signature, m.body, SECRET)).toBe(false)
    }

    // Another company's caller finds no such subscription; a short secret is refused under its field.
    const stranger = await put(await test.login('nbclerk'), { subscriptionID: id, secret: SECRET })
    expect(stranger.statusCode).toBe(404)
    const short = await put(entadmin, { subscriptionID: id, secret: Buffer.alloc(16, 1).toString('base64') })
    expect(short.statusCode).toBe(400)
    expect(short.json().content.fieldErrors[0]).toMatchObject({ field: 'secret' })
  })
})

describe('a subscription whose maker may no longer see the events', () => {
  it('is told nothing more: the desk’s maker stripped of orderList or disabled, the company’s gone from it', async () => {
    const db = test.database.db
    const desk = await receiver()
    const company = await receiver()
    await subscribe(await test.login('opcs'), { callbackUrl: desk.url() })
    await subscribe(await test.login('entop'), { callbackUrl: company.url() })
    const shipment = await shipmentWith(TRACKING_SAMPLES.container)
    const record = async (code: string) => {
      const event = await ok('POST', '/api/booking/tracking/event/add', operator, {
        ...equipmentEvent(shipment, TRACKING_SAMPLES.container, code),
      })
      await deliver()
      return eventUuid(event.id)
    }
    const told = (r: Receiver) => r.events().map((e) => e.eventID)
    const demo = sql`(select id from tenant where code = 'demo')`
    const { company_id: entopCompany } = await db
      .selectFrom('app_user')
      .select('company_id')
      .where('username', '=', 'entop')
      .where('tenant_id', '=', (eb) => eb.selectFrom('tenant').select('id').where('code', '=', 'demo'))
      .executeTakeFirstOrThrow()

    const first = await record('LOAD')
    expect(told(desk)).toContain(first)
    expect(told(company)).toContain(first)

    await sql`update role set permissions = permissions - 'orderList'
      where tenant_id = ${demo} and code = 'OperationCS'`.execute(db)
    await sql`update app_user set company_id = null where tenant_id = ${demo} and username = 'entop'`.execute(db)
    const second = await record('DISC')
    expect(told(desk)).not.toContain(second)
    expect(told(company)).not.toContain(second)

    // Given back, they are told again; disabled, not.
    await sql`update role set permissions = permissions || '["orderList"]'::jsonb
      where tenant_id = ${demo} and code = 'OperationCS'`.execute(db)
    await sql`update app_user set company_id = ${entopCompany} where tenant_id = ${demo} and username = 'entop'`.execute(
      db,
    )
    const third = await record('GTIN')
    expect(told(desk)).toContain(third)
    expect(told(company)).toContain(third)
    await sql`update app_user set state = 0 where tenant_id = ${demo} and username in ('opcs', 'entop')`.execute(db)
    const fourth = await record('GTOT')
    expect(told(desk)).not.toContain(fourth)
    expect(told(company)).not.toContain(fourth)
    await sql`update app_user set state = 1 where tenant_id = ${demo} and username in ('opcs', 'entop')`.execute(db)
  })
})

describe('the callback address', () => {
  it('is refused when private, local or plain http, in the caller’s language', async () => {
    const refusal = async (callbackUrl: string, language = 'en_US') => {
      const response = await call('POST', SUBSCRIPTIONS, entadmin, { callbackUrl, secret: SECRET }, { language })
      expect(response.statusCode, callbackUrl).toBe(400)
      return response.json().content.fieldErrors[0]
    }
    const privateText = 'This address is private or local and cannot receive webhooks'
    expect(await refusal('https://10.1.2.3/cb')).toMatchObject({ field: 'callbackUrl', message: privateText })
    expect(await refusal('https://169.254.169.254/latest')).toMatchObject({
      field: 'callbackUrl',
      message: privateText,
    })
    expect(await refusal('http://tms.example.com/cb')).toMatchObject({
      field: 'callbackUrl',
      message: 'Only https:// addresses can receive webhooks',
    })
    process.env.WEBHOOK_ALLOW_LOOPBACK = '0'
    try {
      expect(await refusal('http://127.0.0.1:9/cb', 'zh_CN')).toMatchObject({ field: 'callbackUrl' })
    } finally {
      process.env.WEBHOOK_ALLOW_LOOPBACK = '1'
    }
  })
})
