import { type SqlBool, sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'
import { subscriptionOrder } from './subscriptions.ts'

/**
 * Shipment subscriptions (schemas/shipmentSubscription.yaml) as the engine serves them: only their
 * subscriber ever sees one — not the colleagues the company wall would show it to — newest first, and a new
 * one is checked against the orders its subscriber may see (./subscriptions.ts).
 */
export function register(engine: EngineRegistry): void {
  engine.visibility('shipmentSubscription', ({ call, table }) => [
    sql<SqlBool>`${sql.ref(`${table}.created_by`)} = ${call.session.userId}`,
  ])
  engine.listOrder('shipmentSubscription', { field: 'createdAt', order: 'desc' })
  engine.derivation('subscriptionOrder', subscriptionOrder)
}
