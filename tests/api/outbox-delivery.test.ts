import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import type { Database } from '../../server/db/database.ts'
import { channelFor } from '../../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../../server/jobs/index.ts'
import { enqueue } from '../../server/jobs/outbox.ts'
import { OutboxWorker, outboxStatus } from '../../server/jobs/worker.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { TEST_PROXIES } from '../support/app.ts'
import { freshDatabase } from '../support/database.ts'
import { startSmtp, type TestSmtp } from '../support/smtp.ts'

/**
 * Issue #22: the outbox worker delivers mail to a real SMTP server in this process, retries a refusing one
 * with back-off and then fails the message with the reason, never sends one row twice when two workers scan
 * at once, and writes RFC 822 files to the local mailbox when no SMTP server is configured.
 */

let database: Database
let app: FastifyInstance
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-outbox-'))
const servers: TestSmtp[] = []

beforeAll(async () => {
  database = await freshDatabase()
  app = await buildApp({ database, trustedProxies: TEST_PROXIES })
  registerBuiltInChannels()
})
afterAll(async () => {
  await channelFor('mail')?.close?.()
  for (const server of servers) await server.close()
  await app?.close()
  await database?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function smtp(options?: Parameters<typeof startSmtp>[0]) {
  const server = await startSmtp(options)
  servers.push(server)
  return server
}

function worker(env: Record<string, string>, options: { maxAttempts?: number } = {}) {
  return new OutboxWorker({ db: database.api, dataDir, env, retryBaseMs: 40, ...options })
}

/** Runs the worker until nothing is due, waiting out short back-offs. */
async function drain(w: OutboxWorker, rounds = 10) {
  for (let i = 0; i < rounds; i++) {
    await w.runOnce()
    await new Promise((r) => setTimeout(r, 120))
  }
}

const row = (id: number) => database.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function enqueueMails(count: number, prefix: string, payload: (n: number) => Record<string, unknown>) {
  return withTenant(database.api, 1, async (trx) => {
    const ids: number[] = []
    for (let n = 0; n < count; n++)
      ids.push(await enqueue(trx, 1, 'mail', { to: `${prefix}${n}@example.com`, ...payload(n) }))
    return ids
  })
}

/** Marks every earlier row sent, so a test sees only its own. */
async function settleOthers() {
  await sql`update outbox set sent_at = now() where sent_at is null and failed_at is null`.execute(database.db)
}

describe('mail over SMTP', () => {
  it("holds a suspended tenant's mail, neither sent nor failed, and sends it once the tenant is resumed", async () => {
    await settleOthers()
    const server = await smtp()
    const [id] = await enqueueMails(1, 'held', () => ({ subject: 'Your booking', text: 'Booked.' }))
    await sql`update tenant set state = 0 where id = 1`.execute(database.db)
    try {
      expect(await worker({ SMTP_URL: server.url }).runOnce()).toBe(0)
      expect(await row(id as number)).toMatchObject({ sent_at: null, failed_at: null, attempts: 0 })
      expect(server.received).toHaveLength(0)
    } finally {
      await sql`update tenant set state = 1 where id = 1`.execute(database.db)
    }
    expect(await worker({ SMTP_URL: server.url }).runOnce()).toBe(1)
    await expect.poll(() => server.received.length).toBe(1)
    expect(server.received[0]?.to).toContain('held0@example.com')
  })

  it('sends a verification code once, branded, with a plain-text part, and keeps only its hash', async () => {
    await settleOthers()
    const server = await smtp()
    const sent = await app.inject({
      method: 'GET',
      url: '/api/b2b/user/resetPassword/getCode?account=EntAdmin%40demo.example',
      headers: { host: 'localhost', 'x-forwarded-for': '10.22.0.1', resource: '1', language: 'en_US' },
    })
    expect(sent.json()).toMatchObject({ code: '0000' })
    const [queued] = await database.db
      .selectFrom('outbox')
      .selectAll()
      .where(sql<boolean>`payload->>'to' = 'entadmin@demo.example'`)
      .orderBy('id', 'desc')
      .execute()
    expect(queued?.sent_at).toBeNull()

    await drain(worker({ SMTP_URL: server.url }), 2)
    expect(server.received).toHaveLength(1)
    const mail = server.received[0]
    expect(mail?.messageId).toBe(`<outbox-${queued?.id}@localhost>`)
    expect(mail?.to).toBe('entadmin@demo.example')
    expect(mail?.subject).toBe('Huayuan Logistics verification code')
    const code = /(\d{6})/.exec(mail?.text ?? '')?.[1]
    expect(code).toMatch(/^\d{6}$/)
    expect(mail?.text).toContain('This message was sent by')
    expect(mail?.html).toContain('#409eff')
    expect(mail?.html).toContain('https://localhost/logo.svg')
    expect(mail?.parsed.from?.text).toContain('no-reply@')

    const after = await row(queued?.id as number)
    expect(after.sent_at).not.toBeNull()
    expect(after.attempts).toBe(1)
    expect(after.payload).not.toHaveProperty('sealed')
    expect(JSON.stringify(after.payload)).not.toContain(code as string)
    // The code still works: the hash was kept.
    const committed = await app.inject({
      method: 'POST',
      url: '/api/b2b/user/resetPassword/commitCode',
      headers: { host: 'localhost', 'x-forwarded-for': '10.22.0.2', resource: '1' },
      payload: { account: 'entadmin@demo.example', code },
    })
    expect(committed.json().code).toBe('0000')
  })

  it('renders a template in the recipient language with the tenant name', async () => {
    await settleOthers()
    const server = await smtp()
    const [ja, es] = await enqueueMails(2, 'tpl', (n) => ({
      template: 'test',
      params: { number: 40 + n },
      language: n === 0 ? 'ja' : 'es',
    }))
    await drain(worker({ SMTP_URL: server.url }), 2)
    const byId = new Map(server.received.map((m) => [m.messageId, m]))
    expect(byId.get(`<outbox-${ja}@localhost>`)?.subject).toBe('Huayuan Logistics テストメール')
    expect(byId.get(`<outbox-${ja}@localhost>`)?.text).toContain('これはテストメールです。番号 40。')
    expect(byId.get(`<outbox-${es}@localhost>`)?.subject).toBe('Mensaje de prueba de Huayuan Logistics')
    expect(byId.get(`<outbox-${es}@localhost>`)?.text).toContain('número 41')
  })

  it('retries a server that answers 451, then fails each message with the reason and loses none', async () => {
    await settleOthers()
    const server = await smtp({ refuse: { code: 451, message: 'Mailbox busy, try later' } })
    const ids = await enqueueMails(5, 'busy', () => ({ subject: 'Retry me', text: 'Hello' }))
    const w = worker({ SMTP_URL: server.url }, { maxAttempts: 3 })

    await w.runOnce()
    const retrying = await row(ids[0] as number)
    expect(retrying).toMatchObject({ attempts: 1, sent_at: null, failed_at: null })
    expect(retrying.last_error).toContain('451')
    expect((retrying.next_attempt_at as unknown as Date).getTime()).toBeGreaterThan(Date.now() - 1000)
    expect(await outboxStatus(database.api, 1)).toContainEqual({ kind: 'mail', state: 'retrying', count: 5 })

    await drain(w, 8)
    for (const id of ids) {
      const failed = await row(id)
      expect(failed.attempts).toBe(3)
      expect(failed.sent_at).toBeNull()
      expect(failed.failed_at).not.toBeNull()
      expect(failed.last_error).toContain('Mailbox busy, try later')
    }
    expect(server.refusals).toBe(15)
    expect(await outboxStatus(database.api, 1)).toContainEqual({ kind: 'mail', state: 'failed', count: 5 })
  })

  it('fails at once on 550 and retries when nothing listens', async () => {
    await settleOthers()
    const refusing = await smtp({ refuse: { code: 550, message: 'No such user here' } })
    const [unknown] = await enqueueMails(1, 'nobody', () => ({ subject: 'x', text: 'y' }))
    await worker({ SMTP_URL: refusing.url }).runOnce()
    expect(await row(unknown as number)).toMatchObject({ attempts: 1, sent_at: null })
    expect((await row(unknown as number)).failed_at).not.toBeNull()
    expect((await row(unknown as number)).last_error).toContain('No such user here')

    const closed = await smtp()
    await closed.close()
    servers.pop()
    const [later] = await enqueueMails(1, 'later', () => ({ subject: 'x', text: 'y' }))
    await worker({ SMTP_URL: closed.url }).runOnce()
    const waiting = await row(later as number)
    expect(waiting).toMatchObject({ attempts: 1, sent_at: null, failed_at: null })
    expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i)
  })

  it('sends each message once when two workers scan at the same time', async () => {
    await settleOthers()
    const server = await smtp()
    const ids = await enqueueMails(120, 'pair', (n) => ({ subject: `Pair ${n}`, text: `Message ${n}` }))
    const a = worker({ SMTP_URL: server.url })
    const b = worker({ SMTP_URL: server.url })
    for (let i = 0; i < 4; i++) await Promise.all([a.runOnce(), b.runOnce()])
    const messageIds = server.received.map((m) => m.messageId)
    expect(new Set(messageIds).size).toBe(120)
    expect(messageIds).toHaveLength(120)
    const unsent = await database.db
      .selectFrom('outbox')
      .select('id')
      .where('id', 'in', ids)
      .where('sent_at', 'is', null)
      .execute()
    expect(unsent).toEqual([])
  })
})

describe('waking the worker', () => {
  it('sends a message right after the commit that wrote it, though the worker would next poll in an hour', async () => {
    await settleOthers()
    const server = await smtp()
    const w = new OutboxWorker({ db: database.api, dataDir, env: { SMTP_URL: server.url }, pollMs: 3_600_000 })
    w.start()
    try {
      // Let the first scan find nothing and the loop fall into its hour-long wait.
      await new Promise((r) => setTimeout(r, 300))
      expect(server.received).toHaveLength(0)
      // A transaction that rolls back enqueues nothing and tells nobody.
      await expect(
        withTenant(database.api, 1, async (trx) => {
          await enqueue(trx, 1, 'mail', { to: 'rolled@example.com', subject: 'Rolled back', text: 'never' })
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      const [id] = await enqueueMails(1, 'woken', () => ({ subject: 'Woken', text: 'sent after the commit' }))
      await expect.poll(() => server.received.length, { timeout: 20_000 }).toBe(1)
      expect(server.received[0]?.to).toBe('woken0@example.com')
      // Marked sent once the SMTP server has acknowledged it, a moment after the mail arrived there.
      await expect.poll(async () => (await row(id as number)).sent_at, { timeout: 20_000 }).not.toBeNull()
    } finally {
      await w.stop()
    }
    expect(server.received.map((mail) => mail.to)).toEqual(['woken0@example.com'])
  })
})

describe('the local mailbox', () => {
  it('writes each mail as an RFC 822 file under the data directory when no SMTP_URL is set', async () => {
    await settleOthers()
    const [id] = await enqueueMails(1, 'local', () => ({ template: 'test', params: { number: 7 }, language: 'zh' }))
    await worker({}).runOnce()
    const file = join(dataDir, 'mailbox', `${String(id).padStart(8, '0')}.eml`)
    expect(readdirSync(join(dataDir, 'mailbox'))).toContain(`${String(id).padStart(8, '0')}.eml`)
    const parsed = await simpleParser(readFileSync(file))
    expect(parsed.messageId).toBe(`<outbox-${id}@localhost>`)
    expect(parsed.subject).toBe('华远国际物流 测试邮件')
    expect(parsed.text).toContain('这是一封测试邮件，编号 7。')
    expect(parsed.html).toContain('华远国际物流')
    expect((await row(id as number)).sent_at).not.toBeNull()
  })
})
