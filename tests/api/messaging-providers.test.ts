import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DeliveryFailure } from '../../server/jobs/providers/failure.ts'
import { sendTencentSms, type TencentSmsConfig } from '../../server/jobs/providers/tencentSms.ts'
import { forgetWechatTokens, sendWechatTemplate, type WechatConfig } from '../../server/jobs/providers/wechat.ts'
import { type FakeTencentSms, type FakeWechat, fakeTencentSms, fakeWechat } from '../support/fake-providers.ts'

const DEMO_KEY = { id: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE', secret: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLEKEY' }
const ACME_KEY = { id: 'AKIDa1b2c3d4e5f6g7h8i9j0k1l2m3ACMEKEY', secret: 'acmeSecretKey0123456789abcdefACMEKEY' }

async function failureOf(promise: Promise<unknown>): Promise<DeliveryFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DeliveryFailure)
  return error as DeliveryFailure
}

describe('Tencent Cloud SMS SendSms, signed TC3-HMAC-SHA256', () => {
  let sms: FakeTencentSms
  let config: TencentSmsConfig
  beforeAll(async () => {
    sms = await fakeTencentSms({ [DEMO_KEY.id]: DEMO_KEY.secret, [ACME_KEY.id]: ACME_KEY.secret })
    config = {
      secretId: DEMO_KEY.id,
      secretKey: DEMO_KEY.secret,
      sdkAppId: '1400787878',
      signName: '上海远帆物流',
      region: 'ap-guangzhou',
      endpoint: sms.url,
    }
  })
  afterAll(() => sms.close())
  afterEach(() => {
    sms.arrived.length = 0
    sms.refused.length = 0
    sms.script.length = 0
  })

  it('delivers a verification code with the template, signature and parameters the tenant configured', async () => {
    const serial = await sendTencentSms(config, { to: '13816881234', templateId: '1849321', params: ['604182', '10'] })
    expect(serial).toBe('2640:1')
    expect(sms.refused).toEqual([])
    expect(sms.arrived).toEqual([
      {
        secretId: DEMO_KEY.id,
        body: {
          PhoneNumberSet: ['+8613816881234'],
          SmsSdkAppId: '1400787878',
          SignName: '上海远帆物流',
          TemplateId: '1849321',
          TemplateParamSet: ['604182', '10'],
        },
      },
    ])
  })

  it('a wrong secret key is refused by the provider and is a final failure with its reason', async () => {
    const failure = await failureOf(
      sendTencentSms(
        { ...config, secretKey: 'not-the-key' },
        { to: '13816881234', templateId: '1849321', params: ['1'] },
      ),
    )
    expect(failure.retryable).toBe(false)
    expect(failure.reason).toBe(
      'Tencent SMS AuthFailure.SignatureFailure: The provided credentials could not be validated.',
    )
    expect(sms.arrived).toEqual([])
  })

  it('a 5xx and a per-number rate limit are retryable; a bad number and an unapproved template are final', async () => {
    sms.script.push({ status: 502 })
    const gateway = await failureOf(sendTencentSms(config, { to: '13816881234', templateId: '1849321', params: ['1'] }))
    expect([gateway.retryable, gateway.reason]).toEqual([true, 'Tencent SMS: HTTP 502'])
    // The retry goes through.
    await sendTencentSms(config, { to: '13816881234', templateId: '1849321', params: ['1'] })
    expect(sms.arrived).toHaveLength(1)

    sms.script.push({ code: 'LimitExceeded.PhoneNumberThirtySecondLimit', message: 'the number sent too often' })
    const limited = await failureOf(sendTencentSms(config, { to: '13816881234', templateId: '1849321', params: ['1'] }))
    expect([limited.retryable, limited.reason]).toEqual([
      true,
      'Tencent SMS LimitExceeded.PhoneNumberThirtySecondLimit: the number sent too often',
    ])
    sms.script.push({ code: 'InvalidParameterValue.IncorrectPhoneNumber', message: 'incorrect phone number' })
    const bad = await failureOf(sendTencentSms(config, { to: '13816881234', templateId: '1849321', params: ['1'] }))
    expect([bad.retryable, bad.reason]).toEqual([
      false,
      'Tencent SMS InvalidParameterValue.IncorrectPhoneNumber: incorrect phone number',
    ])
    sms.script.push({ code: 'FailedOperation.TemplateIncorrectOrUnapproved', message: 'template unapproved' })
    const template = await failureOf(sendTencentSms(config, { to: '13816881234', templateId: '9', params: [] }))
    expect(template.retryable).toBe(false)
    // Not a mainland mobile: refused before any request.
    const local = await failureOf(sendTencentSms(config, { to: '02161234567', templateId: '1849321', params: [] }))
    expect([local.retryable, local.reason]).toEqual([false, 'Tencent SMS: not a mainland mobile number'])
    expect(sms.arrived).toHaveLength(1)
  })

  it('a provider that cannot be reached is a retryable network failure', async () => {
    const failure = await failureOf(
      sendTencentSms({ ...config, endpoint: 'http://127.0.0.1:9' }, { to: '13816881234', templateId: '1', params: [] }),
    )
    expect(failure.retryable).toBe(true)
    expect(failure.reason).toMatch(/^Tencent SMS: network /)
  })
})

