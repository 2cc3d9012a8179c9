import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkProperty, PROPERTY_SEED } from '../support/property.ts'

/** tests/support/property.ts: every property test runs on one seed, and a failure says how to replay it. */
describe('seeded property tests', () => {
  const failing = () =>
    fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), async (n) => {
      if (n >= 500) throw new Error(`${n} is too big`)
    })

  it('names the seed that replays a failure, and the same seed fails on the same value', async () => {
    const failure = async () => {
      try {
        await checkProperty(failing(), 200)
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('the property did not fail')
    }
    const first = await failure()
    expect(first.split('\n')[0]).toBe(`Property failed with WAYBILL_SEED=${PROPERTY_SEED} (set it to replay this run)`)
    expect(first).toContain(`seed: ${PROPERTY_SEED},`)
    const counterexample = (message: string) => /Counterexample: (.*)/.exec(message)?.[1]
    expect(counterexample(first)).toBe('[500]')
    // The unshrunk path too: the whole run is the same run.
    const path = (message: string) => /path: "([^"]*)"/.exec(message)?.[1]
    expect(path(await failure())).toBe(path(first))
  })
})
