import { sql } from 'kysely'
import { WebSocketServer } from 'ws'
import { buildApp } from '../server/app.ts'
import { type Database, openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { loadManifest } from '../server/manifest.ts'
import { MAX_FRAME_BYTES } from '../server/realtime/chatHub.ts'
import { scratchDatabase } from '../tests/support/database.ts'
import { type ChatPeople, makeChatPeople } from './chat-data.ts'

/**
 * The server side of the chat bench (bench/chat.ts forks it, so the sockets' load generator does not share its
 * event loop): the real app on the demo seed with the bench's people (bench/chat-data.ts) on a loopback port, and
 * beside it the baseline — a bare `ws` server that relays each frame to the socket it names, nothing else. Both
 * in this one process; only one is under load at a time. Answers `usage` (CPU and RSS) and closes on `stop`.
 */

export interface ChatServed {
  kind: 'PostgreSQL' | 'PGlite'
  port: number
  relayPort: number
  people: ChatPeople
  setupSeconds: number
}

const customers = Number(process.env.BENCH_CHAT_CUSTOMERS)
const operators = Number(process.env.BENCH_CHAT_OPERATORS)
const adminUrl = process.env.BENCH_DATABASE_URL
const started = performance.now()
const scratch = adminUrl ? await scratchDatabase(adminUrl, 'waybill_bench_chat') : undefined
const database = await openDatabase({ databaseUrl: scratch?.url ?? 'memory://' })
await prepareDatabase(database, loadManifest(), { seed: true })
const people = await makeChatPeople(database.db as never, { customers, operators })
await sql`analyze`.execute(database.db)
const setupSeconds = (performance.now() - started) / 1000

const app = await buildApp({ database, logger: false })
await app.listen({ port: 0, host: '127.0.0.1' })

// The baseline: `?id=` names a socket; a frame {to, …} goes as it came to the socket named `to`.
const relay = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: MAX_FRAME_BYTES })
const sockets = new Map<string, import('ws').WebSocket>()
relay.on('connection', (socket, request) => {
  const id = new URL(request.url ?? '/', 'http://relay').searchParams.get('id') ?? ''
  sockets.set(id, socket)
  socket.on('close', () => sockets.delete(id))
  socket.on('message', (data) => {
    const text = data.toString()
    const { to } = JSON.parse(text) as { to: string }
    sockets.get(to)?.send(text)
  })
})
await new Promise<void>((resolve) => relay.once('listening', () => resolve()))

const portOf = (address: unknown) => (typeof address === 'object' && address ? (address as { port: number }).port : 0)
const served: ChatServed = {
  kind: scratch ? 'PostgreSQL' : 'PGlite',
  port: portOf(app.server.address()),
  relayPort: portOf(relay.address()),
  people,
  setupSeconds,
}
process.send?.({ served })

process.on('message', async (message: string) => {
  if (message === 'usage') process.send?.({ usage: { cpu: process.cpuUsage(), rss: process.memoryUsage().rss } })
  if (message === 'stop') {
    for (const socket of relay.clients) socket.terminate()
    await new Promise((resolve) => relay.close(resolve))
    await app.close()
    await (database as Database).close()
    await scratch?.drop()
    process.exit(0)
  }
})
