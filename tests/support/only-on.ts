import { describe, it, type SuiteFactory, type TestFunction } from 'vitest'

/**
 * What a test that holds on one database only carries in its name; the summary reporter counts a skipped test
 * with this mark as "not run on PGlite" and every other skip as a failure of `npm test`.
 */
export const postgresOnlyMark = '[PostgreSQL only]'

export const onPostgres = process.env.TEST_DB === 'postgres'

/** `it` for a test that means something only on PostgreSQL (server roles, row-level security, prepared statements). */
export function itOnPostgres(name: string, test: TestFunction, timeout?: number) {
  it.skipIf(!onPostgres)(`${name} ${postgresOnlyMark}`, test, timeout)
}

/** `describe` for a block of such tests. */
export function describeOnPostgres(name: string, suite: SuiteFactory) {
  describe.skipIf(!onPostgres)(`${name} ${postgresOnlyMark}`, suite)
}
