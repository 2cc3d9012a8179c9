import type { EngineRegistry } from '../../engine/index.ts'
import { jobUsageHistory, operatingOrderFromOrder } from './jobFile.ts'

/** Operating orders (schemas/operatingOrder.yaml): their customer from their order, their usage history. */
export function register(engine: EngineRegistry): void {
  /** operatingOrder: only a confirmed order gets a job file, and the job's customer is the order's. */
  engine.derivation('operatingOrderFromOrder', operatingOrderFromOrder)
  /** operatingOrder, update: a change of the usages is kept as an append-only jobUsageHistory row. */
  engine.effect('jobUsageHistory', jobUsageHistory)
}
