import type { Kysely, Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { openMessage, sealMessage } from '../sealed.ts'
import { TENCENT_SMS_ENDPOINT, type TencentSmsConfig } from './tencentSms.ts'
import { WECHAT_ENDPOINT, type WechatConfig } from './wechat.ts'

/**
 * A tenant's SMS and WeChat settings (table tenant_messaging, migration 0021). What is not secret lives in
 * `settings` (the messagingSettings entity's fields); the SMS secret key and the WeChat app secret are
 * sealed each on its own column (../sealed.ts, bound to the tenant: a copy moved to another tenant's row
 * does not open) and are never answered back: the form shows only whether one is set and its last four.
 */

/** The SMS message kinds a tenant maps to its provider's approved templates. */
export const SMS_TEMPLATES = ['verificationCode', 'notification'] as const
/** The WeChat events a tenant maps to its official account's template ids. */
export const WECHAT_TEMPLATES = ['orderStatus', 'quote', 'specialRate', 'notice'] as const

export interface MessagingSettings {
  smsEnabled: boolean
  smsProvider: 'tencent'
  smsSecretId: string
  smsSdkAppId: string
  smsSignName: string
  smsRegion: string
  smsEndpoint: string
  smsTemplateVerificationCode: string
  smsTemplateNotification: string
  wechatEnabled: boolean
  wechatAppId: string
  wechatEndpoint: string
  wechatTemplateOrderStatus: string
  wechatTemplateQuote: string
  wechatTemplateSpecialRate: string
  wechatTemplateNotice: string
}

export const DEFAULT_SETTINGS: MessagingSettings = {
  smsEnabled: false,
  smsProvider: 'tencent',
  smsSecretId: '',
  smsSdkAppId: '',
  smsSignName: '',
  smsRegion: 'ap-guangzhou',
  smsEndpoint: TENCENT_SMS_ENDPOINT,
  smsTemplateVerificationCode: '',
  smsTemplateNotification: '',
  wechatEnabled: false,
  wechatAppId: '',
  wechatEndpoint: WECHAT_ENDPOINT,
  wechatTemplateOrderStatus: '',
  wechatTemplateQuote: '',
  wechatTemplateSpecialRate: '',
  wechatTemplateNotice: '',
}

const smsSecretLabel = (tenantId: number) => `tenant:${tenantId}:sms`
const wechatSecretLabel = (tenantId: number) => `tenant:${tenantId}:wechat`

export function sealSecret(tenantId: number, which: 'sms' | 'wechat', secret: string): string {
  const to = which === 'sms' ? smsSecretLabel(tenantId) : wechatSecretLabel(tenantId)
  return sealMessage('provider-secret', to, { text: secret })
}

function openSecret(tenantId: number, which: 'sms' | 'wechat', sealed: string | null): string {
  if (!sealed) return ''
  const to = which === 'sms' ? smsSecretLabel(tenantId) : wechatSecretLabel(tenantId)
  return openMessage('provider-secret', to, sealed).text
}

/** `••••abcd`: enough to recognise which secret is set, not enough to use it. */
export function maskSecret(secret: string): string {
  return secret ? `••••${secret.slice(-4)}` : ''
}

export interface TenantMessaging {
  settings: MessagingSettings
  smsSecretKey: string
  wechatAppSecret: string
  version: number
}

/** The tenant's settings with its secrets opened (for the channels only; never answered to a client). */
export async function loadMessaging(db: Kysely<DB> | Transaction<DB>, tenantId: number): Promise<TenantMessaging> {
  const row = await db.selectFrom('tenant_messaging').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst()
  if (!row) return { settings: { ...DEFAULT_SETTINGS }, smsSecretKey: '', wechatAppSecret: '', version: 0 }
  const stored = (typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings) as object
  return {
    settings: { ...DEFAULT_SETTINGS, ...stored },
    smsSecretKey: openSecret(tenantId, 'sms', row.sms_secret_sealed),
    wechatAppSecret: openSecret(tenantId, 'wechat', row.wechat_secret_sealed),
    version: row.version,
  }
}

/** Writes the settings; a secret left empty keeps the one stored (the form never receives it back). */
export async function saveMessaging(
  trx: Transaction<DB>,
  tenantId: number,
  settings: MessagingSettings,
  secrets: { smsSecretKey?: string; wechatAppSecret?: string },
): Promise<void> {
  const sealedSms = secrets.smsSecretKey ? sealSecret(tenantId, 'sms', secrets.smsSecretKey) : undefined
  const sealedWechat = secrets.wechatAppSecret ? sealSecret(tenantId, 'wechat', secrets.wechatAppSecret) : undefined
  const json = JSON.stringify(settings)
  await trx
    .insertInto('tenant_messaging')
    .values({
      tenant_id: tenantId,
      settings: json,
      sms_secret_sealed: sealedSms ?? null,
      wechat_secret_sealed: sealedWechat ?? null,
    })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet((eb) => ({
        settings: json,
        ...(sealedSms ? { sms_secret_sealed: sealedSms } : {}),
        ...(sealedWechat ? { wechat_secret_sealed: sealedWechat } : {}),
        version: eb('tenant_messaging.version', '+', 1),
        updated_at: new Date(),
      })),
    )
    .execute()
}

export function tencentConfig(messaging: TenantMessaging): TencentSmsConfig {
  const s = messaging.settings
  return {
    secretId: s.smsSecretId,
    secretKey: messaging.smsSecretKey,
    sdkAppId: s.smsSdkAppId,
    signName: s.smsSignName,
    region: s.smsRegion || DEFAULT_SETTINGS.smsRegion,
    endpoint: s.smsEndpoint || TENCENT_SMS_ENDPOINT,
  }
}

export function wechatConfig(messaging: TenantMessaging): WechatConfig {
  const s = messaging.settings
  return { appId: s.wechatAppId, appSecret: messaging.wechatAppSecret, endpoint: s.wechatEndpoint || WECHAT_ENDPOINT }
}
