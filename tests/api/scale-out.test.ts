import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { inDays, today } from '../support/clock.ts'
import { describeOnPostgres } from '../support/only-on.ts'
import { type PostgresCluster, startPostgresCluster } from '../support/postgres-cluster.ts'
import { type RunningProxy, startHaproxy } from '../support/proxy.ts'
import { type RunningServer, STARTUP_MS, startServer } from '../support/server.ts'
import { startSmtp, type TestSmtp } from '../support/smtp.ts'
import { type Cell, fclRate, fclRates } from '../support/workbook.ts'

/**
 * Issue #29's scale-out, tested rather than only written (docs/SCALING.md): two server processes (`npm start`'s
 * entry point) on one PostgreSQL behind a real HAProxy (Debian's). A session made on one replica works on the other;
 * a login lockout counted on both holds on both; a mail of the outbox is sent once although both replicas run the
 * worker; PostgreSQL restarted under load — the replicas reconnect by themselves, only calls in flight fail, and no
 * acknowledged write is lost; one replica killed — the other carries on and nobody is signed out.
 *
 * The PostgreSQL is a cluster of this file's own (tests/support/postgres-cluster.ts), so restarting it disturbs no
 * other file of the leg.
 */

interface Envelope {
  code: string
  message?: string
  token?: string
  content?: Record<string, unknown> | null
}

let cluster: PostgresCluster
let smtp: TestSmtp
let a: RunningServer
let b: RunningServer
let proxy: RunningProxy
const cleanups: (() => Promise<void>)[] = []

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
})

/** A call to a replica or the proxy: its envelope and which replica served it (through the proxy). */
async function call(
  base: string,
  path: string,
  options: { token?: string; body?: unknown; method?: 'GET' | 'POST' } = {},
): Promise<{ status: number; body: Envelope; replica: string | null }> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST')
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      resource: '1',
      language: 'en_US',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(20_000),
  })
  return {
    status: response.status,
    body: (await response.json()) as Envelope,
    replica: response.headers.get('x-replica'),
  }
}

const login = (base: string, username: string, password = DEMO_PASSWORD) =>
  call(base, '/b2b/user/login', { body: { username, password } })

async function signIn(base: string, username: string): Promise<string> {
  const { body } = await login(base, username)
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return body.token as string
}

const whoAmI = (base: string, token: string) => call(base, '/b2b/user/getCurrentUserInfo', { token })

/** FCL rates imported by the operator as an .xlsx (tests/support/workbook.ts fclRates). */
async function importRates(base: string, token: string, rows: Cell[][]): Promise<number> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(fclRates(rows))]), 'rates.xlsx')
  const response = await fetch(`${base}/api/price/rate/import`, {
    method: 'POST',
    headers: { resource: '1', language: 'en_US', authorization: `Bearer ${token}` },
    body: form,
  })
  const body = (await response.json()) as Envelope
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return (body.content as { imported: number }).imported
}

