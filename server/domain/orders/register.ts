import type { EngineRegistry } from '../../engine/index.ts'
import { nextOrderNo } from './numbering.ts'
import { createShipment } from './shipment.ts'
import { orderSource } from './source.ts'

/** Orders (schemas/order.yaml): their numbers, where they were booked from, their shipment. */
export function register(engine: EngineRegistry): void {
  /** The tenant's order-number rule for the record's transport mode (schemas/orderNumberRule.yaml). */
  engine.numbering('orderNo', (trx, tenantId, record, at) => nextOrderNo(trx, tenantId, record.transportMode, at))
  /** order: where it was booked from (a rate valid today, a quote sent to the caller's company, or direct). */
  engine.derivation('orderSource', orderSource)
  /** order, accept: the confirmed order's shipment, so tracking finds it by order number. */
  engine.effect('createShipment', createShipment)
}
