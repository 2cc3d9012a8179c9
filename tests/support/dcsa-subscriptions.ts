import { sql } from 'kysely'
import { expect } from 'vitest'
import type { TestApp } from './app.ts'
import { bearerCalls } from './calls.ts'

/**
 * DCSA Track & Trace subscriptions as the API tests make them (issue #29): the standard's call that makes one, the
 * secrets its notifications are signed with, and the sea shipment and equipment event that set one off.
 */

export const SUBSCRIPTIONS = '/api/dcsa/tnt/v2/event-subscriptions'
/** The secret a subscription is made with (the standard's Base64), and another to change it to. */
export const SECRET = Buffer.alloc(32, 9).toString('base64')
export const OTHER_SECRET = Buffer.alloc(48, 3).toString('base64')

/** A few milliseconds, for what the outbox worker does after a delivery's answer. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

/** An actual equipment event of a container (LOAD unless said), as the operator records it. */
export const equipmentEvent = (shipment: number, container: string, code = 'LOAD') => ({
  shipment,
  eventClassifierCode: 'ACT',
  eventType: 'EQUIPMENT',
  equipmentEventTypeCode: code,
  equipmentReference: container,
  emptyIndicatorCode: 'LADEN',
  unLocationCode: 'CNSHA',
  eventDateTime: '2026-12-31T08:00:00Z',
})

export function dcsaSubscriptions(test: TestApp) {
  const { call } = bearerCalls(test)
  /** Subscribes as `token` on `host`'s tenant (with SECRET unless `body` says otherwise); answers its subscriptionID. */
  async function subscribe(token: string, body: Record<string, unknown>, host = 'localhost'): Promise<string> {
    const response = await call('POST', SUBSCRIPTIONS, token, { secret: SECRET, ...body }, { host })
    expect(response.statusCode, response.body).toBe(201)
    return response.json().subscriptionID as string
  }
  /** A sea shipment by one of its containers. */
  async function shipmentWith(container: string): Promise<number> {
    const { rows } = await sql<{ id: number }>`
      select s.id from shipment s
      where s.transport_mode = 1 and s.containers @> ${JSON.stringify([{ containerNo: container }])}::jsonb
      order by s.id limit 1`.execute(test.database.db)
    expect(rows[0], container).toBeDefined()
    return (rows[0] as { id: number }).id
  }
  return { subscribe, shipmentWith }
}
