import { type Kysely, sql } from 'kysely'

/**
 * The session of a request in one round trip (issue #9): every signed-in call looks its token up, and the
 * transaction around that lookup (begin, tenant and role, the query, commit) was four round trips of the
 * dozen a list call made. This function sets the tenant and the row-level-security role for the statement
 * that calls it (set_config local: they end with the statement's own transaction) and answers the session,
 * its user and the user's roles in use, and the tenant's newest screen-overlay row (overlays are only ever
 * added: while it stays, the overlays read before still hold, server/overlays/enforce.ts). It is called
 * outside any transaction (server/auth/session.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function waybill_session(p_tenant int, p_token_hash text, p_touch_seconds int)
    returns table (
      session_id int, user_id int, username text, real_name text, company_id int, company_user_type smallint,
      stale boolean, roles json, overlay_stamp bigint
    )
    language plpgsql as $$
    begin
      perform set_config('app.tenant_id', p_tenant::text, true);
      perform set_config('role', 'waybill_app', true);
      return query
        select s.id, u.id, u.username, u.real_name, u.company_id, u.company_user_type,
          s.last_seen_at < now() - make_interval(secs => p_touch_seconds),
          coalesce((
            select json_agg(json_build_object('code', r.code, 'permissions', r.permissions, 'data_scope', r.data_scope)
              order by r.code)
            from user_role ur join role r on r.id = ur.role_id
            where ur.tenant_id = p_tenant and ur.user_id = u.id and r.status = 1), '[]'::json),
          (select coalesce(max(o.id), 0) from screen_overlay o where o.tenant_id = p_tenant)
        from session s join app_user u on u.id = s.user_id
        where s.tenant_id = p_tenant and s.token_hash = p_token_hash and s.revoked_at is null
          and s.expires_at > now() and u.state = 1;
    end $$
  `.execute(db)
  await sql`create index if not exists screen_overlay_newest on screen_overlay (tenant_id, id)`.execute(db)
}
