import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Uploaded files (server/files/): tenant-owned rows with row-level security like every tenant table.
 * The id is a random UUID — the value a file field stores, and unguessable. The type is the one read
 * from the bytes, `sha256` their digest; `storage` says where the bytes are ('db': in `bytes`), so an
 * S3-compatible store can hold them later with the rest unchanged. `entity` and `field` record which
 * field's limits the upload was checked against.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table if not exists file (
      tenant_id int not null references tenant(id),
      id uuid primary key default gen_random_uuid(),
      entity text not null,
      field text not null,
      name text not null,
      content_type text not null,
      size integer not null check (size >= 0),
      sha256 text not null,
      storage text not null default 'db' check (storage in ('db', 's3')),
      bytes bytea,
      created_by int references app_user(id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index if not exists file_tenant_created on file (tenant_id, created_at desc);
  `,
  )
  await enableTenantIsolation(db, ['file'])
}
