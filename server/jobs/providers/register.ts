import { withTenant } from '../../tenancy/scope.ts'
import {
  type Channel,
  type ChannelContext,
  delivered,
  fail,
  type OutboxMessage,
  registerChannel,
  retry,
} from '../channels.ts'
import { absoluteUrl } from '../mail/templates.ts'
import { DeliveryFailure } from './failure.ts'
import { loadMessaging, type MessagingSettings, tencentConfig, wechatConfig } from './settings.ts'
import { sendTencentSms } from './tencentSms.ts'
import { sendWechatTemplate } from './wechat.ts'

/**
 * The `sms` and `wechat` outbox channels (../channels.ts), each sending with the configuration of the
 * message's own tenant (read per message: tenant A's keys never send tenant B's message).
 *
 * sms payload: `{ to, template, params }` or `{ to, template, sealed }` whose sealed body carries `params`
 * (a verification code) — `template` is `verificationCode` or `notification`, mapped to the tenant's
 * approved Tencent template ids.
 * wechat payload: `{ to, template, params, url? }` — `to` is the user's openid ('' when the user has not
 * bound the official account: a final "not bound"), `template` one of orderStatus, quote, specialRate,
 * notice, `params` the template's keywords ({ first, keyword1, …, remark }).
 */

const SMS_TEMPLATE_FIELD: Record<string, keyof MessagingSettings> = {
  verificationCode: 'smsTemplateVerificationCode',
  notification: 'smsTemplateNotification',
}
const WECHAT_TEMPLATE_FIELD: Record<string, keyof MessagingSettings> = {
  orderStatus: 'wechatTemplateOrderStatus',
  quote: 'wechatTemplateQuote',
  specialRate: 'wechatTemplateSpecialRate',
  notice: 'wechatTemplateNotice',
}

function asFailure(error: unknown) {
  if (error instanceof DeliveryFailure) return error.retryable ? retry(error.reason) : fail(error.reason)
  return retry(error instanceof Error ? error.message : String(error))
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.slice(0, 10).map((v) => String(v).slice(0, 200)) : undefined

/**
 * The tenant's provider settings, read inside the tenant (withTenant): the worker's connection is the
 * application's, bound by row-level security, so a read outside any tenant sees no settings on PostgreSQL.
 */
function tenantMessaging(ctx: ChannelContext, tenantId: number) {
  return withTenant(ctx.db, tenantId, (trx) => loadMessaging(trx, tenantId))
}

export const smsChannel: Channel = {
  async send(message: OutboxMessage, ctx) {
    const messaging = await tenantMessaging(ctx, message.tenantId)
    const s = messaging.settings
    if (!s.smsEnabled) return fail('SMS is not configured for this site')
    const template = String(message.payload.template ?? 'notification')
    const field = SMS_TEMPLATE_FIELD[template]
    const templateId = field ? String(s[field] ?? '') : ''
    if (!templateId) return fail(`SMS template ${template} is not configured`)
    const body = message.body as { params?: unknown } | undefined
    const params = strings(body?.params) ?? strings(message.payload.params) ?? []
    try {
      const serial = await sendTencentSms(tencentConfig(messaging), { to: message.to, templateId, params })
      return { ok: true, detail: serial }
    } catch (error) {
      return asFailure(error)
    }
  },
}

export const wechatChannel: Channel = {
  async send(message: OutboxMessage, ctx) {
    const messaging = await tenantMessaging(ctx, message.tenantId)
    const s = messaging.settings
    if (!s.wechatEnabled || !s.wechatAppId) return fail('WeChat is not configured for this site')
    const template = String(message.payload.template ?? 'notice')
    const field = WECHAT_TEMPLATE_FIELD[template]
    const templateId = field ? String(s[field] ?? '') : ''
    if (!templateId) return fail(`WeChat template ${template} is not configured`)
    const raw = message.payload.params
    const data: Record<string, string> = {}
    if (raw && typeof raw === 'object' && !Array.isArray(raw))
      for (const [k, v] of Object.entries(raw).slice(0, 20)) data[k.slice(0, 32)] = String(v).slice(0, 200)
    // WeChat opens only absolute addresses: a letter's site-relative link goes to the tenant's own host.
    const url =
      typeof message.payload.url === 'string' && message.payload.url
        ? absoluteUrl(ctx.tenant, message.payload.url.slice(0, 1000))
        : undefined
    try {
      await sendWechatTemplate(wechatConfig(messaging), { touser: message.to, templateId, url, data })
      return delivered
    } catch (error) {
      return asFailure(error)
    }
  },
}

/** Registers both channels with the outbox worker; called once at start. */
export function registerProviderChannels(): void {
  registerChannel('sms', smsChannel)
  registerChannel('wechat', wechatChannel)
}
