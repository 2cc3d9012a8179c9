import { exchange, final, retryable } from './failure.ts'

/**
 * WeChat official account (公众号) template messages: an access token from `GET /cgi-bin/token` kept until
 * shortly before its `expires_in`, then `POST /cgi-bin/message/template/send`
 * (https://developers.weixin.qq.com/doc/offiaccount/Message_Management/Template_Message_Interface.html).
 * A token the platform calls expired or invalid (42001, 40001, 40014) is fetched again once and the message
 * resent; everything else is classified retryable or final with the platform's errcode and errmsg.
 */

export const WECHAT_ENDPOINT = 'https://api.weixin.qq.com'

export interface WechatConfig {
  /** wx followed by 16 hexadecimal characters. */
  appId: string
  appSecret: string
  /** https://api.weixin.qq.com in production; a loopback server in tests. */
  endpoint: string
}

export interface WechatTemplateMessage {
  /** The recipient's openid under this official account. */
  touser: string
  templateId: string
  /** Where tapping the message leads (the portal's page of the event). */
  url?: string
  /** The template's keywords: { first: '…', keyword1: '…', remark: '…' }. */
  data: Record<string, string>
}

/** Refresh this long before the platform's expiry, so a token never dies between check and use. */
const MARGIN_MS = 5 * 60_000
const TOKEN_ERRORS = new Set([40001, 40014, 42001])
/** -1 system busy, 45009 daily API quota, 45047 / 45011 frequency limits. */
const RETRYABLE = new Set([-1, 45009, 45011, 45047])

interface Token {
  value: string
  expiresAt: number
}

const tokens = new Map<string, Token>()
const pending = new Map<string, Promise<Token>>()

function cacheKey(config: WechatConfig) {
  return `${config.endpoint}\u0000${config.appId}\u0000${config.appSecret}`
}

function failure(errcode: number, errmsg: string) {
  const reason = `WeChat ${errcode}: ${errmsg}`.slice(0, 500)
  return RETRYABLE.has(errcode) ? retryable(reason) : final(reason)
}

async function fetchToken(config: WechatConfig, now: () => number): Promise<Token> {
  const query = new URLSearchParams({ grant_type: 'client_credential', appid: config.appId, secret: config.appSecret })
  const { body } = await exchange('WeChat token', `${config.endpoint}/cgi-bin/token?${query}`, { method: 'GET' })
  const answer = body as { access_token?: string; expires_in?: number; errcode?: number; errmsg?: string }
  if (typeof answer.access_token !== 'string' || !answer.access_token) {
    const code = Number(answer.errcode ?? -1)
    // A token refusal for a bad app id or secret is final; busy is not.
    throw failure(code, String(answer.errmsg ?? 'no access_token'))
  }
  const seconds = Number(answer.expires_in) > 0 ? Number(answer.expires_in) : 7200
  return { value: answer.access_token, expiresAt: now() + seconds * 1000 - MARGIN_MS }
}

/** The account's live token: the cached one, or one fetched now (one fetch however many callers wait). */
export async function wechatToken(config: WechatConfig, now: () => number = Date.now, fresh = false) {
  const key = cacheKey(config)
  const cached = tokens.get(key)
  if (!fresh && cached && cached.expiresAt > now()) return cached.value
  let inFlight = pending.get(key)
  if (!inFlight) {
    inFlight = fetchToken(config, now).finally(() => pending.delete(key))
    pending.set(key, inFlight)
  }
  const token = await inFlight
  tokens.set(key, token)
  return token.value
}

/** Forgets every cached token (tests; a changed secret is a new cache key already). */
export function forgetWechatTokens(): void {
  tokens.clear()
}

async function post(config: WechatConfig, token: string, message: WechatTemplateMessage) {
  const data = Object.fromEntries(Object.entries(message.data).map(([k, value]) => [k, { value }]))
  const { body } = await exchange(
    'WeChat template',
    `${config.endpoint}/cgi-bin/message/template/send?access_token=${encodeURIComponent(token)}`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        touser: message.touser,
        template_id: message.templateId,
        ...(message.url ? { url: message.url } : {}),
        data,
      }),
    },
  )
  return body as { errcode?: number; errmsg?: string; msgid?: number }
}

/** Sends one template message; resolves with the platform's msgid, or throws a DeliveryFailure. */
export async function sendWechatTemplate(
  config: WechatConfig,
  message: WechatTemplateMessage,
  now: () => number = Date.now,
): Promise<string> {
  if (!message.touser) throw final('WeChat: not bound (the user has no openid under this official account)')
  let answer = await post(config, await wechatToken(config, now), message)
  if (TOKEN_ERRORS.has(Number(answer.errcode))) {
    // The platform dropped the token early (another server fetched a new one, or it expired): once more.
    answer = await post(config, await wechatToken(config, now, true), message)
    if (TOKEN_ERRORS.has(Number(answer.errcode)))
      throw retryable(`WeChat ${answer.errcode}: ${answer.errmsg ?? ''}`.slice(0, 500))
  }
  const code = Number(answer.errcode ?? -1)
  if (code !== 0) throw failure(code, String(answer.errmsg ?? ''))
  return String(answer.msgid ?? '')
}
