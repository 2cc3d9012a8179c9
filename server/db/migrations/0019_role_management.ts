import { type Kysely, sql } from 'kysely'

/**
 * Role management (issue #21): a role gets its side (1 the operator's, 2 the client enterprises'), a group
 * (a roleGroup row, kept by the engine: no foreign key to a table the migrations do not own), a responsible
 * branch, personalised settings, and the version and times every managed record has (330002 on a stale
 * save). Status (1 enabled, 0 disabled) and data scope exist since 0001; the session lookup (0012) already
 * grants nothing from a disabled role.
 *
 * The preset roles' side is set at start from screens/access.yaml (syncPresetRoles); a custom role is on the
 * operator side when an operator holds it, else on the enterprise side, as server/domain/accounts read it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table role
      add column company_user_type smallint not null default 2 check (company_user_type in (1, 2)),
      add column group_id integer,
      add column branch text,
      add column personalization text,
      add column version integer not null default 1,
      add column created_at timestamptz not null default now(),
      add column updated_at timestamptz not null default now()
  `.execute(db)
  await sql`
    update role r set company_user_type = 1
    where not r.preset and exists (
      select 1 from user_role ur join app_user u on u.id = ur.user_id and u.tenant_id = ur.tenant_id
      where ur.tenant_id = r.tenant_id and ur.role_id = r.id and u.company_user_type = 1)
  `.execute(db)
  // The users of a role, counted by the role list and checked before a delete.
  await sql`create index if not exists user_role_by_role on user_role (tenant_id, role_id)`.execute(db)
}
