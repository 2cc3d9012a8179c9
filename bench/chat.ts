import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { loadManifest } from '../server/manifest.ts'
import { scratchDatabase } from '../tests/support/database.ts'
import { type RunningServer, startServer } from '../tests/support/server.ts'
import { type ChatCustomer, type ChatPeople, makeChatPeople } from './chat-data.ts'
import type { ChatServed } from './chat-server.ts'
import { type LatencySummary, ms, ratio, summarise } from './latency.ts'

/**
 * Issue #27's speed: SOCKETS chat sockets connected to ONE server process (bench/chat-server.ts, forked: the real
 * app, its session check on the upgrade and its ChatHub), RATE messages a second among them sent as the sockets'
 * `send` frames, and the delivery latency — send → the other side's socket hears the `message` frame — p50/p99 on
 * loopback, as a ratio to the baseline: a bare `ws` server in the same process relaying each frame to the socket it
 * names, with the same sockets, pairs and rate, in the same run. Then, when DATABASE_URL names a PostgreSQL, the
 * cross-process delay: two `npm start` servers on one database, a customer's socket on the first, the operator's
 * socket on both, and what the second hears later than the first.
 *
 * The people: OPERATORS customer-service staff and SOCKETS − OPERATORS customers, one conversation each, assigned
 * round robin. Nine messages in ten are a customer's (heard at the conversation's operator), one in ten an
 * operator's answer (heard at the customer); the per-user limit (20 in 10 s) is never reached, so nothing is
 * refused. `node --import tsx bench/chat.ts` runs it alone; BENCH_CHAT_SOCKETS, BENCH_CHAT_RATE,
 * BENCH_CHAT_SECONDS change the load.
 */

const SOCKETS = Number(process.env.BENCH_CHAT_SOCKETS ?? 1000)
const OPERATORS = Number(process.env.BENCH_CHAT_OPERATORS ?? 20)
const RATE = Number(process.env.BENCH_CHAT_RATE ?? 100)
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 20)
const WARM_UP_SECONDS = 3
/** A message not heard this long after the last one was sent is counted lost. */
const DRAIN_MS = 10_000
const CONNECT_BATCH = 50
const CROSS_MESSAGES = Number(process.env.BENCH_CHAT_CROSS_MESSAGES ?? 200)

/** One socket of the load: its name, and how a message to a peer is written on it. */
interface Peer {
  name: string
  socket: WebSocket
}

interface Transport {
  label: string
  /** Opens the named socket. */
  open(name: string, token: string): WebSocket
  /** The frame a socket sends to carry `text` to `to` in `conversationId`. */
  frame(to: string, conversationId: number, text: string, ref: string): string
  /** The text of a delivered message in a frame the socket heard, if it is one. */
  heard(frame: Record<string, unknown>): string | undefined
}

interface RunResult {
  delivery: LatencySummary
  ack: LatencySummary | undefined
  sent: number
  lost: number
  refused: Map<string, number>
  connectSeconds: number
  /** The server process's CPU time from the first message to the drain's end, as a share of one core, and per message. */
  cpu: number
  cpuPerMessage: number
  rss: number
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`socket refused: HTTP ${response.statusCode}`)),
    )
  })
}

/** One side's request to the forked server and its answer. */
function ask<T>(child: ChildProcess, message: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (answer: Record<string, unknown>) => {
      if (key in answer) {
        child.off('message', listener)
        resolve(answer[key] as T)
      }
    }
    child.on('message', listener)
    child.send(message)
  })
}

