import { randomBytes } from 'node:crypto'
import Fastify from 'fastify'
import { type Kysely, Kysely as KyselyClass, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { buildApp } from '../server/app.ts'
import { verifyPassword } from '../server/auth/password.ts'
import { type Database, openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { PreparingClient } from '../server/db/prepared.ts'
import { apiUrlFrom } from '../server/db/roles.ts'
import { DEMO_PASSWORD } from '../server/db/seed/demo.ts'
import { loadManifest } from '../server/manifest.ts'
import { scratchDatabase } from '../tests/support/database.ts'
import { type BenchPlan, generateBenchData } from './data.ts'

/**
 * The server side of the load bench (bench/orders.ts forks it): the database with the benchmark's data,
 * the real app, and beside it the baseline — bare Fastify routes issuing the SQL those calls need, with
 * no session, engine, validation or row-level security — each on a loopback port. A process of its own,
 * so the load generator does not share its event loop. Tells the parent what to call over IPC, answers
 * `rss`, and on `stop` closes everything (and drops a PostgreSQL scratch database).
 */

export interface Served {
  kind: 'PostgreSQL' | 'PGlite'
  url: string
  baselineUrl: string
  token: string
  orderId: number
  numbers: string
  /** Orders of the demo tenant in the measured list's states. */
  listed: number
  orders: number
  /** The scratch database's name (PostgreSQL): its backends are the ones whose CPU the side-by-side bench reads. */
  database?: string
  generateSeconds: number
  /** Accounts the login case signs in with, round robin (a person signs in once, not 32 times at once). */
  logins: string[]
}

export const LIST_STATES = ['submitted', 'accepted', 'booked']
const LOGIN_ACCOUNTS = 64
/** The engine's calls the bench measures against their own statements, bare (bench/orders.ts). */
const ENGINE_CALLS = ['list', 'detail', 'tracking'] as const
type EngineCall = (typeof ENGINE_CALLS)[number]
const POOL_SIZE = 10

const plan = JSON.parse(process.env.BENCH_PLAN as string) as BenchPlan
const adminUrl = process.env.BENCH_DATABASE_URL
const scratch = adminUrl ? await scratchDatabase(adminUrl, 'waybill_bench') : undefined
const database = await openDatabase({ databaseUrl: scratch?.url ?? 'memory://' })
await prepareDatabase(database, loadManifest(), { seed: true })
const started = performance.now()
const { orders } = await generateBenchData(database.db as never, plan)
const generateSeconds = (performance.now() - started) / 1000
const { id: tenantId } = await database.db
  .selectFrom('tenant')
  .select('id')
  .where('code', '=', 'demo')
  .executeTakeFirstOrThrow()

await sql`
  insert into app_user (tenant_id, company_id, username, real_name, password_hash, company_user_type, state)
  select tenant_id, company_id, 'bench' || lpad(g::text, 3, '0'), 'Bench operator ' || g, password_hash,
    company_user_type, state
  from app_user, generate_series(1, ${LOGIN_ACCOUNTS}::int) g where tenant_id = ${tenantId} and username = 'opadmin'`.execute(
  database.db,
)
await sql`
  insert into user_role (tenant_id, user_id, role_id)
  select u.tenant_id, u.id, r.role_id from app_user u
  join user_role r on r.user_id = (select id from app_user where tenant_id = ${tenantId} and username = 'opadmin')
  where u.tenant_id = ${tenantId} and u.username like 'bench%'`.execute(database.db)
// What autovacuum does to a table that took a million rows: the visibility map lets the list use index-only scans.
await sql`vacuum analyze`.execute(database.db)
// And what the checkpointer would write out of them later, written now rather than while a call is measured.
if (scratch) await sql`checkpoint`.execute(database.db)

// The load spreads over many client addresses (X-Forwarded-For from the bench on this machine).
const app = await buildApp({ database, logger: false, trustedProxies: ['127.0.0.1', '::1'] })
await app.listen({ port: 0, host: '127.0.0.1' })
const bare = scratch
  ? new KyselyClass<never>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: scratch.url, max: POOL_SIZE, Client: PreparingClient }),
      }),
    })
  : (database.db as unknown as Kysely<never>)
