import { sql } from 'kysely'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'

/**
 * /bindWechat (issue #22): the caller's own binding to the tenant's WeChat official account, one record whose id
 * is the caller's. The openid is what the official account gave the user when they followed it; WeChat template
 * messages (letters, pushes) are addressed to it. The YAML (schemas/wechatBinding.yaml) checks its form before a
 * handler runs; an openid is one user's within a tenant (the unique index of migration 0021), so one another
 * user holds is refused on the field. Saved empty, it unbinds.
 */

interface Binding {
  id: number
  version: number
  /** Absent while none is bound. */
  openid?: string
  bound: boolean
}

async function bindingOf(ctx: HandlerContext, session: Session): Promise<Binding> {
  const row = await ctx.inTenant((trx) =>
    trx
      .selectFrom('app_user')
      .select(['id', 'version', 'wechat_openid'])
      .where('tenant_id', '=', session.tenantId)
      .where('id', '=', session.userId)
      .executeTakeFirst(),
  )
  if (!row) throw new ApiError('404')
  const openid = row.wechat_openid ?? undefined
  return { id: row.id, version: row.version, ...(openid ? { openid } : {}), bound: openid !== undefined }
}

export const wechatBindingHandlers = {
  async wechatBindingList(ctx) {
    const binding = await bindingOf(ctx, sessionOf(ctx))
    return { list: [binding], total: 1, pageNum: 1, pageSize: 1 }
  },

  async wechatBindingDetail(ctx) {
    const session = sessionOf(ctx)
    if (parseId(ctx.input.id) !== session.userId) throw new ApiError('404')
    return bindingOf(ctx, session)
  },

  async wechatBindingSave(ctx) {
    const session = sessionOf(ctx)
    const { id, version } = ctx.input
    if (id !== undefined && id !== null && id !== session.userId) throw new ApiError('404')
    const openid = ctx.input.openid?.trim() || null
    await ctx.inTenant(async (trx) => {
      if (openid !== null) {
        const holder = await trx
          .selectFrom('app_user')
          .select('id')
          .where('tenant_id', '=', session.tenantId)
          .where('wechat_openid', '=', openid)
          .where('id', '<>', session.userId)
          .executeTakeFirst()
        if (holder)
          throw new ApiError('validation', {}, [{ field: 'openid', message: 'rule.wechatOpenidTaken', params: {} }])
      }
      const updated = await trx
        .updateTable('app_user')
        .set({ wechat_openid: openid, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', session.userId)
        .$if(version !== undefined && version !== null, (q) => q.where('version', '=', version as number))
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) !== 1) throw new ApiError('330002')
    })
    return bindingOf(ctx, session)
  },
} satisfies Handlers
