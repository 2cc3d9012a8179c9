import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * Issue #17, finding 1: one request froze the server. The three bodies that showed it, replayed against a
 * listening server, are each refused with a 4xx envelope, and /api/health calls sent while each is in flight
 * answer meanwhile (their latencies are printed; before the fix they waited 22–65 s).
 */

const test = setupTestApp()
const manifest = loadManifest()
let port = 0
let token = ''

interface Answer {
  status: number
  body: string
  /** When the answer was complete (performance.now()). */
  at: number
}

function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: 'localhost',
          language: 'en_US',
          // The portal's header: a sign-in needs it (server/http/csrf.ts), and the bodies here are its.
          resource: '1',
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, at: performance.now() }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const carrierBody = (n: number) =>
  JSON.stringify({
    mode: 'FCL',
    origin: 'CNSHA',
    destination: 'USLAX',
    carrier: Array.from({ length: n }, (_, i) => i),
  })
const unknownKeysBody = (n: number) =>
  JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])))
const containersBody = (n: number, item: object) =>
  JSON.stringify({
    ...(manifest.entities.inquiry?.examples?.valid?.[0] as object),
    containers: Array.from({ length: n }, () => item),
  })

const RATE_SEARCH = '/api/price/public/api/rate/search'
const INQUIRY = '/api/booking/inquiry/save'
// The bodies of the finding, refused by size (413); and smaller ones that fit the route's body limit, refused
// by the schema's bounds (maxItems, maxProperties, unknown keys) before any other check.
const cases = [
  { name: 'rate search with 100,000 carriers, no session', path: RATE_SEARCH, body: () => carrierBody(100_000) },
  { name: 'login with 100,000 unknown keys', path: '/api/b2b/user/login', body: () => unknownKeysBody(100_000) },
  {
    name: 'inquiry with 100,000 containers',
    path: INQUIRY,
    body: () => containersBody(100_000, { containerType: '20GP', quantity: 1 }),
    signedIn: true,
  },
  { name: 'rate search with 8,000 carriers, no session', path: RATE_SEARCH, body: () => carrierBody(8_000) },
  { name: 'login with 4,000 unknown keys', path: '/api/b2b/user/login', body: () => unknownKeysBody(4_000) },
  {
    name: 'inquiry with 20,000 empty containers',
    path: INQUIRY,
    body: () => containersBody(20_000, {}),
    signedIn: true,
  },
]

beforeAll(async () => {
  token = await test.login('entadmin')
  await test.app.listen({ port: 0, host: '127.0.0.1' })
  port = (test.app.server.address() as AddressInfo).port
})

afterAll(() => {
  test.app.server.closeAllConnections()
})

describe('bounded work per request (issue #17, finding 1)', () => {
  for (const c of cases) {
    it(`refuses ${c.name} with a 4xx envelope while /api/health keeps answering`, async () => {
      const body = c.body()
      const started = performance.now()
      const big = call('POST', c.path, body, c.signedIn ? { authorization: `Bearer ${token}` } : {})
      let finished = false
      const bigDone = big.then((answer) => {
        finished = true
        return answer
      })
      // Health calls from the moment the big one is on its way until it is answered (at least one).
      const health: Promise<{ sent: number; answer: Answer }>[] = []
      do {
        const sent = performance.now()
        health.push(call('GET', '/api/health').then((answer) => ({ sent, answer })))
        await new Promise((r) => setTimeout(r, 2))
      } while (!finished && health.length < 500)
      const answer = await bigDone
      const healthAnswers = await Promise.all(health)

      expect(answer.status, answer.body.slice(0, 300)).toBeGreaterThanOrEqual(400)
      expect(answer.status, answer.body.slice(0, 300)).toBeLessThan(500)
      const envelope = JSON.parse(answer.body)
      // Too big for the route (413), or beyond the schema's bounds: the field and the bound it passes.
      expect(['413', 'validation']).toContain(envelope.code)
      if (envelope.code === 'validation') {
        const keys = envelope.content.fieldErrors.map((e: { key: string }) => e.key)
        expect(
          keys.some((k: string) => /maxItems|maxProperties|unknownField/.test(k)),
          keys.join(),
        ).toBe(true)
        expect(envelope.content.fieldErrors.length).toBeLessThan(10)
      }
      expect(envelope.message).toBeTruthy()

      for (const { answer: h } of healthAnswers) expect(h.status).toBe(200)
      // The health call sent first, while the big one was in flight, was not kept waiting behind it.
      const first = healthAnswers[0] as { sent: number; answer: Answer }
      expect(first.sent).toBeLessThan(answer.at)
      const latencies = healthAnswers.map((h) => h.answer.at - h.sent)
      console.info(
        `${c.name}: ${envelope.code} (HTTP ${answer.status}) after ${Math.round(answer.at - started)} ms, ` +
          `${(Buffer.byteLength(body) / 1024).toFixed(0)} KB; ${latencies.length} health calls meanwhile, ` +
          `slowest ${Math.round(Math.max(...latencies))} ms`,
      )
    }, 30_000)
  }
})