/** The load on one transport: connect every socket, send at RATE, time each message to its recipient. */
async function run(transport: Transport, people: ChatPeople, child: ChildProcess): Promise<RunResult> {
  const names = [...people.operators.map((_, i) => `o${i}`), ...people.customers.map((_, i) => `c${i}`)]
  const tokens = [...people.operators.map((o) => o.token), ...people.customers.map((c) => c.token)]
  const peers: Peer[] = []
  const byName = new Map<string, Peer>()
  /** seq → when sent and which socket is to hear it. */
  const pending = new Map<number, { at: number; to: string; measured: boolean }>()
  const acking = new Map<string, number>()
  const delivery: number[] = []
  const acks: number[] = []
  const refused = new Map<string, number>()

  const connectStarted = performance.now()
  for (let i = 0; i < names.length; i += CONNECT_BATCH) {
    const batch = names.slice(i, i + CONNECT_BATCH).map((name, j) => {
      const socket = transport.open(name, tokens[i + j] as string)
      const peer = { name, socket }
      socket.on('message', (data) => {
        const at = performance.now()
        const frame = JSON.parse(data.toString()) as Record<string, unknown>
        const text = transport.heard(frame)
        if (text?.startsWith('bench ')) {
          const seq = Number(text.slice(6))
          const sent = pending.get(seq)
          if (sent && sent.to === name) {
            pending.delete(seq)
            if (sent.measured) delivery.push(at - sent.at)
          }
        } else if (frame.type === 'ack' && typeof frame.ref === 'string') {
          const sentAt = acking.get(frame.ref)
          acking.delete(frame.ref)
          if (sentAt !== undefined) acks.push(at - sentAt)
        } else if (frame.type === 'error') {
          const code = String(frame.code)
          refused.set(code, (refused.get(code) ?? 0) + 1)
        }
      })
      peers.push(peer)
      byName.set(name, peer)
      return opened(socket)
    })
    await Promise.all(batch)
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000

  // The senders, in turn: customers for nine messages in ten, operators (answering their own customers) for one.
  const customerAt = (n: number) => people.customers[n % people.customers.length] as ChatCustomer
  let customerTurn = 0
  let operatorTurn = 0
  let seq = 0
  let measuredSent = 0
  // The server's CPU over the whole load (asked while idle, and after the drain: a busy server answers late).
  const cpuFrom = (await ask<{ cpu: NodeJS.CpuUsage }>(child, 'usage', 'usage')).cpu
  const total = (WARM_UP_SECONDS + SECONDS) * RATE
  const started = performance.now()
  while (seq < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE))
    while (seq < due) {
      const measured = seq >= WARM_UP_SECONDS * RATE
      const fromOperator = seq % 10 === 9
      let from: string
      let to: string
      let conversationId: number
      if (fromOperator) {
        // An operator answers the next of their own customers.
        const i = operatorTurn++ % people.customers.length
        const customer = customerAt(i)
        from = `o${customer.operator}`
        to = `c${i}`
        conversationId = customer.conversationId
      } else {
        const i = customerTurn++ % people.customers.length
        const customer = customerAt(i)
        from = `c${i}`
        to = `o${customer.operator}`
        conversationId = customer.conversationId
      }
      const ref = String(seq)
      const at = performance.now()
      pending.set(seq, { at, to, measured })
      if (measured) {
        acking.set(ref, at)
        measuredSent++
      }
      byName.get(from)?.socket.send(transport.frame(to, conversationId, `bench ${seq}`, ref))
      seq++
    }
    await wait(2)
  }
  const sentEnd = performance.now()
  while (pending.size && performance.now() - sentEnd < DRAIN_MS) await wait(20)
  const loadSeconds = (performance.now() - started) / 1000
  const { cpu, rss } = await ask<{ cpu: NodeJS.CpuUsage; rss: number }>(child, 'usage', 'usage')
  const lost = [...pending.values()].filter((p) => p.measured).length
  const cpuSeconds = (cpu.user + cpu.system - cpuFrom.user - cpuFrom.system) / 1e6
  for (const peer of peers) peer.socket.terminate()
  await wait(500)
  return {
    delivery: summarise(delivery),
    ack: acks.length ? summarise(acks) : undefined,
    sent: measuredSent,
    lost,
    refused,
    connectSeconds,
    cpu: cpuSeconds / loadSeconds,
    cpuPerMessage: (cpuSeconds * 1000) / total,
    rss,
  }
}

