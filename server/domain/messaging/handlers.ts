import { sql } from 'kysely'
import type { MessagingSettings as MessagingSettingsInput } from '../../../generated/types.ts'
import { sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { ownTenantId, tenantRecordReads } from '../../http/tenantRecord.ts'
import {
  DEFAULT_SETTINGS,
  loadMessaging,
  type MessagingSettings,
  maskSecret,
  saveMessaging,
  type TenantMessaging,
} from '../../jobs/providers/settings.ts'

/**
 * /operationSet (issue #22): the tenant's SMS and WeChat settings, one record per tenant whose id is the
 * tenant's. Secrets go in and never come back: the answer shows them masked (••••last4), and a save whose
 * secret is empty or still the mask keeps the one stored. The YAML (schemas/messagingSettings.yaml) checks
 * formats and "app id required when WeChat is on" before a handler runs.
 */

const FIELDS = Object.keys(DEFAULT_SETTINGS).filter(
  (k) => k !== 'smsProvider' && k !== 'smsRegion',
) as (keyof MessagingSettings)[]

function answer(tenantId: number, messaging: TenantMessaging) {
  // No version before the first save (a version is at least 1 on the way back in).
  const shown: Record<string, unknown> = { id: tenantId, ...(messaging.version ? { version: messaging.version } : {}) }
  for (const field of FIELDS) shown[field] = messaging.settings[field]
  shown.smsSecretKey = maskSecret(messaging.smsSecretKey)
  shown.wechatAppSecret = maskSecret(messaging.wechatAppSecret)
  return shown
}

/** A secret as the form sends it back: empty or the mask means "keep the stored one". */
const newSecret = (value: unknown) =>
  typeof value === 'string' && value && !value.startsWith('••••') ? value : undefined

const reads = tenantRecordReads(loadMessaging, answer)

export const messagingHandlers = {
  messagingSettingsList: reads.list,
  messagingSettingsDetail: reads.detail,

  async messagingSettingsSave(ctx) {
    const input = ctx.input as MessagingSettingsInput & Record<string, unknown>
    const tenantId = ownTenantId(ctx, input.id)
    return ctx.inTenant(async (trx) => {
      const stored = await loadMessaging(trx, tenantId)
      if (input.version !== undefined && input.version !== null && stored.version && input.version !== stored.version)
        throw new ApiError('330002')
      const settings: MessagingSettings = { ...stored.settings }
      for (const field of FIELDS) {
        const value = input[field]
        if (value === undefined) continue
        ;(settings as unknown as Record<string, unknown>)[field] =
          typeof DEFAULT_SETTINGS[field] === 'boolean' ? value === true : String(value ?? '').trim()
      }
      const smsSecretKey = newSecret(input.smsSecretKey)
      const wechatAppSecret = newSecret(input.wechatAppSecret)
      if (settings.smsEnabled && !smsSecretKey && !stored.smsSecretKey)
        throw new ApiError('validation', {}, [{ field: 'smsSecretKey', message: 'validation.required', params: {} }])
      if (settings.wechatEnabled && !wechatAppSecret && !stored.wechatAppSecret)
        throw new ApiError('validation', {}, [{ field: 'wechatAppSecret', message: 'validation.required', params: {} }])
      await saveMessaging(trx, tenantId, settings, { smsSecretKey, wechatAppSecret })
      return answer(tenantId, await loadMessaging(trx, tenantId))
    }) as never
  },

  /**
   * A failed outbox message sent again (/outboxFailed's retry): due at once, its tries counted from zero and its
   * last reason kept until the next try answers. Only a failed message of the caller's tenant; one sent,
   * waiting or already retried since the list was read is refused (330002: refresh and look again).
   */
  async outboxRetry(ctx) {
    const session = sessionOf(ctx)
    const { id, version } = ctx.input
    const retried = await ctx.inTenant(async (trx) => {
      const found = await trx
        .selectFrom('outbox')
        .select(['id', 'attempts', 'failed_at'])
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
      if (!found) throw new ApiError('404')
      if (!found.failed_at || (version != null && Math.max(found.attempts, 1) !== version)) throw new ApiError('330002')
      const { rows } = await sql<{ id: number }>`
        update outbox set failed_at = null, attempts = 0, next_attempt_at = now(), leased_until = null
        where tenant_id = ${session.tenantId} and id = ${id} and failed_at is not null
        returning id`.execute(trx)
      return rows.length === 1
    })
    if (!retried) throw new ApiError('330002')
    return { state: true }
  },
} satisfies Handlers
