import { type SqlBool, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { writeAudit } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { now, tenantDay } from '../../tenancy/clock.ts'
import {
  bindUser,
  dynamic,
  heldRoles,
  INSIDE,
  INVITE_TABLE,
  MEMBER_ROLE,
  MEMBER_TABLE,
  PROVIDER,
  ref,
  roleId,
} from './tables.ts'

/**
 * Joining an enterprise (issue #21): by an invite code (at registration or confirmed later) or by an approved
 * request. Everything runs in the caller's transaction, so a refusal anywhere leaves nothing written.
 */

export interface MemberRow {
  id: number
  user: number
  company: number
  state: string
  roles: number[]
  version: number
}

const MEMBER_COLUMNS = sql`id, user as "user", company, state, coalesce(roles, '[]'::jsonb) as roles, version`

export async function memberRow(
  trx: Transaction<DB>,
  tenantId: number,
  where: { id?: number; user?: number; company?: number; state?: string },
): Promise<MemberRow | undefined> {
  const conditions = [sql<SqlBool>`tenant_id = ${tenantId}`]
  if (where.id !== undefined) conditions.push(sql<SqlBool>`id = ${where.id}`)
  if (where.user !== undefined) conditions.push(sql<SqlBool>`"user" = ${where.user}`)
  if (where.company !== undefined) conditions.push(sql<SqlBool>`company = ${where.company}`)
  if (where.state !== undefined) conditions.push(sql<SqlBool>`state = ${where.state}`)
  const { rows } = await sql<MemberRow>`select ${MEMBER_COLUMNS} from company_member
    where ${sql.join(conditions, sql` and `)} order by id for update`.execute(trx)
  return rows[0]
}

async function audited(
  trx: Transaction<DB>,
  tenantId: number,
  actor: number,
  recordId: number,
  entry: { action: 'create' | 'transition'; transition?: string; before: unknown; after: unknown },
) {
  await writeAudit(trx, {
    tenantId,
    userId: actor,
    entity: 'companyMember',
    recordId,
    action: entry.action,
    ...(entry.transition ? { transition: entry.transition } : {}),
    before: entry.before as Record<string, unknown> | null,
    after: entry.after as Record<string, unknown> | null,
  })
}

async function enterpriseCodeOf(trx: Transaction<DB>, tenantId: number, companyId: number): Promise<string | null> {
  const { rows } = await sql<{ join_code: string | null }>`
    select join_code from company where tenant_id = ${tenantId} and id = ${companyId}`.execute(trx)
  return rows[0]?.join_code ?? null
}

/** Inserts a membership row (written here only: a work account is never created by a create call). */
async function insertMember(
  trx: Transaction<DB>,
  tenantId: number,
  actor: number,
  values: { user: number; company: number; state: string; roles: number[]; via: string },
): Promise<number> {
  const at = now()
  const row = {
    tenant_id: tenantId,
    user: values.user,
    company: values.company,
    enterprise_code: await enterpriseCodeOf(trx, tenantId, values.company),
    roles: JSON.stringify(values.roles),
    visibility: INSIDE,
    joined_via: values.via,
    state: values.state,
    version: 1,
    created_by: actor,
    created_at: at,
    updated_at: at,
  }
  const inserted = await dynamic(trx).insertInto(MEMBER_TABLE).values(row).returning('id').executeTakeFirstOrThrow()
  const id = Number(inserted.id)
  await audited(trx, tenantId, actor, id, {
    action: 'create',
    before: null,
    after: { user: values.user, company: values.company, state: values.state, roles: values.roles },
  })
  return id
}

export async function setMember(
  trx: Transaction<DB>,
  tenantId: number,
  actor: number,
  before: MemberRow,
  change: { state?: string; roles?: number[] },
  transition?: string,
): Promise<void> {
  await dynamic(trx)
    .updateTable(MEMBER_TABLE)
    .set({
      ...(change.state ? { state: change.state } : {}),
      ...(change.roles ? { roles: JSON.stringify(change.roles) } : {}),
      version: sql`version + 1`,
      updated_at: now(),
    })
    .where(sql<SqlBool>`${ref(MEMBER_TABLE, 'id')} = ${before.id}`)
    .where(sql<SqlBool>`${ref(MEMBER_TABLE, 'tenant_id')} = ${tenantId}`)
    .execute()
  await audited(trx, tenantId, actor, before.id, {
    action: 'transition',
    ...(transition ? { transition } : {}),
    before: { state: before.state, roles: before.roles },
    after: { state: change.state ?? before.state, roles: change.roles ?? before.roles },
  })
}

interface UserRow {
  id: number
  company_id: number | null
  company_user_type: number
}

export async function lockUser(trx: Transaction<DB>, tenantId: number, userId: number): Promise<UserRow | undefined> {
  return trx
    .selectFrom('app_user')
    .select(['id', 'company_id', 'company_user_type'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst()
}

/**
 * The work account of a user bound to an enterprise before work accounts existed (the seed's users, an
 * enterprise certified by its applicant): written the first time their memberships are read or changed.
 */
export async function ensureBoundMember(trx: Transaction<DB>, tenantId: number, userId: number): Promise<void> {
  const user = await lockUser(trx, tenantId, userId)
  if (!user || user.company_id === null || user.company_user_type === PROVIDER) return
  const found = await memberRow(trx, tenantId, { user: userId, company: user.company_id })
  if (found?.state === 'current') return
  if (found) {
    await setMember(trx, tenantId, userId, found, { state: 'current' })
    return
  }
  await insertMember(trx, tenantId, userId, {
    user: userId,
    company: user.company_id,
    state: 'current',
    roles: await heldRoles(trx, tenantId, userId),
    via: 'bound',
  })
}

/** A refusal under the field the caller typed (the invite code, the enterprise code). */
export const fieldRefusal = (field: string, message: string, params: Record<string, unknown> = {}) =>
  new ApiError('validation', {}, [{ field, message, params }])

/**
 * Makes a user a member of an enterprise (companyUserType 2, preset role EnterpriseOperation). A user bound to
 * no enterprise is bound to this one at once; one who already acts for another keeps it and may switch.
 * `field` names where a refusal shows. Answers the membership's id.
 */
export async function joinCompany(
  trx: Transaction<DB>,
  join: {
    tenantId: number
    userId: number
    companyId: number
    via: 'invite' | 'request'
    actor: number
    field: string
  },
): Promise<number> {
  const { tenantId, userId, companyId } = join
  await ensureBoundMember(trx, tenantId, userId)
  const user = await lockUser(trx, tenantId, userId)
  if (!user) throw new ApiError('404')
  // The forwarder's own staff do not join their customers.
  if (user.company_user_type === PROVIDER) throw new ApiError('220000')
  const memberRole = await roleId(trx, tenantId, MEMBER_ROLE)
  if (memberRole === undefined) throw new ApiError('310000')
  const existing = await memberRow(trx, tenantId, { user: userId, company: companyId })
  if (existing && existing.state !== 'left') throw fieldRefusal(join.field, 'membership.alreadyMember')
  const bindNow = user.company_id === null
  const state = bindNow ? 'current' : 'other'
  let id: number
  if (existing) {
    await setMember(trx, tenantId, join.actor, existing, { state, roles: [memberRole] }, 'rejoin')
    id = existing.id
  } else {
    id = await insertMember(trx, tenantId, join.actor, {
      user: userId,
      company: companyId,
      state,
      roles: [memberRole],
      via: join.via,
    })
  }
  if (bindNow) await bindUser(trx, tenantId, userId, companyId, [memberRole])
  return id
}

interface InviteRow {
  id: number
  company: number
  state: string
  valid_until: string
  max_uses: number
  used_count: number
  version: number
}

/**
 * The enterprise a live invite code belongs to, the code locked for this transaction. An unknown, revoked,
 * expired (past its day, the tenant's calendar) or spent code answers "invalid invite code" under `field`.
 */
export async function liveInvite(trx: Transaction<DB>, tenantId: number, code: string, field: string) {
  const typed = code.trim().toUpperCase()
  const { rows } = await sql<InviteRow>`
    select id, company, state, to_char(valid_until, 'YYYY-MM-DD') as valid_until, max_uses,
      coalesce(used_count, 0) as used_count, version
    from invite_code where tenant_id = ${tenantId} and code = ${typed} for update`.execute(trx)
  const invite = rows[0]
  const today = await tenantDay(trx, tenantId)
  if (invite?.state !== 'active' || invite.valid_until < today || invite.used_count >= invite.max_uses)
    throw fieldRefusal(field, 'error.inviteCodeInvalid')
  return invite
}

/** Spends one use of a live invite code and joins the user to its enterprise; answers the membership's id. */
export async function redeemInvite(
  trx: Transaction<DB>,
  redeem: { tenantId: number; userId: number; actor: number; code: string; field: string },
): Promise<number> {
  const invite = await liveInvite(trx, redeem.tenantId, redeem.code, redeem.field)
  const id = await joinCompany(trx, {
    tenantId: redeem.tenantId,
    userId: redeem.userId,
    companyId: invite.company,
    via: 'invite',
    actor: redeem.actor,
    field: redeem.field,
  })
  await dynamic(trx)
    .updateTable(INVITE_TABLE)
    .set({ used_count: sql`coalesce(used_count, 0) + 1`, version: sql`version + 1`, updated_at: now() })
    .where(sql<SqlBool>`${ref(INVITE_TABLE, 'id')} = ${invite.id}`)
    .where(sql<SqlBool>`${ref(INVITE_TABLE, 'tenant_id')} = ${redeem.tenantId}`)
    .execute()
  await writeAudit(trx, {
    tenantId: redeem.tenantId,
    userId: redeem.actor,
    entity: 'inviteCode',
    recordId: invite.id,
    action: 'update',
    remark: 'used',
    before: { usedCount: invite.used_count },
    after: { usedCount: invite.used_count + 1, member: redeem.userId },
  })
  return id
}
