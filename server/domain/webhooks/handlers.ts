import { sql } from 'kysely'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { queueDelivery } from './events.ts'
import { issueSecret } from './secrets.ts'

/**
 * The webhook calls beyond the engine's CRUD (screens/webhooks.yaml). A new endpoint is written through the engine
 * (its URL check, bound and company are the entity's) with its secret issued in the same transaction, so it is
 * never without one. The others find their record through the engine first, so the company wall (dataScope) and
 * the tenant decide what the caller may act on: another enterprise's endpoint or delivery answers 404, exactly as
 * its detail would.
 */
export const webhookHandlers = (engine: EngineApi): Handlers => {
  const callOf = (ctx: HandlerContext) => {
    const session = ctx.request.session
    if (!session) throw new ApiError('401')
    return { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
  }
  return {
    async webhookCreate(ctx) {
      const call = callOf(ctx)
      return ctx.inTenant(async (trx) => {
        const endpoint = await engine.create(trx, { entity: 'webhookEndpoint' }, call, ctx.input)
        const id = Number(endpoint.id)
        return { id, secret: await issueSecret(trx, call.tenantId, id) }
      })
    },

    async webhookSecretRoll(ctx) {
      const call = callOf(ctx)
      const { id, version } = ctx.input as { id: number; version?: number }
      return ctx.inTenant(async (trx) => {
        const endpoint = await engine.detail(trx, { entity: 'webhookEndpoint' }, call, { id })
        // A list read before someone else issued a secret: that secret is not replaced unseen.
        if (version !== undefined && version !== endpoint.version) throw new ApiError('330002')
        return { id, secret: await issueSecret(trx, call.tenantId, id) }
      })
    },

    async webhookResend(ctx) {
      const call = callOf(ctx)
      const { id } = ctx.input as { id: number }
      await ctx.inTenant(async (trx) => {
        const delivery = await engine.detail(trx, { entity: 'webhookDelivery' }, call, { id })
        const { rows } = await sql<{ url: string }>`
          select url from webhook_endpoint where tenant_id = ${call.tenantId} and id = ${Number(delivery.endpoint)}`.execute(
          trx,
        )
        const endpoint = rows[0]
        if (!endpoint) throw new ApiError('404')
        await queueDelivery(trx, call.tenantId, { id, endpoint: Number(delivery.endpoint), url: endpoint.url })
      })
      return { state: true }
    },
  }
}
