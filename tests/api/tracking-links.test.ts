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
const LIST = '/api/booking/tracking/link/list'
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
    expect(link.path).toBe(`/sharedTracking?token=${link.token}`)
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
    const listed = (await get(LIST, customer)).json().content as Record<string, unknown>[]
    expect(listed[0]).toMatchObject({ id: link.id, shipment, blNo: 'COSU6312345670', revokedAt: null })
    expect(JSON.stringify(listed)).not.toContain(link.token)

    // Another company cannot list or revoke it.
    const stranger = await test.login('nbclerk')
    expect((await get(LIST, stranger)).json().content).toEqual([])
    expect((await call('POST', REVOKE, stranger, { id: String(link.id) })).statusCode).toBe(404)

    // Revoked: the page says so, in the visitor's language.
    const revoked = await call('POST', REVOKE, customer, { id: String(link.id) })
    expect(revoked.json().code, revoked.body).toBe('0000')
    const after = await get(`${VIEW}?token=${link.token}`, null, { language: 'zh_CN' })
    expect(after.statusCode).toBe(400)
    expect(after.json().content.fieldErrors[0]).toMatchObject({ field: 'token', key: 'tracking.linkRevoked' })
    expect(after.json().content.fieldErrors[0].message).toMatch(/[\u4e00-\u9fff]/)
    expect((await get(LIST, customer)).json().content[0].revokedAt).not.toBeNull()
    // Revoking twice: nothing left to revoke.
    expect((await call('POST', REVOKE, customer, { id: String(link.id) })).statusCode).toBe(404)

    // Expired: a link past its day.
    const second = (await call('POST', ADD, customer, { shipment, days: 30 })).json().content
    expect((await get(`${VIEW}?token=${second.token}`, null)).json().code).toBe('0000')
    await sql`update tracking_link set expires_at = ${new Date(now().getTime() - 1000)} where id = ${second.id}`.execute(
      test.database.db,
    )
    const expired = await get(`${VIEW}?token=${second.token}`, null)
    expect(expired.statusCode).toBe(400)
    expect(expired.json().content.fieldErrors[0]).toMatchObject({ field: 'token', key: 'tracking.linkExpired' })
  })

  it("makes links to the caller's company's shipments only, for 7, 30 or 90 days", async () => {
    const customer = await test.login('entadmin')
    const shipment = await shipmentId('COSU6312345670')
    expect((await call('POST', ADD, customer, { shipment, days: 365 })).json().content.fieldErrors[0].field).toBe(
      'days',
    )
    // Another company's customer, the forwarder's operator, another tenant: as if missing.
    expect((await call('POST', ADD, await test.login('nbclerk'), { shipment, days: 7 })).statusCode).toBe(404)
    expect((await call('POST', ADD, await test.login('opadmin'), { shipment, days: 7 })).statusCode).toBe(403)
    const acme = await test.login('entadmin', 'acme.localhost')
    expect((await call('POST', ADD, acme, { shipment, days: 7 }, { host: 'acme.localhost' })).statusCode).toBe(404)
    const acmeShipment = await shipmentId('OOLU2603114470')
    expect((await call('POST', ADD, customer, { shipment: acmeShipment, days: 7 })).statusCode).toBe(404)
    // Without a session: 401.
    expect((await call('POST', ADD, null, { shipment, days: 7 })).statusCode).toBe(401)
  })
})
