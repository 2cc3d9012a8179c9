import { randomBytes } from 'node:crypto'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { sql } from 'kysely'
import { buildApp } from '../server/app.ts'
import { verifyPassword } from '../server/auth/password.ts'
import { type Database, openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { DEMO_PASSWORD } from '../server/db/seed/demo.ts'
import { loadManifest } from '../server/manifest.ts'
import { scratchDatabase } from '../tests/support/database.ts'
import { type BenchPlan, FULL_PLAN, generateBenchData } from './data.ts'

/**
 * The API under load (issue #9): the operator order list (filters, a page, the total), an order by id,
 * a tracking lookup of 10 numbers and a login, each measured with autocannon (one request in flight per
 * connection, a warm-up, then the measured run) against a baseline served by the same process: a bare
 * Fastify route issuing the same SQL with no engine, no validation and no row-level security. Page 1 and
 * a deep page of the 200,000-order tenant; the server's RSS. On PostgreSQL (DATABASE_URL) and on PGlite.
 *
 * BENCH_ORDERS (default 1,000,000) and BENCH_SECONDS (default 10) scale a run down for a quick look.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 32

interface Measured {
  rps: number
  p50: number
  p99: number
  failed: number
}

interface Case {
  name: string
  engine: autocannon.Request
  baseline: autocannon.Request
}

function plan(): BenchPlan {
  const orders = Number(process.env.BENCH_ORDERS ?? FULL_PLAN.orders)
  const scale = orders / FULL_PLAN.orders
  return {
    orders,
    tenants: Math.max(10, Math.round(FULL_PLAN.tenants * scale)),
    bigTenant: Math.round(FULL_PLAN.bigTenant * scale),
  }
}

async function load(url: string, request: autocannon.Request, seconds: number): Promise<Measured> {
  let n = 0
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    requests: [
      {
        ...request,
        // Every request from an address of its own: the per-address limits are for people, not for this.
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}` },
        }),
      },
    ],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  }
}

/** Warm-up, then the measured run. */
async function measure(url: string, request: autocannon.Request): Promise<Measured> {
  await load(url, request, Math.max(2, Math.round(SECONDS / 3)))
  return load(url, request, SECONDS)
}

/** The bare routes: the SQL the engine and the handlers issue for these calls, straight on the owner connection. */
async function baselineServer(database: Database, tenantId: number) {
  const db = database.db
  const app = Fastify()
  const listWhere = sql`tenant_id = ${tenantId} and state in ('submitted', 'accepted', 'booked')`
  app.post('/list', async (request) => {
    const { pageNum = 1 } = (request.body ?? {}) as { pageNum?: number }
    const [rows, total] = await Promise.all([
      sql`select * from booking_order where ${listWhere} order by id desc limit 10 offset ${(pageNum - 1) * 10}`.execute(
        db,
      ),
      sql<{ total: number }>`select count(*)::int as total from booking_order where ${listWhere}`.execute(db),
    ])
    return { code: '0000', content: { list: rows.rows, total: total.rows[0]?.total } }
  })
  app.get('/detail', async (request) => {
    const { id } = request.query as { id: string }
    const { rows } =
      await sql`select * from booking_order where tenant_id = ${tenantId} and id = ${Number(id)}`.execute(db)
    return { code: '0000', content: rows[0] }
  })
  app.post('/tracking', async (request) => {
    const { numbers } = request.body as { numbers: string }
    const list = numbers.split(',')
    const { rows } = await sql`
      select s.*, (select json_agg(e order by e.event_date_time) from tracking_event e where e.shipment = s.id) as events
      from shipment s where s.tenant_id = ${tenantId} and s.bl_no in (${sql.join(list)})`.execute(db)
    return { code: '0000', content: { results: rows } }
  })
  app.post('/login', async (request) => {
    const { username, password } = request.body as { username: string; password: string }
    const user = await sql<{ id: number; password_hash: string }>`
      select id, password_hash from app_user where tenant_id = ${tenantId} and username = ${username}`.execute(db)
    const found = user.rows[0]
    if (!found || !(await verifyPassword(found.password_hash, password))) return { code: '300005' }
    const token = randomBytes(32).toString('hex')
    await sql`insert into session (tenant_id, user_id, token_hash, expires_at)
      values (${tenantId}, ${found.id}, ${token}, now() + interval '7 days')`.execute(db)
    return { code: '0000', token }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }
}

async function benchOn(kind: 'PostgreSQL' | 'PGlite', database: Database): Promise<string[]> {
  const manifest = loadManifest()
  await prepareDatabase(database, manifest, { seed: true })
  const sizes = plan()
  const generated = performance.now()
  const { orders } = await generateBenchData(database.db as never, sizes)
  const generateMs = performance.now() - generated
  const tenant = await database.db
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', 'demo')
    .executeTakeFirstOrThrow()

  const app = await buildApp({ database, logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const baseline = await baselineServer(database, tenant.id)
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/b2b/user/login',
      headers: { host: 'localhost' },
      payload: { username: 'opadmin', password: DEMO_PASSWORD },
    })
    const token = login.json().token as string
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: 'localhost' }
    const { rows: some } = await sql<{ id: number }>`
      select id from booking_order where tenant_id = ${tenant.id} order by id desc limit 1`.execute(database.db)
    const orderId = some[0]?.id ?? 1
    const { rows: bls } = await sql<{ bl_no: string }>`
      select bl_no from shipment where tenant_id = ${tenant.id} and bl_no is not null order by id limit 10`.execute(
      database.db,
    )
    const numbers = bls.map((b) => b.bl_no).join(',')
    const listBody = (pageNum: number) =>
      JSON.stringify({ searchParams: { state: ['submitted', 'accepted', 'booked'] }, pageNum, pageSize: 10 })
    const { rows: counted } = await sql<{ n: number }>`
      select count(*)::int as n from booking_order where tenant_id = ${tenant.id} and state in ('submitted', 'accepted', 'booked')`.execute(
      database.db,
    )
    const deepPage = Math.max(1, Math.floor((counted[0]?.n ?? 10) / 10) - 1)

    const cases: Case[] = [
      {
        name: 'order list, page 1 (filter + page + total)',
        engine: {
          method: 'POST',
          path: '/api/booking/order/queryOrderListByOperator',
          headers: auth,
          body: listBody(1),
        },
        baseline: { method: 'POST', path: '/list', headers: { 'content-type': 'application/json' }, body: listBody(1) },
      },
      {
        name: `order list, deep page ${deepPage}`,
        engine: {
          method: 'POST',
          path: '/api/booking/order/queryOrderListByOperator',
          headers: auth,
          body: listBody(deepPage),
        },
        baseline: {
          method: 'POST',
          path: '/list',
          headers: { 'content-type': 'application/json' },
          body: listBody(deepPage),
        },
      },
      {
        name: 'order detail by id',
        engine: { method: 'GET', path: `/api/booking/order/getOrderDetail?id=${orderId}`, headers: auth },
        baseline: { method: 'GET', path: `/detail?id=${orderId}` },
      },
      {
        name: 'tracking lookup, 10 numbers',
        engine: {
          method: 'POST',
          path: '/api/booking/public/api/tracking/query',
          headers: auth,
          body: JSON.stringify({ numbers }),
        },
        baseline: {
          method: 'POST',
          path: '/tracking',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ numbers }),
        },
      },
      {
        name: 'login',
        engine: {
          method: 'POST',
          path: '/api/b2b/user/login',
          headers: { 'content-type': 'application/json', host: 'localhost' },
          body: JSON.stringify({ username: 'opadmin', password: DEMO_PASSWORD }),
        },
        baseline: {
          method: 'POST',
          path: '/login',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'opadmin', password: DEMO_PASSWORD }),
        },
      },
    ]

    const lines = [
      `### ${kind}: ${orders.toLocaleString('en')} orders over ${sizes.tenants} tenants (${sizes.bigTenant.toLocaleString('en')} in one), generated in ${(generateMs / 1000).toFixed(0)} s`,
      '',
      `${CONNECTIONS} connections, one request in flight each, ${SECONDS} s measured after a warm-up.`,
      '',
      '| call | Waybill req/s | p50 | p99 | baseline req/s | p50 | p99 | throughput ratio | failed |',
      '| ---- | ------------- | --- | --- | -------------- | --- | --- | ---------------- | ------ |',
    ]
    const results = new Map<string, Measured>()
    for (const c of cases) {
      const ours = await measure(url, c.engine)
      const bare = await measure(baseline.url, c.baseline)
      results.set(c.name, ours)
      lines.push(
        `| ${c.name} | ${ours.rps.toFixed(0)} | ${ours.p50} ms | ${ours.p99} ms | ${bare.rps.toFixed(0)} | ${bare.p50} ms | ${bare.p99} ms | ${(ours.rps / bare.rps).toFixed(2)}× | ${ours.failed} |`,
      )
    }
    const first = results.get(cases[0]?.name as string) as Measured
    const deep = results.get(cases[1]?.name as string) as Measured
    lines.push(
      '',
      `Deep page vs page 1 (p99): ${(deep.p99 / Math.max(1, first.p99)).toFixed(2)}×. Server RSS after the runs: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB.`,
    )
    return lines
  } finally {
    await baseline.app.close()
    await app.close()
  }
}

export async function benchOrders(): Promise<string[]> {
  const out = ['## API under load (issue #9)', '']
  const adminUrl = process.env.DATABASE_URL
  if (adminUrl) {
    const scratch = await scratchDatabase(adminUrl, 'waybill_bench')
    const database = await openDatabase({ databaseUrl: scratch.url })
    try {
      out.push(...(await benchOn('PostgreSQL', database)), '')
    } finally {
      await database.close()
      await scratch.drop()
    }
  }
  const embedded = await openDatabase({ databaseUrl: 'memory://' })
  try {
    out.push(...(await benchOn('PGlite', embedded)))
  } finally {
    await embedded.close()
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchOrders()).join('\n'))
