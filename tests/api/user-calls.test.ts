import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { caller, idIn } from '../support/calls.ts'

/**
 * SPEC §7's user calls of issue #21 (screens/account.yaml, server/domain/clients/userCalls.ts): an
 * enterprise's accounts, the remembered services, the display currency and the price-alert e-mail.
 */

const t = setupTestApp()
const USERS = '/api/b2b/user/getUsersByCompanyId'
const REMEMBERED = '/api/b2b/user/getRememberServices'
const REMEMBER = '/api/b2b/user/changeRememberServices'
const CURRENCY = '/api/b2b/user/change/individuationCurrency'
const PRICE_EMAIL = '/api/b2b/user/change/pricePushEmail'
const ACME = 'acme.localhost'

const call = caller(t)
const companyId = (name: string, tenant = 'demo') => idIn(t, 'company', 'name', name, tenant)

let entadmin = ''
let opadmin = ''
let minghui = 0
let haitong = 0

beforeAll(async () => {
  entadmin = await t.login('entadmin')
  opadmin = await t.login('opadmin')
  minghui = await companyId('杭州明辉纺织品进出口有限公司')
  haitong = await companyId('宁波海通汽车零部件有限公司')
})

describe('GET /b2b/user/getUsersByCompanyId', () => {
  it('answers the caller’s own enterprise’s enabled accounts, as plain JSON', async () => {
    const own = await call('GET', USERS, entadmin)
    expect(own.headers['content-type']).toContain('application/json')
    expect(own.json().content).toEqual([
      expect.objectContaining({ realName: 'Chen Jing', mobile: '13857112345' }),
      expect.objectContaining({ realName: 'Wang Fang' }),
    ])
    const named = await call('GET', `${USERS}?companyId=${minghui}`, entadmin)
    expect(named.json().content).toEqual(own.json().content)
  })

  it('never answers another enterprise’s or tenant’s accounts to an enterprise user', async () => {
    expect((await call('GET', `${USERS}?companyId=${haitong}`, entadmin)).json().code).toBe('404')
    const acme = await companyId('东莞恒达电子有限公司', 'acme')
    expect((await call('GET', `${USERS}?companyId=${acme}`, entadmin)).json().code).toBe('404')
  })

  it('lets an operator read any customer enterprise of the tenant, and only those', async () => {
    const response = await call('GET', `${USERS}?companyId=${haitong}`, opadmin)
    expect((response.json().content as { realName: string }[]).map((u) => u.realName)).toEqual(['Sun Hao', 'Zhou Qian'])
    const acme = await companyId('东莞恒达电子有限公司', 'acme')
    expect((await call('GET', `${USERS}?companyId=${acme}`, opadmin)).json().code).toBe('404')
    const missing = await call('GET', USERS, opadmin, undefined, { language: 'en' })
    expect(missing.json().content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'companyId', message: 'Required' }),
    ])
  })

  it('answers a malformed id in the caller’s language', async () => {
    for (const [language, message] of [
      ['en', 'Invalid format'],
      ['zh', '格式不正确'],
    ] as const) {
      const response = await call('GET', `${USERS}?companyId=two`, entadmin, undefined, { language })
      expect(response.json().content.fieldErrors).toEqual([expect.objectContaining({ field: 'companyId', message })])
    }
  })

  it('needs a session', async () => {
    expect((await call('GET', USERS, null)).json().code).toBe('401')
  })
})

