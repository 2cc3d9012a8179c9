import { type Kysely, sql } from 'kysely'

/**
 * The company table becomes an engine table (issue #21): the enterprise of SPEC §3 has a dozen fields the
 * operators list, search and edit from YAML screens, so the engine keeps it as it keeps any entity. It needs
 * the engine's system columns (created_at is already there) and the integer the manifest maps an enum to;
 * the field columns and indexes of schemas/company.yaml (the unique name among them, SPEC §8 310004) are
 * added by the table sync at start (server/engine/storage.ts). The (tenant_id, id) index gives way to the
 * engine's list index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table company
    add column version integer not null default 1,
    add column updated_at timestamptz not null default now(),
    add column created_by integer,
    alter column company_type type integer`.execute(db)
  await sql`drop index if exists company_tenant`.execute(db)
}
