import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Files granted to one more reader (issue #27): a file a chat message carries is read by that conversation's
 * customer as well as by its uploader and the tenant's operators (docs/DECISIONS.md "Chat attachments"). A row
 * names the file, the user and why (`reason`, the entity that shared it); the file store's visibility condition
 * reads it. Tenant-owned with row-level security like the file itself.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table file_grant (
      tenant_id int not null references tenant(id),
      file_id uuid not null references file(id) on delete cascade,
      user_id int not null references app_user(id) on delete cascade,
      reason text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, file_id, user_id)
    );
  `,
  )
  await enableTenantIsolation(db, ['file_grant'])
}
