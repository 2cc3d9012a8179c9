import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Signed webhooks (issue #29). The endpoints themselves are an engine entity (schemas/webhookEndpoint.yaml,
 * table webhook_endpoint, made by server/engine/storage.ts); beside them:
 * - `webhook_secret`: each endpoint's signing secret, sealed (AES-256-GCM under WAYBILL_AUTH_SECRET), one row per
 *   endpoint, replaced when a new one is issued. Not an entity field, so no list or detail can ever answer it.
 * - `webhook_delivery`: one event for one endpoint — its id, type, time and the resource as the API showed it
 *   then (the body is made from it at each attempt, with a fresh timestamp), the outbox message that carries it
 *   (the newest, after a re-send) and what the receiver last answered. The delivery log reads it
 *   (schemas/webhookDelivery.yaml).
 * Both are tenant tables led by tenant_id with row-level security like their neighbours.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table webhook_secret (
      tenant_id int not null references tenant(id),
      endpoint int not null,
      sealed text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, endpoint)
    );
    create table webhook_delivery (
      tenant_id int not null references tenant(id),
      id serial,
      version int not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by int,
      endpoint int not null,
      company int not null,
      event_id uuid not null,
      event_type text not null,
      occurred_at timestamptz not null,
      data jsonb not null,
      outbox_id int,
      attempts int not null default 0,
      last_status int,
      last_attempt_at timestamptz,
      primary key (tenant_id, id)
    );
    create index webhook_delivery_endpoint on webhook_delivery (tenant_id, endpoint, id desc);
    create index webhook_delivery_company on webhook_delivery (tenant_id, company, id desc);
  `,
  )
  await enableTenantIsolation(db, ['webhook_secret', 'webhook_delivery'])
}