// The engine's own statements are replayed as the role the API connects as (server/db/roles.ts), whose permission
// checks a superuser would skip.
const apiPool = scratch
  ? new pg.Pool({ connectionString: apiUrlFrom(scratch.url), max: POOL_SIZE, Client: PreparingClient })
  : undefined
/**
 * The statements each engine call the bench measures sends, as it sends them (PostgreSQL only): `/as-engine/<call>`
 * replays them.
 */
const replayed: Record<EngineCall, Statement[]> = { list: [], detail: [], tracking: [] }
const baseline = await baselineServer(bare, tenantId, apiPool, replayed)

const login = await app.inject({
  method: 'POST',
  url: '/api/b2b/user/login',
  // The portal's header, which every sign-in needs (server/http/csrf.ts).
  headers: { host: 'localhost', resource: '1' },
  payload: { username: 'opadmin', password: DEMO_PASSWORD },
})
const token = login.json().token as string
const { rows: newest } = await sql<{ id: number }>`
  select id from booking_order where tenant_id = ${tenantId} order by id desc limit 1`.execute(database.db)
const { rows: bls } = await sql<{ bl_no: string }>`
  select bl_no from shipment where tenant_id = ${tenantId} and bl_no is not null order by id limit 10`.execute(
  database.db,
)
const orderId = newest[0]?.id ?? 1
const numbers = bls.map((b) => b.bl_no).join(',')
for (const call of ENGINE_CALLS) {
  // The second call's: the first also reads what a process keeps once read (the shared reference lists' names, the
  // tenant's screen overlays), which the calls measured do not.
  await engineCall(call, token)
  replayed[call].push(...(await capturedStatements(() => engineCall(call, token))))
  if (process.env.BENCH_SHOW_REPLAY)
    for (const s of replayed[call]) console.error(call, s.text, JSON.stringify(s.values))
}
const { rows: counted } = await sql<{ n: number }>`
  select count(*)::int as n from booking_order
  where tenant_id = ${tenantId} and state in (${sql.join(LIST_STATES)})`.execute(database.db)

const served: Served = {
  kind: scratch ? 'PostgreSQL' : 'PGlite',
  database: scratch ? new URL(scratch.url).pathname.slice(1) : undefined,
  url: urlOf(app.server.address()),
  baselineUrl: urlOf(baseline.server.address()),
  token,
  orderId,
  numbers,
  listed: counted[0]?.n ?? 0,
  orders,
  generateSeconds,
  logins: Array.from({ length: LOGIN_ACCOUNTS }, (_, i) => `bench${String(i + 1).padStart(3, '0')}`),
}
process.send?.({ served })

process.on('message', async (message: string) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss })
  if (message === 'stop') {
    await baseline.close()
    await app.close()
    if (scratch) await bare.destroy()
    await apiPool?.end()
    await (database as Database).close()
    // BENCH_KEEP_DATABASE=1 keeps the scratch database, to read its plans afterwards (drop it by hand).
    if (process.env.BENCH_KEEP_DATABASE) console.log(`kept: ${scratch?.url}`)
    else await scratch?.drop()
    process.exit(0)
  }
})

/**
 * One engine call as the bench makes it: page 1 of three states (bench/orders.ts `listBody`), the newest order's
 * detail, ten numbers' tracking (from the address the load's first client has).
 */
