import { createHash } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * One transaction per signed-in request (issue #29, speed): the session read opens it and the handler's first
 * withTenant takes it over (server/db/requestTransaction.ts); whatever is not taken is let go, so nobody waits
 * on it; and a login checks its password outside every transaction.
 */

const test = setupTestApp()
let nextIp = 1
const freshIp = () => `10.77.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

async function demoTenant(): Promise<number> {
  const row = await test.database.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst()
  return row?.id as number
}

function call(method: 'GET' | 'POST', url: string, token: string | null, payload?: object) {
  return test.app.inject({
    method,
    url: `/api${url}`,
    headers: {
      host: 'localhost',
      language: 'en_US',
      'x-forwarded-for': freshIp(),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(payload ? { payload } : {}),
  })
}

describe('the request transaction', () => {
  it("writes the session's touch and the handler's work in one transaction", async () => {
    const token = await test.login('opadmin')
    const db = test.database.db
    // Last seen two minutes ago: this call slides the expiry, in the transaction its session read opened.
    await db
      .updateTable('session')
      .set({ last_seen_at: sql<Date>`now() - interval '2 minutes'` })
      .where('token_hash', '=', hashOf(token))
      .execute()
    const tenantId = await demoTenant()
    const { rows } = await sql<{ bl_no: string }>`
      select bl_no from shipment where tenant_id = ${tenantId} and bl_no is not null order by id limit 1`.execute(db)
    const number = rows[0]?.bl_no as string
    const response = await call('POST', '/booking/public/api/tracking/query', token, { numbers: number })
    expect(response.json().code).toBe('0000')
    // A signed-in search writes the lookup and the user's history; the session row was touched. The same xmin:
    // the same transaction. (Before, the session was read and touched in transactions of its own.)
    const session = await sql<{ xmin: string; touched: boolean }>`
      select xmin::text, last_seen_at > now() - interval '1 minute' as touched
      from session where token_hash = ${hashOf(token)}`.execute(db)
    const history = await sql<{ xmin: string }>`
      select s.xmin::text from user_setting s join session x on x.user_id = s.user_id and x.tenant_id = s.tenant_id
      where x.token_hash = ${hashOf(token)} and s.name = 'trackingHistory'`.execute(db)
    expect(session.rows[0]?.touched).toBe(true)
    expect(history.rows[0]?.xmin).toBe(session.rows[0]?.xmin)
  })

  it('lets go of a transaction nobody took: refused, invalid, or answered without the database', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    // Refused before the handler (no operator rights), refused by the body's check, and a bad token.
    const refused = await call('POST', '/booking/order/queryOrderListByOperator', customer, { searchParams: {} })
    expect(refused.json().code).toBe('220000')
    const invalid = await call('POST', '/booking/order/queryOrderListByOperator', operator, { pageSize: 'many' })
    expect(invalid.statusCode).toBe(400)
    const stranger = await call('GET', '/b2b/user/getCurrentUserInfo', 'x'.repeat(43))
    expect(stranger.statusCode).toBe(401)
    // Had any of them kept its transaction, PGlite's one connection (or a pool slot) would still be taken:
    // the next calls would wait forever instead of answering.
    const listed = await call('POST', '/booking/order/queryOrderListByOperator', operator, { searchParams: {} })
    expect(listed.json().code).toBe('0000')
    expect(listed.json().content.total).toBeGreaterThan(0)
    const me = await call('GET', '/b2b/user/getCurrentUserInfo', customer)
    expect(me.json().content.username).toBe('entadmin')
  })

  it('rolls the handler back with the transaction the session opened', async () => {
    const token = await test.login('opadmin')
    const db = test.database.db
    await db
      .updateTable('session')
      .set({ last_seen_at: sql<Date>`now() - interval '2 minutes'` })
      .where('token_hash', '=', hashOf(token))
      .execute()
    // An update of an order that does not exist: the engine answers an error, the transaction is rolled back —
    // and with it the touch written in it, which the next call writes again.
    const missing = await call('GET', '/booking/order/getOrderDetail?id=999999999', token)
    expect(missing.statusCode).toBeGreaterThanOrEqual(400)
    expect(missing.statusCode).toBeLessThan(500)
    const stale = await sql<{ touched: boolean }>`
      select last_seen_at > now() - interval '1 minute' as touched from session where token_hash = ${hashOf(token)}`.execute(
      db,
    )
    expect(stale.rows[0]?.touched).toBe(false)
    expect((await call('GET', '/b2b/user/getCurrentUserInfo', token)).statusCode).toBe(200)
  })
})

describe('a login checks its password outside the transaction others wait on', () => {
  it('lets another call finish while a login hashes', async () => {
    const operator = await test.login('opadmin')
    const db = test.database.db
    const stored = await db
      .selectFrom('app_user')
      .select('password_hash')
      .where('username', '=', 'entadmin')
      .executeTakeFirstOrThrow()
    // The same password under a hash 75 times as costly as a stored one (argon2 reads its cost from the hash):
    // about a second and a half of hashing, so the list call's own time, however loaded the machine, cannot decide
    // the order (with the usual tens of ms, a slow list under CI's load finished second although nothing held it).
    const slow = await hash(DEMO_PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 150, parallelism: 1 })
    await db.updateTable('app_user').set({ password_hash: slow }).where('username', '=', 'entadmin').execute()
    try {
      await loginBesideList(operator)
    } finally {
      await db
        .updateTable('app_user')
        .set({ password_hash: stored.password_hash })
        .where('username', '=', 'entadmin')
        .execute()
    }
  })

  async function loginBesideList(operator: string) {
    const finished: string[] = []
    const ip = freshIp()
    const login = test.app
      .inject({
        method: 'POST',
        url: '/api/b2b/user/login',
        headers: { host: 'localhost', 'x-forwarded-for': ip, resource: '1' },
        payload: { username: 'entadmin', password: DEMO_PASSWORD },
      })
      .then((response) => {
        finished.push('login')
        return response
      })
    // The login counts its attempt and commits before it checks the password: once the count is there, the login
    // is hashing. The list call is issued then. On PGlite every transaction waits for the one before it: a login
    // that hashed inside its transaction would have held the list call up until it had answered (and its count
    // would show only after the hash, so the list would start too late to finish first).
    const counted = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from login_failure where ip = ${ip}`.execute(
          test.database.db,
        )
      ).rows[0]?.n
    while (finished.length === 0 && (await counted()) === 0) await new Promise((resolve) => setTimeout(resolve, 2))
    const list = call('POST', '/booking/order/queryOrderListByOperator', operator, { searchParams: {} }).then(
      (response) => {
        finished.push('list')
        return response
      },
    )
    const [signedIn, listed] = await Promise.all([login, list])
    expect(signedIn.json().code).toBe('0000')
    expect(listed.json().code).toBe('0000')
    expect(finished).toEqual(['list', 'login'])
  }

  it('still counts a wrong password, and a right one clears its address', async () => {
    const ip = freshIp()
    const attempt = (password: string) =>
      test.app.inject({
        method: 'POST',
        url: '/api/b2b/user/login',
        headers: { host: 'localhost', 'x-forwarded-for': ip, resource: '1' },
        payload: { username: 'entop', password },
      })
    const failures = () =>
      sql<{ n: number }>`select count(*)::int as n from login_failure where ip = ${ip}`.execute(test.database.db)
    expect((await attempt('wrong')).json().code).toBe('300005')
    expect((await attempt('wrong again')).json().code).toBe('300005')
    expect((await failures()).rows[0]?.n).toBe(2)
    expect((await attempt(DEMO_PASSWORD)).json().code).toBe('0000')
    expect((await failures()).rows[0]?.n).toBe(0)
    // The right password of a disabled account is told so, and its attempt (counted while pending) is taken back.
    const db = test.database.db
    await db.updateTable('app_user').set({ state: 0 }).where('username', '=', 'entop').execute()
    try {
      expect((await attempt(DEMO_PASSWORD)).json().code).toBe('300007')
      expect((await failures()).rows[0]?.n).toBe(0)
      expect((await attempt('wrong')).json().code).toBe('300005')
      expect((await failures()).rows[0]?.n).toBe(1)
    } finally {
      await db.updateTable('app_user').set({ state: 1 }).where('username', '=', 'entop').execute()
    }
  })
})
