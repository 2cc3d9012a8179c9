import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { readToken } from '../../server/domain/push/token.ts'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()

const call = (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object, host = 'localhost') =>
  test.app.inject({
    method,
    url,
    headers: { host, language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  })

async function ok(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  const body = (await call(method, url, token, payload)).json()
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

async function tenantId(host = 'localhost'): Promise<number> {
  const row = await sql<{ tenant_id: number }>`select tenant_id from tenant_domain where domain = ${host}`.execute(
    test.database.db,
  )
  return row.rows[0]?.tenant_id as number
}

/**
 * Three customer enterprises of the tenant, each with one user that has a mail address: the demo seed has two,
 * the third (a Ningbo importer and its buyer) is written here once.
 */
async function threeCustomers(tenant: number) {
  const db = test.database.db
  const name = '宁波海曙佳禾进出口有限公司'
  const existing = await sql<{
    id: number
  }>`select id from company where tenant_id = ${tenant} and name = ${name}`.execute(db)
  if (!existing.rows[0]) {
    const company = await sql<{ id: number }>`insert into company (tenant_id, name, name_en, company_type)
      values (${tenant}, ${name}, 'Ningbo Jiahe Import Export', 2) returning id`.execute(db)
    await sql`insert into app_user (tenant_id, company_id, username, real_name, email, mobile, password_hash, company_user_type, updated_at)
      values (${tenant}, ${company.rows[0]?.id}, 'jiahe_buyer', '周佳禾', 'zhou.jiahe@jiahe-trade.example', '13857420316', 'not-a-login', 2, now())`.execute(
      db,
    )
  }
  const rows = await sql<{ company: number; user: number; email: string }>`
    select distinct on (u.company_id) u.company_id as company, u.id as user, u.email from app_user u
    join company c on c.id = u.company_id and c.tenant_id = u.tenant_id
    where u.tenant_id = ${tenant} and c.company_type = 2 and u.email is not null and u.company_user_type = 2
    order by u.company_id, u.id limit 3`.execute(test.database.db)
  expect(rows.rows).toHaveLength(3)
  return rows.rows
}

async function newsItem(tenant: number): Promise<{ id: number; title: string }> {
  const row = await sql<{ id: number; title: string }>`
    select id, title from information_item where tenant_id = ${tenant} order by id limit 1`.execute(test.database.db)
  return row.rows[0] as { id: number; title: string }
}

async function outboxOf(pushId: number) {
  const rows = await sql<{ id: number; kind: string; to: string; subject: string; text: string; sent: boolean }>`
    select o.id, o.kind, o.payload->>'to' as to, o.payload->>'subject' as subject, o.payload->>'text' as text,
      o.sent_at is not null as sent
    from outbox o join push_recipient r on r.outbox_id = o.id and r.tenant_id = o.tenant_id
    where r.push = ${pushId} order by o.id`.execute(test.database.db)
  return rows.rows
}

async function composeAndSend(operator: string, companies: number[]) {
  const tenant = await tenantId()
  const item = await newsItem(tenant)
  const created = await ok('POST', '/api/b2b/push/add', operator, {
    channel: 'mail',
    contentType: 'news',
    informationItem: item.id,
    title: '春节期间航运安排',
    companies,
  })
  expect(created.state).toBe('draft')
  const sent = await ok('POST', '/api/push/transition', operator, {
    id: created.id,
    version: created.version,
    transition: 'send',
  })
  return { pushId: created.id as number, sent, item }
}

const recipients = async (operator: string, pushId: number) =>
  (await ok('POST', '/api/b2b/push/recipients', operator, { searchParams: { push: pushId }, pageNum: 1, pageSize: 50 }))
    .list as Record<string, unknown>[]

describe('push lists', () => {
  it('sends a news item to three customers: three outbox mails in the send, each recipient notified', async () => {
    const operator = await test.login('opadmin')
    const customers = await threeCustomers(await tenantId())
    const { pushId, sent, item } = await composeAndSend(
      operator,
      customers.map((c) => c.company),
    )
    expect(sent.state).toBe('notified')
    const mails = await outboxOf(pushId)
    expect(mails.length).toBeGreaterThanOrEqual(3)
    for (const c of customers) expect(mails.map((m) => m.to)).toContain(c.email)
    expect(mails.every((m) => m.kind === 'mail' && m.subject === item.title)).toBe(true)
    expect(mails[0]?.text).toMatch(/\/api\/b2b\/public\/push\/read\?t=\d+\.\d+\.[A-Za-z0-9_-]{43}/)
    const rows = await recipients(operator, pushId)
    expect(rows).toHaveLength(mails.length)
    expect(rows.every((r) => r.state === 'notified' && r.address)).toBe(true)
    const listed = await ok('POST', '/api/b2b/push/email/list', operator, {
      searchParams: {},
      pageNum: 1,
      pageSize: 20,
    })
    expect(listed.list.find((p: { id: number }) => p.id === pushId)).toMatchObject({
      recipientCount: mails.length,
      state: 'notified',
    })
  })

  it('a refused send writes nothing: a notice with no customer users behind it', async () => {
    const operator = await test.login('opadmin')
    const before = await sql<{ n: number }>`select count(*)::int as n from outbox`.execute(test.database.db)
    const created = await ok('POST', '/api/b2b/push/add', operator, {
      channel: 'mail',
      contentType: 'notice',
      title: '台风停航通知',
      content: '<p>明日上海港暂停作业。</p>',
      users: [999999],
    })
    const body = (
      await call('POST', '/api/push/transition', operator, {
        id: created.id,
        version: created.version,
        transition: 'send',
      })
    ).json()
    expect(body.code).toBe('validation')
    expect(body.content?.fieldErrors ?? body.fieldErrors ?? JSON.stringify(body)).toBeTruthy()
    const after = await sql<{ n: number }>`select count(*)::int as n from outbox`.execute(test.database.db)
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n)
    const detail = await ok('GET', `/api/b2b/push/detail?id=${created.id}`, operator)
    expect(detail.state).toBe('draft')
  })

  it('suspend takes back the unsent mails, resume queues them again, abort stops them for good', async () => {
    const operator = await test.login('opadmin')
    const customers = await threeCustomers(await tenantId())
    const { pushId, sent } = await composeAndSend(
      operator,
      customers.map((c) => c.company),
    )
    const first = await outboxOf(pushId)
    // One mail went out before the operator suspended.
    await sql`update outbox set sent_at = now() where id = ${first[0]?.id}`.execute(test.database.db)
    const suspended = await ok('POST', '/api/push/transition', operator, {
      id: pushId,
      version: sent.version,
      transition: 'suspend',
    })
    expect(suspended.state).toBe('suspended')
    const held = await outboxOf(pushId)
    expect(held.map((m) => m.id)).toEqual([first[0]?.id])
    const states = (await recipients(operator, pushId)).map((r) => r.state).sort()
    expect(states.filter((s) => s === 'suspended')).toHaveLength(first.length - 1)
    expect(states.filter((s) => s === 'notified')).toHaveLength(1)

    const resumed = await ok('POST', '/api/push/transition', operator, {
      id: pushId,
      version: suspended.version,
      transition: 'resume',
    })
    expect(resumed.state).toBe('notified')
    expect(await outboxOf(pushId)).toHaveLength(first.length)

    const aborted = await ok('POST', '/api/push/transition', operator, {
      id: pushId,
      version: resumed.version,
      transition: 'abort',
    })
    expect(aborted.state).toBe('aborted')
    expect((await outboxOf(pushId)).map((m) => m.id)).toEqual([first[0]?.id])
    const finalStates = (await recipients(operator, pushId)).map((r) => r.state)
    expect(finalStates.filter((s) => s === 'aborted')).toHaveLength(first.length - 1)
  })

  it('the mail link marks its recipient read; a forged or another tenant’s token is refused', async () => {
    const operator = await test.login('opadmin')
    const tenant = await tenantId()
    const customers = await threeCustomers(tenant)
    const { pushId } = await composeAndSend(operator, [customers[0]?.company as number])
    const [mail] = await outboxOf(pushId)
    const link = /\/api\/b2b\/public\/push\/read\?t=([^\s]+)/.exec(mail?.text ?? '')?.[1] as string
    const forged = `${link.slice(0, -3)}AAA`
    const refused = (await call('GET', `/api/b2b/public/push/read?t=${forged}`, undefined)).json()
    expect(refused.code).toBe('220000')
    const recipient = Number(link.split('.')[1])
    const otherTenant = (
      await call(
        'GET',
        `/api/b2b/public/push/read?t=${readToken(tenant + 1, recipient)}`,
        undefined,
        undefined,
        'acme.localhost',
      )
    ).json()
    expect(otherTenant.code).not.toBe('0000')
    expect((await recipients(operator, pushId)).find((r) => r.id === recipient)?.state).toBe('notified')

    const read = (await call('GET', `/api/b2b/public/push/read?t=${link}`, undefined)).json()
    expect(read.code).toBe('0000')
    expect(read.content.state).toBe('read')
    const row = (await recipients(operator, pushId)).find((r) => r.id === recipient)
    expect(row?.state).toBe('read')
    expect(row?.readAt).toBeTruthy()
    // Every message delivered: the push reads completed, and can no longer be suspended.
    const waiting = await ok('GET', `/api/b2b/push/detail?id=${pushId}`, operator)
    expect(waiting.state).toBe('notified')
    await sql`update outbox set sent_at = now() where id in (select outbox_id from push_recipient where push = ${pushId})`.execute(
      test.database.db,
    )
    const done = await ok('GET', `/api/b2b/push/detail?id=${pushId}`, operator)
    expect(done.state).toBe('completed')
    const late = (
      await call('POST', '/api/push/transition', operator, { id: pushId, version: done.version, transition: 'suspend' })
    ).json()
    expect(late.code).toBe('320001')
  })

  it('bounds the chosen recipients: 101 enterprises are refused before anything is written', async () => {
    const operator = await test.login('opadmin')
    const body = (
      await call('POST', '/api/b2b/push/add', operator, {
        channel: 'mail',
        contentType: 'notice',
        title: '台风停航通知',
        content: '<p>明日上海港暂停作业。</p>',
        companies: Array.from({ length: 101 }, (_, i) => i + 1),
      })
    ).json()
    expect(body.code).toBe('validation')
    expect(JSON.stringify(body.content)).toContain('companies')
  })

  it('a customer cannot open the push lists', async () => {
    const customer = await test.login('entadmin')
    const body = (
      await call('POST', '/api/b2b/push/email/list', customer, { searchParams: {}, pageNum: 1, pageSize: 20 })
    ).json()
    expect(body.code).toBe('220000')
  })
})
