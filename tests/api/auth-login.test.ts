import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { verifyPassword } from '../../server/auth/password.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { loadManifest } from '../../server/manifest.ts'
import { freshIp, setupSignInTest } from '../support/sign-in.ts'

const { test, call } = setupSignInTest()

function login(
  username: string,
  password: string,
  options: { host?: string; ip?: string; headers?: Record<string, string> } = {},
) {
  const headers = { host: options.host ?? 'localhost', 'x-forwarded-for': options.ip ?? '10.1.255.1' }
  return call('POST', '/b2b/user/login', { username, password }, { ...headers, ...options.headers })
}

async function tokenOf(username: string, host = 'localhost') {
  const response = await login(username, DEMO_PASSWORD, { host, ip: freshIp() })
  expect(response.json().code).toBe('0000')
  return response.json().token as string
}

function me(token: string, host = 'localhost', header: 'cookie' | 'bearer' | 'bare' = 'cookie') {
  const headers: Record<string, string> = { host }
  if (header === 'cookie') headers.cookie = `b2b_token=${token}`
  else headers.authorization = header === 'bearer' ? `Bearer ${token}` : token
  return test.app.inject({ method: 'GET', url: '/api/b2b/user/getCurrentUserInfo', headers })
}

function setCookieOf(response: { headers: Record<string, unknown> }, name = 'b2b_token'): string {
  const header = response.headers['set-cookie']
  const all = Array.isArray(header) ? header : [header]
  return String(all.find((c) => String(c).startsWith(`${name}=`)) ?? '')
}

describe('POST /b2b/user/login', () => {
  it('answers the token at the top level of the envelope and as an HttpOnly, SameSite=Lax cookie', async () => {
    const response = await login('entadmin', DEMO_PASSWORD, { ip: freshIp() })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.code).toBe('0000')
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(body.content).toMatchObject({ checkRobotPass: true, username: 'entadmin' })
    expect(body.content.userId).toEqual(expect.any(Number))
    expect(body.content.token).toBeUndefined()
    const cookie = setCookieOf(response)
    expect(cookie.startsWith(`b2b_token=${body.token};`)).toBe(true)
    expect(cookie).toMatch(/;\s*HttpOnly/i)
    expect(cookie).toMatch(/;\s*SameSite=Lax/i)
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/)
    expect(cookie).not.toMatch(/;\s*Secure/i)
    // The portal's script may read that a session exists (so a visitor's page asks for no user), not the token.
    const marker = setCookieOf(response, 'b2b_signed_in')
    expect(marker).toMatch(/^b2b_signed_in=1;/)
    expect(marker).not.toMatch(/HttpOnly/i)
    expect(marker).not.toContain(body.token)
  })

  it('marks the cookie Secure when the request came over HTTPS', async () => {
    const response = await login('entadmin', DEMO_PASSWORD, {
      ip: freshIp(),
      headers: { 'x-forwarded-proto': 'https' },
    })
    expect(response.json().code).toBe('0000')
    expect(setCookieOf(response)).toMatch(/;\s*Secure/i)
  })

  it('stores only a SHA-256 hash of the token', async () => {
    const token = await tokenOf('entop')
    const rows = await test.database.db.selectFrom('session').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(token)
    const hash = createHash('sha256').update(token).digest('hex')
    const row = rows.find((r) => r.token_hash === hash)
    expect(row).toBeDefined()
    expect(row?.revoked_at).toBeNull()
    expect(new Date(row?.expires_at as Date).getTime()).toBeGreaterThan(new Date(row?.created_at as Date).getTime())
  })

  it('finds the account by e-mail address too, in any case', async () => {
    const response = await login('EntAdmin@Demo.Example', DEMO_PASSWORD, { ip: freshIp() })
    expect(response.json()).toMatchObject({ code: '0000', content: { username: 'entadmin' } })
  })

  it('answers 300005 for a wrong password, in the language asked for', async () => {
    const en = await login('entadmin', 'Wrong@2026', { ip: freshIp(), headers: { language: 'en_US' } })
    expect(en.statusCode).toBe(200)
    expect(en.json()).toMatchObject({ code: '300005', message: 'Incorrect user name or password', content: null })
    expect(en.json().token).toBeUndefined()
    expect(setCookieOf(en)).toBe('')
    const zh = await login('entadmin', 'Wrong@2026', { ip: freshIp(), headers: { language: 'zh_CN' } })
    expect(zh.json()).toMatchObject({ code: '300005', message: '用户名或密码错误' })
    // A successful login clears the count so these two do not linger.
    expect((await login('entadmin', DEMO_PASSWORD, { ip: freshIp() })).json().code).toBe('0000')
  })

  it('answers an account that does not exist as a wrong password: 300005 (issue #17, finding 2)', async () => {
    const response = await login('nobodyhere', DEMO_PASSWORD, { ip: freshIp(), headers: { language: 'en_US' } })
    expect(response.json()).toMatchObject({ code: '300005', message: 'Incorrect user name or password' })
  })

  it('answers 300007 for a disabled account, and a disabled account loses its sessions', async () => {
    const token = await tokenOf('opcs')
    expect((await me(token)).statusCode).toBe(200)
    await test.database.db.updateTable('app_user').set({ state: 0 }).where('username', '=', 'opcs').execute()
    try {
      const response = await login('opcs', DEMO_PASSWORD, { ip: freshIp() })
      expect(response.json().code).toBe('300007')
      expect((await me(token)).statusCode).toBe(401)
    } finally {
      await test.database.db.updateTable('app_user').set({ state: 1 }).where('username', '=', 'opcs').execute()
    }
  })

  it('answers validation errors naming the empty fields', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/user/login',
      headers: { host: 'localhost', language: 'en_US', resource: '1' },
      payload: { username: '' },
    })
    expect(response.statusCode).toBe(400)
    const fields = response.json().content.fieldErrors.map((e: { field: string }) => e.field)
    expect(fields).toEqual(expect.arrayContaining(['username', 'password']))
  })
})

