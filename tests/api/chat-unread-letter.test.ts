import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendSystemMessage } from '../../server/domain/chat/store.ts'
import { UNREAD_LETTER_KIND } from '../../server/domain/im/unreadLetter.ts'
import { channelFor } from '../../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../../server/jobs/index.ts'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { passOutboxTime } from '../support/clock.ts'
import { startSmtp, type TestSmtp } from '../support/smtp.ts'

/**
 * A customer offline for a while hears of unread chat messages (issue #27, server/domain/im/unreadLetter.ts):
 * an operator's messages left unread for the wait (15 minutes by default) make one letter and one mail, over a
 * real SMTP server, per conversation and unread burst; nothing when read meanwhile, closed, or only the system
 * spoke; nobody else hears it. Time passes for the outbox (tests/support/clock.ts), never slept.
 */
const test = setupTestApp()
const { answer, ok } = bearerCalls(test)
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-unread-letter-'))
const MINUTE = 60_000
const en = JSON.parse(readFileSync('locales/en/letter.json', 'utf8')) as Record<string, string>
const zh = JSON.parse(readFileSync('locales/zh/letter.json', 'utf8')) as Record<string, string>

let smtp: TestSmtp
let entadmin = ''
let entop = ''
let opcs = ''
let demo = 0
let acme = 0
const users: Record<string, { id: number; email: string }> = {}
let tenantNames = { zh: '', en: '' }

