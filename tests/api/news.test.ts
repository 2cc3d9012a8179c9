import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()

interface Card {
  id: number
  title: string
  summary: string
  category: string
  language: string
  hot: boolean
  recommended: boolean
  likes: number
  publishedAt: string
}

const headers = (language = 'en_US', host = 'localhost', extra: Record<string, string> = {}) => ({
  host,
  language,
  ...extra,
})

async function list(payload: object, language = 'en_US', host = 'localhost') {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/b2b/public/api/information/list',
    headers: headers(language, host),
    payload,
  })
  return response.json() as { code: string; content: { list: Card[]; total: number; pageNum: number } }
}

const get = (url: string, language = 'en_US', host = 'localhost', extra: Record<string, string> = {}) =>
  test.app.inject({ method: 'GET', url, headers: headers(language, host, extra) })

describe('public news list', () => {
  it('answers published news in the reader language, newest first, without logging in', async () => {
    const body = await list({})
    expect(body.code).toBe('0000')
    expect(body.content.total).toBe(9)
    expect(body.content.list.every((item) => item.language === 'en')).toBe(true)
    const dates = body.content.list.map((item) => item.publishedAt)
    expect([...dates].sort().reverse()).toEqual(dates)
    const zh = await list({}, 'zh_CN')
    expect(zh.content.list[0]?.language).toBe('zh')
    // the draft and the withdrawn item are not published
    expect(zh.content.total).toBe(9)
    expect(zh.content.list.some((item) => item.title.includes('草稿') || item.title.includes('已撤回'))).toBe(false)
    const ja = await list({ language: 'ja' }, 'en_US')
    expect(ja.content.list[0]?.language).toBe('ja')
  })

  it('filters by category, keyword and publishing days, and pages', async () => {
    const policy = await list({ category: 'policy' })
    expect(policy.content.total).toBe(3)
    expect(policy.content.list.every((item) => item.category === 'policy')).toBe(true)
    const keyword = await list({ keyword: 'ics2' })
    expect(keyword.content.list.map((item) => item.title)).toEqual([expect.stringContaining('ICS2')])
    const bySummary = await list({ keyword: 'berth waiting' })
    expect(bySummary.content.total).toBe(1)
    // English items were published 2, 4, 6 and 9 days before 2026-03-02 (the ninth day: 2026-02-21 00:30 UTC)
    const week = await list({ beginDate: '2026-02-21', endDate: '2026-03-02' })
    expect(week.content.total).toBe(4)
    for (const item of week.content.list) expect(item.publishedAt >= '2026-02-21').toBe(true)
    expect((await list({ beginDate: '2026-02-22', endDate: '2026-03-02' })).content.total).toBe(3)
    expect((await list({ beginDate: '2026-02-21', endDate: '2026-02-21' })).content.total).toBe(1)
    const page2 = await list({ pageNum: 2, pageSize: 4 })
    expect(page2.content.pageNum).toBe(2)
    expect(page2.content.list).toHaveLength(4)
    const page1 = await list({ pageNum: 1, pageSize: 4 })
    expect(page1.content.list.map((i) => i.id)).not.toContain(page2.content.list[0]?.id)
  })

  it('refuses a range that ends before it starts and an unknown category', async () => {
    expect((await list({ beginDate: '2026-03-01', endDate: '2026-01-01' })).code).toBe('validation')
    expect((await list({ category: 'sports' })).code).toBe('validation')
  })

  it('never shows another tenant its news', async () => {
    const acme = await list({}, 'en_US', 'acme.localhost')
    expect(acme.content.total).toBe(2)
    expect(acme.content.list.every((item) => item.title.includes('ACME'))).toBe(true)
    const demo = await list({ keyword: 'ACME' })
    expect(demo.content.total).toBe(0)
  })
})

