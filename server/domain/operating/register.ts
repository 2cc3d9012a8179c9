import type { EngineRegistry } from '../../engine/index.ts'
import { jobUsageHistory, operatingOrderFromOrder } from './jobFile.ts'
import { nextJobNo } from './numbering.ts'

/** Operating orders (schemas/operatingOrder.yaml): their customer from their order, their numbers, their usage history. */
export function register(engine: EngineRegistry): void {
  /** operatingOrder: only a confirmed order gets a job file, and the job's customer is the order's. */
  engine.derivation('operatingOrderFromOrder', operatingOrderFromOrder)
  /** operatingOrder, update: a change of the usages is kept as an append-only jobUsageHistory row. */
  engine.effect('jobUsageHistory', jobUsageHistory)
  /** operatingOrder.jobNo left empty: port, line of business, month and a monthly sequence (SHAE26120001). */
  engine.numbering('jobNo', nextJobNo)
}
