import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../server/db/database.ts'
import { distributionProblems } from '../../server/db/distribution.ts'
import { migrateTo, migrateToLatest } from '../../server/db/migrate.ts'
import { runStatements } from '../../server/db/migrations/0001_core.ts'
import { syncEntityTables } from '../../server/engine/storage.ts'
import { loadManifest } from '../../server/manifest.ts'
import { freshDatabase, scratchDatabase } from '../support/database.ts'
import { onPostgres } from '../support/only-on.ts'

/**
 * Issue #29: the schema is ready to be distributed by tenant on Citus (docs/SCALING.md "Distributing by tenant on
 * Citus"). The catalogue check runs on the database as the migrations and the engine's table sync leave it, on
 * PGlite and on PostgreSQL; scratch tables that break each rule show that it would notice.
 */

let database: Database
let db: Kysely<unknown>
beforeAll(async () => {
  database = await freshDatabase()
  db = database.db as never
})
afterAll(async () => {
  await database?.close()
})

describe('the migrated and synced schema', () => {
  it('keys every tenant table by tenant_id first and marks every shared table', async () => {
    expect(await distributionProblems(db)).toEqual([])
  })

  it('marks the tenants, the shared lists and the migrations’ bookkeeping, and distributes the rest', async () => {
    const { rows } = await sql<{ name: string; mark: string | null }>`
      select c.relname as name, obj_description(c.oid, 'pg_class') as mark from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'`.execute(db)
    const mark = new Map(rows.map((r) => [r.name, r.mark]))
    // Shared by every tenant: the tenants themselves, the host → tenant lookup, lists the engine made from YAML.
    for (const table of ['tenant', 'tenant_domain', 'ref_port', 'ref_carrier', 'ref_currency', 'ref_hs_code'])
      expect([table, mark.get(table)]).toEqual([table, 'reference'])
    expect(mark.get('waybill_migration')).toBe('local')
    // Tenant tables carry no mark: they are distributed by tenant_id.
    for (const table of ['app_user', 'booking_order', 'audit_log', 'session']) expect(mark.get(table)).toBeNull()
  })

  it('keys a tenant table by (tenant_id, id) and nothing unique on id alone', async () => {
    const { rows } = await sql<{ table: string; def: string }>`
      select t.relname as table, pg_get_indexdef(x.indexrelid) as def from pg_index x join pg_class t on t.oid = x.indrelid
      where t.relname in ('app_user', 'booking_order') and x.indisunique order by 1, 2`.execute(db)
    const primary = rows.filter((r) => r.def.includes('_pkey'))
    expect(primary.map((r) => [r.table, r.def.replace(/^.* USING btree /, '')])).toEqual([
      ['app_user', '(tenant_id, id)'],
      ['booking_order', '(tenant_id, id)'],
    ])
    expect(rows.filter((r) => /\(id\)/.test(r.def))).toEqual([])
  })
})

/**
 * Each scratch table lives in a transaction that is rolled back, so the shared database keeps none of them.
 * Answers the problems of the scratch tables alone, sorted.
 */
async function problemsWith(script: string): Promise<string[]> {
  let found: string[] = []
  await db
    .transaction()
    .execute(async (trx) => {
      await runStatements(trx, script)
      found = (await distributionProblems(trx)).filter((p) => p.startsWith('scratch_')).sort()
      throw new RolledBack()
    })
    .catch((error) => {
      if (!(error instanceof RolledBack)) throw error
    })
  return found
}
class RolledBack extends Error {}

const PARENT = `
  create table scratch_parent (tenant_id int not null, id int not null, primary key (tenant_id, id))`

