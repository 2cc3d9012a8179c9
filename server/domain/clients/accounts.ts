import type { Transaction } from 'kysely'
import { sql } from 'kysely'
import type { EnterpriseUserChange } from '../../../generated/types.ts'
import { revokeSessions } from '../../auth/handlers.ts'
import type { DB } from '../../db/schema.ts'
import { changes, type EngineApi, writeAudit } from '../../engine/index.ts'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { loadManifest, type Manifest } from '../../manifest.ts'
import { checkManageable } from '../accounts/handlers.ts'

/**
 * The changes the customer-account lists make (schemas/enterpriseUser.yaml): enable or disable an account,
 * or give it another enterprise-side role. The rows are the engine's view (./register.ts): a change first
 * reads the account through the list's own detail endpoint, so whoever cannot see it in the list — another
 * enterprise's account for an enterprise administrator, another tenant's for anyone — gets 404, exactly as
 * the list's detail answers. Disabling an account revokes its sessions: it is signed out everywhere on its
 * next call. A role change takes effect on the account's next call (sessions read their roles each call).
 */

const ENTITY = 'enterpriseUser'
const ENTERPRISE = 2

/** 350001 with the message about one's own account (disabling or demoting oneself locks one out). */
class SelfChange extends ApiError {
  constructor() {
    super('350001')
  }
  override get key(): string {
    return 'error.selfDisable'
  }
}

const invalid = (field: string, message: string) => new ApiError('validation', {}, [{ field, message, params: {} }])

interface RoleRow {
  id: number
  code: string
  preset: boolean
  permissions: string[]
  status: number
}

/**
 * An enterprise-side role: a preset role access.yaml gives company user type 2 (but the personal user's, which
 * is for accounts without an enterprise), or a role of the tenant's own whose permissions are all of the
 * enterprise side (or of any side) and not all of any side.
 */
export function isEnterpriseRole(manifest: Manifest, role: Pick<RoleRow, 'code' | 'preset' | 'permissions'>): boolean {
  const preset = role.preset ? manifest.roles[role.code] : undefined
  if (preset) return preset.companyUserType === ENTERPRISE && role.code !== 'PersonalUser'
  const sides = (role.permissions ?? []).map((p) => manifest.permissions[p]?.side)
  return sides.includes('enterprise') && sides.every((side) => side === 'enterprise' || side === 'any')
}

const beyond = (permissions: readonly string[], session: Session) =>
  permissions.some((p) => !session.permissions.has(p))

/** The role an account may be given: an enabled enterprise-side role; an enterprise caller only within their own rights. */
async function checkGrantable(trx: Transaction<DB>, manifest: Manifest, session: Session, roleId: number) {
  const role = await trx
    .selectFrom('role')
    .select(['id', 'code', 'preset', 'permissions', 'status'])
    .where('tenant_id', '=', session.tenantId)
    .where('id', '=', roleId)
    .executeTakeFirst()
  if (role?.status !== 1 || !isEnterpriseRole(manifest, role)) throw invalid('companyAppRoleId', 'rule.enterpriseRole')
  if (session.companyUserType !== 1 && beyond(role.permissions ?? [], session))
    throw invalid('companyAppRoleId', 'rule.roleNotGrantable')
}

/** The change of one account, read through `detail` (the list's own detail endpoint, whose visibility it keeps). */
function changeAccount(engine: EngineApi, detail: string) {
  return async (ctx: HandlerContext & { input: unknown }) => {
    const session = sessionOf(ctx)
    const manifest = loadManifest()
    const input = ctx.input as EnterpriseUserChange
    const call = { tenantId: session.tenantId, session, language: ctx.request.language }
    return ctx.inTenant(async (trx) => {
      // Visible to the caller (else 404), then locked for the change.
      const before = await engine.detail(trx, detail, call, { id: input.id }, { history: false })
      await trx
        .selectFrom('app_user')
        .select('id')
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', input.id)
        .forUpdate()
        .execute()
      if (before.version !== input.version) throw new ApiError('330002')
      const disabling = input.isUsed === false && before.isUsed !== false
      const roleChanged =
        input.companyAppRoleId !== undefined &&
        input.companyAppRoleId !== null &&
        input.companyAppRoleId !== before.companyAppRoleId
      if ((disabling || roleChanged) && input.id === session.userId) throw new SelfChange()
      // An enterprise caller may not change an account whose roles grant more than they hold themselves.
      if (session.companyUserType !== 1) await checkManageable(trx, session, input.id)
      if (roleChanged) await checkGrantable(trx, manifest, session, input.companyAppRoleId as number)
      const updated = await trx
        .updateTable('app_user')
        .set({
          ...(typeof input.isUsed === 'boolean' ? { state: input.isUsed ? 1 : 0 } : {}),
          version: sql<number>`version + 1`,
          updated_at: sql<Date>`now()`,
        })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', input.id)
        .where('version', '=', input.version)
        .returning('id')
        .executeTakeFirst()
      if (!updated) throw new ApiError('330002')
      if (roleChanged) {
        await trx
          .deleteFrom('user_role')
          .where('tenant_id', '=', session.tenantId)
          .where('user_id', '=', input.id)
          .execute()
        await trx
          .insertInto('user_role')
          .values({ tenant_id: session.tenantId, user_id: input.id, role_id: input.companyAppRoleId as number })
          .execute()
      }
      if (disabling) await revokeSessions(trx, session.tenantId, input.id)
      const after = await engine.detail(trx, detail, call, { id: input.id }, { history: false })
      const { labels: _b, ...plainBefore } = before
      const { labels: _a, ...plainAfter } = after
      await writeAudit(trx, {
        tenantId: session.tenantId,
        userId: session.userId,
        entity: ENTITY,
        recordId: input.id,
        action: 'update',
        ...changes(plainBefore, plainAfter),
      })
      return after
    })
  }
}

export const clientAccountHandlers = (engine: EngineApi): HandlerRegistry => ({
  /** POST /b2b/user/enterpriseAccount/update: a colleague of the caller's own enterprise. */
  enterpriseAccountUpdate: changeAccount(engine, 'enterpriseAccount.detail'),
  /** POST /b2b/user/customerAccount/update: any customer-side account of the tenant (operators). */
  customerAccountUpdate: changeAccount(engine, 'clientEnterpriseAccount.detail'),
})
