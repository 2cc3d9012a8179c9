import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../server/app.ts'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()

describe('GET /api/health', () => {
  it('answers "ok" and nothing else: no database kind, no uptime (issue #17, finding 9)', async () => {
    for (const host of ['localhost', 'evil.example', undefined]) {
      const response = await test.app.inject({ method: 'GET', url: '/api/health', headers: host ? { host } : {} })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ code: '0000', message: 'ok', content: null })
      expect(response.body).not.toMatch(/pglite|postgres|uptime/i)
    }
  })
})

describe('security headers', () => {
  it('go on every answer — an API call, a refusal, a file of the site — with the strict policy, the same each time', async () => {
    const answers = await Promise.all(
      ['/api/health', '/api/no/such/thing', '/api/booking/order/getOrderDetail?id=1', '/robots.txt'].map((url) =>
        test.app.inject({ method: 'GET', url, headers: { host: 'localhost' } }),
      ),
    )
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 401, 200])
    for (const { headers } of answers) {
      expect(headers['content-security-policy']).toBe(
        Object.entries(CONTENT_SECURITY_POLICY)
          .map(([name, values]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(' ')}`)
          .join(';'),
      )
      expect(headers['content-security-policy']).toContain("script-src 'self';")
      expect(headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'cross-origin-opener-policy': 'same-origin',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'referrer-policy': 'no-referrer',
      })
      expect(headers['cross-origin-embedder-policy']).toBeUndefined()
      expect(headers['x-powered-by']).toBeUndefined()
    }
  })
})

describe('unknown paths', () => {
  it('answer an envelope error, never an HTML page', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/no/such/thing' })
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toMatch(/application\/json/)
    expect(response.json()).toMatchObject({ code: '404', content: null })
  })

  it('say so in the caller’s language, as every other answer does', async () => {
    const english = await test.app.inject({ method: 'GET', url: '/api/no/such/thing', headers: { language: 'en_US' } })
    expect(english.json()).toEqual({
      code: '404',
      message: 'The record does not exist or you cannot see it',
      content: null,
    })
    const chinese = await test.app.inject({ method: 'GET', url: '/api/no/such/thing' })
    expect(chinese.json().message).toBe('记录不存在或您无权查看')
  })
})

describe('site settings by host', () => {
  it('gives each tenant its own settings', async () => {
    const demo = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/public/api/site/settings',
      headers: { host: 'localhost:3000' },
    })
    const acme = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/public/api/site/settings',
      headers: { host: 'acme.localhost' },
    })
    expect(demo.json().content.websiteNameEn).toBe('Huayuan Logistics')
    expect(acme.json().content.websiteNameEn).toBe('Acme Logistics')
    expect(acme.json().content.pageTemplate).toBe(2)
    expect(demo.json().content.tenantId).not.toBe(acme.json().content.tenantId)
  })

  it('answers not-found for a host no tenant owns', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/b2b/public/api/site/settings',
      headers: { host: 'evil.example' },
    })
    expect(response.json().code).toBe('404')
  })
})
