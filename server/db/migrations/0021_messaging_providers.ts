import { type Kysely, sql } from 'kysely'
import { enableTenantIsolation } from './0001_core.ts'

/**
 * Per-tenant SMS and WeChat official-account settings (issue #22, server/jobs/providers/): one row per
 * tenant, what may be shown in `settings` (provider, ids, sign name, template ids, base URLs) and each
 * secret sealed on its own column (server/jobs/providers/settings.ts), never answered back. A user's
 * WeChat openid under the tenant's official account is a column of the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table tenant_messaging (
      tenant_id integer primary key references tenant(id) on delete cascade,
      settings jsonb not null default '{}'::jsonb,
      sms_secret_sealed text,
      wechat_secret_sealed text,
      version integer not null default 1,
      updated_at timestamptz not null default now()
    )
  `.execute(db)
  await enableTenantIsolation(db, ['tenant_messaging'])
  await sql`alter table app_user add column wechat_openid text`.execute(db)
  await sql`
    create unique index app_user_wechat_openid on app_user (tenant_id, wechat_openid) where wechat_openid is not null
  `.execute(db)
}