/** The same on a connection of its own (fetch keeps connections alive, and one may end at a killed worker). */
function whoAmIAfresh(base: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/b2b/user/getCurrentUserInfo`,
      { agent: false, timeout: 3_000, headers: { authorization: `Bearer ${token}`, resource: '1' } },
      (response) => {
        let text = ''
        response.on('data', (chunk) => {
          text += chunk
        })
        response.on('end', () => resolve((JSON.parse(text) as Envelope).code))
      },
    )
    request.on('timeout', () => request.destroy(new Error('no answer within 3 s')))
    request.on('error', reject)
  })
}

describeOnPostgres('two replicas behind HAProxy on one PostgreSQL', () => {
  beforeAll(
    async () => {
      cluster = await startPostgresCluster()
      cleanups.push(() => cluster.stop())
      smtp = await startSmtp()
      cleanups.push(() => smtp.close())
      const env = {
        DATABASE_URL: cluster.url,
        WAYBILL_TRUSTED_PROXIES: '127.0.0.1',
        SMTP_URL: smtp.url,
        OUTBOX_POLL_MS: '200',
        PRICE_WATCH_EVERY_MS: '300',
      }
      const replica = async (seed: boolean) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'waybill-replica-'))
        cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
        const server = await startServer({ dataDir, env: { ...env, ...(seed ? { WAYBILL_SEED: '1' } : {}) } })
        cleanups.push(async () => void (await server.stop('SIGKILL')))
        return server
      }
      // The first migrates and seeds the empty database; the second starts on what it made.
      a = await replica(true)
      b = await replica(false)
      proxy = await startHaproxy([
        { name: 'a', port: a.port },
        { name: 'b', port: b.port },
      ])
      cleanups.push(() => proxy.stop())
    },
    2 * STARTUP_MS + 60_000,
  )

  it('keeps a session made on one replica signed in on the other, and through the proxy on both', async () => {
    const token = await signIn(a.url, 'entadmin')
    const there = await whoAmI(b.url, token)
    expect(there.body.code).toBe('0000')
    expect(JSON.stringify(there.body.content)).toContain('entadmin')
    const served = new Set<string>()
    for (let i = 0; i < 8; i++) {
      const answer = await whoAmI(proxy.url, token)
      expect(answer.body.code).toBe('0000')
      if (answer.replica) served.add(answer.replica)
    }
    expect([...served].sort()).toEqual(['a', 'b'])
    // Signed out on one replica: signed out on both.
    const other = await signIn(b.url, 'entop')
    expect((await call(a.url, '/b2b/user/logout', { token: other })).body.code).toBe('0000')
    expect((await whoAmI(b.url, other)).body.code).not.toBe('0000')
  })

  it('counts wrong passwords on both replicas toward one lockout that holds on both', async () => {
    // Five wrong passwords for one account from one address, taking turns between the replicas…
    for (let i = 0; i < 5; i++) {
      const { body } = await login(i % 2 === 0 ? a.url : b.url, 'nbclerk', 'not-the-password-1')
      expect(body.code).toBe('300005')
    }
    // …lock that address out of the account on either replica, the right password too.
    expect((await login(a.url, 'nbclerk')).body.code).toBe('300008')
    expect((await login(b.url, 'nbclerk')).body.code).toBe('300008')
    expect((await login(proxy.url, 'nbclerk')).body.code).toBe('300008')
  })

  it('holds caches across replicas: an overlay saved through one is in force on the other at the next call', async () => {
    const token = await signIn(a.url, 'opadmin')
    const list = async (base: string) =>
      (
        await call(base, '/booking/order/queryOrderListByOperator', {
          token,
          body: { pageNum: 1, pageSize: 5, searchParams: {} },
        })
      ).body.content as { list: Record<string, unknown>[] }
    // Replica b reads (and remembers) the order list's overlays in force: none.
    expect((await list(b.url)).list[0]).toHaveProperty('jobNo')
    const saved = await call(a.url, '/b2b/screen/overlay/save', {
      token,
      body: { screen: 'orderList', source: 'columns:\n  hidden: [jobNo]\n', after: 0 },
    })
    expect(saved.body.code, JSON.stringify(saved.body)).toBe('0000')
    const after = await list(b.url)
    expect(after.list.length).toBeGreaterThan(0)
    for (const row of after.list) expect(row).not.toHaveProperty('jobNo')
  })

  it('sends a mail of the outbox once although both replicas run the worker', async () => {
    const to = 'entadmin@demo.example'
    const before = smtp.received.filter((mail) => mail.to.includes(to)).length
    const asked = await call(proxy.url, `/b2b/user/resetPassword/getCode?account=${encodeURIComponent(to)}`)
    expect(asked.body.code).toBe('0000')
    await expect
      .poll(() => smtp.received.filter((mail) => mail.to.includes(to)).length, { timeout: 20_000, interval: 100 })
      .toBe(before + 1)
    // Both workers poll every 200 ms: many rounds of each later, still one.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(smtp.received.filter((mail) => mail.to.includes(to)).length).toBe(before + 1)
  })

  it('tells a price watch of a rate that became valid once, although both replicas look every 300 ms', async () => {
    const token = await signIn(proxy.url, 'entadmin')
    const watch = await call(proxy.url, '/priceWatch/add', {
      token,
      body: {
        containerType: '45G1',
        carrier: 'SKLU',
        minCbm: 20,
        targetPrice: '1600',
        pol: 'CNSHA',
        pod: 'USLAX',
        subscriptionType: 'targetReached',
        channel: 'mail',
        period: 30,
        startDate: today(),
      },
    })
    expect(watch.body.code, JSON.stringify(watch.body)).toBe('0000')
    const alerts = () =>
      smtp.received.filter((mail) => mail.subject === 'Price watch alert' || mail.subject === '价格监控提醒')
    const before = alerts().length
    // A rate valid from tomorrow, imported by the operator: today nobody is told.
    const operator = await signIn(proxy.url, 'opadmin')
    const imported = await importRates(proxy.url, operator, [fclRate('SO-SKLU-1', 'SKLU', 1550, inDays(1), inDays(30))])
    expect(imported).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(alerts().length).toBe(before)
    // Midnight passes for the rate (its validity moved to today in the database, as the calendar would): the replicas'
    // looks find it, and one of them tells it.
    const db = new pg.Client({ connectionString: cluster.url })
    await db.connect()
    try {
      await db.query(`update freight_rate set valid_from = $1 where rate_no = 'SO-SKLU-1'`, [today()])
    } finally {
      await db.end()
    }
    await expect.poll(() => alerts().length, { timeout: 20_000, interval: 100 }).toBe(before + 1)
    // Both replicas look many more times: still one.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(alerts().length).toBe(before + 1)
  })

  it('rides out a PostgreSQL restart under load: replicas reconnect by themselves, no acknowledged write is lost', async ({
    annotate,
  }) => {
    const token = await signIn(proxy.url, 'entadmin')
    const acknowledged: number[] = []
    const failures: { status: number; code: string }[] = []
    let restarted = false
    let afterRestart = 0
    let serial = 0
    const writer = async () => {
      while (afterRestart < 40) {
        serial += 1
        const mobile = `139580${String(serial).padStart(5, '0')}`
        try {
          const answer = await call(proxy.url, '/contact/add', {
            token,
            body: { name: `Load ${serial}`, position: 'Buyer', mobile, email: `load${serial}@example.cn` },
          })
          if (answer.body.code === '0000') {
            acknowledged.push(Number(answer.body.content?.id))
            if (restarted) afterRestart += 1
          } else failures.push({ status: answer.status, code: answer.body.code })
        } catch (error) {
          failures.push({ status: 0, code: String(error) })
        }
      }
    }
    const writers = [writer(), writer(), writer(), writer()]
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(20)
    const restartedAt = Date.now()
    await cluster.restart()
    restarted = true
    await Promise.all(writers)
    // Each replica answers from the database again by itself (no restart of ours).
    for (const replica of [a, b]) {
      expect(replica.process.exitCode, `a replica exited:\n${replica.output().slice(-3000)}`).toBeNull()
      await expect.poll(async () => (await whoAmI(replica.url, token)).body.code, { timeout: 30_000 }).toBe('0000')
    }
    await annotate(
      `PostgreSQL restart: both replicas answering ${Date.now() - restartedAt} ms after it began; ${failures.length} calls failed, ${acknowledged.length} acknowledged`,
    )
    // Every failure was a clean answer — 503 "try again in a moment", never a 500, a hang or a torn connection…
    const logged = () =>
      [a, b]
        .flatMap((replica) => replica.output().split('\n'))
        .filter((line) => line.includes('"level":50'))
        .map((line) => line.slice(0, 400))
        .join('\n')
    for (const failure of failures) expect(failure, logged()).toEqual({ status: 503, code: '503' })
    // …and every write the replicas acknowledged is there.
    const client = new pg.Client({ connectionString: cluster.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ count: string }>(
        'select count(*)::text as count from contact where id = any($1)',
        [acknowledged],
      )
      expect(Number(rows[0]?.count)).toBe(acknowledged.length)
    } finally {
      await client.end()
    }
  }, 120_000)

  it(
    'runs one worker per WAYBILL_WORKERS on one port, and replaces a worker that dies',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'waybill-workers-'))
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
      const server = await startServer({
        dataDir,
        env: { DATABASE_URL: cluster.url, WAYBILL_WORKERS: '2', OUTBOX_WORKER: 'off' },
      })
      cleanups.push(async () => void (await server.stop('SIGTERM')))
      const workers = () =>
        execFileSync('pgrep', ['-P', String(server.process.pid)])
          .toString()
          .trim()
          .split('\n')
          .filter(Boolean)
      await expect.poll(() => workers().length, { timeout: 30_000 }).toBe(2)
      const token = await signIn(server.url, 'entadmin')
      for (let i = 0; i < 4; i++) expect((await whoAmI(server.url, token)).body.code).toBe('0000')
      const [first] = workers()
      process.kill(Number(first), 'SIGKILL')
      // The server keeps answering (a connection handed to the dying worker may be lost: a client retries it, each
      // try on a connection of its own), and the primary starts a new worker in the dead one's place.
      await expect.poll(() => whoAmIAfresh(server.url, token).catch(() => 'lost'), { timeout: 30_000 }).toBe('0000')
      await expect
        .poll(() => workers().length === 2 && !workers().includes(first as string), { timeout: 30_000 })
        .toBe(true)
      for (let i = 0; i < 4; i++) expect(await whoAmIAfresh(server.url, token)).toBe('0000')
      // SIGTERM to the primary stops every worker and then itself.
      const pid = server.process.pid as number
      server.process.kill('SIGTERM')
      await expect.poll(() => server.process.exitCode, { timeout: 30_000 }).toBe(0)
      expect(
        execFileSync('sh', ['-c', `pgrep -P ${pid} || true`])
          .toString()
          .trim(),
      ).toBe('')
    },
    STARTUP_MS + 60_000,
  )

  it('carries on behind the proxy when one replica is killed, and signs nobody out', async () => {
    const token = await signIn(proxy.url, 'entadmin')
    await a.stop('SIGKILL')
    const served = new Set<string>()
    for (let i = 0; i < 10; i++) {
      const answer = await whoAmI(proxy.url, token)
      expect(answer.body.code).toBe('0000')
      if (answer.replica) served.add(answer.replica)
    }
    expect([...served]).toEqual(['b'])
  })
})
