import { sql, type Transaction } from 'kysely'
import type { ManifestEntity } from '../../model/resolve.ts'
import type { DB } from '../db/schema.ts'
import { snakeCase } from './columns.ts'

/**
 * The row tally (migration 0011): how many rows a tenant has of an engine table, by state. A list whose
 * only conditions are the tenant and its states (the operator's order list, unfiltered or by state) reads
 * its total here in one indexed row per state, instead of counting 200,000 orders on every page.
 *
 * Statement-level triggers keep it, in the transaction of the change: an insert adds the new rows per
 * tenant and state, a delete takes them away, an update moves the ones whose state changed. One upsert a
 * statement, its rows in (tenant, state) order, so two transactions moving orders between the same
 * states lock the tally rows in the same order and never deadlock on them. Concurrent writers of one
 * tenant's table wait on its tally row until the first commits, as they already do on the order-number
 * counter. A TRUNCATE fires none of these triggers and would leave the tally behind: nothing in Waybill truncates an
 * engine table, and one that must is re-counted by dropping its `<table>_tally_insert` trigger before a start.
 */

/** The column whose values the tally counts by; none for a table without a state machine. */
export function tallyColumn(entity: ManifestEntity): string | undefined {
  return entity.states ? snakeCase(entity.states.field) : undefined
}

const functionName = (table: string) => `${table}_tally`

/**
 * Installs the tally's trigger on an engine table, and on first installation counts the rows the table
 * already has. Run by the table sync (as the owner, under its advisory lock); idempotent.
 */
export async function installTally(trx: Transaction<unknown>, entity: ManifestEntity): Promise<void> {
  const table = entity.table
  const column = tallyColumn(entity)
  const state = (rows: string) => (column ? `${rows}.${column}` : `''`)
  const changes = (...branches: [rows: string, sign: string][]) =>
    branches
      .map(([rows, sign]) => `select ${rows}.tenant_id, ${state(rows)} as state, ${sign}1 as d from ${rows}`)
      .join(' union all ')
  // Each operation reads only the transition tables it has: an insert no old rows, a delete no new ones.
  const upsert = (from: string) => `
      insert into row_tally (tenant_id, table_name, state, n)
      select tenant_id, '${table}', state, sum(d) from (${from}) changes
      group by tenant_id, state
      having sum(d) <> 0
      order by tenant_id, state
      on conflict (tenant_id, table_name, state) do update set n = row_tally.n + excluded.n;`
  await sql
    .raw(`
    create or replace function ${functionName(table)}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then ${upsert(changes(['new_rows', '+']))}
      elsif tg_op = 'DELETE' then ${upsert(changes(['old_rows', '-']))}
      else ${upsert(changes(['new_rows', '+'], ['old_rows', '-']))}
      end if;
      return null;
    end $$`)
    .execute(trx)
  const { rows } = await sql<{ name: string }>`
    select tgname as name from pg_trigger where tgrelid = ${`public.${table}`}::regclass and not tgisinternal`.execute(
    trx,
  )
  const has = new Set(rows.map((r) => r.name))
  const fresh = !has.has(`${table}_tally_insert`)
  const triggers = [
    ['insert', 'insert', 'new table as new_rows'],
    ['update', 'update', 'old table as old_rows new table as new_rows'],
    ['delete', 'delete', 'old table as old_rows'],
  ] as const
  for (const [suffix, event, referencing] of triggers) {
    if (has.has(`${table}_tally_${suffix}`)) continue
    await sql
      .raw(`create trigger ${table}_tally_${suffix} after ${event} on ${table}
        referencing ${referencing} for each statement execute function ${functionName(table)}()`)
      .execute(trx)
  }
  if (fresh) await countExisting(trx, table, column)
}

/**
 * The rows a table had before its trigger: counted tenant by tenant, with the tenant set as a request
 * would set it, so a table owner that forced row-level security binds still sees each tenant's rows.
 */
async function countExisting(trx: Transaction<unknown>, table: string, column: string | undefined): Promise<void> {
  const { rows: tenants } = await sql<{ id: number }>`select id from tenant order by id`.execute(trx)
  for (const { id } of tenants) {
    await sql`select set_config('app.tenant_id', ${String(id)}, true)`.execute(trx)
    await sql`delete from row_tally where tenant_id = ${id} and table_name = ${table}`.execute(trx)
    await sql`
      insert into row_tally (tenant_id, table_name, state, n)
      select tenant_id, ${table}, ${column ? sql.ref(column) : sql.lit('')}, count(*)
      from ${sql.table(table)} where tenant_id = ${id} group by 1, 3`.execute(trx)
  }
  await sql`select set_config('app.tenant_id', '', true)`.execute(trx)
}

/**
 * A tenant's rows of a table, in `states` only when given: the sum of at most one tally row per state.
 * Runs in the caller's tenant transaction.
 */
export async function talliedTotal(
  trx: Transaction<DB>,
  tenantId: number,
  table: string,
  states: readonly string[] | null,
): Promise<number> {
  const { rows } = await talliedQuery(tenantId, table, states).execute(trx)
  return rows[0]?.total ?? 0
}

/** The tally's statement for `talliedTotal`, or to nest in another (a list's first page with its total). */
export function talliedQuery(tenantId: number, table: string, states: readonly string[] | null) {
  return sql<{ total: number }>`
    select coalesce(sum(n), 0)::int as total from row_tally
    where tenant_id = ${tenantId} and table_name = ${table}
      ${states ? sql`and state in (${sql.join(states)})` : sql``}`
}
