import type { EngineRegistry } from '../../engine/index.ts'
import { tallyOrder } from './events.ts'

/** Analytics (issue #28): the order placed counts in the daily roll-ups in the submitting transaction. */
export function register(engine: EngineRegistry): void {
  /** order, submit: one order of its mode and lane, by its company (server/domain/analytics/events.ts). */
  engine.effect('tallyOrder', tallyOrder)
}
