import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Analytics (issue #28): the page visits as posted (SPEC §3 "Page-visit record", one row each, kept for the
 * UserBehavior detail and re-computation), and the daily roll-ups every analytics call reads.
 *
 * - `analytics_daily`: one row per tenant, metric, tenant-local day and up to two dimensions (a page, a mode, a
 *   currency, a lane…), with the number of events, of distinct actors that day and a summed amount. Kept up to
 *   date in the transaction of each event (server/domain/analytics/rollup.ts), never by a nightly batch, so today
 *   is never empty.
 * - `analytics_daily_actor`: who was counted that day under a row, so `actors` (a day's UV) counts each once.
 *
 * Every key leads with tenant_id (issue #29's distribution by tenant), and every table has row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table page_visit (
      tenant_id int not null references tenant(id),
      id bigint generated always as identity,
      visitor uuid not null,
      user_id int,
      user_type smallint,
      company_id int,
      custom_company_id int,
      page_name text not null,
      page_route text not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, id)
    );
    create index page_visit_time on page_visit (tenant_id, created_at);

    create table analytics_daily (
      tenant_id int not null references tenant(id),
      metric text not null,
      day date not null,
      dim1 text not null default '',
      dim2 text not null default '',
      events bigint not null default 0,
      actors bigint not null default 0,
      amount numeric(20, 4) not null default 0,
      primary key (tenant_id, metric, day, dim1, dim2)
    );

    create table analytics_daily_actor (
      tenant_id int not null references tenant(id),
      metric text not null,
      day date not null,
      dim1 text not null default '',
      dim2 text not null default '',
      actor text not null,
      primary key (tenant_id, metric, day, dim1, dim2, actor)
    );
  `,
  )
  await enableTenantIsolation(db, ['page_visit', 'analytics_daily', 'analytics_daily_actor'])
}
