import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { eventUuid } from '../../server/domain/dcsa/tntEvents.ts'
import { WEBHOOK_KIND } from '../../server/domain/webhooks/events.ts'
import {
  DCSA_SIGNATURE_HEADER,
  DCSA_SUBSCRIPTION_HEADER,
  verifyDcsaNotification,
} from '../../server/domain/webhooks/signature.ts'
import { enqueue } from '../../server/jobs/outbox.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { dcsaSubscriptions, equipmentEvent, OTHER_SECRET, SECRET, settle } from '../support/dcsa-subscriptions.ts'
import { deliveringFile, type Received, receivers } from '../support/receiver.ts'

/**
 * DCSA Track & Trace subscriptions in the portal (issue #29, screens/dcsaTnt.yaml), on real local receivers and the
 * real outbox worker: the caller's subscriptions are listed with their filters in the standard's words and how their
 * notifications fared; each notification is logged with its attempts, the receiver's last answer and its state
 * (sent after a 2xx, retrying, failed after the bounded attempts); a re-send sends the same body again, signed anew
 * with the subscription's current secret. Whose is the standard's calls' rule: another company's or tenant's
 * subscriptions and notifications are absent from the lists and 404 to the calls, the forwarder's desk sees its own
 * only; delete removes the subscription and its log, for its owner only.
 */
const test = setupTestApp()
const { answer, call, ok } = bearerCalls(test)
const { deliver } = deliveringFile(test, 'dcsa-notifications')
const { subscribe, shipmentWith } = dcsaSubscriptions(test)

const SUBSCRIPTION = '/api/dcsa/tnt/v2/event-subscription'
const ACME = 'acme.localhost'

/** Receivers that answer 204, as the standard asks, unless a test says otherwise. */
const { receiver, stopReceivers } = receivers('/dcsa/callback', 204)

interface SubscriptionRow {
  id: number
  subscriptionId: string
  callbackUrl: string
  filters: string | null
  createdAt: string
  notifications: number
  failed: number
  lastState: string | null
  lastNotifiedAt: string | null
}

interface NotificationRow {
  id: number
  subscription: number
  subscriptionId: string
  callbackUrl: string
  eventCount: number
  status: string
  attempts: number
  lastStatus: number | null
  lastAttemptAt: string | null
  lastError: string | null
}

const options = (host?: string) => (host ? { host } : undefined)

const subscriptions = async (token: string, host?: string): Promise<SubscriptionRow[]> =>
  (
    await ok(
      'POST',
      '/api/b2b/dcsa/subscription/list',
      token,
      { searchParams: {}, pageNum: 1, pageSize: 20 },
      options(host),
    )
  ).list

/** The caller's list row of a subscription (by the standard's id), which must be there. */
async function listed(token: string, subscriptionId: string, host?: string): Promise<SubscriptionRow> {
  const row = (await subscriptions(token, host)).find((s) => s.subscriptionId === subscriptionId)
  expect(row, subscriptionId).toBeDefined()
  return row as SubscriptionRow
}

const logWhere = async (token: string, searchParams: object, host?: string): Promise<NotificationRow[]> =>
  (
    await ok(
      'POST',
      '/api/b2b/dcsa/notification/list',
      token,
      { searchParams, pageNum: 1, pageSize: 50 },
      options(host),
    )
  ).list

const log = (token: string, subscription: number, host?: string) => logWhere(token, { subscription }, host)

/** The operator records an equipment event of the container (localhost: the demo tenant); answers its id. */
async function recordEquipment(operator: string, container: string, code: string, host?: string): Promise<number> {
  const event = await ok(
    'POST',
    '/api/booking/tracking/event/add',
    operator,
    equipmentEvent(await shipmentWith(container), container, code),
    options(host),
  )
  return event.id as number
}

let entadmin: string
let operator: string

beforeAll(async () => {
  entadmin = await test.login('entadmin')
  operator = await test.login('opadmin')
})
afterAll(async () => {
  await stopReceivers()
})

