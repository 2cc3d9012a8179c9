import { sql } from 'kysely'
import type { TestApp } from './app.ts'

/**
 * Calls as a signed-in user makes them, and the ids a test names, for the API tests of issue #21: the
 * portal's header beside the session cookie (server/http/csrf.ts), the host that picks the tenant and the
 * caller's language.
 */
export interface CallOptions {
  host?: string
  language?: string
}

export function caller(t: TestApp) {
  return (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    token: string | null,
    payload?: object,
    options: CallOptions = {},
  ) => {
    const headers: Record<string, string> = { host: options.host ?? 'localhost', resource: '1' }
    if (token) headers.cookie = `b2b_token=${token}`
    if (options.language) headers.language = options.language
    return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
  }
}

/** A seeded row's id by its tenant's code and a column's value (a user by username, a company by name). */
export async function idIn(
  t: TestApp,
  table: 'app_user' | 'company' | 'role',
  column: 'username' | 'name' | 'code',
  value: string,
  tenant = 'demo',
): Promise<number> {
  const { rows } = await sql<{ id: number }>`select r.id from ${sql.table(table)} r
    join tenant on tenant.id = r.tenant_id
    where tenant.code = ${tenant} and ${sql.ref(`r.${column}`)} = ${value}`.execute(t.database.db)
  const row = rows[0]
  if (!row) throw new Error(`no ${table} ${column} = ${value} in ${tenant}`)
  return row.id
}
