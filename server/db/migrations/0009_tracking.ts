import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Cargo-tracking lookups, one row per search: the per-IP rate limit (searches a minute) and the visitor
 * allowance (numbers a day per visitor address, SPEC §6) are counted from these rows, so every replica
 * sees the same numbers. The shipment and tracking_event tables come from schemas/ (engine storage); a
 * user's own search history is a user_setting row (migration 0008).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table tracking_lookup (
      tenant_id int not null references tenant(id),
      id bigint generated always as identity primary key,
      ip text not null,
      user_id int references app_user(id) on delete set null,
      numbers int not null,
      at timestamptz not null default now()
    );
    create index tracking_lookup_ip on tracking_lookup (tenant_id, ip, at);
  `,
  )
  await enableTenantIsolation(db, ['tracking_lookup'])
}
