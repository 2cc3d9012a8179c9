import { type Kysely, sql } from 'kysely'

/**
 * Citus-ready keys (issue #29, docs/SCALING.md "Distributing by tenant on Citus", server/db/distribution.ts).
 *
 * - The shared tables say what they are: `tenant` and `tenant_domain` (the host → tenant lookup, read before any
 *   tenant is known) are 'reference' — copied to every node; the migrations' own tables are 'local'. The lists
 *   the engine makes from YAML (ports, carriers…) are marked by its table sync (server/engine/storage.ts).
 * - Every tenant table's primary key leads with tenant_id: (tenant_id, id) where it was (id), and likewise for any
 *   other key. Nothing stays unique on id alone — a distributed table cannot enforce that across shards; ids still
 *   come from one sequence per table, so they remain unique in practice and every statement of the API reaches
 *   the rows through row-level security, which adds `tenant_id = …` for the index to lead with.
 * - Every foreign key between tenant tables becomes (tenant_id, x) → (tenant_id, id): a row can no longer point at
 *   another tenant's row, and on Citus the two shards it joins are co-located. `on delete set null` names its
 *   column (PostgreSQL 15), so deleting a user clears `inviter_id` but never the row's tenant_id.
 * - Plain indexes that the new primary key makes redundant (exactly (tenant_id, id), nothing included, no
 *   condition) go: they cost every write and answer nothing the key does not.
 *
 * It reads the catalogue rather than a list of names, so it also re-keys the entity tables an earlier start of the
 * engine made the old way; tables the engine makes from now on are made this way (server/engine/storage.ts).
 * Every re-made foreign key is checked against the rows there are: a row pointing at another tenant's row stops
 * the migration (it would be a leak to investigate, not to carry over).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tenant', 'tenant_domain']) await mark(db, table, 'reference')
  for (const table of ['waybill_migration', 'waybill_migration_lock', 'kysely_migration', 'kysely_migration_lock'])
    await mark(db, table, 'local')

  const tenantTables = new Set(
    (
      await sql<{ name: string }>`
        select c.relname as name from pg_class c
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
          and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
          and coalesce(obj_description(c.oid, 'pg_class'), '') not in ('reference', 'local')`.execute(db)
    ).rows.map((r) => r.name),
  )

  // The foreign keys between tenant tables that leave tenant_id out: dropped first, since the keys they point at
  // are about to change, and made again after.
  const keys = (
    await sql<ForeignKey>`
      select t.relname as table, k.conname as name, f.relname as target,
        k.confdeltype as "onDelete", k.confupdtype as "onUpdate", k.condeferrable as deferrable,
        k.condeferred as deferred,
        array(select a.attname from unnest(k.conkey) with ordinality u(n, o)
          join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.o)::text[] as columns,
        array(select a.attname from unnest(k.confkey) with ordinality u(n, o)
          join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.o)::text[] as "targetColumns"
      from pg_constraint k
      join pg_class t on t.oid = k.conrelid
      join pg_class f on f.oid = k.confrelid
      where k.contype = 'f' and t.relnamespace = current_schema()::regnamespace
      order by t.relname, k.conname`.execute(db)
  ).rows.filter(
    (k) =>
      tenantTables.has(k.table) &&
      tenantTables.has(k.target) &&
      (k.columns[0] !== 'tenant_id' || k.targetColumns[0] !== 'tenant_id'),
  )
  for (const key of keys) await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.name)}`.execute(db)

  // Primary keys and unique constraints not led by tenant_id: the same columns after it.
  const uniques = (
    await sql<{ table: string; name: string; primary: boolean; columns: string[] }>`
      select t.relname as table, k.conname as name, k.contype = 'p' as primary,
        array(select a.attname from unnest(k.conkey) with ordinality u(n, o)
          join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.o)::text[] as columns
      from pg_constraint k join pg_class t on t.oid = k.conrelid
      where k.contype in ('p', 'u') and t.relnamespace = current_schema()::regnamespace
      order by t.relname, k.conname`.execute(db)
  ).rows.filter((k) => tenantTables.has(k.table) && k.columns[0] !== 'tenant_id')
  for (const key of uniques) {
    const columns = ['tenant_id', ...key.columns.filter((c) => c !== 'tenant_id')].map((c) => sql.id(c))
    await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.name)}, add constraint ${sql.id(key.name)}
      ${key.primary ? sql`primary key` : sql`unique`} (${sql.join(columns)})`.execute(db)
  }

  for (const key of keys) {
    const columns = ['tenant_id', ...key.columns.filter((c) => c !== 'tenant_id')]
    const targetColumns = ['tenant_id', ...key.targetColumns.filter((c) => c !== 'tenant_id')]
    const nulled = sql.join(key.columns.filter((c) => c !== 'tenant_id').map((c) => sql.id(c)))
    const onDelete =
      key.onDelete === 'n'
        ? sql`set null (${nulled})`
        : key.onDelete === 'd'
          ? sql`set default (${nulled})`
          : sql.raw(ACTIONS[key.onDelete] ?? 'no action')
    await sql`alter table ${sql.table(key.table)} add constraint ${sql.id(key.name)}
      foreign key (${sql.join(columns.map((c) => sql.id(c)))})
      references ${sql.table(key.target)} (${sql.join(targetColumns.map((c) => sql.id(c)))})
      on delete ${onDelete} on update ${sql.raw(ACTIONS[key.onUpdate] ?? 'no action')}
      ${key.deferrable ? sql.raw(key.deferred ? 'deferrable initially deferred' : 'deferrable') : sql``}`.execute(db)
  }

  const redundant = await sql<{ name: string }>`
    select i.relname as name
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_index p on p.indrelid = x.indrelid and p.indisprimary
    join pg_am m on m.oid = i.relam
    where t.relnamespace = current_schema()::regnamespace and not x.indisunique and m.amname = 'btree'
      and x.indnatts = x.indnkeyatts and x.indpred is null and x.indexprs is null
      and x.indkey::text = p.indkey::text and x.indoption::text = p.indoption::text`.execute(db)
  for (const index of redundant.rows) await sql`drop index ${sql.id(index.name)}`.execute(db)
}

interface ForeignKey {
  table: string
  name: string
  target: string
  columns: string[]
  targetColumns: string[]
  onDelete: string
  onUpdate: string
  deferrable: boolean
  deferred: boolean
}

/** pg_constraint's one-letter referential actions; set null and set default are written with their columns. */
const ACTIONS: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }

async function mark(db: Kysely<unknown>, table: string, as: 'reference' | 'local'): Promise<void> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass(${table}) is not null as found`.execute(db)
  if (rows[0]?.found) await sql`comment on table ${sql.table(table)} is ${sql.lit(as)}`.execute(db)
}