describe('a table that breaks a rule is named', () => {
  it('a table with no tenant_id and no mark', async () => {
    expect(await problemsWith('create table scratch_list (code text primary key)')).toEqual([
      expect.stringMatching(/^scratch_list: has no tenant_id and is not marked/),
    ])
    // Marked, it is fine either way.
    expect(
      await problemsWith(`create table scratch_list (code text primary key);
        comment on table scratch_list is 'reference'`),
    ).toEqual([])
  })

  it('a tenant table keyed by id alone, or with a unique index not led by tenant_id', async () => {
    expect(
      await problemsWith(`create table scratch_order (tenant_id int not null, id int primary key, no text);
        create unique index scratch_order_no on scratch_order (no, tenant_id)`),
    ).toEqual([
      'scratch_order: primary key scratch_order_pkey does not lead with tenant_id',
      'scratch_order: unique index scratch_order_no does not lead with tenant_id',
    ])
    // An expression leads with no column at all.
    expect(
      await problemsWith(`create table scratch_order (tenant_id int not null, id int, no text, primary key (tenant_id, id));
        create unique index scratch_order_no on scratch_order (lower(no), tenant_id)`),
    ).toEqual(['scratch_order: unique index scratch_order_no does not lead with tenant_id'])
  })

  it('a foreign key between tenant tables without tenant_id', async () => {
    expect(
      await problemsWith(`${PARENT};
        create unique index scratch_parent_id on scratch_parent (id);
        create table scratch_child (tenant_id int not null, id int, parent_id int references scratch_parent(id),
          primary key (tenant_id, id))`),
    ).toEqual([
      'scratch_child: foreign key scratch_child_parent_id_fkey (parent_id) → scratch_parent (id) does not lead with tenant_id on both sides',
      'scratch_parent: unique index scratch_parent_id does not lead with tenant_id',
    ])
  })

  it('a foreign key that would clear tenant_id on delete, and not one that names its column', async () => {
    const child = (onDelete: string) => `${PARENT};
      create table scratch_child (tenant_id int not null, id int, parent_id int, primary key (tenant_id, id),
        foreign key (tenant_id, parent_id) references scratch_parent (tenant_id, id) on delete ${onDelete})`
    expect(await problemsWith(child('set null'))).toEqual([
      expect.stringMatching(/^scratch_child: foreign key .* would clear tenant_id on delete/),
    ])
    expect(await problemsWith(child('set null (parent_id)'))).toEqual([])
    expect(await problemsWith(child('cascade'))).toEqual([])
  })

  it('a reference table pointing at a tenant table, and a key joining a local table', async () => {
    expect(
      await problemsWith(`${PARENT};
        create table scratch_list (code text primary key, tenant_id int, owner int,
          foreign key (tenant_id, owner) references scratch_parent (tenant_id, id));
        comment on table scratch_list is 'reference'`),
    ).toEqual([expect.stringMatching(/^scratch_list: foreign key .* from a reference table at a tenant table/)])
    expect(
      await problemsWith(`create table scratch_log (id int primary key);
        comment on table scratch_log is 'local';
        create table scratch_item (tenant_id int not null, id int, log_id int references scratch_log(id),
          primary key (tenant_id, id))`),
    ).toEqual([expect.stringMatching(/^scratch_item: foreign key .* joins a local table to another/)])
  })
})

/** An empty database of the test's kind, dropped (PostgreSQL) or let go (PGlite) by `close`. */
async function emptyDatabase(): Promise<Database> {
  if (!onPostgres) return openDatabase({ databaseUrl: 'memory://' })
  const scratch = await scratchDatabase(process.env.DATABASE_URL as string, 'waybill_test')
  const opened = await openDatabase({ databaseUrl: scratch.url })
  return {
    ...opened,
    async close() {
      await opened.close()
      await scratch.drop()
    },
  }
}

