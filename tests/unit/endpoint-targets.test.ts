import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { formatError } from '../../generator/errors.ts'
import { checkProject } from '../../generator/pipeline.ts'
import { listFromQuery } from '../../server/engine/search.ts'

/**
 * SPEC's other paths (`servedAs:`) and endpoints that fire a transition (`transition:`), issue #23: what the
 * manifest makes of them, what `waybill check` refuses, and how a GET list's query string is read.
 */

const FIXTURE = new URL('./fixtures/mini', import.meta.url).pathname
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The mini fixture with these endpoints declared in its watch area. */
function withEndpoints(yaml: string): string {
  const root = mkdtempSync(join(tmpdir(), 'waybill-targets-'))
  made.push(root)
  cpSync(FIXTURE, root, { recursive: true })
  const path = join(root, 'screens/watch.yaml')
  writeFileSync(path, readFileSync(path, 'utf8').replace('screens:\n', `endpoints:\n${yaml}screens:\n`))
  return root
}

const GET_LIST = `  - name: priceMonitorGet
    method: GET
    path: /priceWatch/list
    servedAs: priceMonitor.list
    summary: The list as a GET
`
const CANCEL = `  - name: cancelWatch
    method: POST
    path: /priceWatch/cancel
    transition: { entity: priceWatch, name: cancel }
    summary: Cancels a watch
    body: priceWatch
    response: priceWatch
`

describe('servedAs and transition endpoints in the manifest', () => {
  it('copies the served endpoint under its own name, method and path, and gives a transition its permission', () => {
    const { errors, manifest } = checkProject(withEndpoints(GET_LIST + CANCEL))
    expect(errors.map(formatError)).toEqual([])
    if (!manifest) throw new Error('no manifest')
    const get = manifest.endpoints.find((e) => e.id === 'priceMonitorGet')
    const post = manifest.endpoints.find((e) => e.id === 'priceMonitor.list')
    expect(get).toMatchObject({
      kind: 'list',
      entity: 'priceWatch',
      method: 'GET',
      path: '/priceWatch/list',
      servedAs: 'priceMonitor.list',
      permissions: post?.permissions,
      search: post?.search,
    })
    expect(manifest.endpoints.find((e) => e.id === 'cancelWatch')).toMatchObject({
      kind: 'custom',
      fires: { entity: 'priceWatch', name: 'cancel' },
      permissions: ['priceMonitor'],
    })
  })

  it('refuses a servedAs that names nothing, and a transition the state machine does not have', () => {
    const root = withEndpoints(
      GET_LIST.replace('servedAs: priceMonitor.list', 'servedAs: priceMonitr.list') +
        CANCEL.replace('name: cancel }', 'name: cancelled }'),
    )
    const errors = checkProject(root).errors.map(formatError)
    expect(errors).toEqual([
      expect.stringMatching(
        /endpoints\[0\]\.servedAs: servedAs "priceMonitr\.list" names no endpoint[\s\S]*did you mean "priceMonitor\.list"\?/,
      ),
      expect.stringMatching(
        /endpoints\[1\]\.transition\.name: priceWatch has no transition "cancelled"[\s\S]*one of start, cancel/,
      ),
    ])
  })
})

describe('a GET list query string', () => {
  it('is the body of a list request written flat', () => {
    expect(
      listFromQuery({
        pageNum: '2',
        pageSize: '20',
        sort: 'etd',
        order: 'desc',
        state: ['submitted', 'accepted'],
        pol: 'CNSHA',
      }),
    ).toEqual({
      searchParams: { state: ['submitted', 'accepted'], pol: 'CNSHA' },
      pageNum: 2,
      pageSize: 20,
      sort: { field: 'etd', order: 'desc' },
    })
    // Text that is no page number is left for the plan's check to refuse.
    expect(listFromQuery({ pageNum: 'two' })).toEqual({ searchParams: {}, pageNum: 'two' })
  })
})
