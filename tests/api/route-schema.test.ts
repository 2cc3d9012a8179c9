import { beforeAll, describe, expect, it } from 'vitest'
import { servedByEngine } from '../../server/engine/core.ts'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * Every route's Fastify schema comes from the YAML (issue #19 point 1, server/http/routeSchema.ts): the part
 * of the request each one declares, and what the app answers when Fastify's check of it refuses.
 */

const test = setupTestApp()
const manifest = loadManifest()
let token = ''

beforeAll(async () => {
  token = await test.login('platform')
})

describe('route schemas', () => {
  it('declares the input of every route that takes one, in the part it arrives in', () => {
    const routes = new Map(test.app.registeredRoutes.map((r) => [`${r.method} ${r.url}`, r.checks]))
    let checked = 0
    for (const endpoint of manifest.endpoints) {
      const where = `${endpoint.method} ${endpoint.path} (${endpoint.kind})`
      const checks = routes.get(`${endpoint.method} /api${endpoint.path}`)
      expect(checks, where).toBeDefined()
      const part = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'querystring' : 'body'
      const engine = servedByEngine(manifest, endpoint)
      // An engine create or update is checked whole in its transaction; an import is a workbook upload, whose
      // own input (the binding's `input:`, an operator's customer) travels as the query string.
      const expected =
        engine && endpoint.kind === 'import'
          ? endpoint.input
            ? ['querystring']
            : []
          : (engine && ['create', 'update'].includes(endpoint.kind)) || (!engine && !endpoint.entity)
            ? []
            : [part]
      expect(checks, where).toEqual(expected)
      if (expected.length) checked++
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('answers an engine detail’s and delete’s ?id=2^63 with the bounded id’s field error, in the caller’s language', async () => {
    for (const endpoint of manifest.endpoints.filter((e) => servedByEngine(manifest, e))) {
      if (endpoint.kind !== 'detail' && endpoint.kind !== 'delete') continue
      const response = await test.app.inject({
        method: endpoint.method,
        url: `/api${endpoint.path}?id=${2n ** 63n}`,
        headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
      })
      const where = `${endpoint.method} ${endpoint.path}: ${response.body.slice(0, 300)}`
      expect(response.statusCode, where).toBe(400)
      const answer = response.json()
      expect(answer.code, where).toBe('validation')
      expect(answer.content.fieldErrors, where).toEqual([
        expect.objectContaining({ field: 'id', key: 'validation.maximum' }),
      ])
      expect(answer.content.fieldErrors[0].message, where).not.toBe('validation.maximum')
    }
  })

  it('answers a list body refused by its route schema with each field’s error', async () => {
    const endpoint = manifest.endpoints.find((e) => e.kind === 'list' && servedByEngine(manifest, e))
    if (!endpoint) throw new Error('no engine list')
    const response = await test.app.inject({
      method: 'POST',
      url: `/api${endpoint.path}`,
      headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
      payload: { pageNum: 0, pageSize: '20x' },
    })
    expect(response.statusCode, response.body).toBe(400)
    const fields = response.json().content.fieldErrors.map((e: { field: string }) => e.field)
    expect(fields.sort()).toEqual(['pageNum', 'pageSize'])
  })
})
