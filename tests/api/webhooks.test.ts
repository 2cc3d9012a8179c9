import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueSecret } from '../../server/domain/webhooks/secrets.ts'
import { SIGNATURE_HEADER, signatureHeader, verifyWebhook } from '../../server/domain/webhooks/signature.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { directFcl } from '../support/booking.ts'
import { bearerCalls } from '../support/calls.ts'
import { now } from '../support/clock.ts'
import { deliveringFile, type Received, type Receiver, receivers } from '../support/receiver.ts'

/**
 * Signed webhooks (issue #29), end to end on a real local receiver (node:http on 127.0.0.1): an enterprise
 * administrator registers an endpoint and is shown its secret once; the operator confirms the enterprise's order
 * and the outbox worker delivers a body the receiver verifies with the documented check (a tampered body or an old
 * timestamp fails it); a receiver that is down is tried again and reached once it is up, a bounded number of
 * times; the delivery log shows attempts and the receiver's answers, and a re-send signs afresh. Another
 * enterprise's and another tenant's endpoints hear nothing, and see nothing of the log.
 */
const test = setupTestApp()
const { answer, ok } = bearerCalls(test)
const { deliver } = deliveringFile(test, 'webhooks')
const ACME = 'acme.localhost'

/** Receivers that answer 200 unless a test says otherwise. */
const { receiver, stopReceivers } = receivers('/hooks/waybill')

const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

const nowS = () => Math.floor(now().getTime() / 1000)

/** Registers an endpoint: its signing secret comes with the answer, the only time it is readable. */
async function register(token: string, url: string, events: string[], host?: string) {
  const options = host ? { host } : undefined
  const created = await ok('POST', '/api/b2b/webhook/endpoint/add', token, { url, events, enabled: true }, options)
  return { id: created.id as number, secret: created.secret as string }
}

/** The customer books; the operator confirms (SPEC §7 order/{mode}/comfirm). */
async function confirmedOrder(customer: string, operator: string, moveTo?: number): Promise<number> {
  const order = await ok('POST', '/api/booking/order/add', customer, { ...directFcl(), submit: true })
  // An order of the tenant's other enterprise (which books no online orders in the seed), as an operator's import
  // for that customer makes it: its customer company is that enterprise.
  if (moveTo)
    await sql`update booking_order set customer_company = ${moveTo} where id = ${order.id}`.execute(test.database.db)
  const accepted = await ok('POST', '/api/booking/order/fcl/comfirm', operator, {
    id: order.id,
    version: order.version,
  })
  expect(accepted.state).toBe('accepted')
  return order.id as number
}

interface Delivery {
  id: number
  endpoint: number
  eventId: string
  eventType: string
  status: string
  attempts: number
  lastStatus: number | null
  lastError: string | null
}

const log = async (token: string, endpoint: number, host?: string): Promise<Delivery[]> =>
  (
    await ok(
      'POST',
      '/api/b2b/webhook/delivery/list',
      token,
      { searchParams: { endpoint }, pageNum: 1, pageSize: 50 },
      host ? { host } : undefined,
    )
  ).list

const bodies = (r: Receiver) => r.received.map((m) => JSON.parse(m.body))
const orderEvents = (r: Receiver, order: number) =>
  r.received.filter((m) => {
    const body = JSON.parse(m.body)
    return body.type === 'orderState' && body.data.id === order
  })

let entadmin: string
let operator: string

beforeAll(async () => {
  entadmin = await test.login('entadmin')
  operator = await test.login('opadmin')
})
afterAll(async () => {
  await stopReceivers()
})

