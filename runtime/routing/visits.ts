import type { PageVisit, PageVisitBatch } from '../../generated/types.ts'

/**
 * The page visits of issue #28, queued in memory and posted in batches (behaviorRecordAdd, server/domain/analytics/
 * visits.ts). Recording never stands in a navigation's way: `record` only pushes to an array and, at most once per
 * wait, sets a timer; the post happens later, off the navigation's task, and a failed post is dropped. When the page
 * is left or hidden, what is queued goes by `navigator.sendBeacon`, which outlives the page.
 */

/** Where batches go: a post that may fail (dropped), and a beacon for the page being left. */
export interface VisitSink {
  post(visits: Batch): Promise<unknown>
  beacon(visits: Batch): void
}

/** A batch is never empty (the server refuses an empty one). */
type Batch = PageVisitBatch['visits']

export interface VisitQueueOptions {
  /** The server takes at most 50 visits a post (schemas/pageVisitBatch.yaml). */
  batch?: number
  /** How long a visit waits for others before the queue is posted. */
  waitMs?: number
  /** Visits kept while posts fail or wait; older ones are dropped first. */
  keep?: number
  setTimer?: (run: () => void, ms: number) => unknown
}

export const VISIT_BATCH = 50

export class VisitQueue {
  private readonly queued: PageVisit[] = []
  private timer: unknown = null
  private readonly batch: number
  private readonly waitMs: number
  private readonly keep: number
  private readonly setTimer: (run: () => void, ms: number) => unknown

  constructor(
    private readonly sink: VisitSink,
    options: VisitQueueOptions = {},
  ) {
    this.batch = Math.min(options.batch ?? VISIT_BATCH, VISIT_BATCH)
    this.waitMs = options.waitMs ?? 5000
    this.keep = options.keep ?? 4 * VISIT_BATCH
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms))
  }

  get size(): number {
    return this.queued.length
  }

  /** A page opened: queued, posted with the next batch. Costs an array push. */
  record(visit: PageVisit): void {
    this.queued.push(visit)
    if (this.queued.length > this.keep) this.queued.splice(0, this.queued.length - this.keep)
    if (this.queued.length >= this.batch) this.flush()
    else if (this.timer === null)
      this.timer = this.setTimer(() => {
        this.timer = null
        this.flush()
      }, this.waitMs)
  }

  /** The next batch off the queue, or undefined when it is empty. */
  private take(): Batch | undefined {
    const [first, ...rest] = this.queued.splice(0, this.batch)
    return first ? [first, ...rest] : undefined
  }

  /** Posts what is queued, a batch at a time; a failure is dropped silently (analytics never bother the reader). */
  flush(): void {
    for (let visits = this.take(); visits; visits = this.take()) {
      try {
        this.sink.post(visits).catch(() => undefined)
      } catch {
        // A sink that throws at once (no network API at all) loses this batch, never the page.
      }
    }
  }

  /** The page is being left or hidden: what is queued goes by beacon, which the browser sends after the page. */
  leave(): void {
    for (let visits = this.take(); visits; visits = this.take()) {
      try {
        this.sink.beacon(visits)
      } catch {
        // No beacon in this browser: the visits are lost, the page is not.
      }
    }
  }
}
