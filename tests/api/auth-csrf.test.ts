import { describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * Issue #17, finding 7: logout was a GET the b2b_token cookie alone authorised, so a link on another site
 * signed a user out. A call a cookie alone would authorise that changes something — and logout, and the
 * sign-in calls — now needs the portal's `Resource: 1` (SPEC §7), which another site cannot make a browser
 * send; calls authorised by an Authorization header need nothing more (server/http/csrf.ts).
 */

const test = setupTestApp()
const ME = '/api/b2b/user/getCurrentUserInfo'
const LOGOUT = '/api/b2b/user/logout'
const CHANGE = '/api/b2b/user/change/userInfo'
let nextIp = 1
const ip = () => `10.77.0.${nextIp++}`

function call(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) {
  return test.app.inject({ method, url, headers: { host: 'localhost', language: 'en_US', ...headers }, payload })
}
const cookie = (token: string) => ({ cookie: `b2b_token=${token}` })
const RESOURCE = { resource: '1' }

async function signedIn(token: string): Promise<boolean> {
  return (await call('GET', ME, cookie(token))).json().code === '0000'
}

async function realNameOf(token: string): Promise<string> {
  return (await call('GET', ME, cookie(token))).json().content.realName
}

function expectRefused(response: { statusCode: number; json(): { code: string; message: string } }) {
  expect(response.statusCode).toBe(403)
  expect(response.json().code).toBe('220000')
  expect(response.json().message).toBe(
    'This request did not come from the portal and was refused. Reload the page and try again.',
  )
}

describe('cross-site requests (issue #17, finding 7)', () => {
  it('refuses a logout link (GET, cookie only) and the session lives on; with the header it signs out', async () => {
    const token = await test.login('personal')
    const forged = await call('GET', LOGOUT, cookie(token))
    expectRefused(forged)
    expect(forged.headers['set-cookie']).toBeUndefined()
    expect(await signedIn(token)).toBe(true)

    const real = await call('GET', LOGOUT, { ...cookie(token), ...RESOURCE })
    expect(real.json().code).toBe('0000')
    expect(await signedIn(token)).toBe(false)
  })

  it('refuses a cookie-only POST that changes something, and nothing changes; with the header it is saved', async () => {
    const token = await test.login('entop')
    const before = await realNameOf(token)
    const forged = await call('POST', CHANGE, cookie(token), { realName: 'Forged Name' })
    expectRefused(forged)
    expect(await realNameOf(token)).toBe(before)

    const real = await call('POST', CHANGE, { ...cookie(token), ...RESOURCE }, { realName: 'Chosen Name' })
    expect(real.json().code, real.body).toBe('0000')
    expect(await realNameOf(token)).toBe('Chosen Name')
  })

  it('refuses a cookie-only multipart upload before reading it', async () => {
    const token = await test.login('entadmin')
    const boundary = '----waybillcsrf'
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nx\r\n--${boundary}--\r\n`
    const forged = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/file/upload?entity=userProfile&field=avatar',
      headers: {
        host: 'localhost',
        language: 'en_US',
        ...cookie(token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    })
    expectRefused(forged)
  })

  it('refuses a sign-in without the header (login CSRF) and opens no session; with it the user signs in', async () => {
    const from = ip()
    const body = { username: 'personal', password: DEMO_PASSWORD }
    const forged = await call('POST', '/api/b2b/user/login', { 'x-forwarded-for': from }, body)
    expectRefused(forged)
    expect(forged.headers['set-cookie']).toBeUndefined()
    expect(forged.json().token).toBeUndefined()

    const real = await call('POST', '/api/b2b/user/login', { 'x-forwarded-for': from, ...RESOURCE }, body)
    expect(real.json().code).toBe('0000')
    expect(String(real.headers['set-cookie'])).toContain('b2b_token=')
    for (const path of ['/api/b2b/user/codeLogin', '/api/b2b/user/exchangeToken'])
      expectRefused(await call('POST', path, { 'x-forwarded-for': ip() }, {}))
  })

  it('leaves calls authorised by an Authorization header as they were', async () => {
    const token = await test.login('entop')
    const authorization = { authorization: `Bearer ${token}` }
    const saved = await call('POST', CHANGE, authorization, { realName: 'By Token' })
    expect(saved.json().code, saved.body).toBe('0000')
    expect(await realNameOf(token)).toBe('By Token')
    const out = await call('GET', LOGOUT, authorization)
    expect(out.json().code).toBe('0000')
    expect(await signedIn(token)).toBe(false)
  })

  it('leaves reads with the cookie, and public calls without one, as they were', async () => {
    const token = await test.login('personal')
    expect((await call('GET', ME, cookie(token))).json().code).toBe('0000')
    const search = await call(
      'POST',
      '/api/price/public/api/rate/search',
      { 'x-forwarded-for': ip() },
      {
        mode: 'FCL',
        origin: 'CNSHA',
        destination: 'USLAX',
      },
    )
    expect(search.statusCode).toBe(200)
    expect(search.json().code).not.toBe('220000')
    // A logout with no session at all has nothing to forge: it just clears the cookies.
    expect((await call('GET', LOGOUT, {})).json().code).toBe('0000')
  })
})