describe('remembered services', () => {
  it('starts empty, remembers what the user ticked for that user only, and replaces it', async () => {
    expect((await call('GET', REMEMBERED, entadmin)).json().content).toEqual({})
    const ticked = { needPickUp: true, customsDeclaration: ['export'], insurance: false, warehouseServices: ['pallet'] }
    const saved = await call('POST', REMEMBER, entadmin, ticked)
    expect(saved.json().content).toEqual(ticked)
    expect((await call('GET', REMEMBERED, entadmin)).json().content).toEqual(ticked)
    // Another user of the same enterprise, and of another tenant, remember their own.
    const entop = await t.login('entop')
    expect((await call('GET', REMEMBERED, entop)).json().content).toEqual({})
    const acme = await t.login('entadmin', ACME)
    expect((await call('GET', REMEMBERED, acme, undefined, { host: ACME })).json().content).toEqual({})
    await call('POST', REMEMBER, entadmin, { deliveryToConsignee: true })
    expect((await call('GET', REMEMBERED, entadmin)).json().content).toEqual({ deliveryToConsignee: true })
  })

  it('refuses what is not a service, or not one of its values, in the caller’s language', async () => {
    const cases = [
      [{ pickUpAddress: 'x' }, 'pickUpAddress', 'This field is not allowed', '不支持该字段'],
      [
        { customsDeclaration: ['transit'] },
        'customsDeclaration[0]',
        'Must be one of: export, import',
        '请从以下选项中选择：export, import',
      ],
      [{ needPickUp: 'yes' }, 'needPickUp', 'Must be yes or no', '请选择是或否'],
    ] as const
    for (const [body, field, en, zh] of cases)
      for (const [language, message] of [
        ['en', en],
        ['zh', zh],
      ] as const) {
        const response = await call('POST', REMEMBER, entadmin, body, { language })
        expect(response.json().code).toBe('validation')
        expect(response.json().content.fieldErrors).toEqual([expect.objectContaining({ field, message })])
      }
    expect((await call('GET', REMEMBERED, entadmin)).json().content).toEqual({ deliveryToConsignee: true })
  })
})

describe('display currency and price-alert e-mail', () => {
  it('changes the display currency, which the current user then carries', async () => {
    const response = await call('POST', CURRENCY, entadmin, { individuationCurrency: 'USD' })
    expect(response.json().content).toEqual({ state: true })
    const me = (await call('GET', '/api/b2b/user/getCurrentUserInfo', entadmin)).json().content
    expect(me.individuationCurrency).toBe('USD')
  })

  it('refuses a currency SPEC §9 does not list, and none, in the caller’s language', async () => {
    for (const [language, listed, required] of [
      ['en', 'Must be one of: CNY, USD, JPY, EUR, GBP, HKD, KRW, AUD, CAD', 'Required'],
      ['zh', '请从以下选项中选择：CNY, USD, JPY, EUR, GBP, HKD, KRW, AUD, CAD', '此项为必填项'],
    ] as const) {
      const bad = await call('POST', CURRENCY, entadmin, { individuationCurrency: 'RMB' }, { language })
      expect(bad.json().content.fieldErrors).toEqual([
        expect.objectContaining({ field: 'individuationCurrency', message: listed }),
      ])
      const none = await call('POST', CURRENCY, entadmin, {}, { language })
      expect(none.json().content.fieldErrors).toEqual([
        expect.objectContaining({ field: 'individuationCurrency', message: required }),
      ])
    }
    const me = (await call('GET', '/api/b2b/user/getCurrentUserInfo', entadmin)).json().content
    expect(me.individuationCurrency).toBe('USD')
  })

  it('keeps the price-alert e-mail, checked as an e-mail address', async () => {
    const response = await call('POST', PRICE_EMAIL, entadmin, { pricePushEmail: 'Pricing@Minghui-Textile.example' })
    expect(response.json().content).toEqual({ state: true })
    const row = await t.database.db
      .selectFrom('app_user')
      .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
      .select('app_user.price_push_email')
      .where('tenant.code', '=', 'demo')
      .where('app_user.username', '=', 'entadmin')
      .executeTakeFirstOrThrow()
    expect(row.price_push_email).toBe('pricing@minghui-textile.example')
    for (const [language, message] of [
      ['en', 'Invalid e-mail address'],
      ['zh', '邮箱格式错误'],
    ] as const) {
      const bad = await call('POST', PRICE_EMAIL, entadmin, { pricePushEmail: 'pricing-at-minghui' }, { language })
      expect(bad.json().content.fieldErrors).toEqual([expect.objectContaining({ field: 'pricePushEmail', message })])
      const long = await call(
        'POST',
        PRICE_EMAIL,
        entadmin,
        { pricePushEmail: `${'a'.repeat(120)}@example.com` },
        { language },
      )
      expect(long.json().code).toBe('validation')
    }
  })
})