describe('lockout after failed password logins (per account and address: tests/api/auth-limits.test.ts)', () => {
  it('refuses the account from an address with 300008 after 5 failures from it, even with the right password', async () => {
    const from = freshIp()
    for (let i = 0; i < 5; i++) {
      expect((await login('entop', `Wrong@${i}xyz`, { ip: from })).json().code).toBe('300005')
    }
    // Another way to name the account: still the same account.
    const locked = await login('entop@demo.example', DEMO_PASSWORD, { ip: from, headers: { language: 'en_US' } })
    expect(locked.json().code).toBe('300008')
    expect(locked.json().token).toBeUndefined()
    // Other accounts are not affected.
    expect((await login('entadmin', DEMO_PASSWORD, { ip: from })).json().code).toBe('0000')

    // Fifteen minutes later (the failures moved back in time) the right password works and clears the count.
    await test.database.db
      .updateTable('login_failure')
      .set({ at: sql<Date>`at - interval '16 minutes'` })
      .where('username', '=', 'entop')
      .execute()
    expect((await login('entop', DEMO_PASSWORD, { ip: from })).json().code).toBe('0000')
    const left = await test.database.db
      .selectFrom('login_failure')
      .selectAll()
      .where('username', '=', 'entop')
      .execute()
    expect(left).toHaveLength(0)
  })

  it('counts only failures since the last successful login from that address', async () => {
    const from = freshIp()
    for (let i = 0; i < 4; i++) expect((await login('opadmin', 'Nope@2026x', { ip: from })).json().code).toBe('300005')
    expect((await login('opadmin', DEMO_PASSWORD, { ip: from })).json().code).toBe('0000')
    for (let i = 0; i < 4; i++) expect((await login('opadmin', 'Nope@2026x', { ip: from })).json().code).toBe('300005')
    expect((await login('opadmin', DEMO_PASSWORD, { ip: from })).json().code).toBe('0000')
  })

  it('keeps each tenant’s count apart', async () => {
    const from = freshIp()
    for (let i = 0; i < 5; i++) {
      expect((await login('opadmin', 'Nope@2026x', { host: 'acme.localhost', ip: from })).json().code).toBe('300005')
    }
    expect((await login('opadmin', DEMO_PASSWORD, { host: 'acme.localhost', ip: from })).json().code).toBe('300008')
    expect((await login('opadmin', DEMO_PASSWORD, { ip: from })).json().code).toBe('0000')
  })
})

