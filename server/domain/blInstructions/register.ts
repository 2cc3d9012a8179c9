import type { EngineRegistry } from '../../engine/index.ts'
import { hsSubheading } from './hsCode.ts'
import { blInstructionOrder } from './order.ts'

/** B/L instructions (schemas/blInstruction.yaml, /cargoFeedList, /cargoFeedSubmission/:mode, issue #23). */
export function register(engine: EngineRegistry): void {
  /** blInstruction: a confirmed FCL order the caller sees, kept after; the instruction takes its customer. */
  engine.derivation('blInstructionOrder', blInstructionOrder)
  /** blInstruction: the HS code is a subheading the Harmonized System list holds. */
  engine.derivation('hsSubheading', hsSubheading)
}