describe('registering an endpoint', () => {
  it('issues the secret with the endpoint and shows it once: the list and detail show only its last four', async () => {
    const r = await receiver()
    const created = await ok('POST', '/api/b2b/webhook/endpoint/add', entadmin, {
      url: r.url(),
      events: ['orderState'],
    })
    // The answer is the secret and the endpoint's id, nothing of the record a list would show.
    expect(Object.keys(created).sort()).toEqual(['id', 'secret'])
    const { id, secret } = created as { id: number; secret: string }
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/)
    const detail = await ok('GET', `/api/b2b/webhook/endpoint/detail?id=${id}`, entadmin)
    expect(detail.secretTail).toBe(secret.slice(-4))
    expect(detail.secretIssuedAt).toBeTruthy()
    expect(detail.enabled).toBe(true)
    const list = await ok('POST', '/api/b2b/webhook/endpoint/list', entadmin, {
      searchParams: {},
      pageNum: 1,
      pageSize: 20,
    })
    expect(JSON.stringify([detail, list])).not.toContain(secret)
    // A new secret replaces it: a different one, shown once again.
    const again = await ok('POST', '/api/b2b/webhook/endpoint/secret', entadmin, { id })
    expect(again.secret).not.toBe(secret)
    // At a stale version (someone else issued one since the list was read), nothing is replaced.
    const stale = await answer('POST', '/api/b2b/webhook/endpoint/secret', entadmin, { id, version: detail.version })
    expect(stale.code).toBe('330002')
    await ok('POST', '/api/b2b/webhook/endpoint/delete', entadmin, { id })
  })

  it('refuses private, link-local and plain-http public addresses, in the user’s language', async () => {
    const refusal = async (url: string, language = 'en_US') => {
      const body = await answer(
        'POST',
        '/api/b2b/webhook/endpoint/add',
        entadmin,
        { url, events: ['orderState'] },
        { language },
      )
      expect(body.code, url).toBe('validation')
      return body.content.fieldErrors
    }
    const privateText = 'This address is private or local and cannot receive webhooks'
    expect(await refusal('https://10.1.2.3/hook')).toEqual([
      expect.objectContaining({ field: 'url', message: privateText }),
    ])
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toEqual([
      expect.objectContaining({ field: 'url', message: privateText }),
    ])
    expect(await refusal('https://[fd00::1]/hook')).toEqual([
      expect.objectContaining({ field: 'url', message: privateText }),
    ])
    expect(await refusal('http://erp.example.com/hook')).toEqual([
      expect.objectContaining({ field: 'url', message: 'Only https:// addresses can receive webhooks' }),
    ])
    expect(await refusal('https://user:pw@erp.example.com/hook', 'zh_CN')).toEqual([
      expect.objectContaining({ field: 'url', message: '请输入以 https:// 开头的完整网址' }),
    ])
    // Loopback only because this process allows it; without the setting it is refused like the rest.
    process.env.WEBHOOK_ALLOW_LOOPBACK = '0'
    try {
      expect(await refusal('http://127.0.0.1:9/hook')).toEqual([
        expect.objectContaining({ field: 'url', message: privateText }),
      ])
    } finally {
      process.env.WEBHOOK_ALLOW_LOOPBACK = '1'
    }
  })
})

