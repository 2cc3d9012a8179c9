import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelContext, OutboxMessage } from '../../server/jobs/channels.ts'
import { DeliveryFailure } from '../../server/jobs/providers/failure.ts'
import { smsChannel, wechatChannel } from '../../server/jobs/providers/register.ts'
import { DEFAULT_SETTINGS, loadMessaging, saveMessaging } from '../../server/jobs/providers/settings.ts'
import { sendTencentSms, type TencentSmsConfig } from '../../server/jobs/providers/tencentSms.ts'
import { forgetWechatTokens, sendWechatTemplate, type WechatConfig } from '../../server/jobs/providers/wechat.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { type FakeTencentSms, type FakeWechat, fakeTencentSms, fakeWechat } from '../support/fake-providers.ts'

const test = setupTestApp()

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

describe("the sms and wechat channels send with the message's own tenant's settings", () => {
  let sms: FakeTencentSms
  let wx: FakeWechat
  const ids: Record<string, number> = {}
  beforeAll(async () => {
    sms = await fakeTencentSms({ [DEMO_KEY.id]: DEMO_KEY.secret, [ACME_KEY.id]: ACME_KEY.secret })
    wx = await fakeWechat({
      wx8c4f1e2d3b6a7c90: 'demoAppSecret0123456789abcdef0000',
      wx1a2b3c4d5e6f7a8b: 'acmeAppSecretfedcba98765432100000',
    })
    wx.templates.add('TmplOrderConfirmed_8nQ2vXkP4rLs')
    wx.templates.add('AcmeOrderStatus_Zy81')
    wx.followers.add('oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe')
    wx.followers.add('oQ2mK8Tn6vBx4ZcR1yWp9sLd3fGh')
    const db = test.database.db
    for (const code of ['demo', 'acme']) {
      ids[code] = (await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id
    }
    const demo = (code: string) => code === 'demo'
    for (const code of ['demo', 'acme']) {
      await withTenant(db, ids[code] as number, (trx) =>
        saveMessaging(
          trx,
          ids[code] as number,
          {
            ...DEFAULT_SETTINGS,
            smsEnabled: true,
            smsSecretId: demo(code) ? DEMO_KEY.id : ACME_KEY.id,
            smsSdkAppId: demo(code) ? '1400787878' : '1400112233',
            smsSignName: demo(code) ? '上海远帆物流' : '宁波艾克米货运',
            smsEndpoint: sms.url,
            smsTemplateVerificationCode: demo(code) ? '1849321' : '2200114',
            smsTemplateNotification: demo(code) ? '1849400' : '2200115',
            wechatEnabled: true,
            wechatAppId: demo(code) ? 'wx8c4f1e2d3b6a7c90' : 'wx1a2b3c4d5e6f7a8b',
            wechatEndpoint: wx.url,
            wechatTemplateOrderStatus: demo(code) ? 'TmplOrderConfirmed_8nQ2vXkP4rLs' : 'AcmeOrderStatus_Zy81',
          },
          {
            smsSecretKey: demo(code) ? DEMO_KEY.secret : ACME_KEY.secret,
            wechatAppSecret: demo(code) ? 'demoAppSecret0123456789abcdef0000' : 'acmeAppSecretfedcba98765432100000',
          },
        ),
      )
    }
  })
  afterAll(async () => {
    await sms.close()
    await wx.close()
  })

  const context = (tenant: string): ChannelContext => ({
    tenant: { id: ids[tenant] as number, code: tenant, nameZh: '', nameEn: '', host: 'localhost', settings: {} },
    db: test.database.db,
    env: {},
    dataDir: '/nonexistent',
    log: { info() {}, warn() {} },
  })
  const message = (
    tenant: string,
    kind: string,
    to: string,
    payload: Record<string, unknown>,
    body?: object,
  ): OutboxMessage => ({
    id: 1,
    tenantId: ids[tenant] as number,
    kind,
    to,
    payload: { to, ...payload },
    ...(body ? { body: body as OutboxMessage['body'] } : {}),
    attempt: 1,
    maxAttempts: 5,
    createdAt: new Date(0),
  })

  it('stores the secrets sealed: the row holds neither secret in clear, and they open for their tenant only', async () => {
    const row = await test.database.db
      .selectFrom('tenant_messaging')
      .selectAll()
      .where('tenant_id', '=', ids.demo as number)
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(DEMO_KEY.secret)
    expect(JSON.stringify(row)).not.toContain('demoAppSecret0123456789abcdef0000')
    expect((await loadMessaging(test.database.db, ids.demo as number)).smsSecretKey).toBe(DEMO_KEY.secret)
    // demo's sealed secret copied onto acme's row does not open there.
    await test.database.db
      .updateTable('tenant_messaging')
      .set({ sms_secret_sealed: row.sms_secret_sealed })
      .where('tenant_id', '=', ids.acme as number)
      .execute()
    await expect(loadMessaging(test.database.db, ids.acme as number)).rejects.toThrow()
    // acme's own secret saved again opens again.
    const acme = await test.database.db
      .selectFrom('tenant_messaging')
      .select('settings')
      .where('tenant_id', '=', ids.acme as number)
      .executeTakeFirstOrThrow()
    await withTenant(test.database.db, ids.acme as number, (trx) =>
      saveMessaging(
        trx,
        ids.acme as number,
        { ...DEFAULT_SETTINGS, ...acme.settings },
        { smsSecretKey: ACME_KEY.secret },
      ),
    )
    expect((await loadMessaging(test.database.db, ids.acme as number)).smsSecretKey).toBe(ACME_KEY.secret)
  })

  it("a verification code goes out with each tenant's own key, app, signature and template", async () => {
    sms.arrived.length = 0
    const sealedBody = { text: '【上海远帆物流】您的验证码是604182，10分钟内有效。', params: ['604182', '10'] }
    expect(
      await smsChannel.send(
        message('demo', 'sms', '13816881234', { template: 'verificationCode' }, sealedBody),
        context('demo'),
      ),
    ).toEqual({ ok: true, detail: '2640:1' })
    expect(
      (
        await smsChannel.send(
          message('acme', 'sms', '13916880000', { template: 'notification', params: ['WB2026112700017'] }),
          context('acme'),
        )
      ).ok,
    ).toBe(true)
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
      {
        secretId: ACME_KEY.id,
        body: {
          PhoneNumberSet: ['+8613916880000'],
          SmsSdkAppId: '1400112233',
          SignName: '宁波艾克米货运',
          TemplateId: '2200115',
          TemplateParamSet: ['WB2026112700017'],
        },
      },
    ])
  })

  it('a WeChat template goes to the seeded openid with the tenant\'s own app; an unbound user is a final "not bound"', async () => {
    const db = test.database.db
    const entadmin = await db
      .selectFrom('app_user')
      .select('wechat_openid')
      .where('tenant_id', '=', ids.demo as number)
      .where('username', '=', 'entadmin')
      .executeTakeFirstOrThrow()
    expect(entadmin.wechat_openid).toBe('oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe')
    const params = { first: '您的订单已确认', keyword1: 'WB2026112700017', remark: '上海 → 洛杉矶' }
    expect(
      await wechatChannel.send(
        message('demo', 'wechat', entadmin.wechat_openid ?? '', { template: 'orderStatus', params }),
        context('demo'),
      ),
    ).toEqual({ ok: true })
    expect(
      await wechatChannel.send(
        message('acme', 'wechat', 'oQ2mK8Tn6vBx4ZcR1yWp9sLd3fGh', { template: 'orderStatus', params }),
        context('acme'),
      ),
    ).toEqual({ ok: true })
    expect(wx.tokenRequests).toEqual(['wx8c4f1e2d3b6a7c90', 'wx1a2b3c4d5e6f7a8b'])
    expect(wx.arrived.map((a) => [a.appId, a.body.touser, a.body.template_id])).toEqual([
      ['wx8c4f1e2d3b6a7c90', 'oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe', 'TmplOrderConfirmed_8nQ2vXkP4rLs'],
      ['wx1a2b3c4d5e6f7a8b', 'oQ2mK8Tn6vBx4ZcR1yWp9sLd3fGh', 'AcmeOrderStatus_Zy81'],
    ])
    expect(
      await wechatChannel.send(message('demo', 'wechat', '', { template: 'orderStatus', params }), context('demo')),
    ).toEqual({
      ok: false,
      retryable: false,
      reason: 'WeChat: not bound (the user has no openid under this official account)',
    })
    expect(
      await wechatChannel.send(
        message('demo', 'wechat', 'oX7Lh6UnsubscribedUser00000', { template: 'orderStatus', params }),
        context('demo'),
      ),
    ).toEqual({
      ok: false,
      retryable: false,
      reason: 'WeChat 43004: require subscribe',
    })
    expect(
      await wechatChannel.send(
        message('demo', 'wechat', entadmin.wechat_openid ?? '', { template: 'quote', params }),
        context('demo'),
      ),
    ).toEqual({
      ok: false,
      retryable: false,
      reason: 'WeChat template quote is not configured',
    })
  })

  it('a tenant without settings fails its messages finally, with the reason', async () => {
    await test.database.db
      .deleteFrom('tenant_messaging')
      .where('tenant_id', '=', ids.acme as number)
      .execute()
    expect(
      await smsChannel.send(
        message('acme', 'sms', '13916880000', { template: 'notification', params: [] }),
        context('acme'),
      ),
    ).toEqual({
      ok: false,
      retryable: false,
      reason: 'SMS is not configured for this site',
    })
  })
})

