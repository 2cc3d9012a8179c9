import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import type { Response } from 'light-my-request'
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { API_KEY_PATTERN } from '../../server/auth/apiKeys.ts'
import { setupTestApp, TEST_PROXIES } from '../support/app.ts'

/**
 * API keys (issue #29, "Open platform"; server/auth/apiKeys.ts, screens/apiKeys.yaml): an enterprise administrator
 * makes a key, a program lists the enterprise's orders with it through curl against a listening server; only the
 * hash is stored and the secret is never answered again; a key is refused outside its scopes, on another tenant,
 * once revoked, rotated or expired, beside a session cookie, on session-only calls, and past its rate limit —
 * counted in the database, so two servers on one database share one bucket.
 */

const test = setupTestApp()
const run = promisify(execFile)
const MY_ORDERS = '/api/booking/order/queryOrderListByCompany'
const OPERATOR_ORDERS = '/api/booking/order/queryOrderListByOperator'
const CONTACTS = '/api/contact/list'
const KEYS = '/api/b2b/apiKey/page'

type Answer = Response

function call(
  url: string,
  headers: Record<string, string>,
  payload: object = { pageNum: 1, pageSize: 10 },
  host = 'localhost',
): Promise<Answer> {
  return test.app.inject({ method: 'POST', url, headers: { host, language: 'en_US', ...headers }, payload })
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function makeKey(token: string, body: object): Promise<{ id: number; prefix: string; secret: string }> {
  const answer = await call('/api/b2b/apiKey/create', bearer(token), body)
  expect(answer.json().code, answer.body).toBe('0000')
  return answer.json().content
}

function expectRefused(answer: Answer, status: number, message: string) {
  expect(answer.statusCode, answer.body).toBe(status)
  expect(answer.json().message).toBe(message)
}

describe('API keys (issue #29)', () => {
  it('an enterprise administrator makes a key; curl lists the enterprise’s orders with it, as the session does', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'ERP', scopes: ['myOrders'], expiresInDays: 30 })
    expect(key.secret).toMatch(API_KEY_PATTERN)
    expect(key.secret.startsWith(key.prefix)).toBe(true)

    const bySession = (await call(MY_ORDERS, bearer(admin))).json()
    expect(bySession.code).toBe('0000')
    expect(bySession.content.total).toBeGreaterThan(0)

    // A real server on a real port, and curl, as the acceptance says.
    await test.app.listen({ port: 0, host: '127.0.0.1' })
    const address = test.app.server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const { stdout } = await run('curl', [
      '-sS',
      '-X',
      'POST',
      `http://127.0.0.1:${port}${MY_ORDERS}`,
      '-H',
      'Host: localhost',
      '-H',
      `Authorization: Bearer ${key.secret}`,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"pageNum":1,"pageSize":10}',
    ])
    const byKey = JSON.parse(stdout)
    expect(byKey.code).toBe('0000')
    expect(byKey.content.total).toBe(bySession.content.total)
    expect(byKey.content.list.map((o: { id: number }) => o.id)).toEqual(
      bySession.content.list.map((o: { id: number }) => o.id),
    )
    // X-Api-Key says the same, and so does a bare Authorization (as a session token may be sent).
    const byHeader = (await call(MY_ORDERS, { 'x-api-key': key.secret })).json()
    expect(byHeader.content.total).toBe(bySession.content.total)
    const bare = (await call(MY_ORDERS, { authorization: key.secret })).json()
    expect(bare.content.total).toBe(bySession.content.total)
  })

  it('stores the SHA-256 only, and never answers the secret again', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'Warehouse', scopes: ['myOrders'] })
    const { rows } = await sql<Record<string, unknown>>`select * from api_key where id = ${key.id}`.execute(
      test.database.db,
    )
    const row = rows[0]
    expect(row?.secret_hash).toBe(createHash('sha256').update(key.secret).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(PREFIX_END))
    const list = await call(KEYS, bearer(admin))
    expect(list.json().code).toBe('0000')
    const shown = list.json().content.list.find((k: { id: number }) => k.id === key.id)
    expect(shown).toMatchObject({ name: 'Warehouse', prefix: key.prefix, scopes: ['myOrders'], state: 'active' })
    expect(list.body).not.toContain(key.secret.slice(PREFIX_END))
    expect(list.body).not.toContain(String(row?.secret_hash))
  })

  it('refuses what the key is not scoped to (403), and a scope its maker does not hold', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'Orders only', scopes: ['myOrders'] })
    // The administrator may read contacts; the key may not.
    expect((await call(CONTACTS, bearer(admin))).json().code).toBe('0000')
    const refused = await call(CONTACTS, bearer(key.secret))
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('220000')

    const tooMuch = await call('/api/b2b/apiKey/create', bearer(admin), { name: 'Greedy', scopes: ['orderList'] })
    expect(tooMuch.statusCode).toBe(400)
    expect(tooMuch.json().content.fieldErrors[0]).toMatchObject({
      field: 'scopes',
      message: 'You cannot grant a permission you do not hold: orderList',
    })
  })

  it('refuses session-only calls, and a key sent beside the session cookie', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'Everything', scopes: ['myOrders', 'enterpriseApiKeys'] })
    const sessionOnly = 'This operation needs a signed-in user; an API key cannot perform it.'
    expectRefused(await call(KEYS, bearer(key.secret)), 403, sessionOnly)
    expectRefused(
      await call('/api/b2b/apiKey/create', { 'x-api-key': key.secret }, { name: 'Child', scopes: ['myOrders'] }),
      403,
      sessionOnly,
    )
    expectRefused(
      await call('/api/b2b/user/changePassword', bearer(key.secret), { oldPassword: 'x', newPassword: 'y' }),
      403,
      sessionOnly,
    )
    expectRefused(
      await call(MY_ORDERS, { ...bearer(key.secret), cookie: `b2b_token=${admin}` }),
      401,
      'Send either an API key or a session, not both.',
    )
  })

  it('a key works on its own tenant only: demo’s key on acme.localhost is 401', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'Demo only', scopes: ['myOrders'] })
    expect((await call(MY_ORDERS, bearer(key.secret))).json().code).toBe('0000')
    expectRefused(
      await call(MY_ORDERS, bearer(key.secret), undefined, 'acme.localhost'),
      401,
      'The API key is not valid for this site.',
    )
    // Nor does acme's administrator see demo's keys.
    const acme = await test.login('entadmin', 'acme.localhost')
    const theirs = (await call(KEYS, bearer(acme), undefined, 'acme.localhost')).json()
    expect(theirs.content.list.map((k: { prefix: string }) => k.prefix)).not.toContain(key.prefix)
  })

  it('revoked, rotated and expired keys are 401 with their reason; the rotated key’s new secret works', async () => {
    const admin = await test.login('entadmin')
    const revoked = await makeKey(admin, { name: 'To revoke', scopes: ['myOrders'] })
    const done = await call('/api/b2b/apiKey/revoke', bearer(admin), { id: revoked.id })
    expect(done.json().content.state).toBe('revoked')
    expectRefused(await call(MY_ORDERS, bearer(revoked.secret)), 401, 'This API key has been revoked.')

    const rotated = await makeKey(admin, { name: 'To rotate', scopes: ['myOrders'] })
    const fresh = (await call('/api/b2b/apiKey/rotate', bearer(admin), { id: rotated.id })).json().content
    expect(fresh.secret).not.toBe(rotated.secret)
    expectRefused(await call(MY_ORDERS, bearer(rotated.secret)), 401, 'The API key is not valid for this site.')
    expect((await call(MY_ORDERS, bearer(fresh.secret))).json().code).toBe('0000')

    const expiring = await makeKey(admin, { name: 'Short', scopes: ['myOrders'], expiresInDays: 1 })
    await sql`update api_key set expires_at = now() - interval '1 minute' where id = ${expiring.id}`.execute(
      test.database.db,
    )
    expectRefused(await call(MY_ORDERS, bearer(expiring.secret)), 401, 'This API key has expired.')
    // Neither a revoked nor an expired key can be rotated back to life.
    const again = await call('/api/b2b/apiKey/rotate', bearer(admin), { id: expiring.id })
    expect(again.statusCode).toBe(400)
  })

  it('a permission taken from the maker’s role is taken from the key at once', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'Contacts', scopes: ['contactList', 'myOrders'] })
    expect((await call(CONTACTS, bearer(key.secret))).json().code).toBe('0000')
    const role = sql`(select r.id from role r join tenant t on t.id = r.tenant_id
      where t.code = 'demo' and r.code = 'EnterpriseAdministrator')`
    await sql`update role set permissions = permissions - 'contactList' where id = ${role}`.execute(test.database.db)
    try {
      expect((await call(CONTACTS, bearer(key.secret))).statusCode).toBe(403)
      expect((await call(MY_ORDERS, bearer(key.secret))).json().code).toBe('0000')
    } finally {
      await sql`update role set permissions = permissions || '["contactList"]'::jsonb where id = ${role}`.execute(
        test.database.db,
      )
    }
    expect((await call(CONTACTS, bearer(key.secret))).json().code).toBe('0000')
  })

  it('an operator keeps the tenant’s own keys, apart from the enterprises’', async () => {
    const operator = await test.login('opadmin')
    const key = await makeKey(operator, { name: 'TMS', scopes: ['orderList'] })
    expect((await call(OPERATOR_ORDERS, bearer(key.secret))).json().code).toBe('0000')
    expect((await call(MY_ORDERS, bearer(key.secret))).statusCode).toBe(403)
    const listed = (await call(KEYS, bearer(operator))).json().content.list as { name: string }[]
    expect(listed.map((k) => k.name)).toEqual(['TMS'])
    // An enterprise's key is no operator's to revoke.
    const admin = await test.login('entadmin')
    const theirs = await makeKey(admin, { name: 'Customer', scopes: ['myOrders'] })
    expect((await call('/api/b2b/apiKey/revoke', bearer(operator), { id: theirs.id })).statusCode).toBe(404)
  })
})

