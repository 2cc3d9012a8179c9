import { describe, expect, it } from 'vitest'
import { workersWanted } from '../../server/cluster.ts'

describe('WAYBILL_WORKERS (server/cluster.ts)', () => {
  it('is off unless it asks for two processes or more', () => {
    for (const off of [undefined, '', '0', '1', 'off', ' OFF ']) expect(workersWanted(off, 8)).toBe(0)
    expect(workersWanted('auto', 2)).toBe(2)
    expect(workersWanted('auto', 1)).toBe(0)
    expect(workersWanted('3', 2)).toBe(3)
  })

  it('refuses what is not a number of processes, with the setting named', () => {
    for (const wrong of ['two', '-2', '2.5', '1000']) expect(() => workersWanted(wrong, 2)).toThrow(/WAYBILL_WORKERS/)
  })
})
