import type { EngineRegistry } from '../../engine/index.ts'
import { knownReferences } from './known.ts'

/** The shared reference lists (screens/basicData.yaml): what the engine runs for entities over them. */
export function register(engine: EngineRegistry): void {
  /** before a write: the codes of reference lists the record names exist on them. */
  engine.derivation('knownReferences', knownReferences)
}
