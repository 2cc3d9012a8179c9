import { type Kysely, sql } from 'kysely'

/**
 * Indexes for the login and code limits of issue #17 (server/auth/limits.ts, codes.ts): whether an account
 * signed in from an address before (sessions, revoked ones included), and how many codes a tenant sent in
 * the last hour.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index session_by_user_ip on session (tenant_id, user_id, ip, created_at)`.execute(db)
  await sql`create index verification_code_tenant on verification_code (tenant_id, created_at)`.execute(db)
}
