import { type Kysely, sql } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * A day's distinct actors across a dimension's values (issue #28; docs/DECISIONS.md "Distinct users across
 * dimensions"): `analytics_daily`'s `actors` counts an actor once per (dim1, dim2) row only, so a customer who
 * ordered FCL and AIR the same day would be two ordering customers in a sum of rows. These keep the day's count:
 *
 * - `analytics_daily_total`: per tenant, metric and tenant-local day, the distinct actors over every value of
 *   both dimensions (`per` = 'day', dim1 ''), and over every dim2 value of each dim1 value (`per` = 'dim1').
 * - `analytics_daily_total_actor`: who was counted under each, so an actor counts once a day; pruned with
 *   `analytics_daily_actor` once the day is closed (server/domain/analytics/prune.ts), the counts staying.
 *
 * The existing actor rows are counted into the totals here, so the charts read the same figures as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table analytics_daily_total (
      tenant_id int not null references tenant(id),
      metric text not null,
      day date not null,
      per text not null check (per in ('day', 'dim1')),
      dim1 text not null default '',
      actors bigint not null default 0,
      primary key (tenant_id, metric, day, per, dim1)
    );

    create table analytics_daily_total_actor (
      tenant_id int not null references tenant(id),
      metric text not null,
      day date not null,
      per text not null check (per in ('day', 'dim1')),
      dim1 text not null default '',
      actor text not null,
      primary key (tenant_id, metric, day, per, dim1, actor)
    );
  `,
  )
  await enableTenantIsolation(db, ['analytics_daily_total', 'analytics_daily_total_actor'])
  // Tenant by tenant, as row-level security (forced, even on the owner) lets a tenant's rows be read and written.
  await sql
    .raw(`
    do $$ declare t int; begin
      for t in select id from tenant order by id loop
        perform set_config('app.tenant_id', t::text, false);
        insert into analytics_daily_total_actor (tenant_id, metric, day, per, dim1, actor)
        select tenant_id, metric, day, 'day', '', actor from analytics_daily_actor where tenant_id = t
        union
        select tenant_id, metric, day, 'dim1', dim1, actor from analytics_daily_actor where tenant_id = t;
        insert into analytics_daily_total (tenant_id, metric, day, per, dim1, actors)
        select tenant_id, metric, day, per, dim1, count(*) from analytics_daily_total_actor where tenant_id = t
        group by tenant_id, metric, day, per, dim1;
      end loop;
      perform set_config('app.tenant_id', '', false);
    end $$`)
    .execute(db)
}
