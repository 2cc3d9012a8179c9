import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { onCustomerMessage, setChatFilter } from '../../server/domain/chat/hooks.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls, idIn } from '../support/calls.ts'

/** The chat (issue #27): open and its one-time key, messages, read marks, the desk, the walls, the socket. */
const test = setupTestApp()
const { answer, ok, get } = bearerCalls(test)
const ACME = { host: 'acme.localhost' }

let entadmin: string
let entop: string
let opcs: string
let opadmin: string
let acmeAdmin: string
let acmeOperator: string
/** The demo tenant's users by name (the transfer takes an operator's id, as the pick-list offers it). */
const idOf = {} as Record<'opcs' | 'opadmin' | 'entop', number>
beforeAll(async () => {
  ;[entadmin, entop, opcs, opadmin, acmeAdmin, acmeOperator] = await Promise.all([
    test.login('entadmin'),
    test.login('entop'),
    test.login('opcs'),
    test.login('opadmin'),
    test.login('entadmin', 'acme.localhost'),
    test.login('opadmin', 'acme.localhost'),
  ])
  const { rows } = await sql<{ id: number; username: string }>`select u.id, u.username from app_user u
    join tenant t on t.id = u.tenant_id where t.code = 'demo'`.execute(test.database.db)
  for (const row of rows) idOf[row.username as keyof typeof idOf] = row.id
})

/** An operator on or off chat duty, as the IM administration sets it (/OperationAccountManagementList). */
async function setChatState(username: keyof typeof idOf, chatState: 0 | 1) {
  const accounts = (await ok('POST', '/api/b2b/im/operateAccount/list', opadmin, { searchParams: {} })).list as {
    id: number
    version: number
    user: number
  }[]
  const account = accounts.find((a) => a.user === idOf[username])
  if (!account) throw new Error(`${username} has no chat account`)
  await ok('POST', '/api/b2b/im/operateAccount/edit', opadmin, { id: account.id, version: account.version, chatState })
}

const open = (token: string, body: object, options?: { host: string }) =>
  ok('POST', '/api/b2b/im/open', token, body, options) as Promise<{ cacheKey: string; conversationId: number }>
const unread = async (token: string) => (await ok('GET', '/api/b2b/im/unread', token)).unread as number
const history = (token: string, body: object) => ok('POST', '/api/b2b/im/message/history', token, body)

