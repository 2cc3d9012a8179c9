import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

/** The top bar's other calls (SPEC §2, §7): the tenant check of the Direct order menu and the IM address. */
const test = setupTestApp()

const get = (url: string, token?: string, host = 'localhost') =>
  test.app.inject({
    method: 'GET',
    url,
    headers: { host, language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  })

describe('the tenant check (GET /b2b/tenant/checkTenant)', () => {
  it("answers the demo tenant's direct-order service", async () => {
    const token = await test.login('entadmin')
    const settings = (await get('/api/b2b/public/api/site/settings')).json().content
    const body = (await get(`/api/b2b/tenant/checkTenant?tenantId=${settings.tenantId}`, token)).json()
    expect(body.code).toBe('0000')
    expect(body.content).toMatchObject({ contactName: '周丽', email: 'booking@huayuan-logistics.example' })
  })

  it('answers no content for acme, which has not enabled online booking', async () => {
    const token = await test.login('entadmin', 'acme.localhost')
    const body = (await get('/api/b2b/tenant/checkTenant', token, 'acme.localhost')).json()
    expect(body).toEqual({ code: '0000', message: expect.any(String), content: null })
  })

  it("answers 404 for another tenant's id", async () => {
    const token = await test.login('entadmin', 'acme.localhost')
    const demo = (await get('/api/b2b/public/api/site/settings')).json().content
    const response = await get(`/api/b2b/tenant/checkTenant?tenantId=${demo.tenantId}`, token, 'acme.localhost')
    expect(response.statusCode).toBe(404)
  })

  it('needs the direct-order permission', async () => {
    const token = await test.login('opadmin')
    const response = await get('/api/b2b/tenant/checkTenant', token)
    expect(response.json().code).toBe('220000')
    expect((await get('/api/b2b/tenant/checkTenant')).statusCode).toBe(401)
  })
})

describe('site settings for the top bar', () => {
  it('carry the IM address (empty when the tenant has none) but not the direct-order contact', async () => {
    const settings = (await get('/api/b2b/public/api/site/settings')).json().content
    expect(settings.imUrl).toBe('')
    expect(settings).not.toHaveProperty('directOrder')
  })
})