describe('the subscription list and its notification log', () => {
  it('lists a subscription with its filters in the standard’s words; a notification answered 2xx is logged sent', async () => {
    const r = await receiver()
    const id = await subscribe(entadmin, {
      callbackUrl: r.url(),
      equipmentReference: TRACKING_SAMPLES.container,
      equipmentEventTypeCode: ['LOAD', 'DISC'],
      eventType: ['EQUIPMENT'],
    })
    const before = await listed(entadmin, id)
    // The standard's order, not the body's: types, codes, then references.
    expect(before).toMatchObject({
      callbackUrl: r.url(),
      filters: `eventType: EQUIPMENT; equipmentEventTypeCode: LOAD, DISC; equipmentReference: ${TRACKING_SAMPLES.container}`,
      notifications: 0,
      failed: 0,
      lastState: null,
      lastNotifiedAt: null,
    })
    expect(Date.parse(before.createdAt)).not.toBeNaN()
    expect(await log(entadmin, before.id)).toEqual([])

    const event = await recordEquipment(operator, TRACKING_SAMPLES.container, 'LOAD')
    await deliver()
    expect(r.events().map((e) => e.eventID)).toEqual([eventUuid(event)])

    const [notification, ...more] = await log(entadmin, before.id)
    expect(more).toEqual([])
    expect(notification).toMatchObject({
      subscription: before.id,
      subscriptionId: id,
      callbackUrl: r.url(),
      eventCount: 1,
      status: 'sent',
      attempts: 1,
      lastStatus: 204,
      lastError: null,
    })
    expect(Date.parse(notification?.lastAttemptAt ?? '')).not.toBeNaN()
    // Found by what its reader knows it by, the callback's address, as well as by the subscription's number.
    const port = new URL(r.url()).port
    expect((await logWhere(entadmin, { callbackUrl: `:${port}/` })).map((n) => n.id)).toEqual([notification?.id])
    expect(await logWhere(entadmin, { callbackUrl: 'no-such-receiver.example' })).toEqual([])
    expect(await listed(entadmin, id)).toMatchObject({ notifications: 1, failed: 0, lastState: 'sent' })
    expect(Date.parse((await listed(entadmin, id)).lastNotifiedAt ?? '')).not.toBeNaN()
  })

  it('logs a receiver that fails as retrying, then failed; a re-send sends the same body, signed with the current secret', async () => {
    const r = await receiver()
    r.status = () => 500
    const id = await subscribe(entadmin, { callbackUrl: r.url(), eventType: ['EQUIPMENT'] })
    const { id: number } = await listed(entadmin, id)
    await recordEquipment(operator, TRACKING_SAMPLES.container, 'GTIN')

    await deliver()
    const [first] = await log(entadmin, number)
    expect(first).toMatchObject({ status: 'retrying', attempts: 1, lastStatus: 500 })
    expect(first?.lastError).toContain('HTTP 500')
    for (let round = 0; round < 3; round++) {
      await settle()
      await deliver()
    }
    const [failed] = await log(entadmin, number)
    expect(failed).toMatchObject({ id: first?.id, status: 'failed', attempts: 3, lastStatus: 500 })
    expect(failed?.lastError).toContain('HTTP 500')
    expect(await listed(entadmin, id)).toMatchObject({ notifications: 1, failed: 1, lastState: 'failed' })
    expect(r.received).toHaveLength(3)

    // The receiver mended and the secret changed since: the re-send is a new message of the same notification.
    const changed = await call('PUT', `${SUBSCRIPTION}/secret`, entadmin, { subscriptionID: id, secret: OTHER_SECRET })
    expect(changed.statusCode, changed.body).toBe(204)
    r.status = () => 204
    expect(await ok('POST', '/api/b2b/dcsa/notification/resend', entadmin, { id: failed?.id, version: 1 })).toEqual({
      state: true,
    })
    expect((await log(entadmin, number)).map((n) => [n.id, n.status])).toEqual([[failed?.id, 'pending']])
    await deliver()
    const [resent, ...more] = await log(entadmin, number)
    expect(more).toEqual([])
    expect(resent).toMatchObject({ id: failed?.id, status: 'sent', attempts: 4, lastStatus: 204, lastError: null })
    expect(await listed(entadmin, id)).toMatchObject({ notifications: 1, failed: 0, lastState: 'sent' })

    expect(r.received).toHaveLength(4)
    const [original, again] = [r.received[0] as Received, r.received[3] as Received]
    expect(again.body).toBe(original.body)
    expect(again.headers[DCSA_SUBSCRIPTION_HEADER]).toBe(id)
    const signed = (m: Received) => m.headers[DCSA_SIGNATURE_HEADER] as string
    expect(verifyDcsaNotification(signed(original), original.body, SECRET)).toBe(true)
    expect(verifyDcsaNotification(signed(again), again.body, OTHER_SECRET)).toBe(true)
    expect(verifyDcsaNotification(signed(again), again.body, SECRET)).toBe(false)
    expect(signed(again)).not.toBe(signed(original))
  })

  it('sends what a message queued before the log kept (its events in its payload) as before', async () => {
    const r = await receiver()
    const id = await subscribe(entadmin, { callbackUrl: r.url(), eventType: ['SHIPMENT'] })
    const events = [{ eventID: 'e0e0e0e0-0000-4000-8000-000000000001', eventType: 'SHIPMENT' }]
    const { rows } = await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(test.database.db)
    const tenantId = (rows[0] as { id: number }).id
    await withTenant(test.database.api, tenantId, (trx) =>
      enqueue(trx, tenantId, WEBHOOK_KIND, { to: r.url(), subscription: id, events }),
    )
    await deliver()
    expect(r.received.map((m) => JSON.parse(m.body))).toEqual([events])
    const [sent] = r.received as [Received]
    expect(verifyDcsaNotification(sent.headers[DCSA_SIGNATURE_HEADER] as string, sent.body, SECRET)).toBe(true)
  })
})

