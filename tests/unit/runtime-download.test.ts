import { afterEach, describe, expect, it, vi } from 'vitest'
import { downloads } from '../../generated/client.ts'
import { RequestError } from '../../runtime/api.ts'
import { exportCall, fetchFile } from '../../runtime/download.ts'

/**
 * A file call (generated/client.ts `downloads`, runtime/download.ts) goes as its endpoint says: a GET's input in the
 * address, a POST's (SPEC §7's exportPvList) as its JSON body, with the portal's headers; a refusal is the envelope.
 */
const xlsx = () =>
  new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
    status: 200,
    headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': 'attachment; filename="userBehavior-2026-12-31.xlsx"',
    },
  })

function stubFetch(response: Response) {
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => response)
  vi.stubGlobal('fetch', fetch)
  return fetch
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('file calls', () => {
  it('types a chart export as a POST of the chart’s query, a record’s PDF as a GET of its id', () => {
    expect(downloads.exportPvList({ window: '90', filter: 'rates' })).toEqual({
      method: 'POST',
      path: '/b2b/count/export/exportPvList',
      body: { window: '90', filter: 'rates' },
    })
    expect(downloads.blDraftPdf({ id: '7' })).toEqual({
      method: 'GET',
      path: '/booking/order/blDraftPdf',
      query: { id: '7' },
    })
    expect(exportCall({ method: 'POST', path: '/x' }, { window: '30' })).toEqual({
      method: 'POST',
      path: '/x',
      body: { window: '30' },
    })
    expect(exportCall({ method: 'GET', path: '/x' }, { window: '30' })).toEqual({
      method: 'GET',
      path: '/x',
      query: { window: '30' },
    })
  })

  it('POSTs the body as JSON to the bare path, with the Language and Resource headers', async () => {
    const fetch = stubFetch(xlsx())
    const response = await fetchFile(downloads.userPortraitExportExcel({ window: '30', group: 'region' }))
    expect(response.headers.get('content-disposition')).toContain('userBehavior-2026-12-31.xlsx')
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe('/api/b2b/count/export/userPortraitExportExcel')
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({ window: '30', group: 'region' })
    expect(init?.headers).toMatchObject({ Resource: '1', 'Content-Type': 'application/json' })
    expect(Object.keys(init?.headers ?? {})).toContain('Language')
  })

  it('GETs with the query in the address and no body', async () => {
    const fetch = stubFetch(xlsx())
    await fetchFile({ method: 'GET', path: '/b2b/count/export/old', query: { window: '90', filter: '' } })
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe('/api/b2b/count/export/old?window=90')
    expect(init?.method).toBe('GET')
    expect(init?.body).toBeUndefined()
  })

  it('rejects a refusal with its message and field errors', async () => {
    stubFetch(
      new Response(
        JSON.stringify({
          code: '400',
          message: 'Bad request',
          content: { fieldErrors: [{ field: 'window', key: 'validation.enum', message: 'Must be one of: 30, 60' }] },
        }),
        { status: 400, headers: { 'Content-Type': 'application/json' } },
      ),
    )
    const refused = await fetchFile(downloads.exportPvList({ window: '30' })).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RequestError)
    expect((refused as RequestError).status).toBe(400)
    expect((refused as RequestError).fieldErrors).toEqual([
      { field: 'window', key: 'validation.enum', message: 'Must be one of: 30, 60' },
    ])
  })
})
