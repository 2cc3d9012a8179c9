import { type Kysely, sql } from 'kysely'

/**
 * Whether the schema can be distributed by tenant on Citus (issue #29, docs/SCALING.md "Distributing by tenant
 * on Citus"): read from pg_catalog, so it judges the database as it is — the migrations' tables and the ones the
 * engine made from the YAML — not what a file says it should be.
 *
 * Every table of the schema is one of three kinds:
 * - a **tenant** table has a `tenant_id` column and will be distributed by it. Its primary key and every unique
 *   index lead with tenant_id (a distributed table can enforce uniqueness only within one shard); every foreign
 *   key to another tenant table leads with tenant_id on both sides (co-located shards join and check locally), and
 *   one that sets null on delete names the columns it nulls, so tenant_id is never among them;
 * - a **reference** table (`comment on table … is 'reference'`) is copied to every node: tenants, their domains,
 *   the shared lists (ports, carriers, currencies…). Its foreign keys may point only at other reference tables;
 * - a **local** table (`comment … is 'local'`) is one node's bookkeeping (the migrations' own tables): no foreign
 *   key may point at it or from it.
 * A table with no tenant_id and neither comment is a problem: nobody has said where it goes.
 *
 * Answers one sentence per problem, each starting with the table's name; none for a schema ready to distribute.
 */
export async function distributionProblems(db: Kysely<unknown>): Promise<string[]> {
  const { rows: tables } = await sql<{ name: string; mark: string | null; tenant: boolean }>`
    select c.relname as name, obj_description(c.oid, 'pg_class') as mark,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
        as tenant
    from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname
  `.execute(db)
  const kind = new Map<string, TableKind>(tables.map((t) => [t.name, kindOf(t.mark, t.tenant)]))
  const problems: string[] = []
  for (const table of tables) {
    if (kind.get(table.name) === 'unmarked')
      problems.push(
        `${table.name}: has no tenant_id and is not marked — comment on table ${table.name} is 'reference' (shared, copied to every node) or 'local' (one node's bookkeeping)`,
      )
  }

  // Unique indexes include the primary key; `leads` is whether the first key column is tenant_id (an expression
  // key, attnum 0, never is).
  const { rows: uniques } = await sql<{ table: string; index: string; primary: boolean; leads: boolean }>`
    select t.relname as table, i.relname as index, x.indisprimary as primary,
      coalesce((select a.attname = 'tenant_id' from pg_attribute a where a.attrelid = t.oid and a.attnum = x.indkey[0]),
        false) as leads
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    where t.relnamespace = current_schema()::regnamespace and x.indisunique
    order by t.relname, i.relname
  `.execute(db)
  for (const unique of uniques) {
    if (kind.get(unique.table) !== 'tenant' || unique.leads) continue
    problems.push(
      `${unique.table}: ${unique.primary ? 'primary key' : 'unique index'} ${unique.index} does not lead with tenant_id`,
    )
  }

  // Column names in key order; `nulls` is the columns a set null / set default clears (all of them when the
  // list is empty — the clause PostgreSQL 15 made optional).
  const { rows: keys } = await sql<{
    table: string
    name: string
    columns: string[]
    target: string
    targetColumns: string[]
    onDelete: string
    nulls: string[]
  }>`
    select t.relname as table, k.conname as name, f.relname as target, k.confdeltype as "onDelete",
      array(select a.attname from unnest(k.conkey) with ordinality u(n, o)
        join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.o)::text[] as columns,
      array(select a.attname from unnest(k.confkey) with ordinality u(n, o)
        join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.o)::text[] as "targetColumns",
      array(select a.attname from unnest(coalesce(k.confdelsetcols, k.conkey)) u(n)
        join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n)::text[] as nulls
    from pg_constraint k
    join pg_class t on t.oid = k.conrelid
    join pg_class f on f.oid = k.confrelid
    where k.contype = 'f' and t.relnamespace = current_schema()::regnamespace
    order by t.relname, k.conname
  `.execute(db)
  for (const key of keys) {
    const from = kind.get(key.table)
    const to = kind.get(key.target)
    const what = `${key.table}: foreign key ${key.name} (${key.columns.join(', ')}) → ${key.target} (${key.targetColumns.join(', ')})`
    if (from === 'tenant' && to === 'tenant') {
      if (key.columns[0] !== 'tenant_id' || key.targetColumns[0] !== 'tenant_id')
        problems.push(`${what} does not lead with tenant_id on both sides`)
      else if ((key.onDelete === 'n' || key.onDelete === 'd') && key.nulls.includes('tenant_id'))
        problems.push(`${what} would clear tenant_id on delete — name the columns: on delete set null (…)`)
    } else if (from === 'reference' && to !== 'reference') {
      problems.push(`${what} points from a reference table at ${aTable(to)}`)
    } else if (from === 'local' || to === 'local') {
      problems.push(`${what} joins a local table to another`)
    } else if (from === 'tenant' && to !== 'reference') {
      problems.push(`${what} points at ${aTable(to)}`)
    }
  }
  return problems
}

type TableKind = 'tenant' | 'reference' | 'local' | 'unmarked'

const aTable = (kind: TableKind | undefined) =>
  kind === 'unmarked' ? 'an unmarked table' : kind ? `a ${kind} table` : 'a table of another schema'

function kindOf(mark: string | null, tenant: boolean): TableKind {
  if (mark === 'reference' || mark === 'local') return mark
  return tenant ? 'tenant' : 'unmarked'
}
