import { randomInt } from 'node:crypto'
import { type SqlBool, sql } from 'kysely'
import { onRegistered, type RegistrationHook } from '../../auth/registration.ts'
import type { DerivationContext, EffectContext, EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { notifyEvent } from '../letters/events.ts'
import { contactNoticeCheck } from './contacts.ts'
import { fieldRefusal, joinCompany, redeemInvite } from './join.ts'
import { PROVIDER, REVIEW_PERMISSION } from './tables.ts'
import { visibleMembers, workAccountLeave, workAccountSwitch } from './workAccounts.ts'

/** Invite codes: 10 characters without the look-alikes (0/O, 1/I/L), about 50 bits. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 10
/** The longest an invite code lives: a year from today. */
const MAX_DAYS = 366

function newInviteCode(): string {
  let code = ''
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  return code
}

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

async function enterpriseCodeOf(context: DerivationContext | EffectContext, companyId: number) {
  const { rows } = await sql<{ join_code: string | null }>`
    select join_code from company where tenant_id = ${context.call.tenantId} and id = ${companyId}`.execute(context.trx)
  return rows[0]?.join_code ?? null
}

/** A new invite code of the administrator's enterprise: its code, link and the enterprise's code; today to a year on. */
async function inviteCodeIssue(context: DerivationContext): Promise<Record<string, unknown>> {
  if (context.before) return {}
  const { session } = context.call
  if (session.companyId === null || session.companyUserType === PROVIDER) throw new ApiError('310000')
  const today = await tenantDay(context.trx, context.call.tenantId, context.at)
  const until = String(context.data.validUntil)
  if (until < today) throw fieldRefusal('validUntil', 'membership.validUntilPast')
  if (until > addDays(today, MAX_DAYS)) throw fieldRefusal('validUntil', 'membership.validUntilTooFar')
  const code = newInviteCode()
  return {
    code,
    link: `/register?inviteCode=${code}`,
    enterpriseCode: await enterpriseCodeOf(context, session.companyId),
    usedCount: 0,
  }
}

/**
 * The enterprise a request to join names: its enterprise code, or its full name (Chinese or English, any case).
 * Unknown: "enterprise code not correct". Already a member, or already asking: said under the same field.
 */
async function joinRequestTarget(context: DerivationContext): Promise<Record<string, unknown>> {
  if (context.before) return {}
  const { trx, call } = context
  const { session, tenantId } = call
  if (session.companyUserType === PROVIDER) throw new ApiError('220000')
  const typed = String(context.data.enterpriseCode ?? '').trim()
  const { rows } = await sql<{ id: number }>`
    select id from company
    where tenant_id = ${tenantId} and company_type = 2
      and (join_code = ${typed.toUpperCase()} or lower(name) = ${typed.toLowerCase()}
        or lower(coalesce(name_en, '')) = ${typed.toLowerCase()})
    order by id limit 1`.execute(trx)
  const company = rows[0]?.id
  if (company === undefined) throw fieldRefusal('enterpriseCode', 'error.enterpriseCodeWrong')
  const member = await sql<{ n: number }>`
    select count(*)::int as n from company_member
    where tenant_id = ${tenantId} and "user" = ${session.userId} and company = ${company} and state <> 'left'`.execute(
    trx,
  )
  if (session.companyId === company || (member.rows[0]?.n ?? 0) > 0)
    throw fieldRefusal('enterpriseCode', 'membership.alreadyMember')
  const pending = await sql<{ n: number }>`
    select count(*)::int as n from join_request
    where tenant_id = ${tenantId} and created_by = ${session.userId} and company = ${company} and state = 'pending'`.execute(
    trx,
  )
  if ((pending.rows[0]?.n ?? 0) > 0) throw fieldRefusal('enterpriseCode', 'membership.requestAlreadyPending')
  return { company, enterpriseCode: typed }
}

/** Only an administrator of the enterprise asked decides (they may have asked to join another one themselves). */
function reviewerOf(context: EffectContext): void {
  if (context.after.company !== context.call.session.companyId) throw new ApiError('220000')
}

async function joinApproved(context: EffectContext): Promise<void> {
  reviewerOf(context)
  await joinCompany(context.trx, {
    tenantId: context.call.tenantId,
    userId: context.after.createdBy as number,
    companyId: context.after.company as number,
    via: 'request',
    actor: context.call.session.userId,
    field: 'state',
  })
}

async function joinReviewGuard(context: EffectContext): Promise<void> {
  reviewerOf(context)
}

/**
 * A request to join is told to those of the enterprise who review it (server/domain/letters/events.ts,
 * `joinRequest`), in the request's transaction: named by the requester's real name, else their username.
 */
async function joinRequestNotify(context: EffectContext): Promise<void> {
  const { trx, call } = context
  const requester = await trx
    .selectFrom('app_user')
    .select(['real_name', 'username'])
    .where('tenant_id', '=', call.tenantId)
    .where('id', '=', call.session.userId)
    .executeTakeFirst()
  await notifyEvent(trx, 'joinRequest', {
    tenantId: call.tenantId,
    record: { ...context.after, requester: requester?.real_name || requester?.username || '' },
    actor: call.session.userId,
  })
}

/**
 * A registration with an invite code (`/register?inviteCode=`): a valid code makes the new user a member of its
 * enterprise in the registration's transaction; an invalid, revoked, expired or used-up one is thrown as the
 * field's refusal, so the user, its role and the spent SMS code roll back with it.
 */
const redeemAtRegistration: RegistrationHook = async ({ trx, tenantId, userId, input }) => {
  if (input.inviteCode)
    await redeemInvite(trx, { tenantId, userId, actor: userId, code: input.inviteCode, field: 'inviteCode' })
  return null
}

/** Membership (issue #21): invite codes, requests to join, work accounts and their visibility, contacts. */
export function register(engine: EngineRegistry): void {
  onRegistered(redeemAtRegistration)
  engine.derivation('inviteCodeIssue', inviteCodeIssue)
  engine.derivation('joinRequestTarget', joinRequestTarget)
  engine.derivation('contactNoticeCheck', contactNoticeCheck)
  engine.effect('joinApproved', joinApproved)
  engine.effect('joinRequestNotify', joinRequestNotify)
  engine.effect('joinReviewGuard', joinReviewGuard)
  engine.effect('workAccountSwitch', workAccountSwitch)
  engine.effect('workAccountLeave', workAccountLeave)

  // An active code past its day reads expired, one whose uses are spent usedUp, on the tenant's calendar.
  engine.computedState('inviteCode', async ({ trx, call, table, at }) => {
    const today = await tenantDay(trx, call.tenantId, at)
    const column = (name: string) => sql.ref(`${table}.${name}`)
    return sql<string>`case
      when ${column('state')} = 'active' and ${column('valid_until')} < ${today}::date then 'expired'
      when ${column('state')} = 'active' and coalesce(${column('used_count')}, 0) >= ${column('max_uses')} then 'usedUp'
      else ${column('state')} end`
  })
  engine.listOrder('inviteCode', { field: 'createdAt', order: 'desc' })

  // A requester sees their own requests; the enterprise's reviewers see the requests to join it.
  engine.visibility('joinRequest', ({ call, table }) => {
    const { session } = call
    if (session.companyUserType === PROVIDER) return [sql<SqlBool>`false`]
    const own = sql<SqlBool>`${sql.ref(`${table}.created_by`)} = ${session.userId}`
    if (session.companyId === null || !session.permissions.has(REVIEW_PERMISSION)) return [own]
    return [sql<SqlBool>`(${own} or ${sql.ref(`${table}.company`)} = ${session.companyId})`]
  })
  engine.listOrder('joinRequest', { field: 'createdAt', order: 'desc' })

  // Account visibility (SPEC §6, docs/DECISIONS.md): whole network, inside the enterprise, not public.
  engine.visibility('companyMember', ({ call, table }) => visibleMembers(table, call.session))
}