describe('a confirmed order reaches the enterprise’s receiver, signed', () => {
  it('delivers a body the receiver verifies; tampering or an old timestamp fails the check', async () => {
    const r = await receiver()
    const { id, secret } = await register(entadmin, r.url(), ['orderState'])
    const order = await confirmedOrder(entadmin, operator)
    await deliver()
    const accepted = orderEvents(r, order).find((m) => JSON.parse(m.body).data.state === 'accepted')
    expect(accepted, JSON.stringify(bodies(r)).slice(0, 400)).toBeDefined()
    const message = accepted as Received
    const header = message.headers[SIGNATURE_HEADER] as string
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(verifyWebhook(header, message.body, secret, { nowS: nowS() })).toMatchObject({ ok: true })
    const body = JSON.parse(message.body)
    expect(body).toMatchObject({
      type: 'orderState',
      data: { id: order, state: 'accepted', previousState: 'submitted' },
    })
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.parse(body.occurredAt)).not.toBeNaN()
    expect(message.headers['waybill-delivery']).toMatch(/^\d+$/)

    // The documented check refuses what an attacker could do with a captured request.
    const tampered = message.body.replace('"accepted"', '"cancelled"')
    expect(tampered).not.toBe(message.body)
    expect(verifyWebhook(header, tampered, secret, { nowS: nowS() })).toEqual({ ok: false, reason: 'mismatch' })
    expect(verifyWebhook(header, message.body, secret, { nowS: nowS() + 301 })).toEqual({ ok: false, reason: 'stale' })
    expect(verifyWebhook(header, message.body, 'whsec_another', { nowS: nowS() })).toEqual({
      ok: false,
      reason: 'mismatch',
    })
    // A request re-signed with an old timestamp by someone who knows the secret still is old.
    const old = nowS() - 3600
    expect(verifyWebhook(signatureHeader(secret, old, message.body), message.body, secret, { nowS: nowS() })).toEqual({
      ok: false,
      reason: 'stale',
    })

    const rows = await log(entadmin, id)
    const row = rows.find((d) => d.eventId === body.id)
    expect(row).toMatchObject({ eventType: 'orderState', status: 'sent', attempts: 1, lastStatus: 200 })
    await ok('POST', '/api/b2b/webhook/endpoint/update', entadmin, {
      id,
      version: (await ok('GET', `/api/b2b/webhook/endpoint/detail?id=${id}`, entadmin)).version,
      enabled: false,
    })
  })

  it('tells neither another enterprise of the tenant nor another tenant, and shows them none of the log', async () => {
    const mine = await receiver()
    const theirs = await receiver()
    const acmeReceiver = await receiver()
    const { id: myEndpoint } = await register(entadmin, mine.url(), ['orderState', 'trackingEvent', 'billIssued'])
    // The demo tenant's other enterprise (Ningbo Haitong), listening to everything, set up as its administrator would.
    const { rows } = await sql<{ tenant_id: number; company_id: number }>`
      select u.tenant_id, u.company_id from app_user u join tenant t on t.id = u.tenant_id
      where t.code = 'demo' and u.username = 'nbclerk'`.execute(test.database.db)
    const second = rows[0] as { tenant_id: number; company_id: number }
    const theirEndpoint = await withTenant(test.database.api, second.tenant_id, async (trx) => {
      const inserted = await sql<{ id: number }>`
        insert into webhook_endpoint (tenant_id, url, events, enabled, company)
        values (${second.tenant_id}, ${theirs.url()}, '["orderState","trackingEvent","blConfirmed","billIssued"]'::jsonb, true,
          ${second.company_id})
        returning id`.execute(trx)
      const endpoint = (inserted.rows[0] as { id: number }).id
      await issueSecret(trx, second.tenant_id, endpoint)
      return endpoint
    })
    const acmeAdmin = await test.login('entadmin', ACME)
    const { id: acmeEndpoint } = await register(acmeAdmin, acmeReceiver.url(), ['orderState'], ACME)

    const order = await confirmedOrder(entadmin, operator)
    await deliver()
    expect(orderEvents(mine, order).length).toBeGreaterThan(0)
    expect(theirs.received).toEqual([])
    expect(acmeReceiver.received).toEqual([])

    // Their order reaches them, and not us.
    const theirOrder = await confirmedOrder(entadmin, operator, second.company_id)
    await deliver()
    const acceptedOf = (r: Receiver, id: number) =>
      orderEvents(r, id).filter((m) => JSON.parse(m.body).data.state === 'accepted')
    expect(acceptedOf(theirs, theirOrder)).toHaveLength(1)
    // Its submission was still ours (booked by our administrator); its confirmation, once it is theirs, is not.
    expect(acceptedOf(mine, theirOrder)).toEqual([])
    expect(acmeReceiver.received).toEqual([])

    // The log is behind the company wall and the tenant: another's endpoint shows nothing, its re-send is 404.
    const ours = await log(entadmin, myEndpoint)
    expect(ours.length).toBeGreaterThan(0)
    expect(await log(entadmin, theirEndpoint)).toEqual([])
    expect(await log(acmeAdmin, myEndpoint, ACME)).toEqual([])
    const resend = await answer(
      'POST',
      '/api/b2b/webhook/delivery/resend',
      acmeAdmin,
      { id: ours[0]?.id },
      { host: ACME },
    )
    expect(resend.code).toBe('404')
    const detail = await answer('GET', `/api/b2b/webhook/endpoint/detail?id=${myEndpoint}`, acmeAdmin, undefined, {
      host: ACME,
    })
    expect(detail.code).toBe('404')
    expect(await log(acmeAdmin, acmeEndpoint, ACME)).toEqual([])
    await ok('POST', '/api/b2b/webhook/endpoint/delete', entadmin, { id: myEndpoint })
  })
})

