import { beforeAll } from 'vitest'
import { setupTestApp } from './app.ts'

/**
 * The fixture of the API tests of signing in, registering and the codes they send: the test app (./app.ts),
 * demo users given the mobile numbers the seed leaves out, and calls as the portal makes them — with its
 * `Resource: 1` header, which sign-ins and cookie-authorised changes need (server/http/csrf.ts), each from an
 * address of its own so per-address limits of one test never touch another.
 */

/** The mobile number the tests give the demo user `personal`. */
export const PERSONAL_MOBILE = '13800138000'

let nextAddress = 1
/** An address no call of this test file has come from. */
export const freshIp = () => `10.98.${Math.floor(nextAddress / 250) % 250}.${(nextAddress++ % 250) + 1}`

/** `mobiles`: the mobile number to give each demo user, by user name, before the first test. */
export function setupSignInTest(mobiles: Record<string, string> = {}) {
  const test = setupTestApp()
  beforeAll(async () => {
    for (const [username, mobile] of Object.entries(mobiles))
      await test.database.db.updateTable('app_user').set({ mobile }).where('username', '=', username).execute()
  })
  /** A call to `/api${url}`; `headers` add to the portal's or replace them (another host, language or address). */
  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    test.app.inject({
      method,
      url: `/api${url}`,
      headers: { host: 'localhost', 'x-forwarded-for': freshIp(), resource: '1', ...headers },
      ...(payload ? { payload } : {}),
    })
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    call('POST', url, payload, headers)
  return { test, call, post }
}
