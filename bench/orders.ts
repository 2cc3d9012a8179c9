import { type ChildProcess, fork } from 'node:child_process'
import autocannon from 'autocannon'
import { DEMO_PASSWORD } from '../server/db/seed/demo.ts'
import { type BenchPlan, FULL_PLAN } from './data.ts'
import type { Served } from './orders-server.ts'

/**
 * The API under load (issue #9): the operator order list (a state filter, a page, the total) at page 1,
 * the middle page and the last page of the 200,000-order tenant; an order by id; a tracking lookup of 10
 * numbers; a login. Each is measured with autocannon (32 connections, one request in flight each, a
 * warm-up, then the measured run) against the baseline served by the same server process: bare Fastify
 * routes issuing the SQL those calls need, without session, engine, validation or row-level security
 * (bench/orders-server.ts). The server runs in a process of its own, so the load generator does not
 * share its event loop. On PostgreSQL (DATABASE_URL) and on PGlite.
 *
 * BENCH_ORDERS (default 1,000,000) and BENCH_SECONDS (default 10) scale a run down for a quick look.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 32
const PAGE_SIZE = 10

export interface Measured {
  rps: number
  p50: number
  p99: number
  failed: number
}

export interface Case {
  name: string
  engine: autocannon.Request
  baseline: autocannon.Request
  /** A different body for each request (the login case's accounts). */
  body?: (n: number) => string
}

export function plan(): BenchPlan {
  const orders = Number(process.env.BENCH_ORDERS ?? FULL_PLAN.orders)
  const scale = orders / FULL_PLAN.orders
  return {
    orders,
    tenants: Math.max(10, Math.round(FULL_PLAN.tenants * scale)),
    bigTenant: Math.round(FULL_PLAN.bigTenant * scale),
  }
}

export async function load(url: string, request: autocannon.Request, seconds: number, body?: Case['body']) {
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
        setupRequest: (req) => {
          const i = n++
          return {
            ...req,
            ...(body ? { body: body(i) } : {}),
            headers: { ...req.headers, 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
          }
        },
      },
    ],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  } satisfies Measured
}

/** Warm-up, then the measured run. */
async function measure(url: string, request: autocannon.Request, body?: Case['body']): Promise<Measured> {
  await load(url, request, Math.max(2, Math.round(SECONDS / 3)), body)
  return load(url, request, SECONDS, body)
}

