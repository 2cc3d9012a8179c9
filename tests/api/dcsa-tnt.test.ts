import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { up as sealSecrets } from '../../server/db/migrations/0042_dcsa_secret_sealed.ts'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { openSubscriptionSecret } from '../../server/domain/dcsa/secrets.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { dcsaErrors } from '../support/dcsa.ts'

/**
 * DCSA Track & Trace 2.2 (issue #29, screens/dcsaTnt.yaml): the seeded tracking events answered as the
 * standard's events, each validated against the published definition itself (TNT_v2.2.0.yaml beside the
 * repository, tests/support/dcsa.ts); its filters; its pages; its subscriptions; and nobody else's data.
 */

const test = setupTestApp()
const { call, get } = bearerCalls(test)

const EVENTS = '/api/dcsa/tnt/v2/events'
const SUBSCRIPTIONS = '/api/dcsa/tnt/v2/event-subscriptions'
const SUBSCRIPTION = '/api/dcsa/tnt/v2/event-subscription'
const SCHEMA_OF = { SHIPMENT: 'shipmentEvent', TRANSPORT: 'transportEvent', EQUIPMENT: 'equipmentEvent' } as const
/** The acme tenant's seeded sea shipment (server/db/seed/tracking.ts). */
const ACME_BL = 'OOLU2603114470'
const SECRET = Buffer.alloc(32, 7).toString('base64')

type Event = Record<string, unknown> & { eventType: keyof typeof SCHEMA_OF; eventID: string }

async function events(query: string, token: string, host = 'localhost'): Promise<Event[]> {
  const response = await get(`${EVENTS}${query}`, token, { host })
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200)
  expect(response.headers['api-version']).toBe('2.2.0')
  const body = response.json()
  expect(Array.isArray(body)).toBe(true)
  return body
}

const mentions = (events: Event[], text: string) => events.some((e) => JSON.stringify(e).includes(text))