beforeAll(async () => {
  smtp = await startSmtp()
  // The mail channel the server's worker registers at start (server/jobs/index.ts).
  registerBuiltInChannels()
  ;[entadmin, entop, opcs] = await Promise.all([test.login('entadmin'), test.login('entop'), test.login('opcs')])
  const db = test.database.db
  const tenant = await db
    .selectFrom('tenant')
    .select(['id', 'name_zh', 'name_en', 'settings'])
    .where('code', '=', 'demo')
    .executeTakeFirstOrThrow()
  demo = tenant.id
  const settings = (tenant.settings ?? {}) as Record<string, string | undefined>
  tenantNames = { zh: settings.websiteName || tenant.name_zh, en: settings.websiteNameEn || tenant.name_en }
  acme = (await db.selectFrom('tenant').select('id').where('code', '=', 'acme').executeTakeFirstOrThrow()).id
  for (const [key, tenantId, username] of [
    ['entadmin', demo, 'entadmin'],
    ['entop', demo, 'entop'],
    ['acmeEntadmin', acme, 'entadmin'],
  ] as const) {
    const row = await db
      .selectFrom('app_user')
      .select(['id', 'email'])
      .where('tenant_id', '=', tenantId)
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
    users[key] = { id: row.id, email: row.email ?? '' }
  }
  // entop reads English; entadmin chose nothing, so the tenant's default (Chinese) is theirs.
  await db
    .updateTable('app_user')
    .set({ language: 'en' })
    .where('id', '=', users.entop?.id as number)
    .execute()
})
afterAll(async () => {
  // The mail channel's pooled connections, or the SMTP server waits for them to time out.
  await channelFor('mail')?.close?.()
  await smtp.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Worker rounds until nothing is due: the due letter, then the mail it queued. */
async function deliver(): Promise<void> {
  const worker = new OutboxWorker({ db: test.database.api, dataDir, env: { SMTP_URL: smtp.url } })
  for (let round = 0; round < 5 && (await worker.runOnce()) > 0; round++);
}
const open = async (token: string, contextRef: string) =>
  (await ok('POST', '/api/b2b/im/open', token, { contextType: 'order', contextRef })).conversationId as number
const say = (token: string, conversation: number, text: string) =>
  ok('POST', '/api/b2b/im/message/send', token, { conversation, text })

interface Letter {
  title: string
  content: string
  link: string
}
async function chatLetters(tenantId: number, user: number | undefined): Promise<Letter[]> {
  const { rows } = await withTenant(test.database.db, tenantId, (trx) =>
    sql<Letter>`select title, content, link from letter
      where recipient = ${user} and event = 'chatUnread' order by id`.execute(trx),
  )
  return rows
}
const mailsTo = (email: string | undefined) => smtp.received.filter((mail) => mail.to.includes(email ?? '-'))

describe('an operator’s message left unread', () => {
  it('tells the customer once the wait is over: one letter and one mail, in their language, with the chat link', async () => {
    const conversation = await open(entop, 'HY2612310201')
    await say(opcs, conversation, 'Your booking is confirmed; the SO follows.')
    const letters = await chatLetters(demo, users.entop?.id)
    const mails = mailsTo(users.entop?.email).length

    // 14 minutes: not yet.
    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, 14 * MINUTE)
    await deliver()
    expect(await chatLetters(demo, users.entop?.id)).toEqual(letters)

    // 15 minutes: one letter in the bell and one mail.
    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, MINUTE)
    await deliver()
    const title = `You have 1 unread message from ${tenantNames.en} customer service`
    const link = `/im?conversation=${conversation}`
    expect((await chatLetters(demo, users.entop?.id)).slice(letters.length)).toEqual([
      { title, content: en.chatUnreadOne_content, link },
    ])
    const page = await ok('POST', '/api/b2b/letter/list', entop, {})
    expect(page.list[0]).toMatchObject({ title, link, status: 0 })

    await expect.poll(() => mailsTo(users.entop?.email).length).toBe(mails + 1)
    const mail = mailsTo(users.entop?.email).at(-1)
    expect(mail?.subject).toBe(title)
    expect(mail?.text).toContain('Open the chat to read it and reply.')
    expect(mail?.text).toMatch(new RegExp(`https://[^\\s]+/im\\?conversation=${conversation}\\b`))

    // The link's chat tab finds the conversation for its customer, with the message unread; for nobody else.
    const opened = await ok('POST', '/api/b2b/im/conversation/get', entop, { id: conversation })
    expect(opened).toMatchObject({ id: conversation, contextRef: 'HY2612310201', unread: 1 })
    expect((await answer('POST', '/api/b2b/im/conversation/get', entadmin, { id: conversation })).code).toBe('404')
    const acmeAdmin = await test.login('entadmin', 'acme.localhost')
    const acmeCall = { host: 'acme.localhost' }
    expect((await answer('POST', '/api/b2b/im/conversation/get', acmeAdmin, { id: conversation }, acmeCall)).code).toBe(
      '404',
    )

    // Told once: more time and more rounds write nothing more.
    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, 60 * MINUTE)
    await deliver()
    expect(await chatLetters(demo, users.entop?.id)).toHaveLength(letters.length + 1)
    expect(mailsTo(users.entop?.email)).toHaveLength(mails + 1)
  })

  it('two messages of one burst make one letter that counts both; the customer alone hears it', async () => {
    const conversation = await open(entadmin, 'HY2612310202')
    const before = await chatLetters(demo, users.entadmin?.id)
    const colleague = await chatLetters(demo, users.entop?.id)
    const outsider = await chatLetters(acme, users.acmeEntadmin?.id)
    await say(opcs, conversation, '您好，请问需要报关服务吗？')
    await say(opcs, conversation, '报关资料请在今天下班前上传。')
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from outbox
      where kind = ${UNREAD_LETTER_KIND} and (payload->>'conversationId')::int = ${conversation}`.execute(
      test.database.db,
    )
    expect(rows[0]?.n).toBe(1)

    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, 15 * MINUTE)
    await deliver()
    const title = `您有 2 条来自${tenantNames.zh}客服的未读消息`
    expect(zh.chatUnread_title?.replace('{{count}}', '2').replace('{{tenant}}', tenantNames.zh)).toBe(title)
    expect((await chatLetters(demo, users.entadmin?.id)).slice(before.length)).toEqual([
      { title, content: zh.chatUnread_content, link: `/im?conversation=${conversation}` },
    ])
    await expect.poll(() => mailsTo(users.entadmin?.email).some((mail) => mail.subject === title)).toBe(true)
    expect(mailsTo(users.entadmin?.email).filter((mail) => mail.subject === title)).toHaveLength(1)
    // Not the customer's colleague, not another tenant's user of the same name.
    expect(await chatLetters(demo, users.entop?.id)).toEqual(colleague)
    expect(await chatLetters(acme, users.acmeEntadmin?.id)).toEqual(outsider)
    expect(mailsTo(users.acmeEntadmin?.email)).toHaveLength(0)
  })

  it('a new burst after the customer read makes a new letter', async () => {
    const conversation = await open(entop, 'HY2612310203')
    await say(opcs, conversation, 'First question: pallets or loose?')
    await ok('POST', '/api/b2b/im/message/read', entop, { id: conversation })
    await say(opcs, conversation, 'Second question: any dangerous goods?')
    const before = await chatLetters(demo, users.entop?.id)
    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, 15 * MINUTE)
    await deliver()
    // The first burst was read: only the second one's letter, counting its one message.
    expect((await chatLetters(demo, users.entop?.id)).slice(before.length).map((l) => l.title)).toEqual([
      `You have 1 unread message from ${tenantNames.en} customer service`,
    ])
  })
})

describe('nothing to tell', () => {
  it('when the customer read it within the wait', async () => {
    const conversation = await open(entop, 'HY2612310204')
    await say(opcs, conversation, 'The vessel is delayed by a day.')
    await ok('POST', '/api/b2b/im/message/read', entop, { id: conversation })
    const letters = await chatLetters(demo, users.entop?.id)
    const mails = mailsTo(users.entop?.email).length
    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, 15 * MINUTE)
    await deliver()
    expect(await chatLetters(demo, users.entop?.id)).toEqual(letters)
    expect(mailsTo(users.entop?.email)).toHaveLength(mails)
    // The row was settled, not left to try again.
    const { rows } = await sql<{ sent: boolean }>`select sent_at is not null as sent from outbox
      where kind = ${UNREAD_LETTER_KIND} and (payload->>'conversationId')::int = ${conversation}`.execute(
      test.database.db,
    )
    expect(rows).toEqual([{ sent: true }])
  })

  it('when the conversation was closed meanwhile', async () => {
    const conversation = await open(entop, 'HY2612310205')
    await say(opcs, conversation, 'Done here, thank you.')
    await ok('POST', '/api/b2b/im/conversation/close', opcs, { id: conversation })
    const letters = await chatLetters(demo, users.entop?.id)
    await passOutboxTime(test.database.db, UNREAD_LETTER_KIND, 15 * MINUTE)
    await deliver()
    expect(await chatLetters(demo, users.entop?.id)).toEqual(letters)
  })

  it('when only the system spoke: the auto-reply is no person’s message', async () => {
    const conversation = await open(entop, 'HY2612310206')
    await withTenant(test.database.api, demo, (trx) =>
      sendSystemMessage(trx, demo, conversation, 'Customer service will be with you shortly.'),
    )
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from outbox
      where kind = ${UNREAD_LETTER_KIND} and (payload->>'conversationId')::int = ${conversation}`.execute(
      test.database.db,
    )
    expect(rows[0]?.n).toBe(0)
  })
})
