import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { ensureBoundMember, redeemInvite } from './join.ts'
import { ownAccountsOnly } from './workAccounts.ts'

const COMPANY_MEMBER = { entity: 'companyMember' } as const

function caller(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return { session, call: { tenantId: ctx.request.tenant.id, session, language: ctx.request.language } }
}

/** SPEC §7's company user list, invite code confirmation and the visibility of one's own work account. */
export const membershipHandlers = (engine: EngineApi): HandlerRegistry => ({
  /**
   * The engine's list of companyMember narrowed to the caller's own accounts (not the directory's visibility),
   * with bindCompanyUserId: the account the session acts for. A user bound before work accounts existed gets
   * theirs written first.
   */
  async companyUserList(ctx) {
    const { session, call } = caller(ctx)
    const own = { ...session }
    ownAccountsOnly.add(own)
    return ctx.inTenant(async (trx) => {
      await ensureBoundMember(trx, call.tenantId, session.userId)
      const page = await engine.list(trx, ctx.endpoint, { ...call, session: own }, ctx.input)
      const bound = page.list.find((row) => row.state === 'current')
      return { ...page, bindCompanyUserId: (bound?.id as number | undefined) ?? null }
    })
  },

  /** A signed-in user joins the enterprise of a live invite code; answers the new work account. */
  async confirmInviteCode(ctx) {
    const { session, call } = caller(ctx)
    const { inviteCode } = ctx.input as { inviteCode: string }
    return ctx.inTenant(async (trx) => {
      const id = await redeemInvite(trx, {
        tenantId: call.tenantId,
        userId: session.userId,
        actor: session.userId,
        code: inviteCode,
        field: 'inviteCode',
      })
      return engine.detail(trx, COMPANY_MEMBER, call, { id }, { history: false })
    })
  },

  /** Who may see one of the caller's own work accounts; a colleague's (visible to them) answers 404. */
  async changeAccountVisibility(ctx) {
    const { session, call } = caller(ctx)
    const body = ctx.input as { id?: number; version?: number; visibility?: number }
    if (!body.id || !body.version)
      throw new ApiError('validation', {}, [{ field: 'id', message: 'validation.required', params: {} }])
    return ctx.inTenant(async (trx) => {
      const found = await engine.detail(trx, COMPANY_MEMBER, call, { id: body.id })
      if (found.user !== session.userId) throw new ApiError('404')
      const row = await engine.update(trx, COMPANY_MEMBER, call, {
        id: body.id,
        version: body.version,
        visibility: body.visibility,
      })
      return row
    })
  },
})
