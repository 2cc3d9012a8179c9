import { randomInt } from 'node:crypto'
import { sql, type Transaction, type Updateable } from 'kysely'
import type { OperationAccount, UserProfile } from '../../../generated/types.ts'
import { normaliseTarget } from '../../auth/codes.ts'
import { rethrowDuplicate, revokeSessions, takenBy } from '../../auth/handlers.ts'
import { hashPassword } from '../../auth/password.ts'
import { currentDelivery } from '../../auth/sms.ts'
import type { DB, UserTable } from '../../db/schema.ts'
import { type ApiRow, changes, type EngineApi, writeAudit } from '../../engine/index.ts'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError, messageFor } from '../../http/errors.ts'
import { loadManifest, type Manifest } from '../../manifest.ts'
import { knownCode } from '../reference/known.ts'
import { PROVIDER } from './view.ts'

/**
 * The user's own profile (entity userProfile, the /personalInfo form) and the writes of the provider's
 * operation accounts (entity operationAccount, the /operationAccount list). Both are views of app_user with
 * no table of their own; the engine reads the accounts' list and detail through the view ./register.ts
 * registers, and these handlers follow its create and update semantics (server/engine/README.md): 404 for
 * a row the caller cannot see, 330002 for a stale version, an audit row per change, the account answered as
 * the engine reads it.
 *
 * Every query runs in the caller's tenant transaction (row-level security) and also names the tenant.
 * isUsed is the account's `state` (1 enabled, 0 disabled).
 */

const ENTITY = 'operationAccount'
const ACCOUNT = { entity: ENTITY } as const

type UserChange = Updateable<UserTable>

/** 350001 with a message about disabling, not deleting, the account one is logged in as. */
class SelfDisable extends ApiError {
  constructor() {
    super('350001')
  }
  override get key(): string {
    return 'error.selfDisable'
  }
}

const invalid = (field: string, message: string) => new ApiError('validation', {}, [{ field, message, params: {} }])

/**
 * What a body says about an optional field, as the engine reads an update: absent leaves it unchanged,
 * null or '' clears it (the validator has dropped those, so the raw body tells them from absent).
 */
function edited<T>(ctx: HandlerContext, input: object, key: string): { value: T | null } | undefined {
  const raw = ctx.request.body
  if (!raw || typeof raw !== 'object' || !Object.hasOwn(raw, key)) return undefined
  const value = (input as Record<string, unknown>)[key]
  return { value: value === undefined ? null : (value as T) }
}

// ---------------------------------------------------------------------------------------------------
// The operation-account view (./view.ts), as the writes answer it

/**
 * The account as the engine's detail reads it through the view (./register.ts): labelled (the role's name) as
 * every account answer is, without its history (not read); 404 when the tenant has no such provider account.
 */
async function readAccount(engine: EngineApi, trx: Transaction<DB>, ctx: HandlerContext, id: number) {
  const session = sessionOf(ctx)
  const call = { tenantId: session.tenantId, session, language: ctx.request.language }
  return engine.detail(trx, ACCOUNT, call, { id }, { history: false })
}

/** What the audit keeps of an account: the record, without the display texts of its references. */
const recordOf = ({ labels: _labels, ...record }: ApiRow): ApiRow => record

// ---------------------------------------------------------------------------------------------------
// Roles

interface RoleRow {
  id: number
  code: string
  preset: boolean
  permissions: string[]
  status: number
}

/** A preset role is on the side access.yaml gives it; a custom role is provider-side when its permissions are. */
function isProviderRole(manifest: Manifest, role: RoleRow): boolean {
  const preset = role.preset ? manifest.roles[role.code] : undefined
  if (preset) return preset.companyUserType === PROVIDER
  const sides = (role.permissions ?? []).map((p) => manifest.permissions[p]?.side)
  return sides.includes('provider') && !sides.includes('enterprise')
}

/** Nobody hands out, or manages an account holding, a permission they do not hold themselves. */
const beyond = (permissions: readonly string[], session: Session) =>
  permissions.some((p) => !session.permissions.has(p))

/** The role an account may be given: an enabled provider-side role of the tenant, within the caller's own rights. */
async function checkGrantable(trx: Transaction<DB>, manifest: Manifest, session: Session, roleId: number) {
  const role = await trx
    .selectFrom('role')
    .select(['id', 'code', 'preset', 'permissions', 'status'])
    .where('tenant_id', '=', session.tenantId)
    .where('id', '=', roleId)
    .executeTakeFirst()
  if (role?.status !== 1 || !isProviderRole(manifest, role)) throw invalid('companyAppRoleId', 'rule.providerRole')
  if (beyond(role.permissions ?? [], session)) throw invalid('companyAppRoleId', 'rule.roleNotGrantable')
}

