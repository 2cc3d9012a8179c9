import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { SERIALISED } from '../../server/http/serialise.ts'
import { setupTestApp, TEST_PROXIES } from '../support/app.ts'

/**
 * Fastify writes the listed endpoints' answers from their YAML `response:` (server/http/serialise.ts), and a
 * schema serialiser leaves out what the schema does not name: each listed endpoint answers the same with it
 * as with JSON.stringify (an app built with WAYBILL_SERIALISE=0 on the same database), in two languages and
 * for two tenants.
 */
const test = setupTestApp()
let plain: FastifyInstance | undefined

beforeAll(async () => {
  process.env.WAYBILL_SERIALISE = '0'
  try {
    plain = await buildApp({ database: test.database, trustedProxies: TEST_PROXIES })
  } finally {
    delete process.env.WAYBILL_SERIALISE
  }
})
afterAll(async () => {
  await plain?.close()
})

interface Call {
  endpoint: string
  method: 'GET' | 'POST'
  url: string
  payload?: object
  signedIn?: boolean
}

async function both(call: Call, host: string, language: string, token?: string) {
  const request = {
    method: call.method,
    url: call.url,
    headers: { host, language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(call.payload ? { payload: call.payload } : {}),
  }
  const served = await test.app.inject(request)
  const written = await (plain as FastifyInstance).inject(request)
  return { served, written }
}

describe('answers written from the YAML response', () => {
  it('are the answers JSON.stringify writes, for every listed endpoint', async () => {
    const list = await test.app.inject({
      method: 'POST',
      url: '/api/b2b/public/api/information/list',
      headers: { host: 'localhost', language: 'en_US' },
      payload: {},
    })
    const article = list.json().content.list[0]?.id as number
    expect(article).toBeGreaterThan(0)
    const calls: Call[] = [
      { endpoint: 'newsList', method: 'POST', url: '/api/b2b/public/api/information/list', payload: { pageSize: 20 } },
      { endpoint: 'newsHot', method: 'GET', url: '/api/b2b/public/api/information/hot?limit=20' },
      { endpoint: 'newsRecommended', method: 'GET', url: '/api/b2b/public/api/information/recommended?limit=20' },
      { endpoint: 'newsDetail', method: 'GET', url: `/api/b2b/public/api/information/detail?id=${article}` },
      { endpoint: 'sitePages', method: 'GET', url: '/api/b2b/public/api/site/pages' },
      { endpoint: 'specialRoutes', method: 'GET', url: '/api/b2b/public/api/site/specialRoutes' },
      { endpoint: 'roleList', method: 'GET', url: '/api/b2b/role/list', signedIn: true },
    ]
    expect(calls.map((c) => c.endpoint).sort()).toEqual([...SERIALISED].sort())
    const tokens: Record<string, string> = {
      localhost: await test.login('opadmin'),
      'acme.localhost': await test.login('opadmin', 'acme.localhost'),
    }
    for (const call of calls) {
      for (const host of ['localhost', 'acme.localhost']) {
        for (const language of ['en_US', 'zh_CN']) {
          const { served, written } = await both(call, host, language, call.signedIn ? tokens[host] : undefined)
          const where = `${call.endpoint} ${host} ${language}`
          expect(served.statusCode, where).toBe(written.statusCode)
          expect(served.json(), where).toEqual(written.json())
          // An error answer would compare equal too: these are real answers.
          if (call.endpoint !== 'newsDetail' || host === 'localhost') expect(served.json().code, where).toBe('0000')
        }
      }
    }
  })

  it('keeps a refusal answered with HTTP 200 as it is', async () => {
    const call: Call = {
      endpoint: 'newsHot',
      method: 'GET',
      url: '/api/b2b/public/api/information/hot?limit=500',
    }
    const { served, written } = await both(call, 'localhost', 'en_US')
    expect(served.json().code).toBe('validation')
    expect(served.json()).toEqual(written.json())
  })
})
