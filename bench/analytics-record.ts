import { VisitQueue } from '../runtime/routing/visits.ts'
import { buildApp } from '../server/app.ts'
import { openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { loadManifest } from '../server/manifest.ts'

/**
 * What recording a page visit costs (issue #28: "Recording a visit adds no more than 2 ms to a navigation").
 * - In the browser, a navigation pays only `VisitQueue.record` (an array push, a timer at most once per wait): the
 *   effect runs after the page committed and the post happens later, off the navigation. Timed here per call.
 * - On the server, the visit call (behaviorRecordAdd: insert the batch, tally pageView per page and the visitor
 *   once a day, one transaction) per batch and per visit, on in-memory PGlite, through the whole HTTP stack.
 */

const RECORDS = Number(process.env.BENCH_VISIT_RECORDS ?? 200_000)
const POSTS = Number(process.env.BENCH_VISIT_POSTS ?? 300)

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const ms = (value: number) => value.toFixed(value < 0.01 ? 5 : 2)

function recordCost(): { meanMs: number; p99Ms: number } {
  const queue = new VisitQueue({ post: async () => null, beacon: () => undefined }, { setTimer: () => null })
  const times: number[] = []
  for (let n = 0; n < RECORDS; n++) {
    const started = performance.now()
    queue.record({ pageName: 'myOrders', pageRoute: '/myOrders' })
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { meanMs: times.reduce((a, b) => a + b, 0) / times.length, p99Ms: quantile(times, 0.99) }
}

async function serverCost(batch: number) {
  const database = await openDatabase({ databaseUrl: 'memory://' })
  try {
    await prepareDatabase(database, loadManifest(), { seed: true })
    const app = await buildApp({ database })
    const pages = ['dashboard', 'productService', 'myOrders', 'orderTracking', 'informationCenterList']
    const times: number[] = []
    for (let n = 0; n < POSTS; n++) {
      const visits = Array.from({ length: batch }, (_, i) => {
        const name = pages[(n + i) % pages.length] as string
        return { pageName: name, pageRoute: `/${name}` }
      })
      const started = performance.now()
      const response = await app.inject({
        method: 'POST',
        url: '/api/b2b/user/behaviorRecord/add',
        headers: {
          host: 'localhost',
          resource: '1',
          cookie: `waybill_visitor=00000000-0000-4000-8000-${String(n % 50).padStart(12, '0')}`,
        },
        payload: { visits },
      })
      times.push(performance.now() - started)
      if (response.json().code !== '0000') throw new Error(response.body)
    }
    await app.close()
    times.sort((a, b) => a - b)
    return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) }
  } finally {
    await database.close()
  }
}

export async function benchAnalyticsRecord(): Promise<string[]> {
  const client = recordCost()
  const single = await serverCost(1)
  const batched = await serverCost(10)
  return [
    '## Recording page visits (issue #28)',
    '',
    `A navigation's cost (VisitQueue.record, ${RECORDS.toLocaleString('en')} calls): mean ${ms(client.meanMs)} ms, ` +
      `p99 ${ms(client.p99Ms)} ms — against the issue's 2 ms, ${Math.round(2 / Math.max(client.p99Ms, 1e-6)).toLocaleString('en')}× below at p99. ` +
      'The post leaves later, off the navigation.',
    '',
    `The visit call on in-memory PGlite, ${POSTS} posts each (whole HTTP stack, one transaction a batch):`,
    '',
    '| batch | p50 ms | p95 ms | p50 ms per visit |',
    '|---|---|---|---|',
    `| 1 visit | ${ms(single.p50)} | ${ms(single.p95)} | ${ms(single.p50)} |`,
    `| 10 visits | ${ms(batched.p50)} | ${ms(batched.p95)} | ${ms(batched.p50 / 10)} |`,
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchAnalyticsRecord()).join('\n'))