describe('demo users (issue #17, finding 9)', () => {
  it('have a password hash each, with its own salt, every one of them still Demo@2026', async () => {
    const users = await test.database.db.selectFrom('app_user').select(['username', 'password_hash']).execute()
    expect(users.length).toBeGreaterThan(5)
    const hashes = users.map((u) => u.password_hash)
    expect(new Set(hashes).size).toBe(hashes.length)
    const salts = hashes.map((h) => h.split('$')[4])
    expect(new Set(salts).size).toBe(salts.length)
    for (const hash of hashes) expect(await verifyPassword(hash, DEMO_PASSWORD)).toBe(true)
  })
})

describe('GET /b2b/user/getCurrentUserInfo', () => {
  it('answers the session user of an enterprise administrator with roles, permissions and data scope', async () => {
    const token = await tokenOf('entadmin')
    const response = await me(token)
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.code).toBe('0000')
    const user = body.content
    expect(user.roles).toEqual(['EnterpriseAdministrator'])
    const expected = [...(loadManifest().roles.EnterpriseAdministrator?.permissions ?? [])].sort()
    expect(expected.length).toBeGreaterThan(5)
    expect(user.permissions).toEqual(expected)
    expect(user.permissions).toContain('enterpriseAccount')
    expect(user.permissions).not.toContain('orderList')
    expect(user.dataScope).toBe('all')
    expect(user.name).toBe('Chen Jing')
    expect(user.userInfo).toMatchObject({ username: 'entadmin', companyUserType: 2 })
    expect(user.cusCompanyId).toEqual(expect.any(Number))
    expect(user.tenantInfo).toMatchObject({
      code: 'demo',
      websiteName: '华远国际物流',
      websiteNameEn: 'Huayuan Logistics',
    })
    expect(user.currentUserInfo).toMatchObject({
      type: 2,
      tenantId: user.tenantInfo.tenantId,
      name: 'Chen Jing',
      mail: 'entadmin@demo.example',
      imUserDetailVO: { status: 1 },
    })
    expect(JSON.stringify(body)).not.toContain(token)
  })

  it('gives an enterprise operator the self data scope and a provider user no customer company', async () => {
    const op = (await me(await tokenOf('entop'))).json().content
    expect(op.roles).toEqual(['EnterpriseOperation'])
    expect(op.dataScope).toBe('self')
    const provider = (await me(await tokenOf('opadmin'))).json().content
    expect(provider.userInfo.companyUserType).toBe(1)
    expect(provider.cusCompanyId).toBeNull()
    expect(provider.permissions).toContain('orderList')
  })

  it('accepts the token as Authorization: Bearer and as a bare Authorization header', async () => {
    const token = await tokenOf('entadmin')
    expect((await me(token, 'localhost', 'bearer')).json().content.userInfo.username).toBe('entadmin')
    expect((await me(token, 'localhost', 'bare')).json().content.userInfo.username).toBe('entadmin')
  })

  it('answers HTTP 401 without a session, with a made-up token, and for another tenant’s token', async () => {
    const none = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/user/getCurrentUserInfo',
      headers: { host: 'localhost' },
    })
    expect(none.statusCode).toBe(401)
    expect(none.json().code).toBe('401')
    expect((await me('A'.repeat(43))).statusCode).toBe(401)
    const demoToken = await tokenOf('entadmin')
    expect((await me(demoToken, 'acme.localhost')).statusCode).toBe(401)
    expect((await me(demoToken, 'acme.localhost', 'bearer')).statusCode).toBe(401)
    // acme's own entadmin is another person.
    const acme = (await me(await tokenOf('entadmin', 'acme.localhost'), 'acme.localhost')).json().content
    expect(acme.name).toBe('John Carter')
    expect(acme.tenantInfo.code).toBe('acme')
  })

  it('lets a user without a role log in and shows roles: [] (the portal asks them to contact the administrator)', async () => {
    await test.database.db
      .deleteFrom('user_role')
      .where('user_id', '=', (qb) => qb.selectFrom('app_user').select('id').where('username', '=', 'platform'))
      .execute()
    const response = await login('platform', DEMO_PASSWORD, { ip: freshIp() })
    expect(response.json().code).toBe('0000')
    const user = (await me(response.json().token)).json().content
    expect(user.roles).toEqual([])
    expect(user.permissions).toEqual([])
    expect(user.dataScope).toBe('self')
  })

  it('leaves out roles that are switched off', async () => {
    const token = await tokenOf('entadmin')
    await test.database.db
      .updateTable('role')
      .set({ status: 0 })
      .where('code', '=', 'EnterpriseAdministrator')
      .execute()
    try {
      expect((await me(token)).json().content.roles).toEqual([])
    } finally {
      await test.database.db
        .updateTable('role')
        .set({ status: 1 })
        .where('code', '=', 'EnterpriseAdministrator')
        .execute()
    }
  })

  it('slides the expiry forward when the session was last seen over a minute ago', async () => {
    const token = await tokenOf('entop')
    const hash = createHash('sha256').update(token).digest('hex')
    await test.database.db
      .updateTable('session')
      .set({
        last_seen_at: sql<Date>`now() - interval '2 minutes'`,
        expires_at: sql<Date>`now() + interval '1 hour'`,
      })
      .where('token_hash', '=', hash)
      .execute()
    expect((await me(token)).statusCode).toBe(200)
    const row = await test.database.db
      .selectFrom('session')
      .select([
        sql<boolean>`expires_at > now() + interval '6 days'`.as('extended'),
        sql<boolean>`last_seen_at > now() - interval '1 minute'`.as('touched'),
      ])
      .where('token_hash', '=', hash)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ extended: true, touched: true })
  })

  it('answers 401 for an expired session', async () => {
    const token = await tokenOf('entop')
    await test.database.db
      .updateTable('session')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .execute()
    expect((await me(token)).statusCode).toBe(401)
  })
})