describe("/messagingSet: the tenant's messaging settings", () => {
  const call = (
    method: 'GET' | 'POST',
    url: string,
    token: string,
    payload?: object,
    language = 'en_US',
    host = 'localhost',
  ) =>
    test.app.inject({
      method,
      url,
      headers: { host, language, authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    })

  it("refuses WeChat on without an app id, and a malformed app id, in the caller's language", async () => {
    const token = await test.login('opadmin')
    const en = (
      await call('POST', '/api/b2b/messaging/settings/save', token, { wechatEnabled: true, wechatAppSecret: 'x' })
    ).json()
    expect(en.code).toBe('validation')
    expect(en.fieldErrors ?? en.content?.fieldErrors ?? en).toBeDefined()
    expect(JSON.stringify(en)).toContain('The AppID is required when WeChat messages are on')
    const zh = (await call('POST', '/api/b2b/messaging/settings/save', token, { wechatEnabled: true }, 'zh_CN')).json()
    expect(JSON.stringify(zh)).toContain('启用微信公众号时必须填写 AppID')
    const bad = (await call('POST', '/api/b2b/messaging/settings/save', token, { wechatAppId: 'wx123' })).json()
    expect(JSON.stringify(bad)).toContain('An official account AppID is wx followed by 16 hexadecimal characters')
  })

  it('saves the settings, answers the secrets masked, keeps a secret sent back masked, and refuses a stale version', async () => {
    const token = await test.login('opadmin')
    const saved = (
      await call('POST', '/api/b2b/messaging/settings/save', token, {
        wechatEnabled: true,
        wechatAppId: 'wx8c4f1e2d3b6a7c90',
        wechatAppSecret: 'demoAppSecret0123456789abcdef9f3c',
        wechatTemplateOrderStatus: 'TmplOrderConfirmed_8nQ2vXkP4rLs',
      })
    ).json()
    expect(saved.code, JSON.stringify(saved)).toBe('0000')
    expect(saved.content.wechatAppSecret).toBe('••••9f3c')
    expect(JSON.stringify(saved)).not.toContain('demoAppSecret0123456789abcdef9f3c')
    const page = (await call('POST', '/api/b2b/messaging/settings/list', token, { pageNum: 1, pageSize: 1 })).json()
    const row = page.content.list[0]
    expect([row.wechatAppId, row.wechatAppSecret, page.content.total]).toEqual(['wx8c4f1e2d3b6a7c90', '••••9f3c', 1])
    const again = (
      await call('POST', '/api/b2b/messaging/settings/save', token, {
        ...row,
        wechatTemplateQuote: 'TmplQuoteSent_3kLp',
      })
    ).json()
    expect(again.code, JSON.stringify(again)).toBe('0000')
    const tenantId = row.id as number
    expect((await loadMessaging(test.database.db, tenantId)).wechatAppSecret).toBe('demoAppSecret0123456789abcdef9f3c')
    const stale = (await call('POST', '/api/b2b/messaging/settings/save', token, { ...row })).json()
    expect(stale.code).toBe('330002')
    // Another tenant's id is not found; acme's administrator sees acme's own (empty) settings.
    expect((await call('GET', `/api/b2b/messaging/settings/detail?id=${tenantId + 1000}`, token)).json().code).toBe(
      '404',
    )
    const acme = await test.login('opadmin', 'acme.localhost')
    const acmePage = (
      await call(
        'POST',
        '/api/b2b/messaging/settings/list',
        acme,
        { pageNum: 1, pageSize: 1 },
        'en_US',
        'acme.localhost',
      )
    ).json()
    expect(acmePage.content.list[0].wechatAppId).not.toBe('wx8c4f1e2d3b6a7c90')
  })

  it('a customer may not read or change them', async () => {
    const token = await test.login('entadmin')
    expect(
      (await call('POST', '/api/b2b/messaging/settings/list', token, { pageNum: 1, pageSize: 1 })).json().code,
    ).toBe('220000')
    expect((await call('POST', '/api/b2b/messaging/settings/save', token, { wechatEnabled: false })).json().code).toBe(
      '220000',
    )
  })
})