function appTransport(port: number): Transport {
  return {
    label: 'Waybill chat socket (ChatHub)',
    open: (_name, token) =>
      new WebSocket(`ws://127.0.0.1:${port}/api/b2b/im/socket`, {
        headers: { host: 'localhost', cookie: `b2b_token=${token}` },
      }),
    frame: (_to, conversationId, text, ref) => JSON.stringify({ type: 'send', conversationId, text, ref }),
    heard: (frame) =>
      frame.type === 'message' ? ((frame.message as { text?: string } | undefined)?.text ?? undefined) : undefined,
  }
}

function relayTransport(port: number): Transport {
  return {
    label: 'baseline: bare `ws` relay',
    open: (name) => new WebSocket(`ws://127.0.0.1:${port}/?id=${name}`),
    frame: (to, _conversationId, text, ref) => JSON.stringify({ to, text, ref }),
    heard: (frame) => (typeof frame.text === 'string' ? frame.text : undefined),
  }
}

/** One server process (PGlite, or a PostgreSQL scratch database): the baseline's run, then the app's. */
async function oneProcess(databaseUrl: string | undefined) {
  const child = fork(new URL('./chat-server.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_CHAT_CUSTOMERS: String(SOCKETS - OPERATORS),
      BENCH_CHAT_OPERATORS: String(OPERATORS),
      BENCH_DATABASE_URL: databaseUrl ?? '',
    },
  })
  try {
    const served = await new Promise<ChatServed>((resolve, reject) => {
      child.on('message', (message: { served?: ChatServed }) => message.served && resolve(message.served))
      child.once('exit', (code) => reject(new Error(`chat server exited with ${code}`)))
    })
    const baseline = await run(relayTransport(served.relayPort), served.people, child)
    const waybill = await run(appTransport(served.port), served.people, child)
    return { served, baseline, waybill }
  } finally {
    child.send('stop')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

/**
 * Two server processes (server/main.ts, as `npm start`) on one PostgreSQL scratch database: customers' sockets
 * and one operator socket on the first, the same operator's second socket on the second; CROSS_MESSAGES
 * messages, ten a second. Answers what each of the operator's sockets heard when.
 */
async function crossProcess(adminUrl: string) {
  const scratch = await scratchDatabase(adminUrl, 'waybill_bench_chat_two')
  const dataDirs: string[] = []
  const servers: RunningServer[] = []
  const sockets: WebSocket[] = []
  try {
    const database = await openDatabase({ databaseUrl: scratch.url })
    await prepareDatabase(database, loadManifest(), { seed: true })
    const people = await makeChatPeople(database.db as never, { customers: 20, operators: 1 })
    await database.close()
    for (let n = 0; n < 2; n++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'waybill-bench-chat-'))
      dataDirs.push(dataDir)
      servers.push(await startServer({ dataDir, env: { DATABASE_URL: scratch.url } }))
    }
    const connect = async (server: RunningServer, token: string) => {
      const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/b2b/im/socket`, {
        headers: { host: 'localhost', cookie: `b2b_token=${token}` },
      })
      sockets.push(socket)
      await opened(socket)
      return socket
    }
    const [first, second] = servers as [RunningServer, RunningServer]
    const operator = (people.operators[0] as { token: string }).token
    const heardAt = [new Map<number, number>(), new Map<number, number>()]
    for (const [n, server] of [first, second].entries()) {
      const socket = await connect(server, operator)
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString())
        if (frame.type === 'message' && frame.message.text.startsWith('bench '))
          heardAt[n]?.set(Number(frame.message.text.slice(6)), performance.now())
      })
    }
    const customers = await Promise.all(people.customers.map((c) => connect(first, c.token)))
    const sentAt = new Map<number, number>()
    for (let seq = 0; seq < CROSS_MESSAGES; seq++) {
      const i = seq % customers.length
      sentAt.set(seq, performance.now())
      customers[i]?.send(
        JSON.stringify({ type: 'send', conversationId: people.customers[i]?.conversationId, text: `bench ${seq}` }),
      )
      await wait(100)
    }
    await wait(2000)
    const same: number[] = []
    const other: number[] = []
    const extra: number[] = []
    for (const [seq, at] of sentAt) {
      const here = heardAt[0]?.get(seq)
      const there = heardAt[1]?.get(seq)
      if (here !== undefined) same.push(here - at)
      if (there !== undefined) other.push(there - at)
      if (here !== undefined && there !== undefined) extra.push(there - here)
    }
    return { same: summarise(same), other: summarise(other), extra: summarise(extra), sent: sentAt.size }
  } finally {
    for (const socket of sockets) socket.terminate()
    for (const server of servers) await server.stop()
    await scratch.drop()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchChat(): Promise<string[]> {
  const adminUrl = process.env.DATABASE_URL || undefined
  const lines = [
    `## Chat (issue #27): ${SOCKETS} sockets on one server process, ${RATE} messages a second`,
    '',
    `${OPERATORS} operators and ${SOCKETS - OPERATORS} customers, one conversation each; ${WARM_UP_SECONDS} s warm-up,` +
      ` ${SECONDS} s measured; delivery = a socket's \`send\` frame → the other side's socket hears the message` +
      ' (loopback, load generator in its own process). Baseline: a bare `ws` server relaying each frame to the socket' +
      ' it names, same process, sockets, pairs and rate.',
    '',
    '| database | path | delivery p50 | p99 | max | p50 ratio | p99 ratio | stored → ack p50 | lost | refused | server CPU | CPU per message | server RSS | connect all |',
    '| -------- | ---- | -----------: | --: | --: | --------: | --------: | ---------------: | ---: | ------: | ---------: | --------------: | ---------: | ----------: |',
  ]
  const row = (kind: string, label: string, r: RunResult, base?: RunResult) =>
    `| ${kind} | ${label} | ${ms(r.delivery.p50)} | ${ms(r.delivery.p99)} | ${ms(r.delivery.max)} | ${base ? ratio(r.delivery.p50, base.delivery.p50) : '1.00×'} | ${base ? ratio(r.delivery.p99, base.delivery.p99) : '1.00×'} | ${r.ack ? ms(r.ack.p50) : '–'} | ${r.lost} of ${r.sent} | ${[...r.refused].map(([code, n]) => `${n} × ${code}`).join(', ') || '0'} | ${(r.cpu * 100).toFixed(0)} % of a core | ${ms(r.cpuPerMessage)} | ${(r.rss / 2 ** 20).toFixed(0)} MiB | ${r.connectSeconds.toFixed(1)} s |`
  const setups: string[] = []
  for (const url of [undefined, ...(adminUrl ? [adminUrl] : [])]) {
    const { served, baseline, waybill } = await oneProcess(url)
    lines.push(
      row(served.kind, 'baseline: bare `ws` relay', baseline),
      row(served.kind, 'Waybill chat socket', waybill, baseline),
    )
    setups.push(`${served.kind} ${served.setupSeconds.toFixed(1)} s`)
  }
  lines.push('', `Setup (seed, ${SOCKETS} users, sessions and conversations by SQL): ${setups.join(', ')}.`, '')
  lines.push('### Across two server processes (LISTEN/NOTIFY)', '')
  if (!adminUrl) {
    lines.push('Not measured: no PostgreSQL (DATABASE_URL unset).')
    return lines
  }
  const cross = await crossProcess(adminUrl)
  lines.push(
    `Two \`npm start\` processes on one PostgreSQL; ${cross.sent} customer messages, ten a second, sent on sockets of the first;`,
    "the operator's socket on each process hears them.",
    '',
    '| heard on | p50 | p99 | max | heard |',
    '| -------- | --: | --: | --: | ----: |',
    `| the sender's process | ${ms(cross.same.p50)} | ${ms(cross.same.p99)} | ${ms(cross.same.max)} | ${cross.same.count} |`,
    `| the other process | ${ms(cross.other.p50)} | ${ms(cross.other.p99)} | ${ms(cross.other.max)} | ${cross.other.count} |`,
    `| other − same, per message | ${ms(cross.extra.p50)} | ${ms(cross.extra.p99)} | ${ms(cross.extra.max)} | ${cross.extra.count} |`,
  )
  return lines
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchChat()).join('\n'))
