import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channelFor } from '../../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../../server/jobs/index.ts'
import { enqueue } from '../../server/jobs/outbox.ts'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { startSmtp, type TestSmtp } from '../support/smtp.ts'

/**
 * The outbox as operators follow it (issue #22): /outboxStatus counts the tenant's messages per channel and
 * delivery state, /outboxFailed lists the failed ones with their reason and tries, and `retry` sends one again.
 * The messages are failed by the real worker against a real SMTP server that refuses them; nothing of another
 * tenant is counted, listed or retried.
 */
const test = setupTestApp()
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-outbox-status-'))
const servers: TestSmtp[] = []

beforeAll(() => registerBuiltInChannels())
afterAll(async () => {
  await channelFor('mail')?.close?.()
  for (const server of servers) await server.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const call = (url: string, token: string, payload: object, host = 'localhost') =>
  test.app.inject({
    method: 'POST',
    url,
    headers: { host, authorization: `Bearer ${token}`, language: 'en_US' },
    payload,
  })

const tenantId = async (code: string) =>
  (await test.database.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id

async function mails(tenant: number, prefix: string, count: number) {
  return withTenant(test.database.api, tenant, async (trx) => {
    const ids: number[] = []
    for (let n = 0; n < count; n++)
      ids.push(
        await enqueue(trx, tenant, 'mail', { to: `${prefix}${n}@example.com`, subject: `${prefix} ${n}`, text: 'x' }),
      )
    return ids
  })
}

interface Tally {
  kind: string
  pending: number
  retrying: number
  sent: number
  failed: number
}
interface Failed {
  id: number
  version: number
  kind: string
  state: string
  recipient: string
  subject: string
  attempts: number
  lastError: string
}

async function tallies(token: string, host = 'localhost') {
  const response = await call('/api/b2b/messaging/outbox/status', token, { pageNum: 1, pageSize: 10 }, host)
  expect(response.json().code, response.body.slice(0, 300)).toBe('0000')
  return response.json().content.list as Tally[]
}

async function failed(token: string, searchParams: object = {}, host = 'localhost') {
  const response = await call(
    '/api/b2b/messaging/outbox/failed',
    token,
    { searchParams, pageNum: 1, pageSize: 20 },
    host,
  )
  expect(response.json().code, response.body.slice(0, 300)).toBe('0000')
  return response.json().content as { list: Failed[]; total: number }
}

describe('outbox status for operators', () => {
  it('counts by channel and state, lists the failed with their reason, and sends one again', async () => {
    // Every message of the seed is settled first, so the counts are this test's.
    await sql`update outbox set sent_at = now() where sent_at is null`.execute(test.database.db)
    const demo = await tenantId('demo')
    const acme = await tenantId('acme')
    const refusing = await startSmtp({ refuse: { code: 550, message: 'No such user here' } })
    servers.push(refusing)
    const ids = await mails(demo, 'gone', 3)
    await mails(acme, 'acme-gone', 2)
    await new OutboxWorker({ db: test.database.api, dataDir, env: { SMTP_URL: refusing.url } }).runOnce()
    const waiting = await mails(demo, 'later', 2)

    const opadmin = await test.login('opadmin')
    const before = await tallies(opadmin)
    const mail = before.find((t) => t.kind === 'mail')
    expect(mail?.failed).toBe(3)
    expect(mail?.pending).toBe(2)
    expect(mail?.retrying).toBe(0)

    const list = await failed(opadmin)
    expect(list.total).toBe(3)
    expect(list.list.map((m) => m.id).sort()).toEqual([...ids].sort())
    expect(list.list[0]).toMatchObject({ kind: 'mail', state: 'failed', attempts: 1 })
    expect(list.list[0]?.lastError).toContain('No such user here')
    expect(list.list[0]?.recipient).toMatch(/^gone\d@example\.com$/)
    // Searched by recipient.
    expect((await failed(opadmin, { recipient: 'gone1' })).list.map((m) => m.recipient)).toEqual(['gone1@example.com'])

    // Acme's operator sees acme's two only, and cannot retry demo's message.
    const acmeAdmin = await test.login('opadmin', 'acme.localhost')
    expect((await failed(acmeAdmin, {}, 'acme.localhost')).total).toBe(2)
    expect((await tallies(acmeAdmin, 'acme.localhost')).find((t) => t.kind === 'mail')?.failed).toBe(2)
    const first = list.list[0] as Failed
    const foreign = await call(
      '/api/b2b/messaging/outbox/retry',
      acmeAdmin,
      { id: first.id, version: first.version },
      'acme.localhost',
    )
    expect(foreign.json().code).toBe('404')

    // Retry: due again at once; a listening server then takes it.
    const retried = await call('/api/b2b/messaging/outbox/retry', opadmin, { id: first.id, version: first.version })
    expect(retried.json()).toMatchObject({ code: '0000', content: { state: true } })
    expect((await failed(opadmin)).total).toBe(2)
    // The same retry again: the message is no longer failed.
    const again = await call('/api/b2b/messaging/outbox/retry', opadmin, { id: first.id, version: first.version })
    expect(again.json().code).toBe('330002')
    // A message that never failed cannot be retried either.
    const notFailed = await call('/api/b2b/messaging/outbox/retry', opadmin, { id: waiting[0], version: 1 })
    expect(notFailed.json().code).toBe('330002')

    const listening = await startSmtp()
    servers.push(listening)
    await new OutboxWorker({ db: test.database.api, dataDir, env: { SMTP_URL: listening.url } }).runOnce()
    expect(listening.received.map((m) => m.to).sort()).toEqual(
      [first.recipient, 'later0@example.com', 'later1@example.com'].sort(),
    )
    const after = (await tallies(opadmin)).find((t) => t.kind === 'mail')
    expect(after).toMatchObject({ failed: 2, pending: 0, retrying: 0 })
    expect(after?.sent).toBe((mail?.sent ?? 0) + 3)
  })

  it('is for operators who hold operationSet; bad input is a clear validation error', async () => {
    const customer = await test.login('entadmin')
    expect((await call('/api/b2b/messaging/outbox/failed', customer, { pageNum: 1 })).json().code).toBe('220000')
    expect((await call('/api/b2b/messaging/outbox/retry', customer, { id: 1, version: 1 })).json().code).toBe('220000')
    const opadmin = await test.login('opadmin')
    const bad = await call('/api/b2b/messaging/outbox/retry', opadmin, { id: 'x' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().content.fieldErrors).toEqual([expect.objectContaining({ field: 'id' })])
    const tooBig = await call('/api/b2b/messaging/outbox/failed', opadmin, { pageNum: 1, pageSize: 5000 })
    expect(tooBig.statusCode).toBe(400)
  })
})
