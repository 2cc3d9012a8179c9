import type { EngineApi, EngineCall } from '../../engine/index.ts'
import { type HandlerContext, sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { removeSubscription } from './tnt.ts'
import { queueNotification } from './tntNotifications.ts'

/**
 * The portal's calls on DCSA event subscriptions (screens/dcsaTnt.yaml): the subscription list's delete and the
 * notification log's re-send. Each finds its record through the engine's detail of the list's view first, so
 * whose it is is decided exactly as the list and the standard's calls decide it (./register.ts, ./tnt.ts
 * subscriptionScope): another company's, the desk's for a customer or another tenant's answers 404.
 */
export const tntPortalHandlers = (engine: EngineApi): Handlers => {
  const callOf = (ctx: HandlerContext): EngineCall => ({
    tenantId: ctx.request.tenant.id,
    session: sessionOf(ctx),
    language: ctx.request.language,
  })
  return {
    async dcsaSubscriptionRemove(ctx) {
      const call = callOf(ctx)
      const { id } = ctx.input as { id: number }
      await ctx.inTenant(async (trx) => {
        const subscription = await engine.detail(
          trx,
          { entity: 'dcsaSubscriptionView' },
          call,
          { id },
          { history: false },
        )
        await removeSubscription(trx, call.tenantId, String(subscription.subscriptionId))
      })
      return null
    },

    // The same body again in a new outbox message, signed when it is sent with the subscription's secret then
    // (the standard signs the body alone: no timestamp). The log follows the new message.
    async dcsaNotificationResend(ctx) {
      const call = callOf(ctx)
      const { id } = ctx.input as { id: number }
      await ctx.inTenant(async (trx) => {
        const notification = await engine.detail(trx, { entity: 'dcsaNotification' }, call, { id }, { history: false })
        await queueNotification(trx, call.tenantId, {
          id,
          subscription: String(notification.subscriptionId),
          callbackUrl: String(notification.callbackUrl),
        })
      })
      return { state: true }
    },
  }
}
