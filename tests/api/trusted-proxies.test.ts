import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { IP_FAILURES } from '../../server/auth/limits.ts'
import { parseTrustedProxies, readConfig } from '../../server/config.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * Issue #17, finding 3: with `trustProxy: true` anyone dodged every per-address limit by inventing an
 * X-Forwarded-For. The server now believes that header only from the proxies WAYBILL_TRUSTED_PROXIES
 * names, none by default. Replayed on the login limit (IP_FAILURES failures from one address → 429).
 */

const test = setupTestApp()
let direct: FastifyInstance
let proxied: FastifyInstance
const PROXY = '192.0.2.1'
let nextUser = 1

beforeAll(async () => {
  direct = await buildApp({ database: test.database })
  proxied = await buildApp({
    database: test.database,
    trustedProxies: parseTrustedProxies(` ${PROXY}, 198.51.100.0/24 `),
  })
})
afterAll(async () => {
  await direct?.close()
  await proxied?.close()
})

/** A failed login (an account nobody has) from `remoteAddress`, claiming to forward for `forwardedFor`. */
async function failedLogin(app: FastifyInstance, remoteAddress: string, forwardedFor: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/b2b/user/login',
    remoteAddress,
    headers: { host: 'localhost', 'x-forwarded-for': forwardedFor, resource: '1' },
    payload: { username: `nobody${nextUser++}`, password: 'Wrong@2026' },
  })
  return response.json().code as string
}

describe('X-Forwarded-For (issue #17, finding 3)', () => {
  it('reads WAYBILL_TRUSTED_PROXIES as a list of addresses and ranges, none by default', () => {
    expect(readConfig({}).trustedProxies).toEqual([])
    expect(readConfig({ WAYBILL_TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16,,' }).trustedProxies).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
    ])
  })

  it('by default counts the connection, so a forged X-Forwarded-For does not dodge the login limit', async () => {
    const attacker = '203.0.113.7'
    for (let i = 0; i < IP_FAILURES; i++)
      expect(await failedLogin(direct, attacker, `10.200.0.${i + 1}`)).toBe('300005')
    // A new invented address each time, and still the attacker's own connection that is counted.
    expect(await failedLogin(direct, attacker, '10.200.1.1')).toBe('429')
    expect(await failedLogin(direct, attacker, '10.200.1.2')).toBe('429')
    // Another client is not held back by the attacker.
    expect(await failedLogin(direct, '203.0.113.8', '10.200.1.1')).toBe('300005')
  })

  it('behind a configured proxy, counts each client the proxy forwards for, and nobody else may forward', async () => {
    const client = '100.64.0.1'
    for (let i = 0; i < IP_FAILURES; i++) expect(await failedLogin(proxied, PROXY, client)).toBe('300005')
    expect(await failedLogin(proxied, PROXY, client)).toBe('429')
    // Another client behind the same proxy is its own count; so is one behind a proxy of the trusted range.
    expect(await failedLogin(proxied, PROXY, '100.64.0.2')).toBe('300005')
    expect(await failedLogin(proxied, '198.51.100.9', '100.64.0.3')).toBe('300005')
    // An address that is no configured proxy cannot claim to forward for someone: it is the client.
    const stranger = '203.0.113.20'
    for (let i = 0; i < IP_FAILURES; i++)
      expect(await failedLogin(proxied, stranger, `100.64.1.${i + 1}`)).toBe('300005')
    expect(await failedLogin(proxied, stranger, '100.64.2.1')).toBe('429')
  })
})