describe('WeChat official-account template messages', () => {
  let wx: FakeWechat
  let config: WechatConfig
  const OPENID = 'oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe'
  beforeAll(async () => {
    wx = await fakeWechat({ wx8c4f1e2d3b6a7c90: 'f1e2d3c4b5a69788f1e2d3c4b5a69788' })
    wx.followers.add(OPENID)
    wx.templates.add('TmplOrderConfirmed_8nQ2vXkP4rLs')
    config = { appId: 'wx8c4f1e2d3b6a7c90', appSecret: 'f1e2d3c4b5a69788f1e2d3c4b5a69788', endpoint: wx.url }
  })
  afterAll(() => wx.close())
  afterEach(() => {
    forgetWechatTokens()
    wx.arrived.length = 0
    wx.tokenRequests.length = 0
    wx.script.length = 0
  })
  const message = {
    touser: OPENID,
    templateId: 'TmplOrderConfirmed_8nQ2vXkP4rLs',
    url: 'https://demo.waybill.cn/orderDetail?id=42',
    data: { first: '您的订单已确认', keyword1: 'WB20261127001', remark: '上海 → 洛杉矶' },
  }

  it('fetches a token once, then sends template messages with it', async () => {
    expect(await sendWechatTemplate(config, message)).toBe('200228333')
    await sendWechatTemplate(config, { ...message, data: { first: '第二条' } })
    expect(wx.tokenRequests).toEqual(['wx8c4f1e2d3b6a7c90'])
    expect(wx.arrived.map((a) => a.body)).toEqual([
      {
        touser: OPENID,
        template_id: 'TmplOrderConfirmed_8nQ2vXkP4rLs',
        url: 'https://demo.waybill.cn/orderDetail?id=42',
        data: {
          first: { value: '您的订单已确认' },
          keyword1: { value: 'WB20261127001' },
          remark: { value: '上海 → 洛杉矶' },
        },
      },
      {
        touser: OPENID,
        template_id: 'TmplOrderConfirmed_8nQ2vXkP4rLs',
        url: message.url,
        data: { first: { value: '第二条' } },
      },
    ])
  })

  it('a token the platform expired mid-way is fetched again once and the message still arrives', async () => {
    await sendWechatTemplate(config, message)
    wx.expireTokens()
    await sendWechatTemplate(config, message)
    expect(wx.tokenRequests).toHaveLength(2)
    expect(wx.arrived).toHaveLength(2)
  })

  it('honours expires_in: a token past its expiry is not used again', async () => {
    let clock = Date.parse('2026-11-27T08:00:00Z')
    await sendWechatTemplate(config, message, () => clock)
    clock += 60 * 60_000 // an hour: the 7200 s token still lives
    await sendWechatTemplate(config, message, () => clock)
    expect(wx.tokenRequests).toHaveLength(1)
    clock += 56 * 60_000 // 1 h 56 min: within five minutes of expiry, refreshed first
    await sendWechatTemplate(config, message, () => clock)
    expect(wx.tokenRequests).toHaveLength(2)
  })

  it('an unsubscribed user and an unknown template are final failures with their reason; busy and 5xx retry', async () => {
    const gone = await failureOf(sendWechatTemplate(config, { ...message, touser: 'oX7Lh6UnsubscribedUser00000' }))
    expect([gone.retryable, gone.reason]).toEqual([false, 'WeChat 43004: require subscribe'])
    const template = await failureOf(sendWechatTemplate(config, { ...message, templateId: 'nope' }))
    expect([template.retryable, template.reason]).toEqual([false, 'WeChat 40037: invalid template_id'])
    wx.script.push({ errcode: -1, errmsg: 'system error' })
    const busy = await failureOf(sendWechatTemplate(config, message))
    expect([busy.retryable, busy.reason]).toEqual([true, 'WeChat -1: system error'])
    wx.script.push({ status: 503 })
    const down = await failureOf(sendWechatTemplate(config, message))
    expect([down.retryable, down.reason]).toEqual([true, 'WeChat template: HTTP 503'])
    await sendWechatTemplate(config, message)
    expect(wx.arrived).toHaveLength(1)
  })

  it('a user without an openid is a final failure "not bound", and a wrong secret is final too', async () => {
    const unbound = await failureOf(sendWechatTemplate(config, { ...message, touser: '' }))
    expect([unbound.retryable, unbound.reason]).toEqual([
      false,
      'WeChat: not bound (the user has no openid under this official account)',
    ])
    const secret = await failureOf(sendWechatTemplate({ ...config, appSecret: 'wrong' }, message))
    expect([secret.retryable, secret.reason]).toEqual([false, 'WeChat 40125: invalid appsecret'])
    expect(wx.arrived).toEqual([])
  })
})