describe('whose subscriptions and notifications', () => {
  it('shows another enterprise, another tenant and the desk none of a company’s, and answers their calls 404', async () => {
    const r = await receiver()
    const id = await subscribe(entadmin, { callbackUrl: r.url(), equipmentReference: TRACKING_SAMPLES.container })
    await recordEquipment(operator, TRACKING_SAMPLES.container, 'STUF')
    await deliver()
    const { id: number } = await listed(entadmin, id)
    const [notification] = await log(entadmin, number)
    expect(notification).toMatchObject({ subscriptionId: id, status: 'sent' })

    const desk = await receiver()
    const deskId = await subscribe(operator, { callbackUrl: desk.url() })
    const deskRow = await listed(operator, deskId)
    const nbclerk = await test.login('nbclerk')
    const acmeAdmin = await test.login('entadmin', ACME)
    const strangers: [string, string | undefined][] = [
      [nbclerk, undefined],
      [acmeAdmin, ACME],
      [operator, undefined],
    ]
    for (const [token, host] of strangers) {
      expect((await subscriptions(token, host)).map((s) => s.subscriptionId)).not.toContain(id)
      expect(await log(token, number, host)).toEqual([])
      const resend = await answer(
        'POST',
        '/api/b2b/dcsa/notification/resend',
        token,
        { id: notification?.id },
        options(host),
      )
      expect(resend.code).toBe('404')
      const remove = await answer('POST', '/api/b2b/dcsa/subscription/delete', token, { id: number }, options(host))
      expect(remove.code).toBe('404')
    }
    // The desk's own is the desk's: not the company's to see.
    expect((await subscriptions(entadmin)).map((s) => s.subscriptionId)).not.toContain(deskId)
    const deskRemove = await answer('POST', '/api/b2b/dcsa/subscription/delete', entadmin, { id: deskRow.id })
    expect(deskRemove.code).toBe('404')
    // Still there, still told: nothing above touched it.
    expect(await listed(entadmin, id)).toMatchObject({ notifications: 1 })
    expect(await listed(operator, deskId)).toMatchObject({ subscriptionId: deskId })
  })
})

describe('deleting a subscription from the list', () => {
  it('removes it and its log, as the standard’s DELETE does: its callback hears nothing more', async () => {
    const r = await receiver()
    const id = await subscribe(entadmin, { callbackUrl: r.url(), equipmentReference: TRACKING_SAMPLES.container })
    await recordEquipment(operator, TRACKING_SAMPLES.container, 'STRP')
    await deliver()
    expect(r.received).toHaveLength(1)
    const { id: number } = await listed(entadmin, id)
    expect(await log(entadmin, number)).toHaveLength(1)

    expect(await ok('POST', '/api/b2b/dcsa/subscription/delete', entadmin, { id: number, version: 1 })).toBeNull()
    expect((await subscriptions(entadmin)).map((s) => s.subscriptionId)).not.toContain(id)
    expect(await log(entadmin, number)).toEqual([])
    expect((await call('GET', `${SUBSCRIPTION}?subscriptionID=${id}`, entadmin)).statusCode).toBe(404)
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from dcsa_notification where subscription = ${id}`.execute(test.database.db)
    expect(rows[0]?.n).toBe(0)

    await recordEquipment(operator, TRACKING_SAMPLES.container, 'DISC')
    await deliver()
    expect(r.received).toHaveLength(1)
    // Gone is gone: a second delete finds nothing.
    expect((await answer('POST', '/api/b2b/dcsa/subscription/delete', entadmin, { id: number })).code).toBe('404')
  })

  it('lets the desk delete its own from the list, and a colleague of the company the company’s', async () => {
    const deskId = await subscribe(operator, { callbackUrl: (await receiver()).url() })
    const deskRow = await listed(operator, deskId)
    await ok('POST', '/api/b2b/dcsa/subscription/delete', operator, { id: deskRow.id })
    expect((await subscriptions(operator)).map((s) => s.subscriptionId)).not.toContain(deskId)

    // A subscription is its company's, not its maker's: another user of the company sees and deletes it.
    const companyId = await subscribe(entadmin, { callbackUrl: (await receiver()).url() })
    const colleague = await test.login('entop')
    const row = await listed(colleague, companyId)
    await ok('POST', '/api/b2b/dcsa/subscription/delete', colleague, { id: row.id })
    expect((await subscriptions(entadmin)).map((s) => s.subscriptionId)).not.toContain(companyId)
  })
})
