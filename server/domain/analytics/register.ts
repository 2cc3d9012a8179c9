import type { EngineRegistry } from '../../engine/index.ts'
import { tallyOrder } from './events.ts'
import { personalUsers } from './portrait.ts'
import { registerChartSource } from './sources.ts'

/** Analytics (issue #28): the order placed counts in the daily roll-ups in the submitting transaction. */
export function register(engine: EngineRegistry): void {
  /** order, submit: one order of its mode and lane, by its company (server/domain/analytics/events.ts). */
  engine.effect('tallyOrder', tallyOrder)
  /** UserPortrait's personal users by region, channel, activity and asks (./portrait.ts). */
  registerChartSource('personalUsers', personalUsers)
}