describe('GET /b2b/user/logout', () => {
  it('revokes the session and clears the cookie; the same token then gets HTTP 401', async () => {
    const token = await tokenOf('entadmin')
    expect((await me(token)).statusCode).toBe(200)
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/user/logout',
      headers: { host: 'localhost', cookie: `b2b_token=${token}`, resource: '1' },
    })
    expect(response.json().code).toBe('0000')
    const cookie = setCookieOf(response)
    expect(cookie).toMatch(/^b2b_token=;/)
    expect(cookie).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i)
    expect(setCookieOf(response, 'b2b_signed_in')).toMatch(/^b2b_signed_in=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i)
    const row = await test.database.db
      .selectFrom('session')
      .select('revoked_at')
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .executeTakeFirstOrThrow()
    expect(row.revoked_at).not.toBeNull()
    expect((await me(token)).statusCode).toBe(401)
    expect((await me(token, 'localhost', 'bearer')).statusCode).toBe(401)
  })

  it('revokes only the session it was called with', async () => {
    const first = await tokenOf('entadmin')
    const second = await tokenOf('entadmin')
    await test.app.inject({
      method: 'GET',
      url: '/api/b2b/user/logout',
      headers: { host: 'localhost', authorization: first },
    })
    expect((await me(first)).statusCode).toBe(401)
    expect((await me(second)).statusCode).toBe(200)
  })

  it('answers success without a session too', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/user/logout',
      headers: { host: 'localhost' },
    })
    expect(response.json().code).toBe('0000')
  })
})
