import type { CompanyImName, CompanyImState, ImAutoReply } from '../../../generated/types.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The chat administration's two calls the engine's own routes do not answer (screens/im.yaml), both over
 * the engine's data API so that checks, audit and version come from it:
 * - the auto-reply's save (SPEC §7 "IM auto-response save"): the tenant's one row, made the first time;
 * - changeCompanyIMState (SPEC §7): a customer enterprise's chat (company.imService) on or off;
 * - the name a customer enterprise's users appear under in the chat (company.imDisplayName).
 */
export const imHandlers = (engine: EngineApi): HandlerRegistry => {
  /** A change to one customer enterprise of the tenant, through the engine (404 for a provider company). */
  const changeCustomerCompany = async (
    ctx: HandlerContext,
    input: { id: number; version?: number },
    change: Record<string, unknown>,
  ) => {
    const session = ctx.request.session
    if (!session) throw new ApiError('401')
    const call = { tenantId: session.tenantId, session, language: ctx.request.language }
    return ctx.inTenant(async (trx) => {
      // A customer enterprise of the tenant, as the list's filter says.
      const found = await engine.detail(trx, { entity: 'company' }, call, { id: input.id })
      if (found.companyType !== 2) throw new ApiError('404')
      return engine.update(trx, { entity: 'company' }, call, {
        id: input.id,
        version: input.version ?? found.version,
        ...change,
      })
    })
  }
  return {
    async imAutoReplySave(ctx) {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const input = ctx.input as ImAutoReply & { id?: number; version?: number }
      const call = { tenantId: session.tenantId, session, language: ctx.request.language }
      const entity = { entity: 'imAutoReply' }
      return ctx.inTenant(async (trx) => {
        const { list } = await engine.list(trx, entity, call, { searchParams: {}, pageNum: 1, pageSize: 1 })
        const stored = list[0] as { id: number; version: number } | undefined
        const { id, version, ...fields } = input
        if (!stored) return engine.create(trx, entity, call, fields)
        // A save that names a record names the tenant's one; a stale version is refused by the engine (330002).
        if (id !== undefined && id !== stored.id) throw new ApiError('404')
        return engine.update(trx, entity, call, { ...fields, id: stored.id, version: version ?? stored.version })
      })
    },

    async changeCompanyImState(ctx) {
      const input = ctx.input as CompanyImState
      return changeCustomerCompany(ctx, input, { imService: input.imState === 1 })
    },

    async companyImDisplayName(ctx) {
      const input = ctx.input as CompanyImName
      // Empty gives the company's name back (the chat reads null as that).
      const name = input.imDisplayName?.trim() ?? ''
      return changeCustomerCompany(ctx, input, { imDisplayName: name || null })
    },
  }
}
