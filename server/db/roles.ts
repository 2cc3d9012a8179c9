import { type Kysely, sql } from 'kysely'

/**
 * On PostgreSQL the API connects as a role that is neither superuser nor BYPASSRLS and owns no tables,
 * so row-level security binds it even outside `withTenant()`. Migrations run as the owner.
 *
 * - `DATABASE_URL` alone, naming a superuser (a developer's local server, CI): the server migrates as that
 *   user, creates the login role `waybill_api` (member of `waybill_app`) and connects the API as it — with
 *   trust or peer authentication that needs no password.
 * - Production: `DATABASE_OWNER_URL` (migrations, seed) and `DATABASE_URL` (the API's own role, with a
 *   password). The server checks the API role and refuses to boot if it is unsafe.
 */
export const API_ROLE = 'waybill_api'

export interface RoleFacts {
  name: string
  superuser: boolean
  bypassRls: boolean
  ownedTables: number
}

export async function currentRole(db: Kysely<unknown>): Promise<RoleFacts> {
  const { rows } = await sql<RoleFacts>`
    select current_user as name, r.rolsuper as superuser, r.rolbypassrls as "bypassRls",
      (select count(*)::int from pg_tables t where t.tableowner = current_user) as "ownedTables"
    from pg_roles r where r.rolname = current_user
  `.execute(db)
  const role = rows[0]
  if (!role) throw new Error('cannot read the current database role')
  return role
}

/** Why a role must not run the API, or null when it may. */
export function unsafeBecause(role: RoleFacts): string | null {
  if (role.superuser) return `role ${role.name} is a superuser (row-level security does not bind it)`
  if (role.bypassRls) return `role ${role.name} has BYPASSRLS`
  if (role.ownedTables > 0)
    return `role ${role.name} owns ${role.ownedTables} table(s) (owners bypass non-forced policies and can alter them)`
  return null
}

/** Creates the API's login role (idempotent): a member of waybill_app, so `SET LOCAL ROLE waybill_app` works. */
export async function ensureApiRole(owner: Kysely<unknown>): Promise<void> {
  await sql`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'waybill_api') then
        create role waybill_api login nosuperuser nobypassrls nocreatedb nocreaterole;
      end if;
    -- Roles are cluster-wide: another server or test database may be making it at the same moment.
    exception when duplicate_object or unique_violation then null;
    end $$
  `.execute(owner)
  await sql`
    do $$ begin
      grant waybill_app to waybill_api;
    exception when duplicate_object or unique_violation then null;
    end $$
  `.execute(owner)
  const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(owner)
  await sql.raw(`grant connect on database "${rows[0]?.db}" to waybill_api`).execute(owner)
  await sql`grant usage on schema public to waybill_api`.execute(owner)
}

/** The API's URL: the owner's URL with the API role as user (and no password: trust or peer authentication). */
export function apiUrlFrom(ownerUrl: string): string {
  const url = new URL(ownerUrl)
  url.username = API_ROLE
  url.password = ''
  return url.toString()
}