describe('a database made before the re-keying (0041_tenant_keys)', () => {
  let old: Database
  let on: Kysely<unknown>
  const ids = { a: 0, b: 0, company: 0, inviter: 0, invitee: 0, file: '' }
  beforeAll(async () => {
    old = await emptyDatabase()
    on = old.db as never
    await migrateTo(on, '0040_user_asks')
    // An entity table as the engine made it before: keyed by id, with a plain (tenant_id, id) list index.
    await runStatements(
      on,
      `create table legacy_order (tenant_id integer not null references tenant(id),
        id integer generated by default as identity primary key, created_by integer);
      create index legacy_order_list_idx on legacy_order (tenant_id, id)`,
    )
    const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(on)).rows[0] as T
    ids.a = (
      await one(sql<{ id: number }>`insert into tenant (code, name_zh, name_en) values ('ta', 'A', 'A') returning id`)
    ).id
    ids.b = (
      await one(sql<{ id: number }>`insert into tenant (code, name_zh, name_en) values ('tb', 'B', 'B') returning id`)
    ).id
    ids.company = (
      await one(
        sql<{
          id: number
        }>`insert into company (tenant_id, name, company_type) values (${ids.a}, 'Acme', 1) returning id`,
      )
    ).id
    const user = async (name: string, inviter: number | null) =>
      (
        await one(sql<{ id: number }>`insert into app_user (tenant_id, company_id, username, real_name, password_hash,
          company_user_type, inviter_id) values (${ids.a}, ${ids.company}, ${name}, ${name}, 'x', 1, ${inviter}) returning id`)
      ).id
    ids.inviter = await user('inviter', null)
    ids.invitee = await user('invitee', ids.inviter)
    await sql`insert into session (tenant_id, user_id, token_hash, expires_at)
      values (${ids.a}, ${ids.invitee}, 'h', now() + interval '1 day')`.execute(on)
    ids.file = (
      await one(sql<{
        id: string
      }>`insert into file (tenant_id, entity, field, name, content_type, size, sha256, created_by)
        values (${ids.a}, 'x', 'y', 'a.pdf', 'application/pdf', 0, 'z', ${ids.inviter}) returning id`)
    ).id
    await sql`insert into file_grant (tenant_id, file_id, user_id, reason) values (${ids.a}, ${ids.file}, ${ids.invitee}, 'r')`.execute(
      on,
    )
    await sql`insert into legacy_order (tenant_id) values (${ids.a}), (${ids.b})`.execute(on)
    expect((await distributionProblems(on)).length).toBeGreaterThan(20)

    await migrateToLatest(on)
    await syncEntityTables(old.db, loadManifest())
  }, 240_000)
  afterAll(async () => {
    await old?.close()
  })

  it('is re-keyed, entity tables the engine made before included, and keeps its rows', async () => {
    expect(await distributionProblems(on)).toEqual([])
    const { rows } = await sql<{ name: string; def: string }>`
      select indexname as name, indexdef as def from pg_indexes where tablename = 'legacy_order' order by 1`.execute(on)
    // The plain list index was the primary key's twin: gone.
    expect(rows.map((r) => [r.name, r.def.replace(/^.* USING btree /, '')])).toEqual([
      ['legacy_order_pkey', '(tenant_id, id)'],
    ])
    const count = async (table: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(on)).rows[0]?.n
    expect([
      await count('legacy_order'),
      await count('app_user'),
      await count('session'),
      await count('file_grant'),
    ]).toEqual([2, 2, 1, 1])
  })

  it('refuses a row that points at another tenant’s row', async () => {
    const error = await sql`insert into session (tenant_id, user_id, token_hash, expires_at)
      values (${ids.b}, ${ids.invitee}, 'h2', now() + interval '1 day')`
      .execute(on)
      .catch((e: { code?: string }) => e)
    expect((error as { code?: string }).code).toBe('23503')
  })

  it('clears only the pointer on delete where it was set null, and cascades where it cascaded', async () => {
    await sql`delete from app_user where id = ${ids.inviter}`.execute(on)
    const invitee = await sql<{ tenant_id: number; inviter_id: number | null }>`
      select tenant_id, inviter_id from app_user where id = ${ids.invitee}`.execute(on)
    expect(invitee.rows).toEqual([{ tenant_id: ids.a, inviter_id: null }])
    const file = await sql<{ tenant_id: number; created_by: number | null }>`
      select tenant_id, created_by from file where id = ${ids.file}`.execute(on)
    expect(file.rows).toEqual([{ tenant_id: ids.a, created_by: null }])

    await sql`delete from app_user where id = ${ids.invitee}`.execute(on)
    const left = await sql<{ sessions: number; grants: number }>`
      select (select count(*)::int from session) as sessions, (select count(*)::int from file_grant) as grants`.execute(
      on,
    )
    expect(left.rows).toEqual([{ sessions: 0, grants: 0 }])
  })
})