describe('a receiver that is down', () => {
  it('is tried again after the back-off and reached once it is up; the log shows each attempt', async () => {
    const probe = await receiver()
    const port = probe.port
    const { id, secret } = await register(entadmin, probe.url(), ['orderState'])
    await probe.stop()

    const order = await confirmedOrder(entadmin, operator)
    await deliver()
    let rows = await log(entadmin, id)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row).toMatchObject({ status: 'retrying', attempts: 1, lastStatus: null })
    expect(rows[0]?.lastError).toBeTruthy()

    // Up again, but answering 503 at first: still retrying, the status kept.
    const up = await receiver(port)
    up.status = () => 503
    await settle()
    await deliver()
    rows = await log(entadmin, id)
    for (const row of rows) expect(row).toMatchObject({ status: 'retrying', attempts: 2, lastStatus: 503 })

    up.status = () => 204
    await settle()
    await deliver()
    rows = await log(entadmin, id)
    for (const row of rows) expect(row).toMatchObject({ status: 'sent', attempts: 3, lastStatus: 204 })
    const accepted = orderEvents(up, order).filter((m) => JSON.parse(m.body).data.state === 'accepted')
    // Delivered on the third try after one 503: two requests reached the receiver, each signed validly.
    expect(accepted).toHaveLength(2)
    for (const m of accepted)
      expect(verifyWebhook(m.headers[SIGNATURE_HEADER] as string, m.body, secret, { nowS: nowS() }).ok).toBe(true)
    await ok('POST', '/api/b2b/webhook/endpoint/delete', entadmin, { id })
  })

  it('fails a delivery after the bounded attempts, and a re-send tries it again with a fresh signature', async () => {
    const r = await receiver()
    r.status = () => 500
    const { id, secret } = await register(entadmin, r.url(), ['orderState'])
    const order = await confirmedOrder(entadmin, operator)
    for (let round = 0; round < 4; round++) {
      await deliver()
      await settle()
    }
    const failed = (await log(entadmin, id)).find((d) => d.status === 'failed')
    expect(failed).toMatchObject({ attempts: 3, lastStatus: 500 })
    const before = orderEvents(r, order).length

    // Re-sent once the receiver is mended: the same event, a new attempt, signed with a fresh timestamp.
    r.status = () => 200
    const target = failed as Delivery
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await ok('POST', '/api/b2b/webhook/delivery/resend', entadmin, { id: target.id })
    expect((await log(entadmin, id)).find((d) => d.id === target.id)?.status).toBe('pending')
    await deliver()
    const after = (await log(entadmin, id)).find((d) => d.id === target.id)
    expect(after).toMatchObject({ status: 'sent', attempts: 4, lastStatus: 200 })
    const sent = r.received.filter((m) => JSON.parse(m.body).id === target.eventId)
    expect(sent.length).toBe(4)
    const [first, last] = [sent[0] as Received, sent[sent.length - 1] as Received]
    expect(last.body).toBe(first.body)
    const stamp = (m: Received) => Number(/t=(\d+)/.exec(m.headers[SIGNATURE_HEADER] as string)?.[1])
    expect(stamp(last)).toBeGreaterThan(stamp(first))
    expect(verifyWebhook(last.headers[SIGNATURE_HEADER] as string, last.body, secret, { nowS: nowS() }).ok).toBe(true)
    expect(orderEvents(r, order).length).toBe(before + 1)
  })

  it('sends nothing to a disabled endpoint', async () => {
    const r = await receiver()
    const { id } = await register(entadmin, r.url(), ['orderState'])
    const detail = await ok('GET', `/api/b2b/webhook/endpoint/detail?id=${id}`, entadmin)
    await ok('POST', '/api/b2b/webhook/endpoint/update', entadmin, { id, version: detail.version, enabled: false })
    await confirmedOrder(entadmin, operator)
    await deliver()
    expect(r.received).toEqual([])
    expect(await log(entadmin, id)).toEqual([])
  })
})

