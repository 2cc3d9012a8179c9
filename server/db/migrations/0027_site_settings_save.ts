import { type Kysely, sql } from 'kysely'

/**
 * The tenant's site settings saved from /operationSet (issue #25). The API's role may read the tenant table but
 * not write it (0001_core): this one function, run as its owner, changes the settings of the tenant the
 * transaction is set to (app.tenant_id) and no other row or column, and only at the version the caller read
 * (settings.settingsVersion), so two administrators saving at once cannot lose one another's change silently.
 * It answers whether it saved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function waybill_save_site_settings(next jsonb, expected integer) returns boolean
    language sql security definer set search_path = public as $$
      with saved as (
        update tenant set settings = next
        where id = nullif(current_setting('app.tenant_id', true), '')::int
          and coalesce((settings->>'settingsVersion')::int, 0) = expected
          and coalesce((next->>'settingsVersion')::int, 0) = expected + 1
        returning id)
      select exists (select 1 from saved)
    $$`.execute(db)
  await sql`revoke all on function waybill_save_site_settings(jsonb, integer) from public`.execute(db)
  await sql`grant execute on function waybill_save_site_settings(jsonb, integer) to waybill_app`.execute(db)
}
