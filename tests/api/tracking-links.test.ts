import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { now } from '../support/clock.ts'

/**
 * Shareable tracking links (issue #29, screens/trackingLinks.yaml): a customer's link to one shipment works with
 * no session, for that shipment only, on its tenant's host only, until it expires or is revoked.
 */

const test = setupTestApp()
const { call, get } = bearerCalls(test)

const ADD = '/api/booking/tracking/link/add'
const PAGE = '/api/booking/tracking/link/page'
const REVOKE = '/api/booking/tracking/link/revoke'
const VIEW = '/api/booking/public/api/tracking/link'

async function shipmentId(blNo: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`select id from shipment where bl_no = ${blNo}`.execute(test.database.db)
  expect(rows).toHaveLength(1)
  return rows[0]?.id as number
}

describe('shareable tracking links', () => {
  it('opens one shipment in full with no session, and nothing else; expires; is revoked', async () => {
    const customer = await test.login('entadmin')
    const shipment = await shipmentId('COSU6312345670')
    const created = await call('POST', ADD, customer, { shipment, days: 7 })
    expect(created.json().code, created.body).toBe('0000')
    const link = created.json().content as { id: number; token: string; path: string; expiresAt: string }
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // A path segment: SPEC §2 takes a ?token= on any portal address as a login token.
    expect(link.path).toBe(`/sharedTracking/${link.token}`)
    // Seven days from the server's clock (read just after; the days, not the milliseconds).
    expect(Math.round((new Date(link.expiresAt).getTime() - now().getTime()) / 86_400_000)).toBe(7)
    // Only the hash is kept.
    const { rows } = await sql<{
      token_hash: string
    }>`select token_hash from tracking_link where id = ${link.id}`.execute(test.database.db)
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows[0]?.token_hash).not.toContain(link.token)

    // A visitor with the token: the shipment in full (containers, B/L, events), with no id that opens anything.
    const seen = await get(`${VIEW}?token=${link.token}`, null)
    expect(seen.json().code, seen.body).toBe('0000')
    const answer = seen.json().content
    expect(answer.view).toBe('full')
    expect(answer.shipment).toMatchObject({ blNo: 'COSU6312345670' })
    expect(answer.shipment.containers.map((c: { containerNo: string }) => c.containerNo)).toContain(
      TRACKING_SAMPLES.container,
    )
    expect(answer.events.length).toBeGreaterThan(0)
    expect(answer.shipment).not.toHaveProperty('id')
    expect(answer.shipment).not.toHaveProperty('customerCompany')
    for (const event of answer.events) {
      expect(event).not.toHaveProperty('id')
      expect(event).not.toHaveProperty('correctsEvent')
    }
    // The call takes the token only: another shipment's id beside it is refused, not followed.
    const other = await shipmentId(TRACKING_SAMPLES.arrivedBl)
    const withId = await get(`${VIEW}?token=${link.token}&id=${other}`, null)
    expect(withId.statusCode).toBe(400)
    expect(JSON.stringify(withId.json())).not.toContain(TRACKING_SAMPLES.arrivedContainer)
    // A token nobody made, and the right token on another tenant's host: 404.
    expect((await get(`${VIEW}?token=${'A'.repeat(43)}`, null)).statusCode).toBe(404)
    expect((await get(`${VIEW}?token=${link.token}`, null, { host: 'acme.localhost' })).statusCode).toBe(404)
    // A malformed token is a field error in the caller's language.
    const bad = await get(`${VIEW}?token=short`, null, { language: 'ja_JP' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().content.fieldErrors[0].field).toBe('token')

    // Listed for the company, never with its token.
    const page = (await call('POST', PAGE, customer, { pageNum: 1, pageSize: 10 })).json().content
    const listed = page.list as Record<string, unknown>[]
    expect(page.total).toBe(1)
    expect(listed[0]).toMatchObject({
      id: link.id,
      shipment,
      blNo: 'COSU6312345670',
      revokedAt: null,
      state: 'active',
    })
    expect(JSON.stringify(listed)).not.toContain(link.token)

    // Another company cannot list or revoke it.
    const stranger = await test.login('nbclerk')
    expect((await call('POST', PAGE, stranger, {})).json().content).toMatchObject({ list: [], total: 0 })
    expect((await call('POST', REVOKE, stranger, { id: link.id })).statusCode).toBe(404)

    // Revoked: the page says so, in the visitor's language.
    const revoked = await call('POST', REVOKE, customer, { id: link.id, version: 1 })
    expect(revoked.json().code, revoked.body).toBe('0000')
    const after = await get(`${VIEW}?token=${link.token}`, null, { language: 'zh_CN' })
    expect(after.statusCode).toBe(400)
    expect(after.json().content.fieldErrors[0]).toMatchObject({ field: 'token', key: 'tracking.linkRevoked' })
    expect(after.json().content.fieldErrors[0].message).toMatch(/[\u4e00-\u9fff]/)
    const afterRevoke = (await call('POST', PAGE, customer, {})).json().content.list[0]
    expect(afterRevoke.revokedAt).not.toBeNull()
    expect(afterRevoke.state).toBe('revoked')
    // Revoking twice: nothing left to revoke.
    expect((await call('POST', REVOKE, customer, { id: link.id })).statusCode).toBe(404)

    // Expired: a link past its day.
    const second = (await call('POST', ADD, customer, { shipment, days: 30 })).json().content
    expect((await get(`${VIEW}?token=${second.token}`, null)).json().code).toBe('0000')
    await sql`update tracking_link set expires_at = ${new Date(now().getTime() - 1000)} where id = ${second.id}`.execute(
      test.database.db,
    )
    const expired = await get(`${VIEW}?token=${second.token}`, null)
    expect(expired.statusCode).toBe(400)
    expect(expired.json().content.fieldErrors[0]).toMatchObject({ field: 'token', key: 'tracking.linkExpired' })
    const states = (await call('POST', PAGE, customer, {})).json().content.list as { id: number; state: string }[]
    expect(states.find((row) => row.id === second.id)?.state).toBe('expired')
  })

  it("makes links to the caller's company's shipments only, for 7, 30 or 90 days", async () => {
    const customer = await test.login('entadmin')
    const shipment = await shipmentId('COSU6312345670')
    expect((await call('POST', ADD, customer, { shipment, days: 365 })).json().content.fieldErrors[0].field).toBe(
      'days',
    )
    // Another company's customer, another tenant: as if missing (the forwarder's operators: the next test).
    expect((await call('POST', ADD, await test.login('nbclerk'), { shipment, days: 7 })).statusCode).toBe(404)
    const acme = await test.login('entadmin', 'acme.localhost')
    expect((await call('POST', ADD, acme, { shipment, days: 7 }, { host: 'acme.localhost' })).statusCode).toBe(404)
    const acmeShipment = await shipmentId('OOLU2603114470')
    expect((await call('POST', ADD, customer, { shipment: acmeShipment, days: 7 })).statusCode).toBe(404)
    // Without a session: 401.
    expect((await call('POST', ADD, null, { shipment, days: 7 })).statusCode).toBe(401)
  })

  it("makes a link from an order (the order detail's Share): its shipment, once the order is confirmed", async () => {
    const customer = await test.login('entadmin')
    const shipment = await shipmentId('COSU6312345670')
    const { rows } = await sql<{ order: number; company: number }>`select booking_order as order,
      customer_company as company from shipment where id = ${shipment}`.execute(test.database.db)
    const order = rows[0]?.order as number
    const made = await call('POST', ADD, customer, { order, days: 30 })
    expect(made.json().code, made.body).toBe('0000')
    const seen = await get(`${VIEW}?token=${made.json().content.token}`, null)
    expect(seen.json().content.shipment).toMatchObject({ blNo: 'COSU6312345670' })
    // The company's order with no shipment yet: a field error saying why, in the caller's language.
    const { rows: pending } = await sql<{ id: number }>`select o.id from booking_order o
      where o.customer_company = ${rows[0]?.company as number} and o.tenant_id = 1
        and not exists (select 1 from shipment s where s.booking_order = o.id) order by o.id limit 1`.execute(
      test.database.db,
    )
    expect(pending).toHaveLength(1)
    const early = await call('POST', ADD, customer, { order: pending[0]?.id, days: 7 }, { language: 'es_ES' })
    expect(early.statusCode).toBe(400)
    expect(early.json().content.fieldErrors[0]).toMatchObject({ field: 'order', key: 'tracking.linkNoShipment' })
    expect(early.json().content.fieldErrors[0].message).toMatch(/transitario/)
    // Another company's order, confirmed or not: 404, as if it did not exist.
    expect((await call('POST', ADD, await test.login('nbclerk'), { order, days: 7 })).statusCode).toBe(404)
    expect((await call('POST', ADD, await test.login('nbclerk'), { order: pending[0]?.id, days: 7 })).statusCode).toBe(
      404,
    )
    // Neither a shipment nor an order: a field error, not a 5xx.
    const neither = await call('POST', ADD, customer, { days: 7 })
    expect(neither.statusCode).toBe(400)
    expect(neither.json().content.fieldErrors[0].key).toBe('tracking.linkNeedsShipment')
  })

  it("lets an operator share any of the tenant's shipments with its customer's consignee, list and revoke the tenant's links", async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const other = await test.login('nbclerk')
    const shipment = await shipmentId('COSU6312345670')
    const { rows } = await sql<{ order: number; company: number }>`select booking_order as order,
      customer_company as company from shipment where id = ${shipment}`.execute(test.database.db)
    // The operator's order detail's Share names the order, as the customer's does.
    const made = await call('POST', ADD, operator, { order: rows[0]?.order, days: 7 })
    expect(made.json().code, made.body).toBe('0000')
    const link = made.json().content as { id: number; token: string }
    const seen = await get(`${VIEW}?token=${link.token}`, null)
    expect(seen.json().content.shipment).toMatchObject({ blNo: 'COSU6312345670' })
    // The link is the shipment's customer's: it counts toward their links and shows among them, not another's.
    const stored = await sql<{ company: number | null; created_by: number | null }>`
      select company, created_by from tracking_link where id = ${link.id}`.execute(test.database.db)
    expect(stored.rows[0]?.company).toBe(rows[0]?.company)
    const ids = async (token: string) =>
      ((await call('POST', PAGE, token, { pageSize: 50 })).json().content.list as { id: number }[]).map((r) => r.id)
    expect(await ids(customer)).toContain(link.id)
    expect(await ids(other)).not.toContain(link.id)
    // The operator lists every link of the tenant, the customers' own too, and revokes any of them.
    const customers = (await call('POST', ADD, customer, { shipment, days: 30 })).json().content as { id: number }
    const listed = await ids(operator)
    expect(listed).toEqual(expect.arrayContaining([link.id, customers.id]))
    expect((await call('POST', REVOKE, operator, { id: customers.id })).json().code).toBe('0000')
    expect((await call('POST', PAGE, customer, { pageSize: 50 })).json().content.list).toContainEqual(
      expect.objectContaining({ id: customers.id, state: 'revoked' }),
    )
    // Another tenant's operator: neither the shipment nor the links are there.
    const acme = await test.login('opadmin', 'acme.localhost')
    expect((await call('POST', ADD, acme, { shipment, days: 7 }, { host: 'acme.localhost' })).statusCode).toBe(404)
    const acmeLinks = await call('POST', PAGE, acme, { pageSize: 50 }, { host: 'acme.localhost' })
    expect((acmeLinks.json().content.list as { id: number }[]).map((r) => r.id)).not.toContain(link.id)
    expect((await call('POST', REVOKE, acme, { id: link.id }, { host: 'acme.localhost' })).statusCode).toBe(404)
    // A personal user (no company) has no shipments to share.
    expect(
      (await call('POST', ADD, await test.login('personal'), { shipment, days: 7 })).statusCode,
    ).toBeGreaterThanOrEqual(403)
  })
})