/** Whether the caller may change an account: not one whose roles grant more than the caller holds. */
export async function checkManageable(trx: Transaction<DB>, session: Session, userId: number) {
  const rows = await trx
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .select('role.permissions')
    .where('user_role.tenant_id', '=', session.tenantId)
    .where('user_role.user_id', '=', userId)
    .execute()
  if (
    beyond(
      rows.flatMap((r) => r.permissions ?? []),
      session,
    )
  )
    throw new ApiError('220000')
}

async function setRole(trx: Transaction<DB>, tenantId: number, userId: number, roleId: number) {
  await trx.deleteFrom('user_role').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute()
  await trx.insertInto('user_role').values({ tenant_id: tenantId, user_id: userId, role_id: roleId }).execute()
}

// ---------------------------------------------------------------------------------------------------
// New accounts

const LOWER = 'abcdefghijkmnpqrstuvwxyz'
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
const DIGITS = '23456789'
const SPECIAL = '@#$%&*!?'
const pick = (chars: string) => chars[randomInt(chars.length)] as string

/** 12 random characters with each class the password rule asks for (rules/formats.ts), nothing look-alike. */
export function initialPassword(length = 12): string {
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL)]
  while (chars.length < length) chars.push(pick(LOWER + UPPER + DIGITS + SPECIAL))
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[chars[i], chars[j]] = [chars[j] as string, chars[i] as string]
  }
  return chars.join('')
}

/** The company the tenant's own staff belong to: the one its site settings name, else its first provider company. */
async function providerCompany(trx: Transaction<DB>, ctx: HandlerContext): Promise<number> {
  const tenant = ctx.request.tenant
  const named = Number(tenant.settings.companyId) || 0
  const row = await trx
    .selectFrom('company')
    .select('id')
    .where('tenant_id', '=', tenant.id)
    .where('company_type', '=', PROVIDER)
    .orderBy(sql`id = ${named}`, 'desc')
    .orderBy('id')
    .executeTakeFirst()
  if (!row) throw new Error(`tenant ${tenant.id} has no provider company`)
  return row.id
}

/** Queues the mail with the initial password in the transaction that creates the account. */
async function mailInitialPassword(
  ctx: HandlerContext,
  trx: Transaction<DB>,
  account: { email: string; username: string; password: string },
) {
  const { tenant, language } = ctx.request
  const site = String(
    (language === 'zh' ? tenant.settings.websiteName : tenant.settings.websiteNameEn) ||
      (language === 'zh' ? tenant.nameZh : tenant.nameEn),
  )
  const params = { site, username: account.username, password: account.password }
  await currentDelivery()
    .mail({ trx, tenantId: tenant.id, log: ctx.request.log, language })
    .send(
      account.email,
      messageFor('common.accountCreatedSubject', language, params),
      messageFor('common.accountCreatedText', language, params),
    )
}

// ---------------------------------------------------------------------------------------------------

