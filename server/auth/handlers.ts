import { sql, type Transaction } from 'kysely'
import type {
  AccountCodeRequest,
  CodeLogin,
  EmailBinding,
  MobileBinding,
  PasswordChange,
  PasswordLogin,
  PasswordReset,
  Registration,
  ResetCodeCommit,
  SmsCodeRequest,
  TokenExchange,
} from '../../generated/types.ts'
import type { DB } from '../db/schema.ts'
import { tally } from '../domain/analytics/rollup.ts'
import { knownCode } from '../domain/reference/known.ts'
import { type HandlerContext, type Session, sessionOf } from '../http/context.ts'
import type { HandlerRegistry } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import { now } from '../tenancy/clock.ts'
import { type Account, currentUserInfo, findAccount, findById, lockoutKey } from './accounts.ts'
import { type CodeScope, channelOf, checkCode, issueCode, normaliseTarget } from './codes.ts'
import { clearLoginFailures, forgetLoginFailure, lockKey, loginRefusal, recordLoginFailure } from './limits.ts'
import { hashPassword, verifyAgainstNobody, verifyPassword } from './password.ts'
import { runRegistrationHooks } from './registration.ts'
import { clearSessionCookie, hashSecret, newSecret, sendSession, startSession } from './tokens.ts'
import { shownPermissions } from './withheld.ts'

/** A handoff (SPEC §2 ?token= links) lives 60 seconds; a password reset ticket 10 minutes. */
export const HANDOFF_SECONDS = 60
export const RESET_TICKET_SECONDS = 600

/**
 * Runs work in the caller's tenant transaction and throws the refusal it answers only after the commit,
 * so what the refused attempt recorded (a failed login, a wrong try at a code) stays recorded.
 */
async function settle<T>(
  ctx: HandlerContext,
  work: (trx: Transaction<DB>) => Promise<T | ApiError>,
): Promise<Exclude<T, ApiError>> {
  const result = await ctx.inTenant(work)
  if (result instanceof ApiError) throw result
  return result as Exclude<T, ApiError>
}

function codeScope(ctx: HandlerContext, trx: Transaction<DB>): CodeScope {
  const { tenant, language } = ctx.request
  const siteName = String(
    (language === 'zh' ? tenant.settings.websiteName : tenant.settings.websiteNameEn) ||
      (language === 'zh' ? tenant.nameZh : tenant.nameEn),
  )
  return { trx, tenantId: tenant.id, ip: ctx.request.ip, language, siteName, log: ctx.request.log }
}

/** The answer to every way of signing in: SPEC §7's content, the token at the top level and as cookie. */
function signedIn(ctx: HandlerContext, token: string, account: Account) {
  return sendSession(ctx.request, ctx.reply, token, {
    checkRobotPass: true,
    username: account.username,
    userId: account.id,
  })
}

/** 300002 on a registration: the number has an account, whose owner should log in instead. */
class MobileRegistered extends ApiError {
  constructor() {
    super('300002')
  }
  override get key(): string {
    return 'error.mobileExistsLogin'
  }
}

const UNIQUE_VIOLATION = '23505'
/** The catalogue code of a duplicate account field, from the unique index it hit (migration 0001). */
const DUPLICATE_BY_INDEX: Record<string, '300010' | '300009' | '300002'> = {
  app_user_username: '300010',
  app_user_email: '300009',
  app_user_mobile: '300002',
}

/** A concurrent request won the race for a user name, e-mail or mobile number: answer what a check would have. */
function duplicateOf(error: unknown): ApiError | null {
  const e = error as { code?: string; constraint?: string; message?: string }
  if (e?.code !== UNIQUE_VIOLATION) return null
  for (const [index, code] of Object.entries(DUPLICATE_BY_INDEX))
    if (e.constraint === index || e.message?.includes(`"${index}"`)) return new ApiError(code)
  return null
}

export async function rethrowDuplicate<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw duplicateOf(error) ?? error
  }
}

