import { describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { servedByEngine } from '../../server/engine/index.ts'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'
import { type AnswerProblem, answerChecker } from '../support/openapi.ts'

/**
 * Issue #19: what the server really answers, checked against generated/openapi.json with ajv — every engine
 * list and detail of the manifest on the demo seed, as the operation administrator and as a customer.
 */

const test = setupTestApp()
const checker = answerChecker()
const manifest = loadManifest()
const engine = manifest.endpoints.filter((e) => servedByEngine(manifest, e))
const lists = engine.filter((e) => e.kind === 'list')
const details = engine.filter((e) => e.kind === 'detail')
const USERS = ['opadmin', 'entadmin'] as const

interface Answer {
  status: number
  body: { code?: string; content?: unknown }
}

const problems: AnswerProblem[] = []
const rowsKey = (user: string, e: ManifestEndpoint) => `${user}:${e.entity}:${JSON.stringify(e.filter ?? {})}`
const tokens = new Map<string, string>()

async function call(user: string, endpoint: ManifestEndpoint, input: Record<string, unknown>): Promise<Answer> {
  let token = tokens.get(user)
  if (!token) {
    token = await test.login(user)
    tokens.set(user, token)
  }
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString()
  const get = endpoint.method === 'GET' || endpoint.method === 'DELETE'
  const response = await test.app.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}${get && query ? `?${query}` : ''}`,
    headers: { authorization: token, language: 'en_US' },
    ...(get ? {} : { payload: input }),
  })
  const body = response.json() as Answer['body']
  const errors = checker.problems(endpoint.method, `/api${endpoint.path}`, response.statusCode, body)
  if (errors.length)
    problems.push({ method: endpoint.method, path: `/api${endpoint.path}`, status: response.statusCode, errors })
  return { status: response.statusCode, body }
}

describe('the OpenAPI document describes the real answers', () => {
  it('has engine lists and details to check', () => {
    expect(lists.length).toBeGreaterThanOrEqual(15)
    expect(details.length).toBeGreaterThanOrEqual(8)
  })

  /** Ids of rows the lists showed, per user, entity and fixed filter (the drafts' detail finds drafts only). */
  const seen = new Map<string, number[]>()

  it('every engine list, as each user who may call it', async () => {
    const answered = new Set<string>()
    let rows = 0
    for (const endpoint of lists) {
      for (const user of USERS) {
        const { body } = await call(user, endpoint, { pageNum: 1, pageSize: 50 })
        if (body.code !== '0000') continue
        answered.add(endpoint.id)
        const list = (body.content as { list: { id: number }[] }).list
        rows += list.length
        const key = rowsKey(user, endpoint)
        seen.set(key, [...new Set([...(seen.get(key) ?? []), ...list.map((r) => r.id)])])
      }
    }
    expect(lists.filter((e) => !answered.has(e.id)).map((e) => e.id)).toEqual([])
    expect(rows).toBeGreaterThan(100)
    expect(problems).toEqual([])
  })

  it('every engine detail of a row a list showed, as each user', async () => {
    const found = new Set<string>()
    for (const endpoint of details) {
      for (const user of USERS) {
        for (const id of (seen.get(rowsKey(user, endpoint)) ?? []).slice(0, 5)) {
          const { body } = await call(user, endpoint, { id })
          if (body.code === '0000') found.add(endpoint.id)
        }
      }
    }
    // An entity the demo seed has no row of has no detail to read.
    const withRows = details.filter((e) => USERS.some((u) => seen.get(rowsKey(u, e))?.length))
    expect(withRows.length).toBeGreaterThanOrEqual(5)
    expect(withRows.filter((e) => !found.has(e.id)).map((e) => e.id)).toEqual([])
    expect(problems).toEqual([])
  })

  it('refusals and business outcomes too: 401, 400, 404 and a stale version', async () => {
    // Calls the operation administrator may make: a refusal for want of a permission is another answer.
    const mayCall = (e: ManifestEndpoint) =>
      e.permissions.some((p) => manifest.roles.OperationAdministrator?.permissions.includes(p))
    const list = lists.find(mayCall) as ManifestEndpoint
    const anonymous = await test.app.inject({ method: list.method, url: `/api${list.path}`, payload: {} })
    expect(anonymous.statusCode).toBe(401)
    expect(checker.problems(list.method, `/api${list.path}`, 401, anonymous.json())).toEqual([])
    const bad = await call('opadmin', list, { pageNum: 0 })
    expect(bad.status).toBe(400)
    const detail = details.find(mayCall) as ManifestEndpoint
    const missing = await call('opadmin', detail, { id: 999_999 })
    expect(missing.status).toBe(404)
    const nowhere = await test.app.inject({ method: 'GET', url: '/api/no/such/call' })
    expect(nowhere.statusCode).toBe(404)
    expect(checker.problems('GET', '/api/no/such/call', 404, nowhere.json())).toEqual([])
    expect(checker.problems('GET', '/api/no/such/call', 200, nowhere.json())).not.toEqual([])
    expect(problems).toEqual([])
  })

  it('a wrong answer does not pass: the checker finds an undeclared field and a null where a string is due', () => {
    const path = `/api${(lists.find((e) => e.entity === 'order') as ManifestEndpoint).path}`
    const method = (lists.find((e) => e.entity === 'order') as ManifestEndpoint).method
    const row = {
      id: 1,
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      labels: {},
    }
    const page = (list: unknown[]) => ({
      code: '0000',
      message: 'success',
      content: { list, total: 1, pageNum: 1, pageSize: 10 },
    })
    expect(checker.problems(method, path, 200, page([row]))).toEqual([])
    expect(checker.problems(method, path, 200, page([{ ...row, surprise: 1 }])).join()).toContain('surprise')
    expect(checker.problems(method, path, 200, page([{ ...row, id: null }]))).not.toEqual([])
    expect(checker.problems(method, path, 418, page([row]))).not.toEqual([])
  })
})