/** The account calls; adding and changing an operation account answer it as the engine reads it (readAccount). */
export const accountHandlers = (engine: EngineApi): HandlerRegistry => ({
  /** POST /b2b/user/change/userInfo: the caller's own profile. */
  async changeUserInfo(ctx) {
    const session = sessionOf(ctx)
    const input = ctx.input as UserProfile
    const realName = input.realName.trim()
    if (!realName) throw invalid('realName', 'validation.required')
    const values: UserChange = { real_name: realName }
    const email = edited<string>(ctx, input, 'email')
    if (email) values.email = email.value === null ? null : normaliseTarget(email.value)
    const mobile = edited<string>(ctx, input, 'mobile')
    if (mobile) values.mobile = mobile.value
    const avatar = edited<string>(ctx, input, 'avatar')
    if (avatar) values.avatar = avatar.value
    const language = edited<string>(ctx, input, 'language')
    if (language) values.language = language.value
    const currency = edited<string>(ctx, input, 'individuationCurrency')
    if (currency) values.individuation_currency = currency.value
    const region = edited<string>(ctx, input, 'region')
    if (region) values.region = region.value

    const row = await rethrowDuplicate(
      ctx.inTenant(async (trx) => {
        const own = trx
          .updateTable('app_user')
          .where('tenant_id', '=', session.tenantId)
          .where('id', '=', session.userId)
        const taken = await takenBy(
          trx,
          session.tenantId,
          { email: values.email ?? undefined, mobile: values.mobile ?? undefined },
          session.userId,
        )
        if (taken) throw taken
        if (values.region) await knownCode(trx, 'ref_country', values.region, 'region')
        // The form sends no version; a caller that does gets the same check as any other update.
        const updated = await (input.version === undefined ? own : own.where('version', '=', input.version))
          .set({ ...values, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
          .returning([
            'username',
            'real_name',
            'email',
            'mobile',
            'avatar',
            'language',
            'individuation_currency',
            'region',
            'version',
          ])
          .executeTakeFirst()
        if (!updated) throw new ApiError(input.version === undefined ? '401' : '330002')
        return updated
      }),
    )
    return {
      username: row.username,
      realName: row.real_name,
      email: row.email,
      mobile: row.mobile,
      avatar: row.avatar,
      language: row.language,
      individuationCurrency: row.individuation_currency,
      region: row.region,
      version: row.version,
    }
  },

  /** POST /b2b/user/operationAccount/add: a provider-side account; the initial password goes out by mail. */
  async operationAccountAdd(ctx) {
    const session = sessionOf(ctx)
    const manifest = loadManifest()
    const input = ctx.input as OperationAccount
    const realName = input.realName.trim()
    if (!realName) throw invalid('realName', 'validation.required')
    const email = normaliseTarget(input.email)
    const password = initialPassword()
    const passwordHash = await hashPassword(password)
    return rethrowDuplicate(
      ctx.inTenant(async (trx) => {
        const taken = await takenBy(trx, session.tenantId, { username: input.username, email, mobile: input.mobile })
        if (taken) throw taken
        await checkGrantable(trx, manifest, session, input.companyAppRoleId)
        const created = await trx
          .insertInto('app_user')
          .values({
            tenant_id: session.tenantId,
            company_id: await providerCompany(trx, ctx),
            username: input.username,
            real_name: realName,
            email,
            mobile: input.mobile ?? null,
            qq: input.qq ?? null,
            password_hash: passwordHash,
            company_user_type: PROVIDER,
            state: input.isUsed === false ? 0 : 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await setRole(trx, session.tenantId, created.id, input.companyAppRoleId)
        await mailInitialPassword(ctx, trx, { email, username: input.username, password })
        const account = await readAccount(engine, trx, ctx, created.id)
        await writeAudit(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          entity: ENTITY,
          recordId: created.id,
          action: 'create',
          before: null,
          after: recordOf(account),
        })
        return account
      }),
    )
  },

  /**
   * POST /b2b/user/operationAccount/update: `{ id, version, …the form }`. The user name stays as it is;
   * disabling (isUsed false) signs the account out everywhere.
   */
  async operationAccountUpdate(ctx) {
    const session = sessionOf(ctx)
    const manifest = loadManifest()
    const input = ctx.input as OperationAccount
    const missing = (['id', 'version'] as const).filter((key) => input[key] === undefined)
    if (missing.length)
      throw new ApiError(
        'validation',
        {},
        missing.map((field) => ({ field, message: 'validation.required', params: {} })),
      )
    const id = input.id as number
    const realName = input.realName.trim()
    if (!realName) throw invalid('realName', 'validation.required')
    const email = normaliseTarget(input.email)
    const mobile = edited<string>(ctx, input, 'mobile')
    const qq = edited<string>(ctx, input, 'qq')
    const isUsed = edited<boolean>(ctx, input, 'isUsed')?.value
    const disabling = isUsed === false
    return rethrowDuplicate(
      ctx.inTenant(async (trx) => {
        const locked = await trx
          .selectFrom('app_user')
          .select('id')
          .where('tenant_id', '=', session.tenantId)
          .where('id', '=', id)
          .where('company_user_type', '=', PROVIDER)
          .forUpdate()
          .executeTakeFirst()
        if (!locked) throw new ApiError('404')
        await checkManageable(trx, session, id)
        const before = await readAccount(engine, trx, ctx, id)
        if (before.version !== input.version) throw new ApiError('330002')
        if (disabling && id === session.userId) throw new SelfDisable()
        const roleChanged = before.companyAppRoleId !== input.companyAppRoleId
        if (roleChanged) await checkGrantable(trx, manifest, session, input.companyAppRoleId)
        const taken = await takenBy(trx, session.tenantId, { email, mobile: mobile?.value ?? undefined }, id)
        if (taken) throw taken

        const values: UserChange = { real_name: realName, email }
        if (mobile) values.mobile = mobile.value
        if (qq) values.qq = qq.value
        if (typeof isUsed === 'boolean') values.state = isUsed ? 1 : 0
        const updated = await trx
          .updateTable('app_user')
          .set({ ...values, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
          .where('tenant_id', '=', session.tenantId)
          .where('id', '=', id)
          .where('version', '=', input.version as number)
          .returning('id')
          .executeTakeFirst()
        if (!updated) throw new ApiError('330002')
        if (roleChanged) await setRole(trx, session.tenantId, id, input.companyAppRoleId)
        if (disabling) await revokeSessions(trx, session.tenantId, id)
        const after = await readAccount(engine, trx, ctx, id)
        await writeAudit(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          entity: ENTITY,
          recordId: id,
          action: 'update',
          ...changes(recordOf(before), recordOf(after)),
        })
        return after
      }),
    )
  },
})
