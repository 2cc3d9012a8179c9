import { type Kysely, sql } from 'kysely'

/** Tables a request may write without changing anything a user owns: sessions and per-caller counters. */
const VOLATILE = new Set(['session', 'login_attempt', 'rate_limit', 'page_visit', 'rate_query_count'])

/** The test's own log of writes, and the trigger function that fills it (never in a real database). */
const LOG = 'guard_write_log'
const TRIGGER = 'guard_write_logged'

/**
 * What a database has been written since the log was installed: one row per row inserted, updated or deleted
 * in any table a user's work lives in, with the transaction and the table. A row-level trigger on every
 * such table writes it in the writer's own transaction, so a write that is rolled back leaves no trace here
 * either — exactly what "changed nothing" means. Installed by the test on its own copy of the database only.
 *
 * The guards of issue #9 first hashed every row of every table around each call (47 s for the permission
 * sweep alone); the log costs one insert per row written and one count per check.
 */
export interface WriteLog {
  /** How many rows have been written so far: take it before a call, compare after. */
  mark(): Promise<number>
  /** The writes after `mark`, as `table ×rows (transaction)`, for a failure message; empty when none. */
  since(mark: number): Promise<string[]>
}

export async function installWriteLog(db: Kysely<unknown>): Promise<WriteLog> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)
  const tables = rows.map((r) => r.table_name).filter((t) => !VOLATILE.has(t) && !t.startsWith('kysely_') && t !== LOG)
  if (tables.length < 20) throw new Error(`installWriteLog: only ${tables.length} tables found`)
  await sql
    .raw(`create table if not exists ${LOG} (
      id bigint generated always as identity primary key,
      tx bigint not null default txid_current(),
      tbl text not null)`)
    .execute(db)
  // SECURITY DEFINER: on PostgreSQL the API's own role writes the data, and it has no rights on the log.
  await sql
    .raw(`create or replace function ${TRIGGER}() returns trigger language plpgsql security definer
      set search_path = ${await schemaName(db)} as $$
      begin
        insert into ${LOG} (tbl) values (tg_table_name);
        return null;
      end $$`)
    .execute(db)
  for (const table of tables)
    await sql
      .raw(`create or replace trigger ${TRIGGER} after insert or update or delete on "${table}"
        for each row execute function ${TRIGGER}()`)
      .execute(db)
  return {
    async mark() {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(LOG)}`.execute(db)
      return rows[0]?.n ?? 0
    },
    async since(mark: number) {
      const { rows } = await sql<{ tbl: string; tx: string; n: number }>`
        select tbl, tx::text as tx, count(*)::int as n
        from (select * from ${sql.table(LOG)} order by id offset ${mark}) w
        group by tbl, tx order by min(id)`.execute(db)
      return rows.map((r) => `${r.tbl} ×${r.n} (transaction ${r.tx})`)
    },
  }
}

async function schemaName(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db)
  const name = rows[0]?.s ?? 'public'
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`installWriteLog: unexpected schema name ${name}`)
  return name
}

/**
 * The guards' question "did this call change the database?" as a value to compare before and after it: the
 * number of rows written so far (installWriteLog). Kept under its first name so every guard suite reads it
 * the same way; equal before and after means nothing a user owns was inserted, updated or deleted — stricter
 * than the row hashes it replaces, since an update that writes back the same values counts too.
 */
export async function databaseFingerprint(db: Kysely<unknown>): Promise<() => Promise<string>> {
  const log = await installWriteLog(db)
  return async () => `${await log.mark()} rows written`
}
