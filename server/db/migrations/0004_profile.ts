import type { Kysely } from 'kysely'
import { runStatements } from './0001_core.ts'

/**
 * The profile and the operation-account fields of app_user (entities userProfile and operationAccount
 * are views of it): QQ number, avatar, interface language and display currency, plus a version for
 * optimistic concurrency and the time of the last change. Enabled / disabled stays the existing `state`
 * (1 enabled, 0 disabled: isUsed ⇔ state = 1). Row-level security already covers the table (0001).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table app_user add column if not exists qq text;
    alter table app_user add column if not exists avatar text;
    alter table app_user add column if not exists language text;
    alter table app_user add column if not exists individuation_currency text;
    alter table app_user add column if not exists version integer not null default 1;
    alter table app_user add column if not exists updated_at timestamptz not null default now();
    create index if not exists app_user_by_type on app_user (tenant_id, company_user_type, id desc);
  `,
  )
}
