import type { EffectContext } from '../../engine/effects.ts'

/** The confirmed order's shipment (issue #8): built in the booking work; until then nothing is written. */
export async function createShipment(_context: EffectContext): Promise<void> {}
