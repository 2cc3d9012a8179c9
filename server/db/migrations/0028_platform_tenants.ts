import { type Kysely, sql } from 'kysely'
import { runStatements } from './0001_core.ts'

/**
 * Platform tenants (issue #25): the platform administrator makes, changes, suspends and resumes tenants.
 *
 * The API's role (`waybill_app`) may only read `tenant` and `tenant_domain`, and keeps that: it gets no write
 * grant on them and no role that bypasses row-level security. The platform writes them through three functions
 * that run as the tables' owner (SECURITY DEFINER) and do exactly one thing each; each first checks that the
 * transaction's tenant (`app.tenant_id`, set by withTenant) is a platform tenant (`tenant.platform`) and that the
 * caller named is an enabled user of it holding walltechAdmin through an enabled role, and each writes its audit
 * row (`tenant_change`) in the same transaction. The change log is read through a fourth such function; the
 * API's role has no grant on the table itself, and its rows are the acting platform tenant's (forced row-level
 * security on `actor_tenant_id`, which binds the functions' owner too on PostgreSQL). docs/SECURITY.md "Platform tenants".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table tenant add column platform boolean not null default false;
    alter table tenant add column version_no int not null default 1;
    create table tenant_change (
      id serial primary key,
      tenant_id int not null references tenant(id),
      actor_tenant_id int not null references tenant(id),
      actor_user_id int not null,
      action text not null check (action in ('create', 'update')),
      before jsonb,
      after jsonb not null,
      at timestamptz not null default now()
    );
    create index tenant_change_tenant on tenant_change (tenant_id, id);
    alter table tenant_change enable row level security;
    alter table tenant_change force row level security;
    create policy platform_isolation on tenant_change
      using (actor_tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
      with check (actor_tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
  `,
  )
  // The check every function starts with; raises 42501 (insufficient privilege) otherwise.
  await sql`
    create function platform_actor(actor int) returns int
    language plpgsql security definer set search_path = public, pg_temp as $$
    declare home int := nullif(current_setting('app.tenant_id', true), '')::int;
    begin
      if home is null or not exists (
        select 1 from tenant t
          join app_user u on u.tenant_id = t.id and u.id = actor and u.state = 1
          join user_role ur on ur.tenant_id = t.id and ur.user_id = u.id
          join role r on r.tenant_id = t.id and r.id = ur.role_id and r.status = 1
        where t.id = home and t.platform and t.state = 1 and r.permissions ? 'walltechAdmin'
      ) then
        raise exception 'platform: user % of tenant % is no platform administrator', actor, home using errcode = '42501';
      end if;
      return home;
    end $$
  `.execute(db)
  await sql`
    create function platform_tenant_row(p_id int) returns jsonb
    language sql stable security definer set search_path = public, pg_temp as $$
      select jsonb_build_object('code', t.code, 'nameZh', t.name_zh, 'nameEn', t.name_en, 'version', t.version,
        'state', t.state, 'settings', t.settings,
        'domains', coalesce((select jsonb_agg(d.domain order by d.domain) from tenant_domain d where d.tenant_id = t.id), '[]'))
      from tenant t where t.id = p_id
    $$
  `.execute(db)
  await sql`
    create function platform_tenant_create(actor int, p_code text, p_name_zh text, p_name_en text, p_version text,
      p_settings jsonb, p_domains text[]) returns int
    language plpgsql security definer set search_path = public, pg_temp as $$
    declare home int := platform_actor(actor); created int;
    begin
      insert into tenant (code, name_zh, name_en, version, settings, state)
        values (p_code, p_name_zh, p_name_en, p_version, p_settings, 1) returning id into created;
      insert into tenant_domain (domain, tenant_id) select lower(d), created from unnest(p_domains) d;
      insert into tenant_change (tenant_id, actor_tenant_id, actor_user_id, action, before, after)
        values (created, home, actor, 'create', null, platform_tenant_row(created));
      return created;
    end $$
  `.execute(db)
  await sql`
    create function platform_tenant_update(actor int, p_id int, p_version_no int, p_name_zh text, p_name_en text, p_version text,
      p_state smallint, p_settings jsonb, p_domains text[]) returns void
    language plpgsql security definer set search_path = public, pg_temp as $$
    declare home int := platform_actor(actor); was jsonb;
    begin
      select platform_tenant_row(id) into was from tenant where id = p_id for update;
      if was is null then raise exception 'platform: no tenant %', p_id using errcode = 'P0002'; end if;
      -- Changed by someone else since the caller read it (the API answers 330002).
      if (select version_no from tenant where id = p_id) <> p_version_no then
        raise exception 'platform: tenant % is not at version %', p_id, p_version_no using errcode = 'WB001';
      end if;
      if p_id = home and p_state <> 1 then
        raise exception 'platform: the platform tenant cannot be suspended' using errcode = 'WB002';
      end if;
      update tenant set name_zh = p_name_zh, name_en = p_name_en, version = p_version, state = p_state,
        settings = p_settings, version_no = version_no + 1, updated_at = now() where id = p_id;
      delete from tenant_domain where tenant_id = p_id and domain <> all (select lower(d) from unnest(p_domains) d);
      insert into tenant_domain (domain, tenant_id) select lower(d), p_id from unnest(p_domains) d
        on conflict (domain) do update set tenant_id = excluded.tenant_id where tenant_domain.tenant_id = p_id;
      if (select count(*) from tenant_domain where tenant_id = p_id) <> cardinality(p_domains) then
        raise exception 'platform: a domain belongs to another tenant' using errcode = '23505';
      end if;
      insert into tenant_change (tenant_id, actor_tenant_id, actor_user_id, action, before, after)
        values (p_id, home, actor, 'update', was, platform_tenant_row(p_id));
    end $$
  `.execute(db)
  await sql`
    create function platform_tenant_log(actor int, p_id int)
      returns table (id int, action text, actor_user_id int, before jsonb, after jsonb, at timestamptz)
    language plpgsql stable security definer set search_path = public, pg_temp as $$
    begin
      perform platform_actor(actor);
      return query select c.id, c.action, c.actor_user_id, c.before, c.after, c.at
        from tenant_change c where c.tenant_id = p_id order by c.id desc limit 100;
    end $$
  `.execute(db)
  for (const fn of [
    'platform_actor(int)',
    'platform_tenant_row(int)',
    'platform_tenant_create(int, text, text, text, text, jsonb, text[])',
    'platform_tenant_update(int, int, int, text, text, text, smallint, jsonb, text[])',
    'platform_tenant_log(int, int)',
  ]) {
    await sql.raw(`revoke all on function ${fn} from public`).execute(db)
    if (fn !== 'platform_tenant_row(int)' && fn !== 'platform_actor(int)')
      await sql.raw(`grant execute on function ${fn} to waybill_app`).execute(db)
  }
}
