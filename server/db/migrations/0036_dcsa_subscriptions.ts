import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * DCSA Track & Trace 2.2 event subscriptions (issue #29, screens/dcsaTnt.yaml): whose (the company, or null for
 * the forwarder's own desk), where to call back, the shared secret the notifications are signed with, and the
 * standard's filters as it sent them (jsonb: lists of codes and single references). Tenant-owned with
 * row-level security; the key leads with tenant_id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table dcsa_event_subscription (
      tenant_id int not null references tenant(id),
      id uuid not null,
      company int,
      created_by int,
      callback_url text not null,
      secret text not null,
      filters jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id)
    );
    create index dcsa_event_subscription_company on dcsa_event_subscription (tenant_id, company, created_at);
  `,
  )
  await enableTenantIsolation(db, ['dcsa_event_subscription'])
}
