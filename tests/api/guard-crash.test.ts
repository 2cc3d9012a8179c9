import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { scratchDatabase } from '../support/database.ts'
import { type RunningServer, STARTUP_MS, seededDataDir, startServer } from '../support/server.ts'

/**
 * Issue #9's crash guard: the real server (npm start's entry point) takes a burst of order creations and
 * is killed with SIGKILL in the middle of it. After a restart on the same data, every order the client saw
 * acknowledged is there, whole (its fields, its number, its audit entry), and no order of the burst is
 * half-written. On PGlite (the embedded default, data on disk) or, with TEST_DB=postgres, on PostgreSQL.
 */

const POSTGRES = process.env.TEST_DB === 'postgres'
const MARK = `CRASH-${randomBytes(3).toString('hex').toUpperCase()}`
const WORKERS = 6
const KILL_AFTER = 30

interface Acknowledged {
  id: number
  orderNo: string
  businessRefNo: string
}

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Where the server keeps its data: a PGlite directory, or a PostgreSQL database of its own. */
async function storage(): Promise<{ dataDir: string; env: Record<string, string> }> {
  // On PGlite a copy of the seeded template: the crash is what is tried, not the seeding.
  const dataDir = POSTGRES ? mkdtempSync(join(tmpdir(), 'waybill-crash-')) : await seededDataDir()
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
  if (!POSTGRES) return { dataDir, env: {} }
  const scratch = await scratchDatabase(process.env.DATABASE_URL as string, 'waybill_crash')
  cleanups.push(scratch.drop)
  // PostgreSQL is seeded only when asked (server/config.ts): the demo tenants are the burst's customers.
  return { dataDir, env: { DATABASE_URL: scratch.url, WAYBILL_SEED: '1' } }
}

async function login(server: RunningServer, username: string): Promise<string> {
  const response = await fetch(`${server.url}/api/b2b/user/login`, {
    method: 'POST',
    // resource: the portal's header, which every sign-in needs (server/http/csrf.ts).
    headers: { 'content-type': 'application/json', resource: '1' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  })
  const body = (await response.json()) as { code: string; token: string }
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return body.token
}

const api = async (server: RunningServer, token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, language: 'en_US' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return (await response.json()) as { code: string; content: Record<string, unknown> & { list?: unknown[] } }
}

const order = (n: number) => ({
  transportMode: 1,
  containerLoadType: 'FCL',
  entrustType: 'direct',
  businessRefNo: `${MARK}-${n}`,
  pol: 'CNSHA',
  pod: 'USLAX',
  carrier: 'MAEU',
  containers: [
    { containerType: '45G1', quantity: 2 },
    { containerType: '22G1', quantity: 1 },
  ],
  shipper: 'NINGBO BRIGHT HOME CO., LTD.\nNO. 88 JIANGNAN ROAD\nNINGBO 315000 CHINA',
  consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
  goodsDescription: 'FURNITURE',
  submit: true,
})

describe(`crash safety (${POSTGRES ? 'PostgreSQL' : 'PGlite on disk'})`, () => {
  it(
    'keeps every acknowledged order whole after a SIGKILL in the middle of a burst, and none half-written',
    async () => {
      const { dataDir, env } = await storage()
      const first = await startServer({ dataDir, env })
      cleanups.push(async () => void (await first.stop('SIGKILL')))
      const token = await login(first, 'entadmin')

      const acknowledged: Acknowledged[] = []
      let sent = 0
      let killed = false
      const worker = async () => {
        while (!killed) {
          const n = sent++
          try {
            const answer = await api(first, token, 'POST', '/booking/order/add', order(n))
            if (answer.code !== '0000') throw new Error(`order ${n}: ${JSON.stringify(answer)}`)
            acknowledged.push({
              id: answer.content.id as number,
              orderNo: answer.content.orderNo as string,
              businessRefNo: answer.content.businessRefNo as string,
            })
            if (acknowledged.length >= KILL_AFTER && !killed) {
              killed = true
              first.process.kill('SIGKILL')
            }
          } catch (error) {
            // Calls in flight when the server dies fail on the client: they were never acknowledged.
            if (!killed) throw error
          }
        }
      }
      await Promise.all(Array.from({ length: WORKERS }, worker))
      await new Promise<void>((resolve) =>
        first.process.exitCode !== null || first.process.signalCode !== null
          ? resolve()
          : first.process.once('exit', () => resolve()),
      )
      expect(first.process.signalCode).toBe('SIGKILL')
      expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER)
      expect(sent).toBeGreaterThan(acknowledged.length)

      const second = await startServer({ dataDir, env })
      cleanups.push(async () => void (await second.stop()))
      const again = await login(second, 'entadmin')
      for (const seen of acknowledged) {
        const detail = await api(second, again, 'GET', `/booking/order/getOrderDetail?id=${seen.id}`)
        expect(detail.code, `acknowledged order ${seen.orderNo}`).toBe('0000')
        expect(detail.content).toMatchObject({
          orderNo: seen.orderNo,
          businessRefNo: seen.businessRefNo,
          state: 'submitted',
        })
      }
      // Every order of the burst that exists at all (acknowledged or not) is whole: fields, number, audit.
      const listed = await api(second, again, 'POST', '/booking/order/queryOrderListByCompany', {
        searchParams: { businessRefNo: MARK },
        pageNum: 1,
        pageSize: 200,
      })
      expect(listed.code).toBe('0000')
      const rows = listed.content.list as Record<string, unknown>[]
      expect(rows.length).toBeGreaterThanOrEqual(acknowledged.length)
      expect(rows.length).toBeLessThanOrEqual(sent)
      const numbers = new Set(rows.map((r) => r.orderNo))
      expect(numbers.size).toBe(rows.length)
      for (const row of rows) {
        const detail = await api(second, again, 'GET', `/booking/order/getOrderDetail?id=${row.id}`)
        expect(detail.content).toMatchObject({
          state: 'submitted',
          pol: 'CNSHA',
          pod: 'USLAX',
          containers: order(0).containers,
          shipper: order(0).shipper,
        })
        expect(detail.content.orderNo).toMatch(/\d{3,}$/)
        const history = detail.content.history as { action: string }[]
        expect(history.map((h) => h.action)).toContain('create')
      }
      console.info(
        `crash guard: ${acknowledged.length} acknowledged of ${sent} sent before SIGKILL; ${rows.length} stored, all whole`,
      )
    },
    2 * STARTUP_MS + 60_000,
  )
})
