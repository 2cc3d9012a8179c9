import { type Kysely, sql } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * UserPortrait's `asks` as a roll-up per user (issue #28; server/domain/analytics/portrait.ts, docs/DECISIONS.md
 * "UserPortrait"): one row per tenant, user and what they asked for — a mode they searched rates for (FCL, LCL,
 * AIR…) or `inquiry` — with the first and the last tenant-local day they did. Written in the transaction that
 * tallies the search or creates the inquiry (server/domain/analytics/events.ts), never pruned: it is bounded by
 * users × modes, where the rateQuery actor rows it replaces for the portrait grow by the day and are pruned once a
 * day is closed (so they could not answer a 30-day window anyway).
 *
 * Filled here from what is kept: the rateQuery actor rows still there (`user:<id>`, of users of the same tenant)
 * and every inquiry (by its creator, on its tenant's calendar). The inquiry table is the engine's (synced from the
 * manifest after the migrations), so a fresh database has none yet and nothing to fill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table analytics_user_ask (
      tenant_id int not null references tenant(id),
      user_id int not null references app_user(id) on delete cascade,
      mode text not null check (char_length(mode) between 1 and 40),
      first_day date not null,
      last_day date not null,
      primary key (tenant_id, user_id, mode),
      check (first_day <= last_day)
    );
  `,
  )
  await enableTenantIsolation(db, ['analytics_user_ask'])
  await fillUserAsks(db)
}

/** The fill from what is kept, on its own so a test can run it again on an emptied table. */
export async function fillUserAsks(db: Kysely<unknown>): Promise<void> {
  // Tenant by tenant, as row-level security (forced, even on the owner) lets a tenant's rows be read and written.
  await sql
    .raw(`
    do $$ declare t int; zone text; begin
      for t in select id from tenant order by id loop
        perform set_config('app.tenant_id', t::text, false);
        select coalesce((select z.name from pg_timezone_names z where z.name = tn.settings ->> 'timeZone'),
          'Asia/Shanghai') into zone from tenant tn where tn.id = t;
        insert into analytics_user_ask (tenant_id, user_id, mode, first_day, last_day)
        select a.tenant_id, u.id, a.dim1, min(a.day), max(a.day)
        from analytics_daily_actor a join app_user u on u.tenant_id = a.tenant_id and a.actor = 'user:' || u.id
        where a.tenant_id = t and a.metric = 'rateQuery' and char_length(a.dim1) between 1 and 40
        group by a.tenant_id, u.id, a.dim1;
        if to_regclass('public.inquiry') is not null then
          execute 'insert into analytics_user_ask (tenant_id, user_id, mode, first_day, last_day)
            select i.tenant_id, u.id, ''inquiry'', min((i.created_at at time zone $2)::date),
              max((i.created_at at time zone $2)::date)
            from inquiry i join app_user u on u.tenant_id = i.tenant_id and u.id = i.created_by
            where i.tenant_id = $1
            group by i.tenant_id, u.id' using t, zone;
        end if;
      end loop;
      perform set_config('app.tenant_id', '', false);
    end $$`)
    .execute(db)
}
