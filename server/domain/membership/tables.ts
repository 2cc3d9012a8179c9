import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'

/**
 * The tables of issue #21's membership work: the engine keeps them for schemas/companyMember.yaml,
 * inviteCode.yaml and joinRequest.yaml (server/engine/storage.ts); this area writes the rows the engine's own
 * calls do not (a membership is never created by a create call). company.join_code is migration 0018's.
 */
export const MEMBER_TABLE = 'company_member'
export const INVITE_TABLE = 'invite_code'

type DynamicDB = Record<string, Record<string, unknown>>
export const dynamic = (trx: Transaction<DB> | Kysely<DB>) => trx as unknown as Kysely<DynamicDB>

/** SPEC §6 companyUserType: 1 provider side (the forwarder's operators), 2 enterprise side. */
export const PROVIDER = 1
export const ENTERPRISE = 2

/** The preset roles a join hands out and the one whose last holder may not leave (screens/access.yaml). */
export const MEMBER_ROLE = 'EnterpriseOperation'
export const ADMIN_ROLE = 'EnterpriseAdministrator'
export const PERSONAL_ROLE = 'PersonalUser'

/** SPEC §6 account visibility (schemas/companyMember.yaml): 1 whole network, 2 inside the enterprise, 3 not public. */
export const NETWORK = 1
export const INSIDE = 2

/** The permission of the enterprise administrators who invite and review (screens/access.yaml). */
export const REVIEW_PERMISSION = 'enterpriseInvite'

export const ref = (table: string, column: string) => sql.ref(`${table}.${column}`)

export async function roleId(trx: Transaction<DB>, tenantId: number, code: string): Promise<number | undefined> {
  const row = await trx
    .selectFrom('role')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('code', '=', code)
    .executeTakeFirst()
  return row?.id
}

/** The ids of the roles a user holds now (user_role): what their bound work account carries. */
export async function heldRoles(trx: Transaction<DB>, tenantId: number, userId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('user_role')
    .select('role_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('role_id')
    .execute()
  return rows.map((r) => r.role_id)
}

/** Gives a user exactly these roles (those of them that still exist in the tenant). */
export async function setRoles(trx: Transaction<DB>, tenantId: number, userId: number, roles: readonly number[]) {
  await trx.deleteFrom('user_role').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute()
  if (!roles.length) return
  const existing = await trx
    .selectFrom('role')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...roles])
    .execute()
  if (!existing.length) return
  await trx
    .insertInto('user_role')
    .values(existing.map((r) => ({ tenant_id: tenantId, user_id: userId, role_id: r.id })))
    .execute()
}

/** Binds a user to an enterprise (or to none: a personal user) with exactly these roles: what their session acts for. */
export async function bindUser(
  trx: Transaction<DB>,
  tenantId: number,
  userId: number,
  companyId: number | null,
  roles: readonly number[],
) {
  await trx
    .updateTable('app_user')
    .set({ company_id: companyId, company_user_type: ENTERPRISE })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute()
  await setRoles(trx, tenantId, userId, roles)
}
