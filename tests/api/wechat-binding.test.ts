import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { registerProviderChannels } from '../../server/jobs/providers/register.ts'
import { DEFAULT_SETTINGS, saveMessaging } from '../../server/jobs/providers/settings.ts'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { fakeWechat } from '../support/fake-providers.ts'

/**
 * /bindWechat (issue #22): a user binds and unbinds the openid the tenant's WeChat official account gave them;
 * the format is checked by the YAML in the caller's language, an openid another user of the tenant holds is
 * refused on the field, nobody reads or writes another's binding, and a WeChat push is addressed to it.
 */
const test = setupTestApp()
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-wechat-binding-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object, language = 'en_US') =>
  test.app.inject({
    method,
    url,
    headers: { host: 'localhost', authorization: `Bearer ${token}`, language },
    ...(payload ? { payload } : {}),
  })

const OPENID = 'oX7Lh6Qa1sWd2eRf3tGy4hUj5iKo'

async function binding(token: string) {
  const response = await call('POST', '/api/b2b/user/wechat/list', token, { pageNum: 1, pageSize: 1 })
  expect(response.json().code, response.body.slice(0, 300)).toBe('0000')
  return response.json().content.list[0] as { id: number; version: number; openid?: string; bound: boolean }
}

const storedOpenid = async (username: string) =>
  (
    await sql<{ openid: string | null }>`
      select u.wechat_openid as openid from app_user u join tenant t on t.id = u.tenant_id
      where t.code = 'demo' and u.username = ${username}`.execute(test.database.db)
  ).rows[0]?.openid

describe('WeChat binding', () => {
  it('binds and unbinds the caller’s own openid', async () => {
    const token = await test.login('personal')
    const before = await binding(token)
    expect(before).toMatchObject({ bound: false })
    expect(before.openid).toBeUndefined()

    const bound = await call('POST', '/api/b2b/user/wechat/bind', token, {
      id: before.id,
      version: before.version,
      openid: OPENID,
    })
    expect(bound.json()).toMatchObject({ code: '0000', content: { id: before.id, openid: OPENID, bound: true } })
    expect(await storedOpenid('personal')).toBe(OPENID)
    const detail = await call('GET', `/api/b2b/user/wechat/detail?id=${before.id}`, token)
    expect(detail.json().content).toMatchObject({ openid: OPENID, bound: true })

    // A stale version is refused; saved empty, it unbinds.
    const stale = await call('POST', '/api/b2b/user/wechat/bind', token, { version: before.version, openid: '' })
    expect(stale.json().code).toBe('330002')
    const now = await binding(token)
    const unbound = await call('POST', '/api/b2b/user/wechat/bind', token, { version: now.version, openid: '' })
    expect(unbound.json()).toMatchObject({ code: '0000', content: { bound: false } })
    expect(await storedOpenid('personal')).toBeNull()
  })

  it('checks the format in the caller’s language and refuses an openid another user holds', async () => {
    const token = await test.login('nbclerk')
    for (const [language, message] of [
      ['en_US', 'An openid is 28 letters, digits, - or _, as the official account gives it'],
      ['zh_CN', 'openid 为公众号给出的 28 位字母、数字、- 或 _'],
    ] as const) {
      const bad = await call('POST', '/api/b2b/user/wechat/bind', token, { openid: 'not an openid' }, language)
      expect(bad.statusCode).toBe(400)
      expect(bad.json().content.fieldErrors).toEqual([expect.objectContaining({ field: 'openid', message })])
    }
    const tooLong = await call('POST', '/api/b2b/user/wechat/bind', token, { openid: 'x'.repeat(5000) })
    expect(tooLong.statusCode).toBe(400)
    // entadmin's, from the seed.
    const taken = await call('POST', '/api/b2b/user/wechat/bind', token, { openid: 'oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe' })
    expect(taken.json().content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'openid', message: 'This WeChat account is already bound to another user' }),
    ])
    expect(await storedOpenid('nbclerk')).toBeNull()
  })

  it('never reads or writes another user’s binding', async () => {
    const token = await test.login('entop')
    const mine = await binding(token)
    const other = (await binding(await test.login('entadmin'))).id
    expect((await call('GET', `/api/b2b/user/wechat/detail?id=${other}`, token)).json().code).toBe('404')
    expect((await call('POST', '/api/b2b/user/wechat/bind', token, { id: other, openid: OPENID })).json().code).toBe(
      '404',
    )
    expect(await storedOpenid('entadmin')).toBe('oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe')
    expect(mine.openid).toBe('oX7Lh6Dk4rVs8QwE1tYu6nMb2cXf')
  })

  it('addresses a WeChat push to the openid the recipient bound', async () => {
    const token = await test.login('personal')
    const now = await binding(token)
    expect(
      (await call('POST', '/api/b2b/user/wechat/bind', token, { version: now.version, openid: OPENID })).json().code,
    ).toBe('0000')
    const operator = await test.login('opadmin')
    const created = await call('POST', '/api/b2b/push/add', operator, {
      channel: 'wechat',
      contentType: 'notice',
      title: '台风停航通知',
      content: '<p>明日上海港暂停作业。</p>',
      users: [now.id],
    })
    expect(created.json().code, created.body.slice(0, 300)).toBe('0000')
    const { id, version } = created.json().content
    const sent = await call('POST', '/api/push/transition', operator, { id, version, transition: 'send' })
    expect(sent.json().code, sent.body.slice(0, 300)).toBe('0000')
    const queued = await sql<{ kind: string; to: string; template: string; first: string }>`
      select o.kind, o.payload ->> 'to' as to, o.payload ->> 'template' as template,
        o.payload -> 'params' ->> 'first' as first from outbox o
      join push_recipient r on r.outbox_id = o.id and r.tenant_id = o.tenant_id where r.push = ${id}`.execute(
      test.database.db,
    )
    // Sent with the tenant's notice template (a template the WeChat channel knows), the title first.
    expect(queued.rows).toEqual([{ kind: 'wechat', to: OPENID, template: 'notice', first: '台风停航通知' }])

    // Delivered to a local server that speaks the official account's API, with the tenant's notice template.
    const wx = await fakeWechat({ wx8c4f1e2d3b6a7c90: 'demoAppSecret0123456789abcdef0000' })
    try {
      wx.followers.add(OPENID)
      wx.templates.add('TmplNotice_3kQ9vB2xLp7R')
      const tenant = (await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(test.database.db))
        .rows[0]?.id as number
      await withTenant(test.database.db, tenant, (trx) =>
        saveMessaging(
          trx,
          tenant,
          {
            ...DEFAULT_SETTINGS,
            wechatEnabled: true,
            wechatAppId: 'wx8c4f1e2d3b6a7c90',
            wechatEndpoint: wx.url,
            wechatTemplateNotice: 'TmplNotice_3kQ9vB2xLp7R',
          },
          { wechatAppSecret: 'demoAppSecret0123456789abcdef0000' },
        ),
      )
      registerProviderChannels()
      await new OutboxWorker({ db: test.database.api, dataDir, env: {} }).runOnce()
      expect(wx.arrived).toHaveLength(1)
      expect(wx.arrived[0]?.body).toMatchObject({
        touser: OPENID,
        template_id: 'TmplNotice_3kQ9vB2xLp7R',
        data: { first: { value: '台风停航通知' } },
      })
    } finally {
      await wx.close()
    }
  })
})
