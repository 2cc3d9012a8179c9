import { type Kysely, sql } from 'kysely'

/** Tables a request may write without changing anything a user owns: sessions and per-caller counters. */
const VOLATILE = new Set(['session', 'login_attempt', 'rate_limit', 'page_visit', 'rate_query_count'])

/**
 * A digest of every row of every table a user's work lives in: equal before and after a call means the
 * call changed nothing (the guard suites of issue #9). Built once per database, read as one query.
 */
export async function databaseFingerprint(db: Kysely<unknown>): Promise<() => Promise<string>> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)
  const tables = rows.map((r) => r.table_name).filter((t) => !VOLATILE.has(t) && !t.startsWith('kysely_'))
  if (tables.length < 20) throw new Error(`databaseFingerprint: only ${tables.length} tables found`)
  const query = sql.raw<{ print: string }>(
    `select md5(${tables
      .map((t) => `coalesce((select md5(string_agg(x::text, '|' order by x::text)) from "${t}" x), '-')`)
      .join(" || ',' || ")}) as print`,
  )
  return async () => (await query.execute(db)).rows[0]?.print ?? ''
}
