import { describe, expect, it, vi } from 'vitest'
import { createClient } from '../../generated/client.ts'
import { buildUrl, classify, createTransport, type Outcome, RequestError } from '../../runtime/api.ts'
import { fetchSession, holdsSession, normalizeUser } from '../../runtime/session.ts'

const reply = (status: number, body: unknown) =>
  new Response(body === undefined ? 'not json' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })

function harness(response: Response) {
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => response)
  const failures: [Outcome, RequestError][] = []
  const transport = createTransport({
    language: () => 'en_US',
    fetch: fetch as unknown as typeof globalThis.fetch,
    onFailure: (outcome, error) => failures.push([outcome, error]),
  })
  return { fetch, failures, client: createClient(transport) }
}

describe('SPEC §8 outcomes', () => {
  it('sorts answers into ok, unauthorized, confirm-logout and toast', () => {
    expect(classify(200, { code: '0000' })).toBe('ok')
    expect(classify(401, { code: '401' })).toBe('unauthorized')
    expect(classify(401, null)).toBe('unauthorized')
    expect(classify(200, { code: '401' })).toBe('confirmLogout')
    expect(classify(200, { code: '50012' })).toBe('confirmLogout')
    expect(classify(200, { code: 50014 as unknown as string })).toBe('confirmLogout')
    expect(classify(200, { code: '300005' })).toBe('toast')
    expect(classify(400, { code: 'validation' })).toBe('toast')
    expect(classify(502, null)).toBe('toast')
  })
})

describe('the transport under the generated client', () => {
  it('sends the gateway prefix, the Language and Resource headers, JSON body and the cookie', async () => {
    const { fetch, client } = harness(reply(200, { code: '0000', message: 'ok', content: { list: [], total: 0 } }))
    const envelope = await client.orderList.list({ searchParams: { orderNo: 'SO1' }, pageNum: 1, pageSize: 10 })
    expect(envelope.content).toEqual({ list: [], total: 0 })
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe('/api/booking/order/queryOrderListByOperator')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('same-origin')
    expect((init?.headers as Record<string, string> | undefined)?.Language).toBe('en_US')
    // SPEC §7's resource header: what the server asks of cookie-authorised calls (issue #17, finding 7).
    expect((init?.headers as Record<string, string> | undefined)?.Resource).toBe('1')
    expect(JSON.parse(String(init?.body))).toEqual({ searchParams: { orderNo: 'SO1' }, pageNum: 1, pageSize: 10 })
  })

  it('puts GET parameters in the query string', () => {
    expect(buildUrl('/booking/order/getOrderDetail', { id: 7, empty: '', none: undefined })).toBe(
      '/api/booking/order/getOrderDetail?id=7',
    )
    expect(buildUrl('/x', { tag: ['a', 'b'] })).toBe('/api/x?tag=a&tag=b')
  })

  it('rejects a business failure with its code and message and reports it to be toasted', async () => {
    const { client, failures } = harness(reply(200, { code: '300005', message: 'Wrong password', content: null }))
    const error = await client.b2b.userLogin({ username: 'x', password: 'y' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RequestError)
    expect(error).toMatchObject({ code: '300005', message: 'Wrong password', status: 200 })
    expect(failures.map(([outcome]) => outcome)).toEqual(['toast'])
  })

  it('reports HTTP 401 as unauthorized and the logout codes as confirm-logout', async () => {
    const a = harness(reply(401, { code: '401', message: 'Please log in', content: null }))
    await expect(a.client.orderList.list({})).rejects.toMatchObject({ status: 401 })
    expect(a.failures.map(([o]) => o)).toEqual(['unauthorized'])
    const b = harness(reply(200, { code: '50012', message: 'Logged out', content: null }))
    await expect(b.client.orderList.list({})).rejects.toMatchObject({ code: '50012' })
    expect(b.failures.map(([o]) => o)).toEqual(['confirmLogout'])
  })

  it('carries the field errors of a validation answer', async () => {
    const fieldErrors = [{ field: 'username', key: 'validation.required', message: 'Required' }]
    const { client } = harness(reply(400, { code: 'validation', message: 'Invalid', content: { fieldErrors } }))
    const error = (await client.b2b.userLogin({ username: '', password: '' }).catch((e: unknown) => e)) as RequestError
    expect(error.fieldErrors).toEqual(fieldErrors)
  })

  it('turns an answer without an envelope into a toast with the HTTP status', async () => {
    const { client, failures } = harness(reply(502, undefined))
    await expect(client.orderList.list({})).rejects.toMatchObject({ code: '502', status: 502 })
    expect(failures.map(([o]) => o)).toEqual(['toast'])
  })
})

describe('a call cancelled by its caller', () => {
  it('rejects without reporting a failure, even when the headers had already come (status 200, body cut)', async () => {
    const controller = new AbortController()
    const cut = {
      status: 200,
      statusText: 'OK',
      json: async () => {
        controller.abort()
        throw new DOMException('The operation was aborted.', 'AbortError')
      },
    } as unknown as Response
    const { failures, client } = harness(cut)
    await expect(client.b2b.currentUserInfo({}, controller.signal)).rejects.toBeDefined()
    expect(failures).toEqual([])
  })
})

describe('the session probe', () => {
  it('reads the session user, filling lists a partial answer leaves out', async () => {
    const { client } = harness(
      reply(200, {
        code: '0000',
        message: '',
        content: { name: 'Li Wei', userInfo: { username: 'opadmin', userId: 2 } },
      }),
    )
    expect(await fetchSession(client)).toMatchObject({
      name: 'Li Wei',
      userInfo: { username: 'opadmin', userId: 2, companyUserType: 0 },
      roles: [],
      permissions: [],
    })
    expect(normalizeUser(null)).toMatchObject({ name: '', roles: [], permissions: [] })
  })

  it('asks only where the server said a session exists (the readable b2b_signed_in cookie)', () => {
    expect(holdsSession('language=en; b2b_signed_in=1')).toBe(true)
    expect(holdsSession('b2b_signed_in=1')).toBe(true)
    expect(holdsSession('language=en')).toBe(false)
    expect(holdsSession('b2b_signed_in=')).toBe(false)
    expect(holdsSession('x_b2b_signed_in=1')).toBe(false)
    expect(holdsSession('')).toBe(false)
  })

  it('treats HTTP 401 and the logout codes as a visitor, anything else as a failure', async () => {
    expect(await fetchSession(harness(reply(401, { code: '401', message: '', content: null })).client)).toBeNull()
    expect(await fetchSession(harness(reply(200, { code: '50014', message: '', content: null })).client)).toBeNull()
    await expect(
      fetchSession(harness(reply(500, { code: '200000', message: 'boom', content: null })).client),
    ).rejects.toThrow('boom')
  })
})
