import { type SqlBool, sql } from 'kysely'
import { trackingEvent as isTrackingEvent } from '../../../generated/validators.js'
import type { EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { recordTrackingEvents } from './record.ts'
import { subscriptionOrder } from './subscriptions.ts'

/**
 * Shipment subscriptions (schemas/shipmentSubscription.yaml) as the engine serves them: only their
 * subscriber ever sees one — not the colleagues the company wall would show it to — newest first, and a new
 * one is checked against the orders its subscriber may see (./subscriptions.ts).
 *
 * Tracking events imported from a workbook (the trajectory screen's import, screens/operatorOrders.yaml) are
 * written by recordTrackingEvents, all rows in the import's one transaction, so each moves its shipment's
 * schedule and tells its subscribers once, as an event added by hand does. The sheet names the shipment by its
 * B/L, house B/L, air waybill or order number, which must name one shipment of the tenant.
 */
export function register(engine: EngineRegistry): void {
  engine.visibility('shipmentSubscription', ({ call, table }) => [
    sql<SqlBool>`${sql.ref(`${table}.created_by`)} = ${call.session.userId}`,
  ])
  engine.listOrder('shipmentSubscription', { field: 'createdAt', order: 'desc' })
  engine.listOrder('trackingEvent', { field: 'eventDateTime', order: 'desc' })
  engine.derivation('subscriptionOrder', subscriptionOrder)
  engine.importWriter('trackingEvent', {
    references: {
      shipment: async ({ trx, call, texts }) => {
        if (!texts.length) return new Map()
        const rows = await sql<{ number: string; id: number }>`
          select t.number, min(m.id) as id
          from unnest(${texts}::text[]) as t(number)
          join (
            select s.id, s.bl_no as number from shipment s where s.tenant_id = ${call.tenantId}
            union select s.id, s.hbl from shipment s where s.tenant_id = ${call.tenantId}
            union select s.id, s.mawb from shipment s where s.tenant_id = ${call.tenantId}
            union select s.id, o.order_no from shipment s
              join booking_order o on o.id = s.booking_order and o.tenant_id = s.tenant_id
              where s.tenant_id = ${call.tenantId}
          ) m on m.number = t.number
          group by t.number
          having count(distinct m.id) = 1`.execute(trx)
        return new Map(rows.rows.map((row) => [row.number, Number(row.id)]))
      },
    },
    write: async ({ trx, call, rows }) => {
      const events = rows.map((row) => {
        // Checked by the entity's validator already (the import's check step); this only tells the compiler.
        if (!isTrackingEvent(row)) throw new ApiError('validation')
        return row
      })
      await recordTrackingEvents(trx, call.tenantId, events, { userId: call.session.userId })
    },
  })
}