describe('the per-key rate limit (issue #29)', () => {
  const limit = { perMinute: 1, burst: 3 }
  const apps: Awaited<ReturnType<typeof buildApp>>[] = []
  afterAll(async () => {
    for (const app of apps) await app.close()
  })

  it('answers 429 with Retry-After past the burst, counted across two servers on one database', async () => {
    const admin = await test.login('entadmin')
    const key = await makeKey(admin, { name: 'Busy', scopes: ['myOrders'] })
    for (let i = 0; i < 2; i++)
      apps.push(await buildApp({ database: test.database, trustedProxies: TEST_PROXIES, apiKeyLimit: limit }))
    const [one, two] = apps
    if (!one || !two) throw new Error('two servers')
    const ask = (app: typeof one) =>
      app.inject({
        method: 'POST',
        url: MY_ORDERS,
        headers: { host: 'localhost', language: 'en_US', ...bearer(key.secret) },
        payload: { pageNum: 1, pageSize: 1 },
      })
    // Three calls (the burst) taking turns between the servers go through; the fourth, on either, does not.
    for (const app of [one, two, one]) expect((await ask(app)).json().code).toBe('0000')
    const refused = await ask(two)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(refused.json().message).toMatch(/^Too many requests with this API key\. Try again in \d+ seconds\.$/)
    expect((await ask(one)).statusCode).toBe(429)
    // Another key has its own bucket.
    const other = await makeKey(admin, { name: 'Quiet', scopes: ['myOrders'] })
    const quiet = await one.inject({
      method: 'POST',
      url: MY_ORDERS,
      headers: { host: 'localhost', ...bearer(other.secret) },
      payload: { pageNum: 1, pageSize: 1 },
    })
    expect(quiet.json().code).toBe('0000')
  })
})

describe('the OpenAPI document (issue #29)', () => {
  const openapi = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'))
  const schemesOf = (path: string) =>
    (openapi.paths[path].post.security as Record<string, unknown>[]).flatMap((s) => Object.keys(s))

  it('offers the key on the calls it may make, and not on session-only ones', () => {
    expect(openapi.components.securitySchemes.apiKeyBearer).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(openapi.components.securitySchemes.apiKeyHeader).toMatchObject({ in: 'header', name: 'X-Api-Key' })
    expect(schemesOf('/api/booking/order/queryOrderListByCompany')).toEqual(
      expect.arrayContaining(['apiKeyBearer', 'apiKeyHeader']),
    )
    for (const path of ['/api/b2b/apiKey/create', '/api/b2b/apiKey/page', '/api/b2b/user/changePassword'])
      expect(schemesOf(path)).not.toContain('apiKeyBearer')
  })
})

/** What of a secret is not its shown prefix. */
const PREFIX_END = 11