describe('the other events', () => {
  it('tells tracking events, B/L confirmed and bills issued to an endpoint that chose them, and no order states', async () => {
    const r = await receiver()
    const { secret } = await register(entadmin, r.url(), ['trackingEvent', 'blConfirmed', 'billIssued'])
    const order = await confirmedOrder(entadmin, operator)
    const { rows: shipments } = await sql<{ id: number }>`
      select id from shipment where booking_order = ${order}`.execute(test.database.db)
    const shipment = (shipments[0] as { id: number }).id
    const event = await ok('POST', '/api/booking/tracking/event/add', operator, {
      shipment,
      eventClassifierCode: 'ACT',
      eventType: 'SHIPMENT',
      shipmentEventTypeCode: 'RELS',
      documentTypeCode: 'CUS',
      unLocationCode: 'USLAX',
      eventDateTime: '2026-12-31T06:00:00Z',
    })
    // The seed's B/L instruction of this enterprise that waits for the operator's confirmation.
    const { rows: waiting } = await sql<{ id: number; version: number }>`
      select b.id, b.version from bl_instruction b join app_user u on u.company_id = b.customer_company
      where u.username = 'entadmin' and u.tenant_id = b.tenant_id and b.confirm_status = 'unconfirmed'
      order by b.id limit 1`.execute(test.database.db)
    const instruction = waiting[0] as { id: number; version: number }
    await ok('POST', '/api/blInstruction/transition', operator, { ...instruction, transition: 'confirm' })
    const bill = await ok('POST', '/api/booking/billing/add', operator, {
      order,
      billingType: 'receivable',
      lines: [{ chargeName: 'Ocean freight', unit: '40HQ', quantity: 1, unitPrice: '1850.00', currency: 'USD' }],
    })
    const printed = await ok('POST', '/api/booking/billing/updateBillStatus', operator, {
      id: bill.id,
      version: bill.version,
      status: 'print',
    })
    await ok('POST', '/api/booking/billing/updateBillStatus', operator, {
      id: bill.id,
      version: printed.version,
      status: 'confirm',
    })
    await deliver()

    for (const m of r.received)
      expect(verifyWebhook(m.headers[SIGNATURE_HEADER] as string, m.body, secret, { nowS: nowS() }).ok).toBe(true)
    const got = bodies(r)
    expect(got.filter((b) => b.type === 'orderState')).toEqual([])
    expect(got.find((b) => b.type === 'trackingEvent' && b.data.id === event.id)).toMatchObject({
      data: { shipment, bookingOrder: order, eventType: 'SHIPMENT', shipmentEventTypeCode: 'RELS' },
    })
    expect(got.find((b) => b.type === 'blConfirmed')).toMatchObject({
      data: { id: instruction.id, confirmStatus: 'confirmed' },
    })
    expect(got.find((b) => b.type === 'billIssued')).toMatchObject({
      data: { id: bill.id, order, state: 'confirmed' },
    })
  })
})

describe('bounds', () => {
  it('keeps an enterprise to ten endpoints, so one event makes a bounded number of requests', async () => {
    const listed = async () =>
      (await ok('POST', '/api/b2b/webhook/endpoint/list', entadmin, { searchParams: {}, pageNum: 1, pageSize: 20 }))
        .total as number
    for (let n = await listed(); n < 10; n++)
      await ok('POST', '/api/b2b/webhook/endpoint/add', entadmin, {
        url: `https://erp.example.com/hooks/${n}`,
        events: ['orderState'],
      })
    expect(await listed()).toBe(10)
    const eleventh = await answer('POST', '/api/b2b/webhook/endpoint/add', entadmin, {
      url: 'https://erp.example.com/hooks/eleventh',
      events: ['orderState'],
    })
    expect(eleventh.code).toBe('validation')
    expect(eleventh.content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'url', message: 'At most 10 entries' }),
    ])
  })
})
