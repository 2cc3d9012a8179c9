import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll } from 'vitest'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import type { TestApp } from './app.ts'

/** A request a receiver was sent. */
export interface Received {
  headers: IncomingHttpHeaders
  body: string
}

/**
 * A real HTTP receiver on 127.0.0.1 for outgoing calls (webhooks, DCSA callbacks): records every request and
 * answers `status()` — its default unless a test says otherwise.
 */
export class Receiver {
  received: Received[] = []
  status: () => number
  private server: Server | undefined
  port = 0

  constructor(
    private readonly path: string,
    answer = 200,
  ) {
    this.status = () => answer
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(this.status()).end()
      })
    })
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
    return this
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
    this.server = undefined
  }

  url(query = ''): string {
    return `http://127.0.0.1:${this.port}${this.path}${query}`
  }

  /** Every item of every JSON array it was sent, in order (DCSA callbacks send arrays of events). */
  events(): Record<string, unknown>[] {
    return this.received.flatMap((m) => JSON.parse(m.body) as Record<string, unknown>[])
  }
}

/** A test file's receivers at `path`: `receiver()` starts one (on `port`, or any), `stopReceivers()` stops them all. */
export function receivers(path: string, answer = 200) {
  const started: Receiver[] = []
  return {
    receiver: async (port = 0) => {
      const one = await new Receiver(path, answer).start(port)
      started.push(one)
      return one
    },
    stopReceivers: async () => {
      for (const one of started.splice(0)) await one.stop()
    },
  }
}

/**
 * A file whose tests deliver through the real outbox worker to receivers on loopback: loopback admitted while it
 * runs (production refuses it, docs/CONFIGURATION.md), what the seed queued set aside (not the file's business),
 * a data directory of its own. `deliver()` runs one round of the worker; a retry is due a millisecond after a
 * failure, at most three tries.
 */
export function deliveringFile(test: TestApp, name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `waybill-${name}-`))
  const env = { WEBHOOK_ALLOW_LOOPBACK: '1', WEBHOOK_TIMEOUT_MS: '2000' }
  const previousLoopback = process.env.WEBHOOK_ALLOW_LOOPBACK
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_LOOPBACK = '1'
    await sql`update outbox set sent_at = now() where sent_at is null`.execute(test.database.db)
  })
  afterAll(() => {
    if (previousLoopback === undefined) delete process.env.WEBHOOK_ALLOW_LOOPBACK
    else process.env.WEBHOOK_ALLOW_LOOPBACK = previousLoopback
    rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    deliver: () => new OutboxWorker({ db: test.database.api, dataDir, env, retryBaseMs: 1, maxAttempts: 3 }).runOnce(),
  }
}
