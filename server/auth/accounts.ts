import { sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Session } from '../http/context.ts'
import type { Tenant } from '../tenancy/resolve.ts'

export interface Account {
  id: number
  username: string
  real_name: string
  email: string | null
  mobile: string | null
  password_hash: string
  company_id: number | null
  company_user_type: number
  state: number
}

const ACCOUNT_COLUMNS = [
  'id',
  'username',
  'real_name',
  'email',
  'mobile',
  'password_hash',
  'company_id',
  'company_user_type',
  'state',
] as const

/** The account a login name points at: its user name or e-mail address (any case), or its mobile number. */
export async function findAccount(trx: Transaction<DB>, tenantId: number, login: string): Promise<Account | undefined> {
  return trx
    .selectFrom('app_user')
    .select(ACCOUNT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(username)`, '=', login.toLowerCase()),
        eb(sql`lower(email)`, '=', login.toLowerCase()),
        eb('mobile', '=', login),
      ]),
    )
    .orderBy('id')
    .executeTakeFirst()
}

export async function findById(trx: Transaction<DB>, tenantId: number, id: number): Promise<Account | undefined> {
  return trx
    .selectFrom('app_user')
    .select(ACCOUNT_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The key failed logins are counted under: the account's own user name, whatever the user typed to reach it. */
export function lockoutKey(account: Account | undefined, typed: string): string {
  return (account?.username ?? typed).toLowerCase()
}

export interface Access {
  roles: string[]
  permissions: string[]
  dataScope: 'all' | 'self'
}

/** A role as access is worked out from it. */
export interface RoleGrant {
  code: string
  permissions: string[] | null
  data_scope: string
}

/** The union of the roles' permissions, and 'all' if any of them sees every row. */
export function accessOf(roles: readonly RoleGrant[]): Access {
  const permissions = new Set<string>()
  for (const role of roles) for (const p of role.permissions ?? []) permissions.add(p)
  return {
    roles: roles.map((r) => r.code),
    permissions: [...permissions].sort(),
    dataScope: roles.some((r) => r.data_scope === 'all') ? 'all' : 'self',
  }
}

/**
 * Roles in use (status 1), the union of their permissions, and 'all' if any of them sees every row. The
 * request's session reads the same in its own query (waybill_session, migration 0012).
 */
export async function userAccess(trx: Transaction<DB>, tenantId: number, userId: number): Promise<Access> {
  const rows = await trx
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .select(['role.code', 'role.permissions', 'role.data_scope'])
    .where('user_role.tenant_id', '=', tenantId)
    .where('user_role.user_id', '=', userId)
    .where('role.status', '=', 1)
    .orderBy('role.code')
    .execute()
  return accessOf(rows)
}

/**
 * The session a user would have after logging in, without a login: for work the server does on a user's
 * behalf (the demo seed places its inquiries and quotes as the demo users) and for tests of the engine core.
 */
export async function sessionForUser(trx: Transaction<DB>, tenantId: number, username: string): Promise<Session> {
  const user = await trx
    .selectFrom('app_user')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('username', '=', username)
    .executeTakeFirstOrThrow()
  const access = await userAccess(trx, tenantId, user.id)
  return {
    sessionId: 0,
    userId: user.id,
    tenantId,
    username: user.username,
    realName: user.real_name,
    companyId: user.company_id,
    companyUserType: user.company_user_type,
    roles: access.roles,
    permissions: new Set(access.permissions),
    dataScope: access.dataScope,
  }
}

/**
 * The session user of SPEC §3 (never the token), plus the profile fields the /personalInfo form edits.
 * A user without roles gets roles: [] and the portal asks them to contact the administrator (SPEC §2).
 */
export function currentUserInfo(session: Session, account: Account, tenant: Tenant) {
  const settings = tenant.settings
  const logoList = Array.isArray(settings.logoList) ? (settings.logoList as { url?: string }[]) : []
  return {
    name: account.real_name,
    avatar: null,
    userInfo: {
      username: account.username,
      userId: account.id,
      companyUserType: account.company_user_type,
    },
    tenantInfo: {
      tenantId: tenant.id,
      code: tenant.code,
      websiteName: settings.websiteName ?? tenant.nameZh,
      websiteNameEn: settings.websiteNameEn ?? tenant.nameEn,
      name: tenant.nameZh,
      nameEn: tenant.nameEn,
      version: tenant.version,
      logo: logoList[0]?.url ?? null,
      themeColor: settings.themeColor ?? null,
      companyId: settings.companyId ?? null,
    },
    cusCompanyId: account.company_user_type === 2 ? account.company_id : null,
    roles: session.roles,
    permissions: [...session.permissions].sort(),
    dataScope: session.dataScope,
    currentUserInfo: {
      type: account.company_user_type,
      tenantId: tenant.id,
      name: account.real_name,
      logo: null,
      phone: account.mobile,
      mail: account.email,
      imUserDetailVO: { status: 1 },
    },
    // The /personalInfo form (entity userProfile).
    username: account.username,
    realName: account.real_name,
    email: account.email,
    mobile: account.mobile,
  }
}
