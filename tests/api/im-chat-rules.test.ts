import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'

/**
 * The IM administration at work in the chat (issue #27, server/domain/im/chat.ts): the tenant's chat filter
 * masks or refuses a message before it is stored, and the auto-reply answers a customer nobody answered within
 * the wait — through the outbox, so it is sent by whichever worker leases it, and not at all once an operator
 * has answered.
 */
const test = setupTestApp()
const { answer, ok } = bearerCalls(test)
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-im-rules-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

type Row = Record<string, unknown> & { id: number; version: number }
type Message = { side: number; text: string }

let entadmin = ''
let entop = ''
let opcs = ''
let opadmin = ''
beforeAll(async () => {
  ;[entadmin, entop, opcs, opadmin] = await Promise.all([
    test.login('entadmin'),
    test.login('entop'),
    test.login('opcs'),
    test.login('opadmin'),
  ])
})

const deliver = () => new OutboxWorker({ db: test.database.api, dataDir, env: {} }).runOnce()
const open = async (token: string, contextRef: string) =>
  (await ok('POST', '/api/b2b/im/open', token, { contextType: 'order', contextRef })).conversationId as number
const send = (token: string, conversation: number, text: string, language?: string) =>
  answer('POST', '/api/b2b/im/message/send', token, { conversation, text }, language ? { language } : undefined)
const messages = async (token: string, conversationId: number) =>
  ((await ok('POST', '/api/b2b/im/message/history', token, { conversationId, pageSize: 50 })).list as Message[])
    .slice()
    .reverse()

describe('the chat filter', () => {
  it('masks the seeded words and patterns and refuses a refused one in the sender’s language, storing nothing', async () => {
    const conversation = await open(entadmin, 'HY2612310101')
    const masked = await send(entadmin, conversation, '返点怎么算？加我微 信聊')
    expect(masked.code).toBe('0000')
    expect(masked.content.text).toBe('**怎么算？加我***聊')
    const refused = await send(entadmin, conversation, '可以私下转账吗', 'zh_CN')
    expect(refused.code).toBe('381003')
    expect(refused.message).toBe(JSON.parse(readFileSync('locales/zh/error.json', 'utf8'))['381003'])
    expect((await messages(entadmin, conversation)).map((m) => m.text)).toEqual(['**怎么算？加我***聊'])
    // A disabled filter (现金) masks nothing; another tenant's words (kickback) are not this tenant's.
    expect((await send(entadmin, conversation, '现金 kickback')).content.text).toBe('现金 kickback')
  })
})

describe('the auto-reply', () => {
  let setting: Row
  beforeAll(async () => {
    const listed = await ok('POST', '/api/b2b/im/autoResponse/list', opadmin, { searchParams: {} })
    const seeded = listed.list[0] as Row
    // Every day, all day, a one-second wait: within service hours whatever the clock says.
    setting = (await ok('POST', '/api/b2b/im/autoResponse/save', opadmin, {
      enabled: true,
      message: seeded.message,
      waitValue: 1,
      waitUnit: 'seconds',
      serviceDays: [1, 2, 3, 4, 5, 6, 7],
      serviceStart: '00:00',
      serviceEnd: '24:00',
      outsideHoursMessage: seeded.outsideHoursMessage,
      version: seeded.version,
    })) as Row
  })

  it('answers a customer nobody answered within the wait, once, as the system side', async () => {
    const conversation = await open(entop, 'HY2612310102')
    await send(entop, conversation, '请问这票什么时候开船？')
    await send(entop, conversation, '在吗？')
    // One wait, one scheduled reply: the second message of the same wait schedules none.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from outbox
      where kind = 'chatAutoReply' and (payload->>'conversationId')::int = ${conversation}`.execute(test.database.db)
    expect(rows[0]?.n).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    await deliver()
    const after = await messages(entop, conversation)
    expect(after.map((m) => [m.side, m.text])).toEqual([
      [1, '请问这票什么时候开船？'],
      [1, '在吗？'],
      [3, setting.message],
    ])
    // Delivered once: another run sends nothing more.
    await deliver()
    expect(await messages(entop, conversation)).toHaveLength(3)
  })

  it('tries a reply leased before it is due again when it is due, not after the back-off', async () => {
    const conversation = await open(entop, 'HY2612310105')
    await send(entop, conversation, '到港了吗？')
    // Leased at once, before the one-second wait is over (as a row due from its transaction's start can be).
    const due = sql`kind = 'chatAutoReply' and (payload->>'conversationId')::int = ${conversation}`
    await sql`update outbox set next_attempt_at = now() where ${due}`.execute(test.database.db)
    await deliver()
    expect((await messages(entop, conversation)).map((m) => m.side)).toEqual([1])
    const { rows } = await sql<{ wait_ms: number; last_error: string }>`select last_error,
      extract(epoch from next_attempt_at - now()) * 1000 as wait_ms from outbox where ${due}`.execute(test.database.db)
    expect(rows[0]?.last_error).toBe('auto-reply not yet due')
    // Due again within the wait's second, not after the worker's 30-second back-off.
    expect(Number(rows[0]?.wait_ms)).toBeLessThanOrEqual(1_000)
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    await deliver()
    expect((await messages(entop, conversation)).map((m) => m.side)).toEqual([1, 3])
  })

  it('stays silent when an operator answered first, or when it is off', async () => {
    const conversation = await open(entadmin, 'HY2612310103')
    await send(entadmin, conversation, 'Is the VGM deadline tomorrow?')
    expect((await send(opcs, conversation, 'Yes, 17:00.')).code).toBe('0000')
    await new Promise((resolve) => setTimeout(resolve, 1_200))
    await deliver()
    expect((await messages(entadmin, conversation)).map((m) => m.side)).toEqual([1, 2])

    const { message, waitValue, waitUnit, serviceDays, serviceStart, serviceEnd, outsideHoursMessage } = setting
    const off = (await ok('POST', '/api/b2b/im/autoResponse/save', opadmin, {
      ...{ message, waitValue, waitUnit, serviceDays, serviceStart, serviceEnd, outsideHoursMessage },
      enabled: false,
      version: setting.version,
    })) as Row
    expect(off.enabled).toBe(false)
    const quiet = await open(entadmin, 'HY2612310104')
    await send(entadmin, quiet, 'Anyone there?')
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from outbox
      where kind = 'chatAutoReply' and (payload->>'conversationId')::int = ${quiet}`.execute(test.database.db)
    expect(rows[0]?.n).toBe(0)
  })
})
