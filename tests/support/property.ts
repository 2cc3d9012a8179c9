import fc from 'fast-check'

/**
 * The seed of every property test (fast-check): `WAYBILL_SEED` when set, else a fixed one. Fixed by default
 * so that two runs of the same code try the same inputs — a red CI run is red again on a laptop, and a green
 * one is not green by luck. To explore other inputs, set WAYBILL_SEED (a CI leg may pass its run number);
 * whatever the seed, a failure names it, so `WAYBILL_SEED=<n>` replays that very run.
 */
const DEFAULT_SEED = 20_261_231

export const PROPERTY_SEED = seedOf(process.env.WAYBILL_SEED)

function seedOf(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_SEED
  const seed = Number(text)
  if (!Number.isSafeInteger(seed)) throw new Error(`WAYBILL_SEED is not an integer: ${text}`)
  // fast-check takes a 32-bit seed.
  return seed | 0
}

/** fc.assert with the suite's seed; a failure starts with the line that replays it. */
export async function checkProperty<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  try {
    await fc.assert(property, { seed: PROPERTY_SEED, numRuns })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`Property failed with WAYBILL_SEED=${PROPERTY_SEED} (set it to replay this run)\n${message}`, {
      cause: error,
    })
  }
}