describe('GET /v2/events', () => {
  it("answers a customer's own events of every type, each valid against TNT 2.2", async () => {
    const token = await test.login('entadmin')
    const all = await events('?limit=100', token)
    const types = new Set(all.map((e) => e.eventType))
    expect([...types].sort()).toEqual(['EQUIPMENT', 'SHIPMENT', 'TRANSPORT'])
    for (const event of all) {
      expect(dcsaErrors('tnt', SCHEMA_OF[event.eventType], event), JSON.stringify(event)).toEqual([])
      // The answer's item as the standard writes it: exactly one of the three.
      expect(dcsaErrors('tnt', 'inline_response_200', event), JSON.stringify(event)).toEqual([])
    }
    // The ids are unique and stable: asked again, the same.
    expect(new Set(all.map((e) => e.eventID)).size).toBe(all.length)
    expect((await events('?limit=100', token)).map((e) => e.eventID)).toEqual(all.map((e) => e.eventID))
    // An air shipment's events are not answered (the standard has no flight): the air waybill is not there.
    expect(mentions(all, TRACKING_SAMPLES.airWaybill)).toBe(false)
    expect(mentions(all, TRACKING_SAMPLES.container)).toBe(true)
  })

  it('narrows by the standard’s filters, lists OR-ed and parameters AND-ed', async () => {
    const token = await test.login('entadmin')
    const all = await events('?limit=100', token)

    const equipment = await events('?eventType=EQUIPMENT', token)
    expect(equipment.length).toBe(all.filter((e) => e.eventType === 'EQUIPMENT').length)
    expect(equipment.every((e) => e.eventType === 'EQUIPMENT')).toBe(true)
    const two = await events('?eventType=SHIPMENT,TRANSPORT', token)
    expect(two.length).toBe(all.filter((e) => e.eventType !== 'EQUIPMENT').length)

    const container = await events(`?equipmentReference=${TRACKING_SAMPLES.container}`, token)
    expect(container.length).toBeGreaterThan(0)
    expect(container.every((e) => e.equipmentReference === TRACKING_SAMPLES.container)).toBe(true)

    const loads = await events('?equipmentEventTypeCode=LOAD,DISC', token)
    expect(loads.length).toBeGreaterThan(0)
    expect(loads.every((e) => e.equipmentEventTypeCode === 'LOAD' || e.equipmentEventTypeCode === 'DISC')).toBe(true)

    const departures = await events('?transportEventTypeCode=DEPA', token)
    expect(departures.length).toBeGreaterThan(0)
    expect(departures.every((e) => e.transportEventTypeCode === 'DEPA')).toBe(true)

    // A transport call found by its id: the same call's events only.
    const call1 = (departures[0]?.transportCall as { transportCallID: string } | undefined)?.transportCallID ?? ''
    const atCall = await events(`?transportCallID=${encodeURIComponent(call1)}`, token)
    expect(atCall.length).toBeGreaterThan(0)
    expect(
      atCall.every((e) => (e.transportCall as { transportCallID?: string } | undefined)?.transportCallID === call1),
    ).toBe(true)

    // The call's place and voyage: transport and equipment events there, with that call.
    const [place, voyage] = call1.split('-') as [string, string]
    const there = await events(`?UNLocationCode=${place}&carrierVoyageNumber=${voyage}`, token)
    expect(there.map((e) => e.eventID).sort()).toEqual(atCall.map((e) => e.eventID).sort())

    // A vessel by its IMO number (the sailing schedules' COSCO SHIPPING ARIES): its calls' events only.
    const aries = await events('?vesselIMONumber=9783461', token)
    expect(aries.length).toBeGreaterThan(0)
    expect(
      aries.every((e) => {
        const vessel = (e.transportCall as { vessel?: { vesselIMONumber: string; vesselName: string } }).vessel
        return vessel?.vesselIMONumber === '9783461' && vessel.vesselName === 'COSCO SHIPPING ARIES'
      }),
    ).toBe(true)
    expect(await events('?vesselIMONumber=9999999', token)).toEqual([])

    // The arrived shipment's B/L: its events, and none of the other shipment's container.
    const byBl = await events(`?transportDocumentReference=${TRACKING_SAMPLES.arrivedBl}`, token)
    expect(byBl.length).toBeGreaterThan(0)
    expect(mentions(byBl, TRACKING_SAMPLES.arrivedContainer)).toBe(true)
    expect(mentions(byBl, TRACKING_SAMPLES.container)).toBe(false)

    const issued = await events('?shipmentEventTypeCode=ISSU&documentTypeCode=TRD', token)
    expect(issued.every((e) => e.shipmentEventTypeCode === 'ISSU' && e.documentTypeCode === 'TRD')).toBe(true)

    // eventCreatedDateTime with the standard's operators: the two halves make up the whole.
    const times = all.map((e) => String(e.eventCreatedDateTime)).sort()
    const middle = times[Math.floor(times.length / 2)] as string
    const from = await events(`?eventCreatedDateTime:gte=${encodeURIComponent(middle)}`, token)
    const before = await events(`?eventCreatedDateTime:lt=${encodeURIComponent(middle)}`, token)
    expect(from.length).toBeGreaterThan(0)
    expect(before.length).toBeGreaterThan(0)
    expect(from.length + before.length).toBe(all.length)
    expect(from.every((e) => String(e.eventCreatedDateTime) >= middle)).toBe(true)
    const exact = await events(`?eventCreatedDateTime=${encodeURIComponent(middle)}`, token)
    expect(exact.every((e) => e.eventCreatedDateTime === middle)).toBe(true)
    expect(exact.length).toBeGreaterThan(0)
  })

  it('pages with a cursor the Next-Page header names, the filters travelling with it', async () => {
    const token = await test.login('entadmin')
    const all = await events('?eventType=EQUIPMENT', token)
    expect(all.length).toBeGreaterThan(3)
    const seen: string[] = []
    let link: string | undefined = `${EVENTS}?eventType=EQUIPMENT&limit=2`
    while (link) {
      const response = await get(link.startsWith('/api') ? link : `/api${link}`, token)
      expect(response.statusCode).toBe(200)
      const page = response.json() as Event[]
      expect(page.length).toBeLessThanOrEqual(2)
      expect(page.every((e) => e.eventType === 'EQUIPMENT')).toBe(true)
      seen.push(...page.map((e) => e.eventID))
      link = response.headers['next-page'] as string | undefined
      expect(seen.length).toBeLessThanOrEqual(all.length)
    }
    expect(seen).toEqual(all.map((e) => e.eventID))
  })

  it('refuses a bad filter in the caller’s language, never a 5xx', async () => {
    const token = await test.login('entadmin')
    for (const [query, field] of [
      ['?eventType=PARCEL', 'eventType'],
      ['?limit=1000', 'limit'],
      ['?vesselIMONumber=12', 'vesselIMONumber'],
      ['?eventCreatedDateTime:gte=yesterday', 'eventCreatedDateTimeGte'],
      [`?equipmentReference=${'X'.repeat(16)}`, 'equipmentReference'],
      ['?cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['?sort=eventCreatedDateTime', 'sort'],
    ] as const) {
      const response = await get(`${EVENTS}${query}`, token, { language: 'zh_CN' })
      expect(response.statusCode, query).toBe(400)
      const errors = response.json().content.fieldErrors as { field: string; message: string }[]
      expect(
        errors.map((e) => e.field),
        query,
      ).toContain(field)
      // In the caller's language (Chinese), not the key.
      expect(errors[0]?.message, query).toMatch(/[\u4e00-\u9fff]/)
    }
    // Without a session: 401, no events.
    expect((await get(EVENTS, null)).statusCode).toBe(401)
  })

  it("never answers another company's or another tenant's events; the forwarder sees its tenant's", async () => {
    const customer = await events('?limit=100', await test.login('entadmin'))
    const operator = await events('?limit=100', await test.login('opadmin'))
    expect(operator.length).toBeGreaterThanOrEqual(customer.length)
    expect(mentions(operator, ACME_BL)).toBe(false)

    // Another company of the same tenant: none of the seeded shipments is its.
    expect(await events('?limit=100', await test.login('nbclerk'))).toEqual([])

    // The acme tenant: its own shipment's events, never demo's; demo never acme's.
    const acme = await events('?limit=100', await test.login('opadmin', 'acme.localhost'), 'acme.localhost')
    expect(mentions(acme, ACME_BL)).toBe(true)
    expect(mentions(acme, TRACKING_SAMPLES.container)).toBe(false)
    expect(mentions(acme, TRACKING_SAMPLES.arrivedBl)).toBe(false)
    expect(mentions(customer, ACME_BL)).toBe(false)
    // A demo token on acme's host is not a session there.
    expect((await get(EVENTS, await test.login('opadmin'), { host: 'acme.localhost' })).statusCode).toBe(401)
  })
})

describe('/v2/event-subscriptions', () => {
  it('creates, lists, reads, changes and deletes a company’s subscription, valid against TNT 2.2', async () => {
    const token = await test.login('entadmin')
    const body = {
      callbackUrl: 'https://tms.example.com/dcsa/callback?shipper=42',
      secret: SECRET,
      eventType: ['EQUIPMENT', 'TRANSPORT'],
      equipmentReference: TRACKING_SAMPLES.container,
    }
    expect(dcsaErrors('tnt', 'subscriptionBodyWithSecret', body)).toEqual([])
    const created = await call('POST', SUBSCRIPTIONS, token, body)
    expect(created.statusCode, created.body).toBe(201)
    const subscription = created.json()
    expect(dcsaErrors('tnt', 'subscription', subscription)).toEqual([])
    expect(subscription).toEqual({
      subscriptionID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      callbackUrl: body.callbackUrl,
      eventType: ['EQUIPMENT', 'TRANSPORT'],
      equipmentReference: TRACKING_SAMPLES.container,
    })
    const id = subscription.subscriptionID as string
    // Stored with its secret, never answered with it.
    const { rows } = await sql<{ secret: string; tenant_id: number }>`
      select secret, tenant_id from dcsa_event_subscription where id = ${id}`.execute(test.database.db)
    // Sealed: a copy of the database holds no usable secret, and the server opens it for this subscription only.
    expect(rows[0]?.secret).toMatch(/^v1\./)
    expect(rows[0]?.secret).not.toContain(SECRET)
    expect(openSubscriptionSecret(rows[0]?.tenant_id as number, id, rows[0]?.secret as string)).toBe(SECRET)
    expect(() =>
      openSubscriptionSecret(rows[0]?.tenant_id as number, randomUUID(), rows[0]?.secret as string),
    ).toThrow()

    const listed = (await get(SUBSCRIPTIONS, token)).json()
    expect(listed).toContainEqual(subscription)
    for (const item of listed) expect(dcsaErrors('tnt', 'subscription', item)).toEqual([])
    expect((await get(`${SUBSCRIPTION}?subscriptionID=${id}`, token)).json()).toEqual(subscription)

    const changed = await call('PUT', SUBSCRIPTION, token, {
      subscriptionID: id,
      callbackUrl: 'https://tms.example.com/dcsa/v2',
      shipmentEventTypeCode: ['ISSU'],
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toEqual({
      subscriptionID: id,
      callbackUrl: 'https://tms.example.com/dcsa/v2',
      shipmentEventTypeCode: ['ISSU'],
    })

    // Another company, another tenant: as if missing, and not listed.
    const other = await test.login('nbclerk')
    expect((await get(`${SUBSCRIPTION}?subscriptionID=${id}`, other)).statusCode).toBe(404)
    expect((await get(SUBSCRIPTIONS, other)).json()).toEqual([])
    expect((await call('DELETE', `${SUBSCRIPTION}?subscriptionID=${id}`, other)).statusCode).toBe(404)
    const acme = await test.login('entadmin', 'acme.localhost')
    expect((await get(`${SUBSCRIPTION}?subscriptionID=${id}`, acme, { host: 'acme.localhost' })).statusCode).toBe(404)
    // The forwarder's desk has subscriptions of its own, not its customers'.
    expect((await get(SUBSCRIPTIONS, await test.login('opadmin'))).json()).toEqual([])

    const deleted = await call('DELETE', `${SUBSCRIPTION}?subscriptionID=${id}`, token)
    expect(deleted.statusCode).toBe(204)
    expect(deleted.body).toBe('')
    expect((await get(`${SUBSCRIPTION}?subscriptionID=${id}`, token)).statusCode).toBe(404)
  })

  it('refuses a subscription without a secret, a secret on PUT, a bad URL and the 21st one', async () => {
    const token = await test.login('entop')
    const noSecret = await call('POST', SUBSCRIPTIONS, token, { callbackUrl: 'https://tms.example.com/cb' })
    expect(noSecret.statusCode).toBe(400)
    expect(noSecret.json().content.fieldErrors[0]).toMatchObject({
      field: 'secret',
      key: 'tracking.dcsaSecretRequired',
    })
    const badUrl = await call('POST', SUBSCRIPTIONS, token, { callbackUrl: 'not a url', secret: SECRET })
    expect(badUrl.statusCode).toBe(400)
    expect(badUrl.json().content.fieldErrors[0].field).toBe('callbackUrl')
    const badCode = await call('POST', SUBSCRIPTIONS, token, {
      callbackUrl: 'https://tms.example.com/cb',
      secret: SECRET,
      eventType: ['PARCEL'],
    })
    expect(badCode.statusCode).toBe(400)

    const ids: string[] = []
    for (let i = 0; i < 20; i++) {
      const response = await call('POST', SUBSCRIPTIONS, token, {
        callbackUrl: `https://tms.example.com/${i}`,
        secret: SECRET,
      })
      expect(response.statusCode, response.body).toBe(201)
      ids.push(response.json().subscriptionID)
    }
    const over = await call('POST', SUBSCRIPTIONS, token, { callbackUrl: 'https://tms.example.com/21', secret: SECRET })
    expect(over.statusCode).toBe(400)
    expect(over.json().content.fieldErrors[0]).toMatchObject({ key: 'tracking.dcsaSubscriptionLimit' })
    expect(over.json().content.fieldErrors[0].message).toContain('20')

    const withSecret = await call('PUT', SUBSCRIPTION, token, {
      subscriptionID: ids[0],
      callbackUrl: 'https://tms.example.com/x',
      secret: SECRET,
    })
    expect(withSecret.statusCode).toBe(400)
    expect(withSecret.json().content.fieldErrors[0]).toMatchObject({ field: 'secret' })

    // Pages of the list, by the Next-Page header.
    const first = await get(`${SUBSCRIPTIONS}?limit=15`, token)
    expect(first.json()).toHaveLength(15)
    const next = await get(first.headers['next-page'] as string, token)
    expect(next.json()).toHaveLength(5)
    expect(next.headers['next-page']).toBeUndefined()
    const all = [...first.json(), ...next.json()].map((s: { subscriptionID: string }) => s.subscriptionID)
    expect([...all].sort()).toEqual([...ids].sort())
    for (const id of ids) await call('DELETE', `${SUBSCRIPTION}?subscriptionID=${id}`, token)
  })
})

describe('subscription secrets stored before they were sealed', () => {
  it('are sealed in place by migration 0042, once, and open for their own subscription only', async () => {
    const db = test.database.db
    const tenant = (await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(db)).rows[0]?.id
    const id = randomUUID()
    await withTenant(test.database.db, tenant as number, (trx) =>
      sql`
        insert into dcsa_event_subscription (tenant_id, id, callback_url, secret)
        values (${tenant}, ${id}::uuid, 'https://tms.example.com/dcsa', ${SECRET})`.execute(trx),
    )
    const stored = async () =>
      withTenant(test.database.db, tenant as number, async (trx) => {
        const { rows } = await sql<{ secret: string }>`
          select secret from dcsa_event_subscription where id = ${id}::uuid`.execute(trx)
        return rows[0]?.secret as string
      })
    expect(await stored()).toBe(SECRET)
    await sealSecrets(db as never)
    const sealed = await stored()
    expect(sealed).toMatch(/^v1\./)
    expect(openSubscriptionSecret(tenant as number, id, sealed)).toBe(SECRET)
    // Run again (a second replica's start): the sealed value is left as it is, not sealed twice.
    await sealSecrets(db as never)
    expect(await stored()).toBe(sealed)
    await withTenant(test.database.db, tenant as number, (trx) =>
      sql`delete from dcsa_event_subscription where id = ${id}::uuid`.execute(trx),
    )
  })
})
