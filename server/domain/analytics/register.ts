import type { EngineRegistry } from '../../engine/index.ts'
import { tallyInquiry, tallyOrder } from './events.ts'
import { personalUsers } from './portrait.ts'
import { registerChartSource } from './sources.ts'

/** Analytics (issue #28): the order placed and the inquiry sent count in the transaction that writes them. */
export function register(engine: EngineRegistry): void {
  /** order, submit: one order of its mode and lane, by its company (server/domain/analytics/events.ts). */
  engine.effect('tallyOrder', tallyOrder)
  /** inquiry, create: its sender asks for a quote (UserPortrait's asks, ./events.ts). */
  engine.effect('tallyInquiry', tallyInquiry)
  /** UserPortrait's personal users by region, channel, activity and asks (./portrait.ts). */
  registerChartSource('personalUsers', personalUsers)
}
