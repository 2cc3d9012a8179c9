import { readdirSync, readFileSync } from 'node:fs'
import { type Case, casesFor, load, plan, startServer } from './orders.ts'

/**
 * The load bench's calls side by side (issue #29): one bench server (bench/orders-server.ts), the engine's call and
 * its bare-SQL baseline measured in turns, round after round, and for each the CPU a call cost — the server
 * process's user + system time and PostgreSQL's backends', read from /proc — rather than calls a second, which
 * this shared 2-core machine moves by a factor of two to four between runs (docs/PERFORMANCE.md). The ratio is
 * the baseline's CPU per call over the engine's: what throughput ratio the two would have on an idle machine.
 *
 * `DATABASE_URL=… BENCH_ORDERS=100000 BENCH_SECONDS=6 BENCH_ROUNDS=2 node --import tsx bench/orders-side.ts`
 * (without DATABASE_URL, on PGlite: the database's work is then the server process's own).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const TICK = 100 // clock ticks a second (getconf CLK_TCK on Linux)
const WANTED = (process.env.BENCH_CASES ?? 'page 1,detail,tracking').split(',')

/** User + system CPU seconds of a process. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / TICK
  } catch {
    return 0
  }
}

/**
 * The CPU seconds of the bench database's backends, by pid: a backend's title names its database
 * (`postgres: waybill_api waybill_bench_… 127.0.0.1(…) idle`). The server's other processes — the checkpointer
 * writing out the million rows just loaded, autovacuum, other databases' backends — are not the calls' work.
 */
function postgresCpu(database: string): Map<number, number> {
  const out = new Map<number, number>()
  if (!database) return out
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() !== 'postgres') continue
      const title = readFileSync(`/proc/${name}/cmdline`, 'utf8')
      if (!title.includes(` ${database} `) || title.includes('autovacuum')) continue
      out.set(Number(name), cpuOf(Number(name)))
    } catch {}
  }
  return out
}

function grown(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0
  for (const [pid, cpu] of after) sum += cpu - (before.get(pid) ?? 0)
  return sum
}

interface Tally {
  calls: number
  /** The server process's and PostgreSQL's CPU seconds together, and PostgreSQL's alone. */
  cpu: number
  pg: number
  failed: number
}

async function run(
  serverPid: number,
  databaseName: string,
  url: string,
  request: Case['engine'],
  body: Case['body'],
): Promise<Tally> {
  const server = cpuOf(serverPid)
  const pg = postgresCpu(databaseName)
  const measured = await load(url, request, SECONDS, body)
  const database = grown(pg, postgresCpu(databaseName))
  const cpu = cpuOf(serverPid) - server + database
  return { calls: measured.rps * SECONDS, cpu, pg: database, failed: measured.failed }
}

/** Milliseconds of CPU a call. */
const per = (cpu: number, calls: number) => (cpu * 1000) / Math.max(1, calls)
const perCall = (t: { calls: number; cpu: number; pg: number }) =>
  `${per(t.cpu, t.calls).toFixed(2)} ms (${per(t.pg, t.calls).toFixed(2)})`

const databaseUrl = process.env.DATABASE_URL
const { child, served } = await startServer(databaseUrl)
try {
  const pid = child.pid as number
  console.log(
    `${served.kind}, ${served.orders.toLocaleString('en')} orders over ${plan().tenants} tenants; ${SECONDS} s a turn, ${ROUNDS} rounds`,
  )
  // CPU per call: all of it, then (in brackets) PostgreSQL's part.
  console.log(
    '| call | round | Waybill calls | CPU per call (database) | baseline calls | CPU per call (database) | ratio |',
  )
  console.log(
    '| ---- | ----: | ------------: | ----------------------: | -------------: | ----------------------: | ----: |',
  )
  const cases = casesFor(served).filter((c) => WANTED.some((w) => c.name.includes(w)))
  for (const c of cases) {
    // A warm-up of each, so prepared statements and caches are in place.
    await load(served.url, c.engine, 2, c.body)
    await load(served.baselineUrl, c.baseline, 2, c.body)
    const sums = { ours: { calls: 0, cpu: 0, pg: 0 }, bare: { calls: 0, cpu: 0, pg: 0 } }
    for (let round = 1; round <= ROUNDS; round++) {
      const ours = await run(pid, served.database ?? '', served.url, c.engine, c.body)
      const bare = await run(pid, served.database ?? '', served.baselineUrl, c.baseline, c.body)
      sums.ours.calls += ours.calls
      sums.ours.cpu += ours.cpu
      sums.ours.pg += ours.pg
      sums.bare.calls += bare.calls
      sums.bare.cpu += bare.cpu
      sums.bare.pg += bare.pg
      console.log(
        `| ${c.name} | ${round} | ${ours.calls.toFixed(0)}${ours.failed ? ` (${ours.failed} failed)` : ''} | ${perCall(ours)} | ${bare.calls.toFixed(0)} | ${perCall(bare)} | ${(per(bare.cpu, bare.calls) / per(ours.cpu, ours.calls)).toFixed(2)}× |`,
      )
    }
    const { ours, bare } = sums
    console.log(
      `| ${c.name} | all | | ${perCall(ours)} | | ${perCall(bare)} | ${(per(bare.cpu, bare.calls) / per(ours.cpu, ours.calls)).toFixed(2)}× |`,
    )
  }
} finally {
  child.send('stop')
  await new Promise((resolve) => child.once('exit', resolve))
}