describe('hot and recommended lists', () => {
  it('answers flagged items only, within the limit', async () => {
    const hot = (await get('/api/b2b/public/api/information/hot?limit=2')).json()
    expect(hot.code).toBe('0000')
    expect(hot.content.list).toHaveLength(2)
    expect(hot.content.list.every((item: Card) => item.hot)).toBe(true)
    const recommended = (await get('/api/b2b/public/api/information/recommended', 'ja_JP')).json()
    expect(recommended.content.list.length).toBeGreaterThan(2)
    expect(recommended.content.list.every((item: Card) => item.recommended && item.language === 'ja')).toBe(true)
    expect((await get('/api/b2b/public/api/information/hot?limit=500')).json().code).toBe('validation')
  })
})

describe('article, like and PDF', () => {
  async function firstId(language = 'en_US', host = 'localhost') {
    return (await list({}, language, host)).content.list[0]?.id as number
  }

  it('answers a published article and 404 for drafts and other tenants', async () => {
    const id = await firstId()
    const response = await get(`/api/b2b/public/api/information/detail?id=${id}`)
    const body = response.json()
    expect(body.code).toBe('0000')
    expect(body.content.content).toContain('<p>')
    expect(body.content.liked).toBe(false)
    expect(String(response.headers['set-cookie'])).toContain('news_visitor=')
    const acmeId = await firstId('en_US', 'acme.localhost')
    expect((await get(`/api/b2b/public/api/information/detail?id=${acmeId}`)).json().code).toBe('404')
    const draft = await test.database.db
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', 'demo')
      .executeTakeFirstOrThrow()
    expect(draft.id).toBeGreaterThan(0)
    const token = await test.login('opadmin')
    const drafts = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/information/manage/list',
      headers: { host: 'localhost', authorization: `Bearer ${token}` },
      payload: { searchParams: { status: ['draft', 'withdrawn'] } },
    })
    const hidden = drafts.json().content.list as { id: number }[]
    expect(hidden).toHaveLength(2)
    for (const row of hidden) {
      expect((await get(`/api/b2b/public/api/information/detail?id=${row.id}`)).json().code).toBe('404')
      expect((await get(`/api/b2b/public/api/information/pdf?id=${row.id}`)).statusCode).toBe(404)
    }
  })

  it('counts one like per reader', async () => {
    const id = await firstId()
    const first = await get(`/api/b2b/public/api/information/detail?id=${id}`)
    const cookie = String(first.headers['set-cookie']).split(';')[0] as string
    const before = first.json().content.likes as number
    const like = () =>
      test.app.inject({
        method: 'POST',
        url: '/api/b2b/public/api/information/like',
        headers: { host: 'localhost', cookie },
        payload: { id },
      })
    const once = (await like()).json()
    expect(once.content).toEqual({ likes: before + 1, liked: true })
    expect((await like()).json().content.likes).toBe(before + 1)
    const again = await get(`/api/b2b/public/api/information/detail?id=${id}`, 'en_US', 'localhost', { cookie })
    expect(again.json().content.liked).toBe(true)
    // a signed-in user is a reader of their own
    const token = await test.login('entadmin')
    const byUser = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/public/api/information/like',
      headers: { host: 'localhost', authorization: `Bearer ${token}` },
      payload: { id },
    })
    expect(byUser.json().content.likes).toBe(before + 2)
    const acmeId = await firstId('en_US', 'acme.localhost')
    const foreign = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/public/api/information/like',
      headers: { host: 'localhost', cookie },
      payload: { id: acmeId },
    })
    expect(foreign.json().code).toBe('404')
  })

  it('downloads the article as a PDF attachment, also in Chinese and Japanese', async () => {
    for (const language of ['en_US', 'zh_CN', 'ja_JP']) {
      const id = await firstId(language)
      const response = await get(`/api/b2b/public/api/information/pdf?id=${id}`, language)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('application/pdf')
      expect(String(response.headers['content-disposition'])).toMatch(
        /^attachment; filename=".+\.pdf"; filename\*=UTF-8''/,
      )
      const bytes = response.rawPayload
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
      const text = bytes.toString('latin1')
      expect(text).toMatch(/\/Type \/Page\b/)
      // the CJK font is embedded (a subset of Noto Sans), not left to the reader's machine
      expect(text).toMatch(/FontFile3|FontFile2/)
      expect(text).toContain(language === 'ja_JP' ? 'NotoSansJP' : 'NotoSansHans')
      if (language === 'en_US') {
        const title = (await list({})).content.list[0]?.title as string
        expect(text).toContain(`(${title})`)
      }
    }
  })
})

