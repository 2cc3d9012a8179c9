import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channelFor } from '../../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../../server/jobs/index.ts'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import { setupTestApp } from '../support/app.ts'
import { now } from '../support/clock.ts'
import { startSmtp, type TestSmtp } from '../support/smtp.ts'

/**
 * A push followed through delivery (issue #22, SPEC §4 "Notification push"): each recipient on /PushView shows
 * how its message fared at the outbox (sent, or failed with the reason) as the real worker delivers to a real
 * SMTP server; the push is completed once every message is settled; a recipient who signs in and opens the
 * pushed item has executed it; a push scheduled for later leaves when due, once; one recipient can be stopped.
 */
const test = setupTestApp()
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-push-delivery-'))
let smtp: TestSmtp

beforeAll(async () => {
  registerBuiltInChannels()
  smtp = await startSmtp()
})
afterAll(async () => {
  await channelFor('mail')?.close?.()
  await smtp.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const call = (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object) =>
  test.app.inject({
    method,
    url,
    headers: { host: 'localhost', language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  })

async function ok(method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object) {
  const body = (await call(method, url, token, payload)).json()
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

const deliver = () => new OutboxWorker({ db: test.database.api, dataDir, env: { SMTP_URL: smtp.url } }).runOnce()

async function userId(username: string): Promise<number> {
  const row = await sql<{ id: number }>`
    select u.id from app_user u join tenant t on t.id = u.tenant_id
    where t.code = 'demo' and u.username = ${username}`.execute(test.database.db)
  return row.rows[0]?.id as number
}

/** A published news item of the demo tenant, as the public news detail answers it. */
async function publishedItem(): Promise<{ id: number; title: string }> {
  const row = await sql<{ id: number; title: string }>`
    select i.id, i.title from information_item i join tenant t on t.id = i.tenant_id
    where t.code = 'demo' and i.status = 'published' order by i.id limit 1`.execute(test.database.db)
  return row.rows[0] as { id: number; title: string }
}

async function sendPush(operator: string, users: number[], extra: object = {}) {
  const item = await publishedItem()
  const created = await ok('POST', '/api/b2b/push/add', operator, {
    channel: 'mail',
    contentType: 'news',
    informationItem: item.id,
    title: item.title,
    users,
    ...extra,
  })
  const sent = await ok('POST', '/api/push/transition', operator, {
    id: created.id,
    version: created.version,
    transition: 'send',
  })
  return { pushId: created.id as number, sent, item }
}

interface Recipient {
  id: number
  version: number
  recipient: number
  state: string
  delivery: string | null
  deliveryError: string | null
  readAt: string | null
  executedAt: string | null
}

const recipients = async (operator: string, pushId: number) =>
  (await ok('POST', '/api/b2b/push/recipients', operator, { searchParams: { push: pushId }, pageNum: 1, pageSize: 50 }))
    .list as Recipient[]

const pushState = async (operator: string, pushId: number) =>
  (await ok('GET', `/api/b2b/push/detail?id=${pushId}`, operator)).state as string

describe('push recipients follow delivery', () => {
  it('shows each message sent or failed with its reason, and the push completed once all are settled', async () => {
    await sql`update outbox set sent_at = now() where sent_at is null`.execute(test.database.db)
    const operator = await test.login('opadmin')
    const entadmin = await userId('entadmin')
    const entop = await userId('entop')
    // entop's mail address is broken: the mail channel fails it at once, with the reason.
    await sql`update app_user set email = 'wang.fang@@broken' where id = ${entop}`.execute(test.database.db)
    const { pushId } = await sendPush(operator, [entadmin, entop])
    const waiting = await recipients(operator, pushId)
    expect(waiting.map((r) => r.delivery)).toEqual(['pending', 'pending'])
    expect(await pushState(operator, pushId)).toBe('notified')

    await deliver()
    const rows = await recipients(operator, pushId)
    const good = rows.find((r) => r.recipient === entadmin)
    const bad = rows.find((r) => r.recipient === entop)
    expect(good).toMatchObject({ state: 'notified', delivery: 'sent', deliveryError: null })
    expect(bad).toMatchObject({ state: 'notified', delivery: 'failed' })
    expect(bad?.deliveryError).toBeTruthy()
    expect(smtp.received.map((m) => m.to)).toContain('entadmin@demo.example')
    // Nothing is left waiting: the failed one is settled too.
    expect(await pushState(operator, pushId)).toBe('completed')
  })

  it('marks a recipient executed when they sign in and open the pushed item; others change nothing', async () => {
    const operator = await test.login('opadmin')
    const entadmin = await userId('entadmin')
    const personal = await userId('personal')
    const { pushId, item } = await sendPush(operator, [entadmin, personal])
    // A visitor and a customer who received nothing open the item: nobody moves.
    await ok('GET', `/api/b2b/public/api/information/detail?id=${item.id}`, undefined)
    await ok('GET', `/api/b2b/public/api/information/detail?id=${item.id}`, await test.login('entop'))
    expect((await recipients(operator, pushId)).map((r) => r.state)).toEqual(['notified', 'notified'])

    await ok('GET', `/api/b2b/public/api/information/detail?id=${item.id}`, await test.login('entadmin'))
    const rows = await recipients(operator, pushId)
    const opened = rows.find((r) => r.recipient === entadmin)
    expect(opened?.state).toBe('executed')
    expect(opened?.executedAt).toBeTruthy()
    expect(opened?.readAt).toBeTruthy()
    expect(rows.find((r) => r.recipient === personal)?.state).toBe('notified')
    // Opening it again changes nothing more.
    await ok('GET', `/api/b2b/public/api/information/detail?id=${item.id}`, await test.login('entadmin'))
    expect((await recipients(operator, pushId)).find((r) => r.recipient === entadmin)?.executedAt).toBe(
      opened?.executedAt,
    )
  })

  it('sends a scheduled push when it is due, and once', async () => {
    await sql`update outbox set sent_at = now() where sent_at is null`.execute(test.database.db)
    const operator = await test.login('opadmin')
    const personal = await userId('personal')
    const scheduledAt = new Date(now().getTime() + 2500)
    const { pushId } = await sendPush(operator, [personal], { scheduledAt: scheduledAt.toISOString() })
    // Its sent time is when its messages leave.
    const detail = await ok('GET', `/api/b2b/push/detail?id=${pushId}`, operator)
    expect(Math.abs(new Date(detail.sentAt).getTime() - scheduledAt.getTime())).toBeLessThan(1000)
    const before = smtp.received.length
    await deliver()
    expect(smtp.received.length).toBe(before)
    expect((await recipients(operator, pushId))[0]?.delivery).toBe('pending')

    await new Promise((resolve) => setTimeout(resolve, 3000))
    await deliver()
    await deliver()
    expect(smtp.received.length).toBe(before + 1)
    expect(smtp.received.at(-1)?.to).toBe('personal@demo.example')
    expect((await recipients(operator, pushId))[0]?.delivery).toBe('sent')
  })

  it("stops one recipient from /PushView's action; a customer may not", async () => {
    const operator = await test.login('opadmin')
    const { pushId } = await sendPush(operator, [await userId('entadmin'), await userId('entop')], {
      scheduledAt: new Date(now().getTime() + 3_600_000).toISOString(),
    })
    const [first] = await recipients(operator, pushId)
    const stop = { id: first?.id, version: first?.version }
    const customer = await call('POST', '/api/b2b/push/recipient/stop', await test.login('entadmin'), stop)
    // The whole answer in the message: a 401 here once (session 23), never seen again.
    expect(customer.json().code, customer.body).toBe('220000')
    expect((await call('POST', '/api/b2b/push/recipient/stop', operator, stop)).json()).toMatchObject({
      code: '0000',
      content: { state: true },
    })
    const stopped = (await recipients(operator, pushId)).find((r) => r.id === first?.id)
    // Its message is taken back: no delivery to follow.
    expect(stopped).toMatchObject({ state: 'aborted', delivery: null })
    const again = (
      await call('POST', '/api/b2b/push/recipient/stop', operator, { id: first?.id, version: stopped?.version })
    ).json()
    expect(again.code).toBe('320001')
  })

  it("tells /pushList/Email's notice whether mail lands in the local mailbox, from the server's SMTP_URL", async () => {
    const operator = await test.login('opadmin')
    const saved = process.env.SMTP_URL
    try {
      delete process.env.SMTP_URL
      const local = await ok('GET', '/api/b2b/push/mailDelivery', operator)
      expect(local.localMailbox).toBe(true)
      expect(local.mailbox).toMatch(/mailbox$/)
      process.env.SMTP_URL = smtp.url
      expect(await ok('GET', '/api/b2b/push/mailDelivery', operator)).toEqual({ localMailbox: false })
    } finally {
      if (saved === undefined) delete process.env.SMTP_URL
      else process.env.SMTP_URL = saved
    }
    const customer = await call('GET', '/api/b2b/push/mailDelivery', await test.login('entadmin'))
    expect(customer.json().code).toBe('220000')
  })
})
