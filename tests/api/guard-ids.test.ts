import { beforeAll, describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { MAX_ID } from '../../server/http/ids.ts'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'
import { databaseFingerprint } from '../support/fingerprint.ts'

/**
 * Issue #17, finding 5: `DELETE /api/b2b/role/delete?id=99999999999999999999` (and `?id=1e308`) answered 500.
 * Every id out of the id column's range, or not a whole number, is now the field's error: a 4xx envelope
 * naming `id`, never 5xx, and nothing changes.
 */

const test = setupTestApp()
const manifest = loadManifest()
let token = ''

/** The shapes of the finding and their neighbours, with the message each one gets. */
const BAD_IDS: [string, string][] = [
  ['99999999999999999999', 'validation.maximum'],
  [String(MAX_ID + 1), 'validation.maximum'],
  ['1e308', 'validation.type_integer'],
  ['-1', 'validation.minimum'],
  ['0', 'validation.minimum'],
  ['1.5', 'validation.type_integer'],
  ['abc', 'validation.type_integer'],
]

function call(endpoint: Pick<ManifestEndpoint, 'method' | 'path'>, query: string) {
  return test.app.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}?${query}`,
    headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
  })
}

/** Endpoints that take `?id=`: the engine's details and deletes, and hand-written ones whose summary says so. */
const idEndpoints = manifest.endpoints.filter(
  (e) =>
    (e.method === 'GET' || e.method === 'DELETE') &&
    (['detail', 'delete'].includes(e.kind) || /[?&]id=/.test(e.summary ?? '')),
)

beforeAll(async () => {
  // The platform administrator holds every permission, so each call reaches its id.
  token = await test.login('platform')
})

describe('ids out of range (issue #17, finding 5)', () => {
  it('answers the replayed role delete and a few others with the id field error, never 500', async () => {
    const fingerprint = await databaseFingerprint(test.database.db as never)
    const before = await fingerprint()
    const endpoints = [
      { method: 'DELETE', path: '/b2b/role/delete' },
      { method: 'GET', path: '/price/public/api/rate/detail' },
      { method: 'GET', path: '/b2b/quote/detail' },
      { method: 'DELETE', path: '/price/rate/delete' },
      { method: 'GET', path: '/b2b/user/operationAccount/detail' },
    ] as const
    for (const endpoint of endpoints)
      for (const [id, message] of BAD_IDS) {
        const response = await call(endpoint, `id=${encodeURIComponent(id)}`)
        const where = `${endpoint.method} ${endpoint.path}?id=${id}: ${response.body.slice(0, 300)}`
        expect(response.statusCode, where).toBe(400)
        const answer = response.json()
        expect(answer.code, where).toBe('validation')
        expect(answer.content.fieldErrors, where).toEqual([expect.objectContaining({ field: 'id', key: message })])
        expect(answer.content.fieldErrors[0].message, where).not.toBe(message)
      }
    expect(await fingerprint()).toBe(before)
  })

  it('refuses a bad ?id= on every endpoint that takes one, and never answers 5xx on any other', async () => {
    expect(idEndpoints.length).toBeGreaterThan(25)
    let calls = 0
    for (const endpoint of manifest.endpoints.filter((e) => e.method === 'GET' || e.method === 'DELETE'))
      for (const [id] of BAD_IDS) {
        const response = await call(endpoint, `id=${encodeURIComponent(id)}`)
        const where = `${endpoint.method} ${endpoint.path}?id=${id}: ${response.body.slice(0, 300)}`
        expect(response.statusCode, where).toBeGreaterThanOrEqual(400)
        expect(response.statusCode, where).toBeLessThan(500)
        if (idEndpoints.includes(endpoint)) {
          expect(response.json().code, where).toBe('validation')
          expect(response.json().content.fieldErrors[0].field, where).toBe('id')
        }
        calls++
      }
    console.info(`ids: ${calls} calls with bad ids, ${idEndpoints.length} endpoints that take ?id=`)
  })

  it('refuses out-of-range ids in the body of every update', async () => {
    for (const endpoint of manifest.endpoints.filter((e) => e.kind === 'update'))
      for (const id of ['1e308', '99999999999999999999', String(MAX_ID + 1), '-1', '0', '1.5', '"abc"']) {
        // The JSON as sent: a literal of twenty digits stays what the caller wrote.
        const response = await test.app.inject({
          method: endpoint.method,
          url: `/api${endpoint.path}`,
          headers: { host: 'localhost', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: `{"id":${id},"version":1}`,
        })
        const where = `${endpoint.method} ${endpoint.path} with id ${id}: ${response.body.slice(0, 300)}`
        expect(response.statusCode, where).toBe(400)
        expect(
          response.json().content.fieldErrors.map((e: { field: string }) => e.field),
          where,
        ).toContain('id')
      }
  })
})