function engineCall(call: EngineCall, token: string) {
  const headers = { host: 'localhost', authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  if (call === 'detail')
    return app.inject({ method: 'GET', url: `/api/booking/order/getOrderDetail?id=${orderId}`, headers })
  if (call === 'tracking')
    return app.inject({
      method: 'POST',
      url: '/api/booking/public/api/tracking/query',
      headers,
      payload: { numbers },
    })
  return app.inject({
    method: 'POST',
    url: '/api/booking/order/queryOrderListByOperator',
    headers,
    payload: { searchParams: { state: LIST_STATES }, pageNum: 1, pageSize: 10 },
  })
}

interface Statement {
  text: string
  values?: unknown[]
}

/**
 * What `call` sends to PostgreSQL on the connection that reads its session (`waybill_session`), in order, with its
 * values: taken from pg's client as the engine's driver hands each statement over, so it is the text PostgreSQL
 * receives (the held-back `begin` in one message with the session's statement, the page's statement, `commit`).
 * Statements of other connections (scheduled work) are left out.
 */
async function capturedStatements(call: () => Promise<{ statusCode: number }>): Promise<Statement[]> {
  if (!scratch) return []
  const sent: { client: unknown; statement: Statement }[] = []
  const query = pg.Client.prototype.query
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; this records every form it is called in.
  pg.Client.prototype.query = function (this: unknown, config: any, values?: any, callback?: any) {
    const text = typeof config === 'string' ? config : config?.text
    if (typeof text === 'string')
      sent.push({ client: this, statement: { text, values: typeof config === 'string' ? values : config.values } })
    return (query as (...args: unknown[]) => unknown).call(this, config, values, callback)
  } as typeof query
  try {
    const answer = await call()
    if (answer.statusCode !== 200) throw new Error(`the captured call answered ${answer.statusCode}`)
  } finally {
    pg.Client.prototype.query = query
  }
  const session = sent.find((s) => s.statement.text.includes('waybill_session'))?.client
  const statements = sent.filter((s) => s.client === session).map((s) => s.statement)
  if (!statements.length) throw new Error('the captured call sent no statement with its session')
  const elsewhere = sent.filter((s) => s.client !== session)
  if (process.env.BENCH_SHOW_REPLAY)
    for (const s of elsewhere)
      console.error('(another connection)', s.statement.text, JSON.stringify(s.statement.values))
  return statements
}

function urlOf(address: ReturnType<typeof app.server.address>): string {
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

/**
 * The baseline: for each measured call, the SQL it needs — the same statements the engine and the
 * handlers issue for the data (the list's tally and page, the order with its history and names, the
 * shipments and events of ten numbers, the account, its password and a new session) — on a connection
 * that is not bound by row-level security, with nothing else around it.
 */
async function baselineServer(
  db: Kysely<never>,
  tenant: number,
  pool: pg.Pool | undefined,
  replayed: Record<EngineCall, Statement[]>,
) {
  const server = Fastify()
  /**
   * The engine's own statements, bare: what the engine's call sent (for the list: `begin` with the session's
   * function, the page with its names and total, `commit`), sent again as they were on a connection of the pool —
   * the same PostgreSQL work as the engine's call, none of its server work. Not a bar of issue #29: it splits the
   * gap to the bare SQL into what the SQL the call needs costs and what the engine's code costs
   * (docs/PERFORMANCE.md). The answer is every statement's rows (the list: its page's, with the total it carries).
   */
  if (pool)
    server.post<{ Params: { call: EngineCall } }>('/as-engine/:call', async (request) => {
      const client = await pool.connect()
      try {
        const rows: Record<string, unknown>[][] = []
        for (const { text, values } of replayed[request.params.call] ?? []) {
          const result = (await client.query(text, values)) as pg.QueryResult | pg.QueryResult[]
          for (const one of Array.isArray(result) ? result : [result]) if (one.rows.length) rows.push(one.rows)
        }
        // The page's statement is the one that carries the first page's total (server/engine/core.ts TOTAL).
        const page = rows.find((r) => r[0] && 'total:' in r[0])
        if (page) return { code: '0000', content: { list: page, total: Number(page[0]?.['total:'] ?? 0) } }
        return { code: '0000', content: rows }
      } finally {
        client.release()
      }
    })
  /**
   * A page of the list: the tally, then the page's rows — `named`, with the five names the engine's list answers
   * beside the ids it shows (rate, quote, agent, customer, creator), each read from its row as the engine's labels
   * are; without, the rows alone (issue #9's baseline, which the ratios in docs/PERFORMANCE.md are to).
   */
  const listPage = (named: boolean) => async (request: { body: unknown }) => {
    const { pageNum = 1, pageSize = 10 } = (request.body ?? {}) as { pageNum?: number; pageSize?: number }
    const { rows: tally } = await sql<{ total: number }>`
      select coalesce(sum(n), 0)::int as total from row_tally
      where tenant_id = ${tenant} and table_name = 'booking_order' and state in (${sql.join(LIST_STATES)})`.execute(db)
    const total = tally[0]?.total ?? 0
    const offset = (pageNum - 1) * pageSize
    const backwards = offset > total - offset - pageSize
    const names = named
      ? sql`,
        (select rate_no from freight_rate l where l.id = o.rate and l.tenant_id = o.tenant_id) as rate_label,
        (select quote_no from quote l where l.id = o.quote and l.tenant_id = o.tenant_id) as quote_label,
        (select coalesce(name, name_en) from booking_agent l
          where l.id = o.booking_agent and l.tenant_id = o.tenant_id) as agent_label,
        (select coalesce(name, name_en) from company l
          where l.id = o.customer_company and l.tenant_id = o.tenant_id) as company_label,
        (select real_name from app_user l where l.id = o.created_by and l.tenant_id = o.tenant_id) as user_label`
      : sql``
    const { rows } = await sql`
      select o.*${names} from booking_order o where tenant_id = ${tenant} and id in (
        select id from booking_order where tenant_id = ${tenant} and state in (${sql.join(LIST_STATES)})
        order by id ${sql.raw(backwards ? 'asc' : 'desc')}
        limit ${sql.lit(Math.trunc(backwards ? Math.min(pageSize, total - offset) : pageSize))}
        offset ${backwards ? Math.max(0, total - offset - pageSize) : offset})
      order by id desc`.execute(db)
    return { code: '0000', content: { list: rows, total } }
  }
  server.post('/list', listPage(false))
  server.post('/list-named', listPage(true))
  server.get('/detail', async (request) => {
    const id = Number((request.query as { id: string }).id)
    const { rows } = await sql<{ customer_company: number; created_by: number }>`
      select * from booking_order where tenant_id = ${tenant} and id = ${id}`.execute(db)
    const order = rows[0]
    if (!order) return { code: '404' }
    const { rows: history } = await sql`
      select a.*, u.real_name from audit_log a left join app_user u on u.id = a.user_id and u.tenant_id = a.tenant_id
      where a.tenant_id = ${tenant} and a.entity = 'order' and a.record_id = ${id} order by a.id desc limit 50`.execute(
      db,
    )
    const { rows: company } = await sql`
      select name from company where tenant_id = ${tenant} and id = ${order.customer_company}`.execute(db)
    const { rows: user } = await sql`
      select real_name from app_user where tenant_id = ${tenant} and id = ${order.created_by}`.execute(db)
    return { code: '0000', content: { ...order, history, labels: { company, user } } }
  })
  server.post('/tracking', async (request) => {
    const numbers = (request.body as { numbers: string }).numbers.split(',')
    const { rows } = await sql<{ id: number }>`
      select s.*, o.order_no from shipment s
      left join booking_order o on o.id = s.booking_order and o.tenant_id = s.tenant_id
      where s.tenant_id = ${tenant} and s.bl_no in (${sql.join(numbers)})`.execute(db)
    const { rows: events } = rows.length
      ? await sql`
          select * from tracking_event where tenant_id = ${tenant} and shipment in (${sql.join(rows.map((r) => r.id))})
          order by event_date_time desc, id desc`.execute(db)
      : { rows: [] }
    return { code: '0000', content: { results: rows, events } }
  })
  server.post('/login', async (request) => {
    const { username, password } = request.body as { username: string; password: string }
    const { rows } = await sql<{ id: number; password_hash: string }>`
      select id, password_hash from app_user where tenant_id = ${tenant} and username = ${username}`.execute(db)
    const found = rows[0]
    if (!found || !(await verifyPassword(found.password_hash, password))) return { code: '300005' }
    const token = randomBytes(32).toString('hex')
    await sql`insert into session (tenant_id, user_id, token_hash, expires_at)
      values (${tenant}, ${found.id}, ${token}, now() + interval '7 days')`.execute(db)
    return { code: '0000', token }
  })
  await server.listen({ port: 0, host: '127.0.0.1' })
  return server
}