/** Forks the server and waits for what it serves. */
export function startServer(databaseUrl: string | undefined): Promise<{ child: ChildProcess; served: Served }> {
  const child = fork(new URL('./orders-server.ts', import.meta.url), [], {
    // BENCH_SERVER_FLAGS: node flags for the server alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)],
    env: {
      ...process.env,
      BENCH_PLAN: JSON.stringify(plan()),
      ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : { BENCH_DATABASE_URL: '' }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench server stopped (exit ${code}) before it served`)))
    child.on('message', (message: { served?: Served }) => {
      if (message.served) resolve({ child, served: message.served })
    })
  })
}

function ask<T>(child: ChildProcess, question: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: Record<string, T>) => {
      if (!(key in message)) return
      child.off('message', listener)
      resolve(message[key] as T)
    }
    child.on('message', listener)
    child.send(question)
  })
}

export function casesFor(served: Served): Case[] {
  const auth = { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', host: 'localhost' }
  const json = { 'content-type': 'application/json' }
  const pages = Math.max(1, Math.ceil(served.listed / PAGE_SIZE))
  const listBody = (pageNum: number) =>
    JSON.stringify({ searchParams: { state: ['submitted', 'accepted', 'booked'] }, pageNum, pageSize: PAGE_SIZE })
  const list = (name: string, pageNum: number): Case => ({
    name,
    engine: {
      method: 'POST',
      path: '/api/booking/order/queryOrderListByOperator',
      headers: auth,
      body: listBody(pageNum),
    },
    baseline: { method: 'POST', path: '/list', headers: json, body: listBody(pageNum) },
  })
  const detail: Case = {
    name: 'order detail by id',
    engine: { method: 'GET', path: `/api/booking/order/getOrderDetail?id=${served.orderId}`, headers: auth },
    baseline: { method: 'GET', path: `/detail?id=${served.orderId}` },
  }
  const tracking: Case = {
    name: 'tracking lookup, 10 numbers',
    engine: {
      method: 'POST',
      path: '/api/booking/public/api/tracking/query',
      headers: auth,
      body: JSON.stringify({ numbers: served.numbers }),
    },
    baseline: { method: 'POST', path: '/tracking', headers: json, body: JSON.stringify({ numbers: served.numbers }) },
  }
  // The same engine call against the statements it sends, replayed bare (bench/orders-server.ts): on PostgreSQL only,
  // where the statements can be taken from the driver. A diagnostic beside the bar, not the bar (docs/DECISIONS.md).
  const ownStatements = (what: string, call: string, engine: autocannon.Request): Case[] =>
    served.kind === 'PostgreSQL'
      ? [
          {
            name: `${what}, baseline the engine's own statements`,
            engine,
            baseline: { method: 'POST', path: `/as-engine/${call}`, headers: json, body: '{}' },
          },
        ]
      : []
  const loginBody = (n: number) =>
    JSON.stringify({ username: served.logins[n % served.logins.length], password: DEMO_PASSWORD })
  return [
    list('order list, page 1 (filter + page + total)', 1),
    {
      name: 'order list, page 1, baseline with the names',
      engine: list('', 1).engine,
      baseline: { method: 'POST', path: '/list-named', headers: json, body: listBody(1) },
    },
    ...ownStatements('order list, page 1', 'list', list('', 1).engine),
    list(`order list, middle page ${Math.ceil(pages / 2)}`, Math.ceil(pages / 2)),
    list(`order list, last page ${pages}`, pages),
    detail,
    ...ownStatements('order detail', 'detail', detail.engine),
    tracking,
    ...ownStatements('tracking lookup', 'tracking', tracking.engine),
    {
      name: `login (${served.logins.length} accounts in turn)`,
      engine: { method: 'POST', path: '/api/b2b/user/login', headers: { ...json, host: 'localhost', resource: '1' } },
      baseline: { method: 'POST', path: '/login', headers: json },
      body: loginBody,
    },
  ]
}

async function benchOn(databaseUrl: string | undefined): Promise<string[]> {
  const { child, served } = await startServer(databaseUrl)
  try {
    const lines = [
      `### ${served.kind}: ${served.orders.toLocaleString('en')} orders over ${plan().tenants} tenants (${plan().bigTenant.toLocaleString('en')} in one), generated in ${served.generateSeconds.toFixed(0)} s`,
      '',
      `${CONNECTIONS} connections, one request in flight each, ${SECONDS} s measured after a warm-up; the list pages ${served.listed.toLocaleString('en')} orders in three states, ${PAGE_SIZE} a page.`,
      '',
      '| call | Waybill req/s | p50 | p99 | baseline req/s | p50 | p99 | throughput ratio | failed |',
      '| ---- | ------------: | --: | --: | -------------: | --: | --: | ---------------: | -----: |',
    ]
    const results = new Map<string, Measured>()
    for (const c of casesFor(served)) {
      const ours = await measure(served.url, c.engine, c.body)
      const bare = await measure(served.baselineUrl, c.baseline, c.body)
      results.set(c.name, ours)
      lines.push(
        `| ${c.name} | ${ours.rps.toFixed(0)} | ${ours.p50} ms | ${ours.p99} ms | ${bare.rps.toFixed(0)} | ${bare.p50} ms | ${bare.p99} ms | ${(ours.rps / bare.rps).toFixed(2)}× | ${ours.failed} |`,
      )
    }
    // By name: the first page is measured against more than one baseline, so the pages are not the first three cases.
    const page = (name: string) => [...results].find(([n]) => n.startsWith(name))?.[1] as Measured
    const [first, middle, last] = [page('order list, page 1 ('), page('order list, middle'), page('order list, last')]
    const rss = await ask<number>(child, 'rss', 'rss')
    lines.push(
      '',
      `p99 against page 1's: middle page ${(middle.p99 / Math.max(1, first.p99)).toFixed(2)}×, last page ${(last.p99 / Math.max(1, first.p99)).toFixed(2)}×. Server RSS after the runs: ${(rss / 2 ** 20).toFixed(0)} MiB.`,
    )
    return lines
  } finally {
    child.send('stop')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

export async function benchOrders(): Promise<string[]> {
  const out = ['## API under load (issue #9)', '']
  if (process.env.DATABASE_URL) out.push(...(await benchOn(process.env.DATABASE_URL)), '')
  out.push(...(await benchOn(undefined)))
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchOrders()).join('\n'))