describe('opening a chat (SPEC §7 IM open)', () => {
  it('answers a cacheKey the chat tab exchanges once, and one open conversation per customer and context', async () => {
    const first = await open(entadmin, { contextType: 'quote', contextRef: 'QT2026000001' })
    expect(first.cacheKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const again = await open(entadmin, { contextType: 'quote', contextRef: 'QT2026000001' })
    expect(again.conversationId).toBe(first.conversationId)
    const other = await open(entadmin, { contextType: 'quote', contextRef: 'QT2026000002' })
    expect(other.conversationId).not.toBe(first.conversationId)

    // Another user cannot spend it; its owner can, once.
    expect((await answer('POST', '/api/b2b/im/enter', entop, { cacheKey: first.cacheKey })).code).toBe('381002')
    const entered = await ok('POST', '/api/b2b/im/enter', entadmin, { cacheKey: first.cacheKey })
    expect(entered).toMatchObject({
      id: first.conversationId,
      contextType: 'quote',
      contextRef: 'QT2026000001',
      state: 1,
    })
    const spent = await answer('POST', '/api/b2b/im/enter', entadmin, { cacheKey: first.cacheKey })
    expect(spent.code).toBe('381002')
    expect(spent.message).toMatch(/expired or was already used/)
  })

  it('refuses an operator who is not one and a reference that is not a number', async () => {
    const unknown = await answer('POST', '/api/b2b/im/open', entadmin, { contactUsername: 'nobody-here' })
    expect(unknown.code).toBe('381004')
    const markup = await answer('POST', '/api/b2b/im/open', entadmin, { contextType: 'order', contextRef: '<b>x</b>' })
    expect(markup.code).toBe('validation')
    expect(markup.content.fieldErrors[0].field).toBe('contextRef')
  })
})

describe('messages, read marks and the desk', () => {
  it('stores, pages backwards, counts unread per side and clears them when read', async () => {
    const { conversationId } = await open(entadmin, {
      contextType: 'order',
      contextRef: 'HY2612310001',
      customMessage: 'When does this booking sail?',
    })
    // Stored before the call answered: the row is there.
    const { rows } = await sql<{
      n: number
    }>`select count(*)::int as n from im_message where conversation = ${conversationId}`.execute(test.database.db)
    expect(rows[0]?.n).toBe(1)
    expect(await unread(opcs)).toBeGreaterThanOrEqual(1)

    const queue = await ok('POST', '/api/b2b/im/conversation/list', opcs, { state: 1 })
    expect(queue.list.map((c: { id: number }) => c.id)).toContain(conversationId)

    // The operator's answer takes the conversation.
    const answered = await ok('POST', '/api/b2b/im/message/send', opcs, {
      conversation: conversationId,
      text: 'Friday',
    })
    // Names are the chat's display names: opcs's /OperationAccountManagementList one (server/db/seed/im.ts).
    expect(answered).toMatchObject({ side: 2, text: 'Friday', senderName: '客服 张敏' })
    const mine = await ok('POST', '/api/b2b/im/conversation/list', opcs, { mine: true })
    expect(mine.list.find((c: { id: number }) => c.id === conversationId)).toMatchObject({
      state: 2,
      operatorName: '客服 张敏',
    })

    expect(await unread(entadmin)).toBe(1)
    for (const text of ['one', 'two', 'three'])
      await ok('POST', '/api/b2b/im/message/send', entadmin, { conversation: conversationId, text })
    const newest = await history(entadmin, { conversationId, pageSize: 2 })
    expect(newest.list.map((m: { text: string }) => m.text)).toEqual(['three', 'two'])
    expect(newest.hasMore).toBe(true)
    const older = await history(entadmin, { conversationId, pageSize: 10, before: newest.list[1].id })
    expect(older.list.map((m: { text: string }) => m.text)).toEqual(['one', 'Friday', 'When does this booking sail?'])
    expect(older.hasMore).toBe(false)
    const resumed = await history(entadmin, { conversationId, after: older.list[1].id })
    expect(resumed.list.map((m: { text: string }) => m.text)).toEqual(['one', 'two', 'three'])

    expect(await ok('POST', '/api/b2b/im/message/read', entadmin, { id: conversationId })).toEqual({ unread: 0 })
    const read = await history(opcs, { conversationId, pageSize: 10 })
    expect(read.list.find((m: { text: string }) => m.text === 'Friday').readAt).not.toBeNull()
    expect(read.list.find((m: { text: string }) => m.text === 'three').readAt).toBeNull()
  })

  it('transfers, tags and closes; a closed conversation refuses messages with its own code', async () => {
    const { conversationId } = await open(entadmin, {
      contextType: 'specialRate',
      contextRef: 'SP001',
      customMessage: 'Hi',
    })
    await ok('POST', '/api/b2b/im/conversation/take', opcs, { id: conversationId })
    // The transfer picks from the operators who chat (imOperatorOptions): opadmin is off duty, so not offered,
    // and refused if asked for anyway; a customer's id is no operator.
    const offered = async () =>
      (await ok('GET', '/api/b2b/im/operator/fuzzyQuery', opcs)).list as { value: string; label: string }[]
    expect(await offered()).toEqual([{ value: String(idOf.opcs), name: '客服 张敏', label: '客服 张敏' }])
    const transfer = (operator: number) =>
      answer('POST', '/api/b2b/im/conversation/transfer', opcs, { id: conversationId, operator })
    const offDuty = await transfer(idOf.opadmin)
    expect(offDuty.code).toBe('381004')
    expect(offDuty.message).toBe('No such customer-service agent on chat duty')
    expect((await transfer(idOf.entop)).code).toBe('381004')
    // A typed name is no longer what the call takes.
    const typed = await answer('POST', '/api/b2b/im/conversation/transfer', opcs, {
      id: conversationId,
      operatorUsername: 'opadmin',
    })
    expect(typed.code).toBe('validation')

    // On duty (the IM administration's account list), opadmin is offered under the name customers see.
    await setChatState('opadmin', 1)
    try {
      expect(await offered()).toEqual(
        expect.arrayContaining([expect.objectContaining({ value: String(idOf.opadmin), label: '李伟（主管）' })]),
      )
      expect(
        (await ok('GET', '/api/b2b/im/operator/fuzzyQuery?keyword=%E4%B8%BB%E7%AE%A1', opcs)).list.map(
          (o: { value: string }) => o.value,
        ),
      ).toEqual([String(idOf.opadmin)])
      const moved = await transfer(idOf.opadmin)
      expect(moved.content).toMatchObject({ state: 2, operator: idOf.opadmin, operatorName: '李伟（主管）' })
    } finally {
      await setChatState('opadmin', 0)
    }

    // Tags by id from the read-only look-up, which opcs (the desk without the tag administration) may read.
    const tagOptions = (await ok('GET', '/api/b2b/im/tag/fuzzyQuery', opcs)).list as {
      value: string
      name: string
      fields: { color?: string }
    }[]
    expect(tagOptions.map((t) => t.name)).toEqual(expect.arrayContaining(['VIP', '报关']))
    expect(tagOptions.find((t) => t.name === 'VIP')?.fields.color).toBe('#C50F1F')
    expect((await answer('POST', '/api/b2b/im/tag/list', opcs, { searchParams: {} })).code).toBe('220000')
    const vip = Number(tagOptions.find((t) => t.name === 'VIP')?.value)
    const customs = Number(tagOptions.find((t) => t.name === '报关')?.value)
    await ok('POST', '/api/b2b/im/conversation/tags', opcs, { id: conversationId, tags: [vip, customs] })
    const tagged = await ok('POST', '/api/b2b/im/conversation/list', opadmin, { tag: customs })
    expect(tagged.list.map((c: { id: number; tags: number[] }) => [c.id, c.tags])).toEqual([
      [conversationId, [vip, customs]],
    ])
    // Another tenant's tag (or one that never was) is refused at the field, in the caller's language.
    const acmeTags = (await ok('GET', '/api/b2b/im/tag/fuzzyQuery', acmeOperator, undefined, ACME)).list as {
      value: string
      name: string
    }[]
    expect(acmeTags.map((t) => t.name)).not.toContain('VIP')
    const foreign = await answer(
      'POST',
      '/api/b2b/im/conversation/tags',
      opcs,
      { id: conversationId, tags: [vip, Number(acmeTags[0]?.value)] },
      { language: 'zh_CN' },
    )
    expect(foreign.code).toBe('validation')
    expect(foreign.content.fieldErrors[0]).toMatchObject({ field: 'tags', message: '该标签不存在' })
    const transferred = await ok('POST', '/api/b2b/im/conversation/list', opcs, { tag: customs })
    expect(transferred.list[0].tags).toEqual([vip, customs])

    // The customer is tagged too: every conversation of theirs shows it at the desk, and the queue's tag filter
    // finds a conversation by its customer's tag; the customer sees neither kind of tag.
    const other = await open(entadmin, { contextType: 'order', contextRef: 'HY-CUSTOMER-TAG', customMessage: 'Hello' })
    const customerTagged = await ok('POST', '/api/b2b/im/customer/tags', opcs, { id: conversationId, tags: [vip] })
    expect(customerTagged).toMatchObject({ id: conversationId, customerTags: [vip] })
    const byCustomerTag = await ok('POST', '/api/b2b/im/conversation/list', opcs, { tag: vip })
    const found = byCustomerTag.list.find((c: { id: number }) => c.id === other.conversationId)
    expect(found).toMatchObject({ tags: [], customerTags: [vip] })
    const theirs = await ok('POST', '/api/b2b/im/mine', entadmin, { pageNum: 1, pageSize: 50 })
    for (const row of theirs.list) expect(row).toMatchObject({ tags: [], customerTags: [] })
    const foreignForCustomer = await answer('POST', '/api/b2b/im/customer/tags', opcs, {
      id: conversationId,
      tags: [Number(acmeTags[0]?.value)],
    })
    expect(foreignForCustomer.code).toBe('validation')
    expect((await answer('POST', '/api/b2b/im/customer/tags', entadmin, { id: conversationId, tags: [] })).code).toBe(
      '220000',
    )
    await ok('POST', '/api/b2b/im/customer/tags', opcs, { id: conversationId, tags: [] })

    await ok('POST', '/api/b2b/im/conversation/close', opadmin, { id: conversationId })
    const refused = await answer('POST', '/api/b2b/im/message/send', entadmin, {
      conversation: conversationId,
      text: 'still there?',
    })
    expect(refused.code).toBe('381001')
    const zh = await answer(
      'POST',
      '/api/b2b/im/message/send',
      entadmin,
      { conversation: conversationId, text: 'x' },
      { language: 'zh_CN' },
    )
    expect(zh.message).toBe('该会话已结束，不能再发送消息，请重新发起咨询')
    // The next open about the same context is a new conversation.
    const reopened = await open(entadmin, { contextType: 'specialRate', contextRef: 'SP001' })
    expect(reopened.conversationId).not.toBe(conversationId)
  })

  it('names people by their chat display names on both sides, in the queue and the messages, never a user name', async () => {
    const customer = await idIn(test, 'company', 'name', '杭州明辉纺织品进出口有限公司')
    const rename = (imDisplayName: string) =>
      ok('POST', '/api/b2b/im/companyAccount/displayName', opadmin, { id: customer, imDisplayName })
    const { conversationId } = await open(entadmin, {
      contextType: 'order',
      contextRef: 'HY-NAMES',
      customMessage: 'Who am I to you?',
    })
    const personal = await test.login('personal')
    // No message of theirs: the rate test below counts every message personal sends.
    const own = await open(personal, { contextType: 'quote', contextRef: 'QT-NAMES' })
    await ok('POST', '/api/b2b/im/message/send', opcs, { conversation: conversationId, text: 'Hello' })

    const seen = async () => {
      const queue = (await ok('POST', '/api/b2b/im/conversation/list', opcs, { pageSize: 100 })).list as {
        id: number
        customerName: string
        operatorName: string
      }[]
      const customerSide = (await history(entadmin, { conversationId })).list as { side: number; senderName: string }[]
      const operatorSide = (await history(opcs, { conversationId })).list as { side: number; senderName: string }[]
      const mine = (await ok('POST', '/api/b2b/im/mine', entadmin, {})).list as { id: number; operatorName: string }[]
      return {
        row: queue.find((c) => c.id === conversationId),
        personal: queue.find((c) => c.id === own.conversationId)?.customerName,
        customerSide: customerSide.map((m) => [m.side, m.senderName]),
        operatorSide: operatorSide.map((m) => [m.side, m.senderName]),
        customersView: mine.find((c) => c.id === conversationId)?.operatorName,
      }
    }
    // No chat name of its own: the enterprise's name; a personal user by their own name; the operator by theirs.
    const company = '杭州明辉纺织品进出口有限公司'
    expect(await seen()).toEqual({
      row: expect.objectContaining({ customerName: company, operatorName: '客服 张敏' }),
      personal: 'Liu Yang',
      customerSide: [
        [2, '客服 张敏'],
        [1, company],
      ],
      operatorSide: [
        [2, '客服 张敏'],
        [1, company],
      ],
      customersView: '客服 张敏',
    })
    // The IM administration names the enterprise for the chat: every view follows, the messages already sent too.
    await rename('明辉纺织')
    try {
      const named = await seen()
      expect(named.row?.customerName).toBe('明辉纺织')
      expect(named.customerSide).toEqual([
        [2, '客服 张敏'],
        [1, '明辉纺织'],
      ])
      expect(named.operatorSide).toEqual(named.customerSide)
      for (const name of [named.row?.customerName, named.row?.operatorName, named.personal])
        expect(['entadmin', 'opcs', 'personal']).not.toContain(name)
    } finally {
      await rename('')
    }
    expect((await seen()).row?.customerName).toBe(company)
    // Read, so the socket test below starts from no unread message.
    await ok('POST', '/api/b2b/im/message/read', entadmin, { id: conversationId })
  })

  it('keeps customers to their own calls and operators to theirs', async () => {
    expect((await answer('POST', '/api/b2b/im/conversation/list', entadmin, {})).code).toBe('220000')
    expect((await answer('POST', '/api/b2b/im/open', opcs, {})).code).toBe('220000')
    expect((await get('/api/b2b/im/unread', null)).statusCode).toBe(401)
  })
})

describe('the walls', () => {
  it("lets nobody read or post in another's conversation, and no tenant see another's", async () => {
    const { conversationId } = await open(entadmin, {
      contextType: 'order',
      contextRef: 'HY-WALL',
      customMessage: 'private',
    })
    // A colleague of the same enterprise is another customer.
    for (const token of [entop]) {
      expect((await answer('POST', '/api/b2b/im/message/history', token, { conversationId })).code).toBe('404')
      expect(
        (await answer('POST', '/api/b2b/im/message/send', token, { conversation: conversationId, text: 'x' })).code,
      ).toBe('404')
    }
    const acme = { ...ACME }
    expect((await answer('POST', '/api/b2b/im/message/history', acmeAdmin, { conversationId }, acme)).code).toBe('404')
    expect(
      (await answer('POST', '/api/b2b/im/message/send', acmeAdmin, { conversation: conversationId, text: 'x' }, acme))
        .code,
    ).toBe('404')
    const queue = await ok('POST', '/api/b2b/im/conversation/list', acmeOperator, { pageSize: 100 }, acme)
    expect(queue.list.map((c: { id: number }) => c.id)).not.toContain(conversationId)
    expect(
      (await answer('POST', '/api/b2b/im/conversation/take', acmeOperator, { id: conversationId }, acme)).code,
    ).toBe('404')
  })
})

describe('bounds and extension points', () => {
  it('refuses a text over its length and an empty message', async () => {
    const { conversationId } = await open(entadmin, { contextType: 'order', contextRef: 'HY-BOUNDS' })
    const long = await answer('POST', '/api/b2b/im/message/send', entadmin, {
      conversation: conversationId,
      text: 'x'.repeat(2001),
    })
    expect(long.code).toBe('validation')
    expect(long.content.fieldErrors[0]).toMatchObject({ field: 'text', key: 'validation.maxLength' })
    const empty = await answer('POST', '/api/b2b/im/message/send', entadmin, {
      conversation: conversationId,
      text: '   ',
    })
    expect(empty.code).toBe('validation')
  })

  it('passes every text through the chat filter and tells the auto-reply of customer messages', async () => {
    const events: { conversationId: number; awaitingSince: Date }[] = []
    const previous = setChatFilter(async (_trx, message) =>
      message.text.includes('forbidden') ? { refuse: '381003' } : { text: message.text.replaceAll('darn', '****') },
    )
    const off = onCustomerMessage(async (_trx, event) => {
      events.push(event)
    })
    try {
      const { conversationId } = await open(entadmin, { contextType: 'order', contextRef: 'HY-FILTER' })
      const masked = await ok('POST', '/api/b2b/im/message/send', entadmin, {
        conversation: conversationId,
        text: 'darn it',
      })
      expect(masked.text).toBe('**** it')
      const refused = await answer('POST', '/api/b2b/im/message/send', entadmin, {
        conversation: conversationId,
        text: 'forbidden',
      })
      expect(refused.code).toBe('381003')
      const stored = await history(entadmin, { conversationId })
      expect(stored.list.map((m: { text: string }) => m.text)).toEqual(['**** it'])
      expect(events).toHaveLength(1)
      expect(events[0]).toMatchObject({ conversationId })
      expect(events[0]?.awaitingSince).toBeInstanceOf(Date)
    } finally {
      setChatFilter(previous)
      off()
    }
  })

  it('limits how fast one user sends', async () => {
    const personal = await test.login('personal')
    const { conversationId } = await open(personal, {})
    const codes: string[] = []
    for (let i = 0; i < 21; i++)
      codes.push(
        (await answer('POST', '/api/b2b/im/message/send', personal, { conversation: conversationId, text: `m${i}` }))
          .code,
      )
    expect(codes.slice(0, 20).every((c) => c === '0000')).toBe(true)
    expect(codes[20]).toBe('381005')
  })
})

describe('the socket (GET /b2b/im/socket)', () => {
  let port = 0
  const sockets: WebSocket[] = []
  beforeAll(async () => {
    await test.app.listen({ port: 0, host: '127.0.0.1' })
    port = (test.app.server.address() as AddressInfo).port
  })
  afterAll(() => {
    for (const socket of sockets) if (socket.readyState === WebSocket.OPEN) socket.terminate()
  })

  /** A socket signed in by the session cookie, and every frame it hears. */
  async function connect(token: string, host = 'localhost') {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/b2b/im/socket`, {
      headers: { host, cookie: `b2b_token=${token}` },
    })
    sockets.push(socket)
    const frames: Record<string, unknown>[] = []
    const waiters: (() => void)[] = []
    socket.on('message', (data) => {
      frames.push(JSON.parse(data.toString()))
      for (const wake of waiters.splice(0)) wake()
    })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    const next = async (match: (f: Record<string, unknown>) => boolean, ms = 1000) => {
      const started = Date.now()
      for (;;) {
        const found = frames.find(match)
        if (found) return found
        if (Date.now() - started > ms) throw new Error(`no such frame in ${JSON.stringify(frames).slice(0, 600)}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 50)
        })
      }
    }
    return { socket, frames, next, send: (frame: object) => socket.send(JSON.stringify(frame)) }
  }

  it('refuses a socket without a session, from another site, and another tenant sees nothing', async () => {
    const anonymous = new WebSocket(`ws://127.0.0.1:${port}/api/b2b/im/socket`, { headers: { host: 'localhost' } })
    sockets.push(anonymous)
    const status = await new Promise((resolve) =>
      anonymous.once('unexpected-response', (_req, res) => resolve(res.statusCode)),
    )
    expect(status).toBe(401)
    const foreign = new WebSocket(`ws://127.0.0.1:${port}/api/b2b/im/socket`, {
      headers: { host: 'localhost', cookie: `b2b_token=${entadmin}`, origin: 'https://evil.example' },
    })
    sockets.push(foreign)
    expect(await new Promise((resolve) => foreign.once('close', (code) => resolve(code)))).toBe(1008)
  })

  it('carries a message to the other side at once, with delivered and read marks and unread counts', async () => {
    const { conversationId } = await open(entadmin, { contextType: 'order', contextRef: 'HY-SOCKET' })
    const customer = await connect(entadmin)
    const operator = await connect(opcs)
    const acme = await connect(await test.login('opadmin', 'acme.localhost'), 'acme.localhost')
    const colleague = await connect(entop)

    customer.send({ type: 'send', conversationId, text: 'Container number please', ref: 'c1' })
    const ack = await customer.next((f) => f.type === 'ack' && f.ref === 'c1')
    const id = ack.id as number
    const heard = await operator.next((f) => f.type === 'message' && (f.message as { id: number }).id === id)
    // An enterprise user by their enterprise's chat name (the company's name while it has none of its own).
    expect(heard.message).toMatchObject({
      text: 'Container number please',
      side: 1,
      senderName: '杭州明辉纺织品进出口有限公司',
    })
    await customer.next((f) => f.type === 'delivered' && f.messageId === id)

    operator.send({ type: 'send', conversationId, text: 'TGHU1234567', ref: 'o1' })
    await customer.next((f) => f.type === 'message' && (f.message as { text: string }).text === 'TGHU1234567')
    await customer.next((f) => f.type === 'unread' && f.unread === 1)
    customer.send({ type: 'read', conversationId })
    await operator.next((f) => f.type === 'read' && f.conversationId === conversationId && f.side === 1)
    await customer.next((f) => f.type === 'unread' && f.unread === 0)

    // Resuming after the first message hears what came after it.
    customer.send({ type: 'resume', conversationId, after: id, ref: 'r1' })
    const resumed = await customer.next((f) => f.type === 'resume' && f.ref === 'r1')
    expect((resumed.list as { text: string }[]).map((m) => m.text)).toEqual(['TGHU1234567'])

    // Neither another tenant nor another customer heard any of it.
    await new Promise((resolve) => setTimeout(resolve, 100))
    for (const outsider of [acme, colleague])
      expect(
        outsider.frames.filter((f) => f.type !== 'unread'),
        JSON.stringify(outsider.frames),
      ).toEqual([])
  })

  it("tells a message's unread count only to those it counts for: not to an operator who does not hold it", async () => {
    const { conversationId } = await open(entadmin, { contextType: 'order', contextRef: 'HY-UNREAD-FEW' })
    await ok('POST', '/api/b2b/im/conversation/take', opcs, { id: conversationId })
    const holder = await connect(opcs)
    const other = await connect(opadmin)
    const customer = await connect(entadmin)
    // Each socket hears its count once on opening; what follows is the message's.
    await other.next((f) => f.type === 'unread')
    await holder.next((f) => f.type === 'unread')
    const [holderBefore, otherBefore] = [holder.frames.length, other.frames.length]

    customer.send({ type: 'send', conversationId, text: 'Only for Zhang Min', ref: 'few' })
    const ack = await customer.next((f) => f.type === 'ack' && f.ref === 'few')
    // Both operators hear the message (the desk sees every conversation); only the holder's count changed.
    await other.next((f) => f.type === 'message' && (f.message as { id: number }).id === ack.id)
    await holder.next((f) => holder.frames.indexOf(f) >= holderBefore && f.type === 'unread')
    await customer.next((f) => f.type === 'delivered' && f.messageId === ack.id)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(other.frames.slice(otherBefore).map((f) => f.type)).not.toContain('unread')
  })

  it('answers a bad frame with its error and posts nowhere it may not', async () => {
    const { conversationId } = await open(entadmin, { contextType: 'order', contextRef: 'HY-FRAMES' })
    const customer = await connect(entadmin)
    customer.send({ type: 'send', conversationId, text: 'x'.repeat(2001), ref: 'long' })
    const long = await customer.next((f) => f.type === 'error' && f.ref === null)
    expect(long).toMatchObject({ code: 'validation' })
    customer.socket.send('not json')
    customer.send({ type: 'drop table', conversationId })
    customer.send({ type: 'send', conversationId, text: 'hi', extra: 1 })
    await customer.next(() => customer.frames.filter((f) => f.type === 'error').length >= 4)
    const acme = await connect(acmeAdmin, 'acme.localhost')
    acme.send({ type: 'send', conversationId, text: 'hello from acme' })
    const refused = await acme.next((f) => f.type === 'error')
    expect(refused.code).toBe('404')
    // A frame over the size bound closes the socket.
    const closed = new Promise((resolve) => customer.socket.once('close', (code) => resolve(code)))
    customer.socket.send(JSON.stringify({ type: 'send', conversationId, text: 'y'.repeat(9000) }))
    expect(await closed).toBe(1009)
  })
})
