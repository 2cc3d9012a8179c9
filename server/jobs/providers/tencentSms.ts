import { createHash, createHmac } from 'node:crypto'
import { exchange, final, retryable } from './failure.ts'

/**
 * Tencent Cloud SMS `SendSms` (API version 2021-01-11), signed with TC3-HMAC-SHA256 exactly as
 * https://cloud.tencent.com/document/api/382/55981 and /document/api/213/30654 describe: a JSON POST to `/`
 * whose canonical request names content-type and host, signed under a key derived from the secret key, the
 * UTC date, the service `sms` and `tc3_request`.
 */

export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com'
const SERVICE = 'sms'
const VERSION = '2021-01-11'
const CONTENT_TYPE = 'application/json; charset=utf-8'

export interface TencentSmsConfig {
  /** AKID…, 36 characters. */
  secretId: string
  secretKey: string
  /** SmsSdkAppId: 1400 followed by six digits. */
  sdkAppId: string
  /** The approved signature (签名), e.g. 上海远帆物流. */
  signName: string
  region: string
  /** https://sms.tencentcloudapi.com in production; a loopback server in tests. */
  endpoint: string
}

export interface SmsTemplateMessage {
  /** A mainland mobile number, 11 digits (sent as +86…). */
  to: string
  /** The approved template's numeric id. */
  templateId: string
  /** The template's {1} {2} … in order. */
  params: string[]
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/** The Authorization header of a request to `host` at `timestamp` (seconds) with `payload`. */
export function tc3Authorization(
  secretId: string,
  secretKey: string,
  host: string,
  timestamp: number,
  payload: string,
  service = SERVICE,
): string {
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10)
  const signedHeaders = 'content-type;host'
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${host}\n`,
    signedHeaders,
    sha256(payload),
  ].join('\n')
  const scope = `${date}/${service}/tc3_request`
  const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256(canonicalRequest)].join('\n')
  const signing = hmac(hmac(hmac(`TC3${secretKey}`, date), service), 'tc3_request')
  const signature = createHmac('sha256', signing).update(stringToSign, 'utf8').digest('hex')
  return `TC3-HMAC-SHA256 Credential=${secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}

/** Per-number and request error codes Tencent answers that sending again later may cure. */
const RETRYABLE = [
  'LimitExceeded.', // daily / 30 s / 1 h per-number limits, app concurrency
  'InternalError.',
  'RequestLimitExceeded',
  'FailedOperation.InsufficientBalanceInSmsPackage',
]

function classify(code: string, message: string) {
  const reason = `Tencent SMS ${code}: ${message}`.slice(0, 500)
  return RETRYABLE.some((p) => code.startsWith(p)) ? retryable(reason) : final(reason)
}

/** Sends one template SMS; resolves with the provider's serial number, or throws a DeliveryFailure. */
export async function sendTencentSms(
  config: TencentSmsConfig,
  message: SmsTemplateMessage,
  now: () => number = Date.now,
): Promise<string> {
  if (!/^1\d{10}$/.test(message.to)) throw final(`Tencent SMS: not a mainland mobile number`)
  const payload = JSON.stringify({
    PhoneNumberSet: [`+86${message.to}`],
    SmsSdkAppId: config.sdkAppId,
    SignName: config.signName,
    TemplateId: message.templateId,
    TemplateParamSet: message.params,
  })
  const url = new URL(config.endpoint)
  const timestamp = Math.floor(now() / 1000)
  const { body } = await exchange('Tencent SMS', `${url.origin}/`, {
    method: 'POST',
    headers: {
      Authorization: tc3Authorization(config.secretId, config.secretKey, url.host, timestamp, payload),
      'Content-Type': CONTENT_TYPE,
      'X-TC-Action': 'SendSms',
      'X-TC-Timestamp': String(timestamp),
      'X-TC-Version': VERSION,
      'X-TC-Region': config.region,
    },
    body: payload,
  })
  const response = (body as { Response?: Record<string, unknown> }).Response
  if (!response) throw retryable('Tencent SMS: answer without Response')
  const error = response.Error as { Code?: string; Message?: string } | undefined
  if (error) throw classify(String(error.Code), String(error.Message ?? ''))
  const status = (response.SendStatusSet as { Code?: string; Message?: string; SerialNo?: string }[] | undefined)?.[0]
  if (!status) throw retryable('Tencent SMS: answer without SendStatusSet')
  if (status.Code !== 'Ok') throw classify(String(status.Code), String(status.Message ?? ''))
  return String(status.SerialNo ?? '')
}
