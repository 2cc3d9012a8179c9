import { describe, expect, it } from 'vitest'
import type { PageVisit } from '../../generated/types.ts'
import { VISIT_BATCH, VisitQueue, type VisitSink } from '../../runtime/routing/visits.ts'

/** The portal's visit queue (issue #28): batched posts, beacons on leave, failures dropped, never a throw. */
function harness(post: VisitSink['post'] = async () => null) {
  const posted: PageVisit[][] = []
  const beaconed: PageVisit[][] = []
  const timers: (() => void)[] = []
  const queue = new VisitQueue(
    {
      post: (visits) => {
        posted.push(visits)
        return post(visits)
      },
      beacon: (visits) => {
        beaconed.push(visits)
      },
    },
    { waitMs: 5000, setTimer: (run) => timers.push(run) },
  )
  return { queue, posted, beaconed, timers }
}

const page = (n: number): PageVisit => ({ pageName: `page${n}`, pageRoute: `/page${n}` })

describe('the visit queue', () => {
  it('posts nothing while a navigation records, then one batch when the wait is over', () => {
    const { queue, posted, timers } = harness()
    queue.record(page(1))
    queue.record(page(2))
    expect(posted).toEqual([])
    expect(timers).toHaveLength(1)
    timers[0]?.()
    expect(posted).toEqual([[page(1), page(2)]])
    expect(queue.size).toBe(0)
  })

  it('posts at once when a batch is full, never more than the server takes', () => {
    const { queue, posted } = harness()
    for (let n = 0; n < VISIT_BATCH; n++) queue.record(page(n))
    expect(posted).toHaveLength(1)
    expect(posted[0]).toHaveLength(VISIT_BATCH)
  })

  it('sends what is queued by beacon when the page is left, in batches', () => {
    const { queue, posted, beaconed } = harness()
    for (let n = 0; n < 3; n++) queue.record(page(n))
    queue.leave()
    expect(posted).toEqual([])
    expect(beaconed).toEqual([[page(0), page(1), page(2)]])
    queue.leave()
    expect(beaconed).toHaveLength(1)
  })

  it('drops a failed post silently, and a sink that throws never reaches the navigation', async () => {
    const failing = harness(() => Promise.reject(new Error('offline')))
    failing.queue.record(page(1))
    expect(() => failing.timers[0]?.()).not.toThrow()
    const throwing = harness(() => {
      throw new Error('no fetch')
    })
    throwing.queue.record(page(1))
    expect(() => throwing.timers[0]?.()).not.toThrow()
    expect(throwing.queue.size).toBe(0)
  })

  it('keeps a bounded queue: the oldest visits go first', () => {
    const timers: (() => void)[] = []
    const queue = new VisitQueue(
      { post: async () => null, beacon: () => undefined },
      { batch: 1000, keep: 3, setTimer: (run) => timers.push(run) },
    )
    for (let n = 0; n < 10; n++) queue.record(page(n))
    expect(queue.size).toBe(3)
  })
})
