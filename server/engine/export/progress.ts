/**
 * How far the exports under way have got (rows written of the total), for the portal's progress bar: the
 * browser names its export with an id of its own choosing (`progressId`) and asks GET /b2b/export/progress
 * while the file streams down. Kept in this process, by tenant and user, so nobody reads another's export;
 * an entry is dropped a minute after its export ends, and there are never more than MAX_TRACKED.
 */

export interface ExportProgress {
  written: number
  total: number
  done: boolean
}

const KEEP_MS = 60_000
const MAX_TRACKED = 1_000

const tracked = new Map<string, ExportProgress & { endedAt?: number }>()

const keyOf = (tenantId: number, userId: number, id: string) => `${tenantId}:${userId}:${id}`

function sweep(at: number): void {
  for (const [key, entry] of tracked)
    if (entry.endedAt !== undefined && at - entry.endedAt > KEEP_MS) tracked.delete(key)
  // Still too many (exports started and never ended): the oldest go first.
  while (tracked.size >= MAX_TRACKED) tracked.delete(tracked.keys().next().value as string)
}

/** Starts tracking one export; the returned functions report its rows and its end. */
export function trackExport(tenantId: number, userId: number, id: string | undefined, total: number) {
  if (!id) return { written: () => {}, end: () => {} }
  sweep(Date.now())
  const key = keyOf(tenantId, userId, id)
  const entry: ExportProgress & { endedAt?: number } = { written: 0, total, done: false }
  tracked.set(key, entry)
  return {
    written: (rows: number) => {
      entry.written = rows
    },
    end: () => {
      entry.done = true
      entry.endedAt = Date.now()
    },
  }
}

/** The progress of the caller's own export `id`, or null when none is known by that id. */
export function exportProgress(tenantId: number, userId: number, id: string): ExportProgress | null {
  const entry = tracked.get(keyOf(tenantId, userId, id))
  return entry ? { written: entry.written, total: entry.total, done: entry.done } : null
}
