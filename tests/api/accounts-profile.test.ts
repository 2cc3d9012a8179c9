import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()
const tokenOf = (username: string, host?: string) => test.login(username, host)

const CHANGE = '/api/b2b/user/change/userInfo'
const ME = '/api/b2b/user/getCurrentUserInfo'

function change(token: string | null, payload: object, options: { language?: string; host?: string } = {}) {
  const headers: Record<string, string> = { host: options.host ?? 'localhost' }
  // The portal's header beside the cookie, as a cookie-authorised change needs (server/http/csrf.ts).
  if (token) Object.assign(headers, { cookie: `b2b_token=${token}`, resource: '1' })
  if (options.language) headers.language = options.language
  return test.app.inject({ method: 'POST', url: CHANGE, headers, payload })
}

async function me(token: string, host = 'localhost') {
  const response = await test.app.inject({ method: 'GET', url: ME, headers: { host, cookie: `b2b_token=${token}` } })
  expect(response.statusCode).toBe(200)
  return response.json().content as Record<string, unknown>
}

describe('POST /b2b/user/change/userInfo', () => {
  it("saves the caller's own profile, answers it, and getCurrentUserInfo shows it", async () => {
    const token = await tokenOf('personal')
    const profile = {
      realName: '刘洋',
      email: 'Liu.Yang@Example.com',
      mobile: '13812345678',
      avatar: 'avatars/liu.png',
      language: 'en',
      individuationCurrency: 'USD',
    }
    const response = await change(token, profile)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      code: '0000',
      content: { ...profile, username: 'personal', email: 'liu.yang@example.com' },
    })
    const user = await me(token)
    expect(user).toMatchObject({
      username: 'personal',
      realName: '刘洋',
      email: 'liu.yang@example.com',
      mobile: '13812345678',
      avatar: 'avatars/liu.png',
      language: 'en',
      individuationCurrency: 'USD',
      name: '刘洋',
    })
    const row = await test.database.db
      .selectFrom('app_user')
      .select(['version', 'updated_at', 'created_at'])
      .where('username', '=', 'personal')
      .executeTakeFirstOrThrow()
    expect(row.version).toBe(2)
    expect(new Date(row.updated_at).getTime()).toBeGreaterThan(new Date(row.created_at as unknown as Date).getTime())
  })

  it('leaves fields it is not sent as they are and clears those sent empty', async () => {
    const token = await tokenOf('entop')
    await change(token, { realName: 'Wang Fang', mobile: '13900001111', avatar: 'a.png', language: 'ja' })
    const partial = await change(token, { realName: 'Wang Fang 2' })
    expect(partial.json().content).toMatchObject({ realName: 'Wang Fang 2', mobile: '13900001111', language: 'ja' })
    const cleared = await change(token, { realName: 'Wang Fang 2', mobile: '', avatar: null })
    expect(cleared.json().content).toMatchObject({ mobile: null, avatar: null, language: 'ja' })
    expect(await me(token)).toMatchObject({ mobile: null, avatar: null, language: 'ja', email: 'entop@demo.example' })
  })

  it('answers 300009 / 300002 for an e-mail or mobile another user of the tenant has', async () => {
    const entadmin = await tokenOf('entadmin')
    expect((await change(entadmin, { realName: 'Chen Jing', mobile: '13700007777' })).json().code).toBe('0000')
    const token = await tokenOf('opcs')
    const email = await change(token, { realName: 'Zhang Min', email: 'ENTADMIN@demo.example' }, { language: 'en_US' })
    expect(email.statusCode).toBe(200)
    expect(email.json()).toMatchObject({
      code: '300009',
      message: 'This email address is already registered',
      content: null,
    })
    expect((await change(token, { realName: 'Zhang Min', mobile: '13700007777' })).json().code).toBe('300002')
    // The caller's own values are no duplicate; another tenant's are not either.
    expect((await change(token, { realName: 'Zhang Min', email: 'opcs@demo.example' })).json().code).toBe('0000')
    expect((await change(token, { realName: 'Zhang Min', email: 'entadmin@acme.example' })).json().code).toBe('0000')
    expect(await me(token)).toMatchObject({ realName: 'Zhang Min', email: 'entadmin@acme.example' })
  })

  it('names the wrong fields in the language asked for, and changes nothing', async () => {
    const token = await tokenOf('entadmin')
    const before = await me(token)
    const body = { realName: '', email: 'not-an-email', mobile: '02112345678', language: 'fr' }
    for (const [header, language, invalidEmail] of [
      ['en_US', 'en', 'Invalid e-mail address'],
      ['zh_CN', 'zh', '邮箱格式错误'],
      ['es_ES', 'es', 'Correo electrónico no válido'],
    ] as const) {
      const response = await change(token, body, { language: header })
      expect(response.statusCode).toBe(400)
      expect(response.json().code).toBe('validation')
      const errors = response.json().content.fieldErrors as { field: string; key: string; message: string }[]
      expect(errors.map((e) => [e.field, e.key]).sort()).toEqual([
        ['email', 'rule.emailFormat'],
        ['language', 'validation.enum'],
        ['mobile', 'rule.chinaMobile'],
        ['realName', 'validation.required'],
      ])
      for (const e of errors) expect(e.message, `${language} ${e.key}`).not.toBe(e.key)
      expect(errors.find((e) => e.field === 'email')?.message).toBe(invalidEmail)
    }
    const en = await change(token, body, { language: 'en_US' })
    expect(en.json().content.fieldErrors.find((e: { field: string }) => e.field === 'realName').message).toBe(
      'Required',
    )
    // A name of blanks is no name.
    const blank = await change(token, { realName: '   ' })
    expect(blank.statusCode).toBe(400)
    expect(blank.json().content.fieldErrors[0]).toMatchObject({ field: 'realName', key: 'validation.required' })
    expect(await me(token)).toEqual(before)
  })

  it('checks the version when one is sent (330002 when stale)', async () => {
    const token = await tokenOf('opadmin')
    const { version } = (await change(token, { realName: 'Li Wei' })).json().content
    expect((await change(token, { realName: 'Li Wei 2', version })).json().code).toBe('0000')
    const stale = await change(token, { realName: 'Li Wei 3', version })
    expect(stale.json()).toMatchObject({ code: '330002', content: null })
    expect((await me(token)).realName).toBe('Li Wei 2')
  })

  it('needs a login but no permission, and stays within the tenant of the host', async () => {
    const anonymous = await change(null, { realName: 'Nobody' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json().code).toBe('401')
    // A demo token on the acme host is no session there.
    const token = await tokenOf('entadmin')
    expect((await change(token, { realName: 'Other' }, { host: 'acme.localhost' })).statusCode).toBe(401)
    const acme = await tokenOf('entadmin', 'acme.localhost')
    expect((await change(acme, { realName: 'John C.' }, { host: 'acme.localhost' })).json().code).toBe('0000')
    expect((await me(token)).realName).not.toBe('John C.')
    expect((await me(acme, 'acme.localhost')).realName).toBe('John C.')
  })
})