/** Which catalogue code says "someone else already has this": per field. */
export async function takenBy(
  trx: Transaction<DB>,
  tenantId: number,
  fields: { username?: string; email?: string; mobile?: string },
  exceptUserId?: number,
): Promise<ApiError | null> {
  const checks = [
    ['username', fields.username, '300010'],
    ['email', fields.email, '300009'],
    ['mobile', fields.mobile, '300002'],
  ] as const
  for (const [column, value, code] of checks) {
    if (!value) continue
    // The same comparisons as the unique indexes of migration 0001: names and addresses without case.
    const stored = column === 'mobile' ? sql.ref('mobile') : sql`lower(${sql.ref(column)})`
    let query = trx
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(stored, '=', column === 'mobile' ? value : value.toLowerCase())
    if (exceptUserId !== undefined) query = query.where('id', '<>', exceptUserId)
    if (await query.executeTakeFirst()) return new ApiError(code)
  }
  return null
}

export async function revokeSessions(trx: Transaction<DB>, tenantId: number, userId: number, keepSessionId?: number) {
  let query = trx
    .updateTable('session')
    .set({ revoked_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
  if (keepSessionId !== undefined) query = query.where('id', '<>', keepSessionId)
  await query.execute()
}

/** Creates a handoff or reset ticket; only its hash is stored. */
async function issueTicket(
  trx: Transaction<DB>,
  tenantId: number,
  kind: 'handoff' | 'reset',
  userId: number,
  seconds: number,
): Promise<string> {
  const ticket = newSecret()
  await trx
    .insertInto('auth_ticket')
    .values({
      tenant_id: tenantId,
      kind,
      user_id: userId,
      token_hash: hashSecret(ticket),
      expires_at: sql<Date>`now() + make_interval(secs => ${seconds})`,
    })
    .execute()
  return ticket
}

/** Burns a live ticket and answers its user id; an unknown, used or expired ticket answers undefined. */
async function spendTicket(
  trx: Transaction<DB>,
  tenantId: number,
  kind: 'handoff' | 'reset',
  ticket: string,
): Promise<number | undefined> {
  const row = await trx
    .updateTable('auth_ticket')
    .set({ used_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('token_hash', '=', hashSecret(ticket))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst()
  return row?.user_id
}

/** Accounts and sessions: register, login, logout, current user, password reset… (SPEC §7 "User"). */
export const authHandlers: HandlerRegistry = {
  async sendRegisterSms(ctx) {
    const { key } = ctx.input as SmsCodeRequest
    // A number that already has an account gets its code too, and hears "mobile number exists" only once
    // the code is verified (userRegister): the answer here tells nobody whether it has one (issue #17, DECISIONS).
    await ctx.inTenant((trx) => issueCode(codeScope(ctx, trx), { target: key, purpose: 'register' }))
    return null
  },

  async userRegister(ctx) {
    // The agreement is ticked (`ticked: true` in schemas/registration.yaml): the body's validator refused it otherwise.
    const input = ctx.input as Registration
    const tenantId = ctx.request.tenant.id
    const email = input.email ? normaliseTarget(input.email) : null
    const passwordHash = await hashPassword(input.password)
    const user = await rethrowDuplicate(
      settle(ctx, async (trx) => {
        const taken = await takenBy(trx, tenantId, { username: input.username, email: email ?? undefined })
        if (taken) return taken
        const wrongCode = await checkCode(trx, tenantId, {
          target: input.mobile,
          purpose: 'register',
          code: input.code,
        })
        if (wrongCode) return wrongCode
        // Whether the number has an account is said only to whoever proved they receive its messages,
        // and tells them where to go: "already registered, please log in" (issue #21).
        const mobileTaken = await takenBy(trx, tenantId, { mobile: input.mobile })
        if (mobileTaken) return new MobileRegistered()
        const role = await trx
          .selectFrom('role')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('code', '=', 'PersonalUser')
          .executeTakeFirst()
        if (!role) {
          ctx.request.log.error({ tenantId }, 'registration: the tenant has no PersonalUser role')
          return new ApiError('300011')
        }
        if (input.region) await knownCode(trx, 'ref_country', input.region, 'region')
        // How they came (the register tally's dim1), kept on the user for UserPortrait's channel group.
        const channel = input.inviteCode ? 'invitation' : 'mobile'
        const created = await trx
          .insertInto('app_user')
          .values({
            tenant_id: tenantId,
            company_id: null,
            username: input.username,
            real_name: input.realName?.trim() || input.username,
            email,
            mobile: input.mobile,
            password_hash: passwordHash,
            company_user_type: 2,
            region: input.region ?? null,
            register_channel: channel,
            // The application's clock, as the registration's tally (and WAYBILL_NOW) counts it: UserPortrait counts
            // users registered by a window's end, so the two must agree.
            created_at: sql`${now().toISOString()}::timestamptz`,
          })
          .returning(['id', 'username'])
          .executeTakeFirstOrThrow()
        await trx
          .insertInto('user_role')
          .values({ tenant_id: tenantId, user_id: created.id, role_id: role.id })
          .execute()
        // What the registration brings along (input.inviteCode: the invitations module), in this transaction.
        // A refusal is thrown, not answered: the user, its role and the spent code roll back with it.
        const refused = await runRegistrationHooks({ trx, tenantId, userId: created.id, input })
        if (refused) throw refused
        await tally(trx, tenantId, {
          metric: 'register',
          dim1: channel,
          actor: `user:${created.id}`,
        })
        return created
      }),
    )
    return { userId: user.id, username: user.username }
  },

  async userLogin(ctx) {
    const { username, password } = ctx.input as PasswordLogin
    const typed = username.trim()
    const tenantId = ctx.request.tenant.id
    const ip = ctx.request.ip
    // The attempt is counted as a failure before the password is checked, and the check (tens of ms of argon2)
    // runs outside every transaction: on PGlite, where each transaction waits for the one before, a login held
    // everyone else up for its hash (issue #29). Counted first, concurrent attempts cannot verify more passwords
    // than the limits allow, as the key's lock alone ensured while the check ran inside it.
    const attempt = await settle(ctx, async (trx) => {
      const account = await findAccount(trx, tenantId, typed)
      const key = lockoutKey(account, typed)
      await lockKey(trx, `login:${tenantId}:${key}`)
      const refusal = await loginRefusal(trx, tenantId, key, ip, account?.id)
      if (refusal) return refusal
      return { account, key, failure: await recordLoginFailure(trx, tenantId, key, ip) }
    })
    const { account, key, failure } = attempt
    // An unknown account and a wrong password answer alike, in the same time (issue #17, finding 2).
    const right = account ? await verifyPassword(account.password_hash, password) : await verifyAgainstNobody(password)
    // A wrong password stays counted.
    if (!account || !right) throw new ApiError('300005')
    const token = await settle(ctx, async (trx) => {
      // Only the right password learns that the account is disabled; that attempt was no wrong password.
      if (account.state !== 1) {
        await forgetLoginFailure(trx, tenantId, failure)
        return new ApiError('300007')
      }
      await clearLoginFailures(trx, tenantId, key, ip)
      await tally(trx, tenantId, { metric: 'login', dim1: 'password', actor: `user:${account.id}` })
      return startSession(trx, tenantId, account.id, ctx.request)
    })
    return signedIn(ctx, token, account)
  },

  async sendLoginSms(ctx) {
    const { key } = ctx.input as SmsCodeRequest
    const tenantId = ctx.request.tenant.id
    await ctx.inTenant(async (trx) => {
      const account = await findAccount(trx, tenantId, key)
      const owns = !!account && account.mobile === key
      // Success either way, so the answer never tells whether a number has an account (issue #17, finding 2);
      // the limits count every request. A disabled account learns it only at codeLogin, after the code.
      await issueCode(codeScope(ctx, trx), {
        target: key,
        purpose: 'login',
        userId: owns ? account.id : null,
        deliver: owns,
      })
    })
    return null
  },

  async userCodeLogin(ctx) {
    const { key, code } = ctx.input as CodeLogin
    const tenantId = ctx.request.tenant.id
    const { token, account } = await settle(ctx, async (trx) => {
      const wrongCode = await checkCode(trx, tenantId, { target: key, purpose: 'login', code })
      if (wrongCode) return wrongCode
      const account = await findAccount(trx, tenantId, key)
      if (!account || account.mobile !== key) return new ApiError('300006')
      if (account.state !== 1) return new ApiError('300007')
      await tally(trx, tenantId, { metric: 'login', dim1: 'code', actor: `user:${account.id}` })
      return { token: await startSession(trx, tenantId, account.id, ctx.request), account }
    })
    return signedIn(ctx, token, account)
  },

  async userLogout(ctx) {
    const session = ctx.request.session
    if (session) {
      await ctx.inTenant((trx) =>
        trx
          .updateTable('session')
          .set({ revoked_at: sql<Date>`now()` })
          .where('tenant_id', '=', session.tenantId)
          .where('id', '=', session.sessionId)
          .where('revoked_at', 'is', null)
          .execute(),
      )
    }
    clearSessionCookie(ctx.request, ctx.reply)
    return null
  },

  async currentUserInfo(ctx) {
    const session = sessionOf(ctx)
    const found = await ctx.inTenant(async (trx) => {
      const account = await findById(trx, session.tenantId, session.userId)
      // The rest of the /personalInfo form (migration 0004), saved by changeUserInfo.
      const profile = await trx
        .selectFrom('app_user')
        .select(['avatar', 'language', 'individuation_currency', 'region'])
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', session.userId)
        .executeTakeFirst()
      // The menus follow what the organisation uses: an enterprise without FBA sees no FBA menu.
      const permissions = await shownPermissions(trx, session)
      return account && profile ? { account, profile, permissions } : undefined
    })
    if (!found) throw new ApiError('401')
    const { account, profile, permissions } = found
    return {
      ...currentUserInfo({ ...session, permissions }, account, ctx.request.tenant),
      avatar: profile.avatar,
      language: profile.language,
      individuationCurrency: profile.individuation_currency,
      region: profile.region,
    }
  },

  async createHandoff(ctx) {
    const session = sessionOf(ctx)
    const handoff = await ctx.inTenant((trx) =>
      issueTicket(trx, session.tenantId, 'handoff', session.userId, HANDOFF_SECONDS),
    )
    return { handoff, expiresIn: HANDOFF_SECONDS }
  },

  async exchangeToken(ctx) {
    const { handoff } = ctx.input as TokenExchange
    const tenantId = ctx.request.tenant.id
    const { token, account } = await settle(ctx, async (trx) => {
      const userId = await spendTicket(trx, tenantId, 'handoff', handoff)
      const account = userId === undefined ? undefined : await findById(trx, tenantId, userId)
      if (account?.state !== 1) return new ApiError('401')
      return { token: await startSession(trx, tenantId, account.id, ctx.request), account }
    })
    return signedIn(ctx, token, account)
  },

  async resetPasswordGetCode(ctx) {
    const query = ctx.input as AccountCodeRequest
    const target = normaliseTarget(query.account)
    const tenantId = ctx.request.tenant.id
    await ctx.inTenant(async (trx) => {
      const account = await findAccount(trx, tenantId, target)
      const owns =
        !!account &&
        (channelOf(target) === 'email' ? account.email?.toLowerCase() === target : account.mobile === target)
      // Success either way, so the answer never tells whether an account exists; the limits still count it.
      await issueCode(codeScope(ctx, trx), {
        target,
        purpose: 'reset',
        userId: owns ? account.id : null,
        deliver: owns && account.state === 1,
      })
    })
    return null
  },

  async resetPasswordCommitCode(ctx) {
    const input = ctx.input as ResetCodeCommit
    const target = normaliseTarget(input.account)
    const tenantId = ctx.request.tenant.id
    const ticket = await settle(ctx, async (trx) => {
      const wrongCode = await checkCode(trx, tenantId, { target, purpose: 'reset', code: input.code })
      if (wrongCode) return wrongCode
      const account = await findAccount(trx, tenantId, target)
      if (!account) return new ApiError(channelOf(target) === 'sms' ? '300004' : '300003')
      // One reset at a time: an earlier ticket dies with the new one.
      await trx
        .updateTable('auth_ticket')
        .set({ used_at: sql<Date>`now()` })
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'reset')
        .where('user_id', '=', account.id)
        .where('used_at', 'is', null)
        .execute()
      return issueTicket(trx, tenantId, 'reset', account.id, RESET_TICKET_SECONDS)
    })
    return { ticket, expiresIn: RESET_TICKET_SECONDS }
  },

  async resetPasswordReset(ctx) {
    const input = ctx.input as PasswordReset
    const tenantId = ctx.request.tenant.id
    const passwordHash = await hashPassword(input.password)
    await settle(ctx, async (trx) => {
      const userId = await spendTicket(trx, tenantId, 'reset', input.ticket)
      const account = userId === undefined ? undefined : await findById(trx, tenantId, userId)
      if (!account) return new ApiError('300003')
      await trx
        .updateTable('app_user')
        .set({ password_hash: passwordHash })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', account.id)
        .execute()
      await revokeSessions(trx, tenantId, account.id)
      // The unlock: a completed reset clears the account's failures from every address.
      await clearLoginFailures(trx, tenantId, lockoutKey(account, ''))
      return null
    })
    return null
  },

  async changePassword(ctx) {
    const session = sessionOf(ctx)
    const input = ctx.input as PasswordChange
    const account = await ctx.inTenant((trx) => findById(trx, session.tenantId, session.userId))
    if (!account || !(await verifyPassword(account.password_hash, input.oldPassword))) throw new ApiError('300005')
    const passwordHash = await hashPassword(input.newPassword)
    await ctx.inTenant(async (trx) => {
      await trx
        .updateTable('app_user')
        .set({ password_hash: passwordHash })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', session.userId)
        .execute()
      // Whoever else knew the old password is signed out; this session stays.
      await revokeSessions(trx, session.tenantId, session.userId, session.sessionId)
    })
    return null
  },

  async sendBindCode(ctx) {
    const session = sessionOf(ctx)
    const target = normaliseTarget((ctx.input as AccountCodeRequest).account)
    const email = channelOf(target) === 'email'
    await ctx.inTenant(async (trx) => {
      const taken = await takenBy(trx, session.tenantId, email ? { email: target } : { mobile: target }, session.userId)
      if (taken) throw taken
      await issueCode(codeScope(ctx, trx), { target, purpose: 'bind', userId: session.userId })
    })
    return null
  },

  async bindEmail(ctx) {
    const session = sessionOf(ctx)
    const input = ctx.input as EmailBinding
    const email = normaliseTarget(input.email)
    await rethrowDuplicate(bind(ctx, session, 'email', email, input.code))
    return { email }
  },

  async bindMobile(ctx) {
    const session = sessionOf(ctx)
    const input = ctx.input as MobileBinding
    const mobile = normaliseTarget(input.mobile)
    await rethrowDuplicate(bind(ctx, session, 'mobile', mobile, input.code))
    return { mobile }
  },
}

/** Sets the user's e-mail or mobile to a value the code proves they receive, unless another account has it. */
function bind(ctx: HandlerContext, session: Session, column: 'email' | 'mobile', value: string, code: string) {
  return settle(ctx, async (trx) => {
    const taken = await takenBy(trx, session.tenantId, { [column]: value }, session.userId)
    if (taken) return taken
    const wrongCode = await checkCode(trx, session.tenantId, {
      target: value,
      purpose: 'bind',
      code,
      userId: session.userId,
    })
    if (wrongCode) return wrongCode
    await trx
      .updateTable('app_user')
      .set(column === 'email' ? { email: value } : { mobile: value })
      .where('tenant_id', '=', session.tenantId)
      .where('id', '=', session.userId)
      .execute()
    return null
  })
}
