import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * A user's own settings that follow them from browser to browser: for now the columns each list shows
 * (SPEC §2 "column settings per user"). One row per user and setting name; the value is JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table user_setting (
      tenant_id int not null references tenant(id),
      user_id int not null references app_user(id) on delete cascade,
      name text not null,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, user_id, name)
    );
  `,
  )
  await enableTenantIsolation(db, ['user_setting'])
}
