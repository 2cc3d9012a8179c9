import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'

/**
 * `npm start` as several processes on one machine (issue #29): with `WAYBILL_WORKERS=auto` (one per core) or a
 * number, the first process forks that many workers of the same server, which share its port (node:cluster hands
 * connections round robin); off by default. Every worker is a replica in the sense of docs/SCALING.md — sessions,
 * limits, the outbox and caches hold across them as across machines — so it needs PostgreSQL (`DATABASE_URL`):
 * PGlite is one process. A worker that dies is replaced; SIGINT/SIGTERM stop them all.
 */

/** How many workers `WAYBILL_WORKERS` asks for: 0 (off: this process serves) or at least 2. */
export function workersWanted(value: string | undefined, cores = availableParallelism()): number {
  const text = (value ?? '').trim().toLowerCase()
  if (text === '' || text === '0' || text === '1' || text === 'off') return 0
  const count = text === 'auto' ? cores : Number(text)
  if (!Number.isInteger(count) || count < 1 || count > 256)
    throw new Error(`WAYBILL_WORKERS must be auto, off or a number of processes (1–256), not "${value}"`)
  return count < 2 ? 0 : count
}

/** Forks the workers and keeps them running; each runs the server's own start (the same entry point). */
export function runPrimary(count: number): void {
  let stopping = false
  const fork = (index: number) => {
    // The first worker also runs the outbox worker and the daily price-watch look: they are safe in every
    // replica (leases, advisory locks), but one is enough on one machine and saves the others' connections.
    const worker = cluster.fork({ WAYBILL_WORKER_INDEX: String(index), ...(index > 0 ? { OUTBOX_WORKER: 'off' } : {}) })
    worker.on('exit', (code, signal) => {
      if (stopping) return
      console.error(`worker ${index} (pid ${worker.process.pid}) ended (${signal ?? code}); starting another`)
      setTimeout(() => fork(index), 500)
    })
  }
  console.log(`Starting ${count} server workers (WAYBILL_WORKERS) sharing one port.`)
  for (let index = 0; index < count; index++) fork(index)
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead())
    let left = alive.length
    if (left === 0) process.exit(0)
    for (const worker of alive)
      worker?.once('exit', () => {
        left -= 1
        if (left === 0) process.exit(0)
      })
    for (const worker of alive) worker?.process.kill(signal)
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

export const isPrimary = () => cluster.isPrimary
