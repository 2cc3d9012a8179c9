import { type Kysely, sql } from 'kysely'
import { enableTenantIsolation } from './0001_core.ts'

/**
 * Shipment subscriptions tell each tracking event once (issue #22, server/domain/tracking/subscriptions.ts):
 * one row per (subscription, event) that has been told, written in the same transaction as the event and
 * its letters. A retry, a second writer or a bulk import that meets the same pair finds the key taken and
 * tells nobody again. No foreign keys: shipment_subscription and tracking_event are the engine's tables
 * (server/engine/storage.ts), made from the manifest after the migrations run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table shipment_notice (
      tenant_id integer not null references tenant(id) on delete cascade,
      subscription integer not null,
      event integer not null,
      at timestamptz not null default now(),
      primary key (tenant_id, subscription, event)
    )
  `.execute(db)
  await enableTenantIsolation(db, ['shipment_notice'])
}
