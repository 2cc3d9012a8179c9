import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect } from 'vitest'
import { buildApp } from '../../server/app.ts'
import type { Database } from '../../server/db/database.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { freshDatabase } from './database.ts'
import { type AnswerProblem, CHECK_ANSWERS, checkAnswersOf } from './openapi.ts'

export interface TestApp {
  readonly app: FastifyInstance
  readonly database: Database
  /** Logs a demo user in (password Demo@2026) and answers the token; each login comes from an address of its own, so per-IP limits never interfere. */
  login(username: string, host?: string): Promise<string>
}

let nextAddress = 1

/**
 * API tests stand behind a proxy at 127.0.0.1 (light-my-request's address), so each test chooses the client
 * address its calls come from with X-Forwarded-For; the server trusts no proxy unless configured.
 */
export const TEST_PROXIES = ['127.0.0.1']

/**
 * The API test fixture: a fresh, migrated and seeded database for the test file (PGlite, or PostgreSQL
 * with TEST_DB=postgres) and the app built on it, closed when the file is done.
 */
export function setupTestApp(): TestApp {
  let database: Database | undefined
  let app: FastifyInstance | undefined
  let misfits: AnswerProblem[] = []
  beforeAll(async () => {
    database = await freshDatabase()
    app = await buildApp({ database, trustedProxies: TEST_PROXIES })
    // Every answer a test gets is held to generated/openapi.json (issue #19; WAYBILL_CHECK_ANSWERS=0: off).
    if (CHECK_ANSWERS) misfits = checkAnswersOf(app, expect.getState().testPath ?? 'unknown')
  })
  afterAll(async () => {
    await app?.close()
    await database?.close()
    if (CHECK_ANSWERS) expect(misfits, 'answers that differ from generated/openapi.json').toEqual([])
  })
  const fixture: TestApp = {
    get app() {
      if (!app) throw new Error('setupTestApp: the app exists only inside tests and hooks')
      return app
    },
    get database() {
      if (!database) throw new Error('setupTestApp: the database exists only inside tests and hooks')
      return database
    },
    async login(username, host = 'localhost') {
      const response = await fixture.app.inject({
        method: 'POST',
        url: '/api/b2b/user/login',
        headers: {
          host,
          'x-forwarded-for': `10.99.${Math.floor(nextAddress / 250) % 250}.${(nextAddress++ % 250) + 1}`,
          // The portal's header, which every sign-in needs (server/http/csrf.ts).
          resource: '1',
        },
        payload: { username, password: DEMO_PASSWORD },
      })
      expect(response.json().code, `login ${username}@${host}: ${response.body}`).toBe('0000')
      return response.json().token as string
    },
  }
  return fixture
}
