/**
 * The demo seeds' one source of "randomness": mulberry32, a small deterministic generator — the same
 * seed gives the same orders, rates and events on every machine.
 */
export function seededRandom(seed: number) {
  let a = seed
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    /** `count` distinct items of a list, in list order. */
    some: <T>(list: readonly T[], count: number): T[] => {
      const picked = new Set<number>()
      while (picked.size < Math.min(count, list.length)) picked.add(Math.floor(next() * list.length))
      return [...picked].sort((x, y) => x - y).map((i) => list[i] as T)
    },
  }
}
