import { describe, expect, it } from 'vitest'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()

interface Letter {
  id: number
  recipient: number
  title: string
  content: string
  contentWithoutBR: string
  status: number
  updateTime: string
}
interface LetterPage {
  list: Letter[]
  total: number
  pageNum: number
  pageSize: number
  unread: number
}

const post = (url: string, token: string | undefined, payload: unknown, host = 'localhost') =>
  test.app.inject({
    method: 'POST',
    url,
    headers: { host, language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: payload as object,
  })

async function letters(token: string, request: object = {}, host = 'localhost'): Promise<LetterPage> {
  const body = (await post('/api/b2b/letter/list', token, request, host)).json()
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return body.content as LetterPage
}

async function userId(tenantCode: string, username: string): Promise<number> {
  const db = test.database.db
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', tenantCode).executeTakeFirstOrThrow()
  const user = await withTenant(db, tenant.id, (trx) =>
    trx.selectFrom('app_user').select('id').where('username', '=', username).executeTakeFirstOrThrow(),
  )
  return user.id
}

describe('the letter list (POST /b2b/letter/list)', () => {
  it("answers the caller's own letters, newest first, five to the bell's page, with the unread total", async () => {
    const token = await test.login('entadmin')
    const me = await userId('demo', 'entadmin')
    const page = await letters(token, { pageNum: 1, pageSize: 5 })
    expect(page.total).toBe(7)
    expect(page.unread).toBe(6)
    expect(page.list).toHaveLength(5)
    expect(page.list.every((letter) => letter.recipient === me)).toBe(true)
    const times = page.list.map((letter) => letter.updateTime)
    expect(times).toEqual([...times].sort().reverse())
    // The newest is the February statement; the letters are the demo tenant's, in Chinese.
    expect(page.list[0]?.title).toBe('2 月账单已生成')
    // SPEC §3's contentWithoutBR: the content on one line.
    const withBreak = page.list.find((letter) => letter.content.includes('<br>')) as Letter
    expect(withBreak.contentWithoutBR).not.toContain('<br>')
    expect(withBreak.contentWithoutBR).toBe(withBreak.content.replaceAll('<br>', ' '))
    const rest = await letters(token, { pageNum: 2, pageSize: 5 })
    expect(rest.list).toHaveLength(2)
    expect(rest.list.some((letter) => page.list.some((seen) => seen.id === letter.id))).toBe(false)
  })

  it('names real orders of the tenant', async () => {
    const token = await test.login('entadmin')
    const accepted = (await letters(token, { searchParams: { title: '已受理' } })).list[0] as Letter
    const orderNo = /HY\d{10}/.exec(accepted.title)?.[0] as string
    const orders = (
      await post('/api/booking/order/queryOrderListByCompany', token, { searchParams: { orderNo } })
    ).json()
    expect(orders.code).toBe('0000')
    expect(orders.content.list.map((o: { orderNo: string }) => o.orderNo)).toContain(orderNo)
  })

  it('shows a provider user with data scope all only their own letters, never the customers’', async () => {
    const token = await test.login('opadmin')
    const me = await userId('demo', 'opadmin')
    const page = await letters(token, { pageSize: 50 })
    expect(page.total).toBe(4)
    expect(page.list.every((letter) => letter.recipient === me)).toBe(true)
  })

  it('searches by title, content and status, and refuses undeclared search keys', async () => {
    const token = await test.login('entadmin')
    const unread = await letters(token, { searchParams: { status: 0 }, pageSize: 50 })
    expect(unread.total).toBe(6)
    expect(unread.list.every((letter) => letter.status === 0)).toBe(true)
    // From the address bar, as the list screen sends it.
    expect((await letters(token, { searchParams: { status: '1' } })).total).toBe(1)
    const byContent = await letters(token, { searchParams: { content: 'HS 编码' } })
    expect(byContent.list.map((letter) => letter.title)).toEqual([expect.stringContaining('被退回')])
    const refused = await post('/api/b2b/letter/list', token, { searchParams: { recipient: 1 } })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().code).toBe('validation')
  })

  it('answers acme’s users in English and keeps tenants apart', async () => {
    const token = await test.login('entadmin', 'acme.localhost')
    const page = await letters(token, { pageSize: 50 }, 'acme.localhost')
    expect(page.total).toBe(4)
    expect(page.list.map((letter) => letter.title)).toContain('February statement ready')
    expect(page.list.every((letter) => /^[\x20-\x7E–→]+$/.test(letter.title))).toBe(true)
    // A demo letter id from acme's host is not there.
    const demoLetter = (await letters(await test.login('entadmin'))).list[0] as Letter
    const read = await post('/api/b2b/letter/read', token, { id: demoLetter.id }, 'acme.localhost')
    expect(read.json().code).toBe('404')
  })

  it('needs a login', async () => {
    const response = await post('/api/b2b/letter/list', undefined, {})
    expect(response.statusCode).toBe(401)
    expect(response.json().code).toBe('401')
  })
})

describe('reading letters (POST /b2b/letter/read, /b2b/letter/readAll)', () => {
  it('marks one letter read and answers the new unread total', async () => {
    const token = await test.login('entop')
    const before = await letters(token)
    const target = before.list.find((letter) => letter.status === 0) as Letter
    const body = (await post('/api/b2b/letter/read', token, { id: target.id })).json()
    expect(body).toMatchObject({ code: '0000', content: { id: target.id, status: 1, unread: before.unread - 1 } })
    const after = await letters(token)
    expect(after.unread).toBe(before.unread - 1)
    const same = after.list.find((letter) => letter.id === target.id) as Letter
    expect(same.status).toBe(1)
    // Reading does not move the letter: its time is when it was sent.
    expect(same.updateTime).toBe(target.updateTime)
  })

  it("refuses another user's letter as not found and leaves it unread", async () => {
    const owner = await test.login('personal')
    const theirs = (await letters(owner, { searchParams: { status: 0 } })).list[0] as Letter
    const other = await test.login('opadmin')
    const response = await post('/api/b2b/letter/read', other, { id: theirs.id })
    expect(response.statusCode).toBe(404)
    const still = (await letters(owner, { pageSize: 50 })).list.find((letter) => letter.id === theirs.id) as Letter
    expect(still.status).toBe(0)
  })

  it('refuses a read without a letter id', async () => {
    const token = await test.login('personal')
    const response = await post('/api/b2b/letter/read', token, { id: 'first' })
    expect(response.statusCode).toBe(400)
    expect(response.json().content.fieldErrors[0].field).toBe('id')
  })

  it("reads all of the caller's letters and nobody else's", async () => {
    const token = await test.login('opcs')
    const other = await test.login('opadmin')
    const othersBefore = (await letters(other)).unread
    expect(othersBefore).toBeGreaterThan(0)
    const before = (await letters(token)).unread
    expect(before).toBeGreaterThan(0)
    const body = (await post('/api/b2b/letter/readAll', token, {})).json()
    expect(body).toMatchObject({ code: '0000', content: { updated: before, unread: 0 } })
    expect((await letters(token, { searchParams: { status: 0 } })).total).toBe(0)
    expect((await letters(other)).unread).toBe(othersBefore)
  })
})
