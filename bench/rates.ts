import { sql } from 'kysely'
import { buildApp } from '../server/app.ts'
import { openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { DEMO_PASSWORD } from '../server/db/seed/demo.ts'
import { seedRates } from '../server/db/seed/rates.ts'
import { laneQuery, type RateSearchInput } from '../server/domain/rates/handlers.ts'
import { loadManifest } from '../server/manifest.ts'
import { withTenant } from '../server/tenancy/scope.ts'

/**
 * The rate search (POST /api/price/public/api/rate/search, through Fastify's inject: tenant, session,
 * validation, allowance, level, exchange rates, pricing, sorting) over the demo seed on in-memory PGlite,
 * against the bare SQL that reads the same lane's rates in one tenant transaction. p50 / p95 after a warm-up.
 */

const WARM_UP = 30
const RUNS = 300

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number
}
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`

export async function benchRates(): Promise<string[]> {
  const manifest = loadManifest()
  const database = await openDatabase({ databaseUrl: 'memory://' })
  try {
    await prepareDatabase(database, manifest, { seed: true })
    // The seed's own time: clear the demo rate data and seed it again.
    await sql`truncate freight_rate, price_level_assignment, price_level, exchange_rate, special_line`.execute(
      database.db,
    )
    const seedStarted = performance.now()
    await seedRates(database.db, manifest)
    const seedMs = performance.now() - seedStarted
    const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from freight_rate`.execute(database.db)
    const tenant = await database.db
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', 'demo')
      .executeTakeFirstOrThrow()

    // Searches over the seeded lanes: FCL, LCL and air, every sort, in a fixed order.
    const { rows: lanes } = await sql<{ mode: RateSearchInput['mode']; origin: string; destination: string }>`
      select distinct mode, coalesce(pol, origin_airport) as origin, coalesce(pod, destination_airport) as destination
      from freight_rate where tenant_id = ${tenant.id} order by 1, 2, 3`.execute(database.db)
    const sorts = ['cheapest', 'quickest', 'earliest'] as const
    const inputs: RateSearchInput[] = Array.from({ length: RUNS }, (_, i) => {
      const lane = lanes[(i * 37) % lanes.length] as (typeof lanes)[number]
      return {
        ...lane,
        sort: sorts[i % 3],
        ...(lane.mode === 'FCL' ? { containerType: '45G1' } : { cbm: 2.4, weightKg: 380 }),
        currency: 'EUR',
      }
    })

    const app = await buildApp({ database })
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/b2b/user/login',
        headers: { host: 'localhost' },
        payload: { username: 'entadmin', password: DEMO_PASSWORD },
      })
      const token = login.json().token as string
      const search = async (input: RateSearchInput) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/price/public/api/rate/search',
          headers: { host: 'localhost', authorization: `Bearer ${token}` },
          payload: input as object,
        })
        const body = response.json()
        if (body.code !== '0000') throw new Error(`rate search failed: ${response.body}`)
        return body.content.total as number
      }
      const bare = (input: RateSearchInput) =>
        withTenant(database.api, tenant.id, (trx) =>
          laneQuery(tenant.id, input, new Date().toISOString().slice(0, 10), 'en').execute(trx),
        )

      for (let i = 0; i < WARM_UP; i++) {
        await search(inputs[i] as RateSearchInput)
        await bare(inputs[i] as RateSearchInput)
      }
      const api: number[] = []
      const sqlOnly: number[] = []
      let found = 0
      for (const input of inputs) {
        let started = performance.now()
        await bare(input)
        sqlOnly.push(performance.now() - started)
        started = performance.now()
        found += await search(input)
        api.push(performance.now() - started)
      }
      const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`
      return [
        '## Rate search',
        '',
        `In-memory PGlite with the demo seed (${counted[0]?.n ?? 0} rates; the rate seed itself took ${Math.round(seedMs)} ms).`,
        `${RUNS} searches over ${lanes.length} seeded lanes (FCL 40'HQ, LCL and air, every sort, answered in EUR at the`,
        `customer's level; ${(found / RUNS).toFixed(1)} rates a search on average) after ${WARM_UP} warm-up searches. The`,
        'baseline is the bare SQL reading the same lane in one tenant transaction, in the same process.',
        '',
        '| what | p50 | p95 | p95 ratio to baseline | budget |',
        '| --- | --- | --- | --- | --- |',
        `| baseline: lane SQL | ${ms(percentile(sqlOnly, 50))} | ${ms(percentile(sqlOnly, 95))} | 1.0× | |`,
        `| POST /price/public/api/rate/search | ${ms(percentile(api, 50))} | ${ms(percentile(api, 95))} | ${ratio(percentile(api, 95), percentile(sqlOnly, 95))} | p95 < 50 ms ${percentile(api, 95) < 50 ? 'met' : 'missed'} |`,
      ]
    } finally {
      await app.close()
    }
  } finally {
    await database.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchRates()).join('\n'))
