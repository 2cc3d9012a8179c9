import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect } from 'vitest'
import { WebSocket } from 'ws'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { scratchDatabase } from '../support/database.ts'
import { itOnPostgres } from '../support/only-on.ts'
import { type RunningServer, STARTUP_MS, startServer } from '../support/server.ts'

/**
 * Issue #27's several processes: two servers (npm start's entry point) on one PostgreSQL; a message sent through
 * one reaches a socket on the other within a second (LISTEN/NOTIFY, docs/DECISIONS.md).
 */

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function login(server: RunningServer, username: string): Promise<string> {
  const response = await fetch(`${server.url}/api/b2b/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', resource: '1' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  })
  const body = (await response.json()) as { code: string; token: string }
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return body.token
}

const call = async (server: RunningServer, token: string, path: string, body: unknown) => {
  const response = await fetch(`${server.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, language: 'en_US' },
    body: JSON.stringify(body),
  })
  const answer = (await response.json()) as { code: string; content: Record<string, unknown> }
  expect(answer.code, JSON.stringify(answer)).toBe('0000')
  return answer.content
}

describe('the chat on two server processes', () => {
  itOnPostgres(
    'carries a message sent through one process to a socket on the other within a second',
    async () => {
      const scratch = await scratchDatabase(process.env.DATABASE_URL as string, 'waybill_chat')
      cleanups.push(scratch.drop)
      const start = async (seed: boolean) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'waybill-chat-'))
        cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
        const server = await startServer({
          dataDir,
          env: { DATABASE_URL: scratch.url, ...(seed ? { WAYBILL_SEED: '1' } : {}) },
        })
        cleanups.push(async () => void (await server.stop()))
        return server
      }
      const first = await start(true)
      const second = await start(false)

      const customer = await login(first, 'entadmin')
      const operator = await login(second, 'opcs')
      const { conversationId } = (await call(first, customer, '/b2b/im/open', {
        contextType: 'order',
        contextRef: 'HY-TWO-PROCESSES',
      })) as { conversationId: number }

      const socket = new WebSocket(`ws://127.0.0.1:${second.port}/api/b2b/im/socket`, {
        headers: { host: 'localhost', cookie: `b2b_token=${operator}` },
      })
      cleanups.push(async () => socket.terminate())
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve())
        socket.once('error', reject)
      })
      const heard = new Promise<number>((resolve) => {
        socket.on('message', (data) => {
          const frame = JSON.parse(data.toString())
          if (frame.type === 'message' && frame.message.text === 'Across processes') resolve(Date.now())
        })
      })
      const sentAt = Date.now()
      await call(first, customer, '/b2b/im/message/send', { conversation: conversationId, text: 'Across processes' })
      const arrived = await Promise.race([heard, new Promise<number>((r) => setTimeout(() => r(-1), 1000))])
      expect(arrived, 'the message did not reach the other process within a second').toBeGreaterThan(0)
      expect(arrived - sentAt).toBeLessThan(1000)
    },
    2 * STARTUP_MS + 60_000,
  )
})
