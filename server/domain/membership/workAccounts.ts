import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EffectContext } from '../../engine/index.ts'
import type { Session } from '../../http/context.ts'
import { ApiError } from '../../http/errors.ts'
import { ensureBoundMember, lockUser, type MemberRow, memberRow, setMember } from './join.ts'
import {
  ADMIN_ROLE,
  bindUser,
  heldRoles,
  MEMBER_ROLE,
  PERSONAL_ROLE,
  PROVIDER,
  REVIEW_PERMISSION,
  roleId,
} from './tables.ts'

/**
 * Switching and leaving work accounts (schemas/companyMember.yaml's switchTo and leave transitions). The engine
 * has already moved the chosen row's state and checked that the caller may see it; these effects check that it
 * is the caller's own and move the session's binding — app_user.company_id and user_role — with it, so the
 * next call acts for the enterprise chosen. Throwing undoes the whole call.
 */

function ownRow(context: EffectContext): { tenantId: number; userId: number; id: number; company: number } {
  const { call, after } = context
  // A colleague's account is visible inside the enterprise (account visibility), never theirs to switch.
  if (after.user !== call.session.userId) throw new ApiError('404')
  return {
    tenantId: call.tenantId,
    userId: call.session.userId,
    id: after.id as number,
    company: after.company as number,
  }
}

/** The roles a work account brings back when it is bound again: its own, or the member role if it has none. */
async function rolesOf(trx: Transaction<DB>, tenantId: number, row: MemberRow): Promise<number[]> {
  if (row.roles.length) return row.roles
  const member = await roleId(trx, tenantId, MEMBER_ROLE)
  return member === undefined ? [] : [member]
}

/** switchTo: the account left keeps the roles its user held there; the chosen one's become the user's. */
export async function workAccountSwitch(context: EffectContext): Promise<void> {
  const { trx } = context
  const { tenantId, userId, id } = ownRow(context)
  const target = (await memberRow(trx, tenantId, { id })) as MemberRow
  const bound = (await lockUser(trx, tenantId, userId)) as { company_id: number | null }
  if (bound.company_id !== null && bound.company_id !== target.company) {
    // The account left: written first if it predates work accounts, then set aside with the roles held there.
    await ensureBoundMember(trx, tenantId, userId)
    const left = await memberRow(trx, tenantId, { user: userId, company: bound.company_id })
    if (left)
      await setMember(
        trx,
        tenantId,
        userId,
        left,
        { state: 'other', roles: await heldRoles(trx, tenantId, userId) },
        'switchAway',
      )
  }
  await bindUser(trx, tenantId, userId, target.company, await rolesOf(trx, tenantId, target))
}

/** Whether a membership holds the administrator role: by user_role while bound, by its saved roles otherwise. */
async function administrators(trx: Transaction<DB>, tenantId: number, companyId: number, adminRole: number) {
  const { rows } = await sql<{ user: number }>`
    select m."user" from company_member m
    where m.tenant_id = ${tenantId} and m.company = ${companyId} and m.state = 'other'
      and m.roles @> ${JSON.stringify([adminRole])}::jsonb
    union
    select u.id from app_user u join user_role ur on ur.tenant_id = u.tenant_id and ur.user_id = u.id
    where u.tenant_id = ${tenantId} and u.company_id = ${companyId} and ur.role_id = ${adminRole}`.execute(trx)
  return rows.map((r) => Number(r.user))
}

/**
 * leave (SPEC's unbind): refused to the enterprise's last administrator (350003). Leaving the account the
 * session acts for binds the user to another of theirs, or makes them a personal user again.
 */
export async function workAccountLeave(context: EffectContext): Promise<void> {
  const { trx, before } = context
  const { tenantId, userId, company } = ownRow(context)
  const adminRole = await roleId(trx, tenantId, ADMIN_ROLE)
  if (adminRole !== undefined) {
    const admins = await administrators(trx, tenantId, company, adminRole)
    // The row already reads `left`: a bound administrator is still counted through user_role, so look for others.
    const others = admins.filter((user) => user !== userId)
    const wasAdmin =
      admins.includes(userId) ||
      (before?.state === 'other' && Array.isArray(before.roles) && before.roles.includes(adminRole))
    if (wasAdmin && others.length === 0) throw new ApiError('350003')
  }
  if (before?.state !== 'current') return
  const next = await memberRow(trx, tenantId, { user: userId, state: 'other' })
  if (next) {
    await setMember(trx, tenantId, userId, next, { state: 'current' }, 'switchTo')
    await bindUser(trx, tenantId, userId, next.company, await rolesOf(trx, tenantId, next))
    return
  }
  const personal = await roleId(trx, tenantId, PERSONAL_ROLE)
  await bindUser(trx, tenantId, userId, null, personal === undefined ? [] : [personal])
}

/**
 * Sessions that read their own work accounts only (SPEC's company user list, ./handlers.ts): the directory's
 * visibility does not apply to them. A copy of the caller's session is marked, never the request's own.
 */
export const ownAccountsOnly = new WeakSet<object>()

/** Rows of the caller's own memberships, and those the account visibility lets them see. */
export const visibleMembers = (table: string, session: Session): RawBuilder<SqlBool>[] => {
  const own = sql<SqlBool>`${sql.ref(`${table}.user`)} = ${session.userId}`
  if (ownAccountsOnly.has(session)) return [own]
  if (session.companyUserType === PROVIDER) return []
  const listed = sql<SqlBool>`${sql.ref(`${table}.state`)} <> 'left'`
  const network = sql<SqlBool>`${sql.ref(`${table}.visibility`)} = 1`
  if (session.companyId === null) return [sql<SqlBool>`(${own} or (${listed} and ${network}))`]
  const colleague = sql<SqlBool>`${sql.ref(`${table}.company`)} = ${session.companyId}`
  const inside = session.permissions.has(REVIEW_PERMISSION)
    ? colleague
    : sql<SqlBool>`(${colleague} and ${sql.ref(`${table}.visibility`)} in (1, 2))`
  return [sql<SqlBool>`(${own} or (${listed} and (${network} or ${inside})))`]
}