describe('administration', () => {
  it('publishes, pushes and withdraws through the engine, with rich text sanitised', async () => {
    const token = await test.login('opadmin')
    const call = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
      test.app.inject({
        method,
        url,
        headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      })
    const types = (
      await call('POST', '/api/b2b/information/type/list', {
        searchParams: { languageType: 'en', category: 'industry' },
      })
    ).json()
    const typeId = types.content.list[0].id as number
    const created = (
      await call('POST', '/api/b2b/information/manage/add', {
        title: 'Suez transits recover',
        informationTypeId: typeId,
        language: 'en',
        summary: 'Carriers return to the Red Sea routing',
        content: '<p onclick="x()">Transits <script>alert(1)</script>recover.</p>',
      })
    ).json()
    expect(created.code).toBe('0000')
    expect(created.content.content).toBe('<p>Transits recover.</p>')
    expect(created.content.status).toBe('draft')
    expect((await list({ keyword: 'Suez' })).content.total).toBe(0)
    const published = (
      await call('POST', '/api/informationItem/transition', {
        id: created.content.id,
        version: created.content.version,
        transition: 'publish',
      })
    ).json()
    expect(published.content.status).toBe('published')
    const visible = await list({ keyword: 'Suez' })
    expect(visible.content.total).toBe(1)
    // published just now: first of the list
    expect((await list({})).content.list[0]?.title).toBe('Suez transits recover')
    const withdrawn = (
      await call('POST', '/api/informationItem/transition', {
        id: created.content.id,
        version: published.content.version,
        transition: 'withdraw',
      })
    ).json()
    expect(withdrawn.content.status).toBe('withdrawn')
    expect((await list({ keyword: 'Suez' })).content.total).toBe(0)
    const pushed = (
      await call('POST', '/api/informationItem/transition', {
        id: created.content.id,
        version: withdrawn.content.version,
        transition: 'push',
      })
    ).json()
    expect(pushed.content.status).toBe('published')
    expect((await list({})).content.list[0]?.title).toBe('Suez transits recover')
    const removed = await call('DELETE', `/api/b2b/information/manage/delete?id=${created.content.id}`)
    expect(removed.json().code).toBe('0000')
    expect((await list({ keyword: 'Suez' })).content.total).toBe(0)
    // a customer may not manage news
    const customer = await test.login('entadmin')
    const refused = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/information/manage/list',
      headers: { host: 'localhost', authorization: `Bearer ${customer}` },
      payload: {},
    })
    expect(refused.json().code).toBe('220000')
  })

  it('hides the items of a disabled type', async () => {
    const token = await test.login('opadmin')
    const call = (url: string, payload: object) =>
      test.app.inject({
        method: 'POST',
        url,
        headers: { host: 'localhost', authorization: `Bearer ${token}` },
        payload,
      })
    const types = (
      await call('/api/b2b/information/type/list', { searchParams: { languageType: 'en', category: 'policy' } })
    ).json()
    const type = types.content.list[0]
    expect((await list({ category: 'policy' })).content.total).toBe(3)
    const disabled = (
      await call('/api/informationType/transition', { id: type.id, version: type.version, transition: 'disable' })
    ).json()
    expect(disabled.content.status).toBe('disabled')
    expect((await list({ category: 'policy' })).content.total).toBe(0)
    await call('/api/informationType/transition', {
      id: type.id,
      version: disabled.content.version,
      transition: 'enable',
    })
    expect((await list({ category: 'policy' })).content.total).toBe(3)
  })
})
