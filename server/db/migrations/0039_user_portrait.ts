import { type Kysely, sql } from 'kysely'

/**
 * UserPortrait (issue #28, server/domain/analytics/portrait.ts): where a personal user is (`region`, an ISO 3166
 * country code of the reference list ref_country, chosen at registration and in the profile) and how they came
 * (`register_channel`, the register tally's dim1: mobile, invitation…; null for accounts made before it was kept
 * or by an operator). The last sign-in is app_user.last_login_at (0001). Personal users — no company, enterprise
 * side — are the portrait's rows: an index over just them keeps its scans to them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table app_user add column if not exists region text`.execute(db)
  await sql`alter table app_user add column if not exists register_channel text`.execute(db)
  await sql`
    create index if not exists app_user_personal on app_user (tenant_id, id)
    where company_id is null and company_user_type = 2`.execute(db)
}
