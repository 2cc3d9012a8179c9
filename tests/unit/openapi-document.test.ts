import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import openapiTS from 'openapi-typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { BUSINESS_CODES, TRANSPORT_ERRORS } from '../../generator/emit/openapi.ts'
import { ERROR_CODES } from '../../server/http/errors.ts'

/**
 * Issue #19: generated/openapi.json lints clean with Redocly's recommended rules, and a client that a
 * third-party tool (openapi-typescript 6) generates from it reads the login token and an order's number
 * with no cast. tests/api/openapi-conformance.test.ts holds the document to the server's real answers.
 */

const ROOT = new URL('../..', import.meta.url).pathname
const SOURCE = readFileSync(join(ROOT, 'generated/openapi.json'), 'utf8')
const document = JSON.parse(SOURCE) as {
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>
}
/** The standards' documents that name their own success status (`status:`, e.g. DCSA's 204 to PUT …/secret). */
const declared = new Map(
  (
    JSON.parse(readFileSync(join(ROOT, 'generated/manifest.json'), 'utf8')) as {
      endpoints: { method: string; path: string; status?: number }[]
    }
  ).endpoints
    .filter((e) => e.status !== undefined)
    .map((e) => [`${e.method} /api${e.path}`, String(e.status)]),
)
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('generated/openapi.json', () => {
  it("lints clean with Redocly's recommended rules: no error, no warning", async () => {
    const config = await createConfig({ extends: ['recommended'] })
    const problems = await lintFromString({ source: SOURCE, absoluteRef: join(ROOT, 'generated/openapi.json'), config })
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`)
    expect(found).toEqual([])
  }, 60_000)

  it('declares who may call and the refusals on every operation', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`
        expect(Array.isArray(operation.security), where).toBe(true)
        expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(['400', '401', '404']))
        // Its success: 200, or a standard's document's 201 (a POST) or 204 (a DELETE) (response: document), or the
        // status such a document names.
        const success = Object.keys(operation.responses).filter((status) => status.startsWith('2'))
        const own = declared.get(where)
        const standard = own ? [own] : ['200', ...({ post: ['201'], delete: ['204'] }[method] ?? [])]
        expect(success.length === 1 && standard.includes(success[0] as string), where).toBe(true)
      }
    }
    expect(document.paths['/api/b2b/user/login']?.post?.security).toEqual([])
  })

  it('documents SPEC §7’s chart exports as POSTs of the chart’s query answering an .xlsx', () => {
    type Operation = {
      requestBody?: { content: Record<string, { schema: unknown }> }
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>
    }
    for (const name of ['exportPvList', 'userPortraitExportExcel']) {
      const operations = document.paths[`/api/b2b/count/export/${name}`] as Record<string, Operation> | undefined
      expect(Object.keys(operations ?? {}), name).toEqual(['post'])
      const post = operations?.post
      expect(post?.requestBody?.content['application/json']?.schema, name).toEqual({
        $ref: '#/components/schemas/analyticsChartQuery',
      })
      expect(post?.responses['200']?.content, name).toEqual({
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: { type: 'string', format: 'binary' },
        },
      })
    }
  })

  it("names the error catalogue's codes under the statuses the server sends them with", () => {
    const byStatus = new Map<number, string[]>()
    for (const [code, { http }] of Object.entries(ERROR_CODES))
      byStatus.set(http, [...(byStatus.get(http) ?? []), code])
    expect([...BUSINESS_CODES].sort()).toEqual([...(byStatus.get(200) ?? [])].sort())
    const transport = Object.entries(TRANSPORT_ERRORS).map(([status, e]) => `${status} ${e.code}`)
    const served = [...byStatus]
      .filter(([http]) => http !== 200)
      .flatMap(([http, codes]) => codes.map((c) => `${http} ${c}`))
    expect(transport.sort()).toEqual(served.sort())
  })

  it('gives openapi-typescript a client that reads the login token and an order number with no cast', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-openapi-ts-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'api.d.ts'), await openapiTS(JSON.parse(SOURCE)))
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        allowImportingTsExtensions: true,
        types: [],
      },
      files: ['read.ts'],
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
    const typecheck = (source: string) => {
      writeFileSync(join(dir, 'read.ts'), source)
      try {
        execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' })
        return ''
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error)
      }
    }
    const reader = (token: string, orderNo: string) => `import type { paths } from './api.d.ts'

type Login = paths['/api/b2b/user/login']['post']['responses']['200']['content']['application/json']
type OrderDetail = paths['/api/booking/order/getOrderDetail']['get']['responses']['200']['content']['application/json']

export function tokenOf(answer: Login): string | undefined {
  return answer.code === '0000' ? answer.${token} : undefined
}

export function orderNoOf(answer: OrderDetail): string | null | undefined {
  if (answer.code !== '0000') return undefined
  const orderNo: string | null | undefined = answer.content.${orderNo}
  return orderNo
}
`
    expect(typecheck(reader('token', 'orderNo'))).toBe('')
    // The check can fail: a name the document does not declare is an error without a cast.
    const wrong = typecheck(reader('tokn', 'orderNumber'))
    expect(wrong).toContain("'tokn'")
    expect(wrong).toContain("'orderNumber'")
  }, 60_000)
})
