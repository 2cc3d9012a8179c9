import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

/** Pallet inquiries (issue #8, SPEC §3, §5): stored by the engine at POST /booking/inquiry/save. */
const test = setupTestApp()

type Method = 'GET' | 'POST'
const call = (method: Method, url: string, token: string | undefined, payload?: object, host = 'localhost') =>
  test.app.inject({
    method,
    url,
    headers: { host, language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  })

async function ok(method: Method, url: string, token: string | undefined, payload?: object, host = 'localhost') {
  const body = (await call(method, url, token, payload, host)).json()
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

/** A refused save: its code and each field's locale key and English text. */
async function refused(payload: object, token: string) {
  const response = await call('POST', '/api/booking/inquiry/save', token, payload)
  const body = response.json()
  return {
    status: response.statusCode,
    code: body.code as string,
    fields: ((body.content?.fieldErrors ?? []) as { field: string; key: string; message: string }[]).map(
      ({ field, key, message }) => ({ field, key, message }),
    ),
  }
}

const countInquiries = async () =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from inquiry`.execute(test.database.db)).rows[0]?.n ?? Number.NaN,
  )

/** A sea inquiry Shanghai → Los Angeles with two container types, as the form sends it. */
const seaInquiry = () => ({
  transportModes: [1],
  origin: 'CNSHA',
  destination: 'USLAX',
  tradeRole: 'seller',
  tradeTerm: 'FOB',
  goodsReady: 'withinTwoWeeks',
  needPickUp: true,
  pickUpAddress: 'No. 88 Wenyi West Road, Xihu District, Hangzhou',
  containers: [
    { containerType: '22G1', quantity: 2 },
    { containerType: '45G1', quantity: 1 },
  ],
  packages: [
    {
      description: 'Cotton bed linen, printed',
      packageCount: 420,
      grossWeight: 8820.5,
      goodsCount: 8400,
      length: 60,
      width: 40,
      height: 35,
      fobPrice: '4.850',
    },
  ],
  customsDeclaration: ['export'],
  contractNo: 'MH-2026-0318',
  preferredCarrier: 'MAEU',
  contactName: 'Chen Jing',
  contactEmail: 'chen.jing@minghui-textile.example',
  contactPhone: '+86 571 8765 4321',
})

let customer: string
let operator: string

beforeAll(async () => {
  customer = await test.login('entadmin')
  operator = await test.login('opadmin')
})

describe('submitting a pallet inquiry', () => {
  it('stores a valid sea inquiry with two container types: INQ number, the customer company, state submitted', async () => {
    const before = await countInquiries()
    const saved = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry())
    expect(saved.inquiryNo).toMatch(/^INQ\d{6}\d+$/)
    expect(saved.state).toBe('submitted')
    expect(saved.containers).toEqual([
      { containerType: '22G1', quantity: 2 },
      { containerType: '45G1', quantity: 1 },
    ])
    const { rows } = await sql<{ company_id: number }>`
      select company_id from app_user where username = 'entadmin'
        and tenant_id = (select id from tenant where code = 'demo')`.execute(test.database.db)
    expect(saved.customerCompany).toBe(rows[0]?.company_id)
    expect(await countInquiries()).toBe(before + 1)

    // The customer finds it in /myInquiries, the operator in /InquiryList with its history.
    const mine = await ok('POST', '/api/booking/inquiry/listByCompany', customer, {
      searchParams: { inquiryNo: saved.inquiryNo },
    })
    expect(mine.list.map((r: { id: number }) => r.id)).toEqual([saved.id])
    const detail = await ok('GET', `/api/booking/inquiry/detail?id=${saved.id}`, operator)
    expect(detail).toMatchObject({ id: saved.id, origin: 'CNSHA', destination: 'USLAX', tradeTerm: 'FOB' })
    expect(detail.labels.origin).toBe('Shanghai')
    expect(detail.history[0]).toMatchObject({ action: 'create' })
  })

  it('searches the operator list by transport mode, one of several a record may hold', async () => {
    const both = await ok('POST', '/api/booking/inquiry/save', customer, {
      ...seaInquiry(),
      transportModes: [1, 3],
      tradeTerm: 'FCA',
      destination: 'DEHAM',
    })
    const rail = await ok('POST', '/api/booking/inquiry/list', operator, {
      searchParams: { transportModes: 3 },
      pageSize: 200,
    })
    const ids = rail.list.map((r: { id: number }) => r.id)
    expect(ids).toContain(both.id)
    expect(rail.list.every((r: { transportModes: number[] }) => r.transportModes.includes(3))).toBe(true)
    const air = await ok('POST', '/api/booking/inquiry/list', operator, { searchParams: { transportModes: 2 } })
    expect(air.list.map((r: { id: number }) => r.id)).not.toContain(both.id)
  })

  const refusals: [
    string,
    (base: Record<string, unknown>) => object,
    { field: string; key: string; message: string },
  ][] = [
    [
      'no transport type',
      (b) => ({ ...b, transportModes: [] }),
      { field: 'transportModes', key: 'rule.transportModeRequired', message: 'Choose at least one transport type' },
    ],
    [
      'no container quantity',
      (b) => ({ ...b, containers: [] }),
      { field: 'containers', key: 'rule.containersRequired', message: 'Add at least one container quantity' },
    ],
    [
      'an incomplete package line',
      (b) => ({ ...b, packages: [{ description: 'Cotton bed linen', packageCount: 420 }] }),
      { field: 'packages[0].grossWeight', key: 'validation.required', message: 'Required' },
    ],
    [
      'FOB for air',
      (b) => ({ ...b, transportModes: [2], origin: 'CNSHA', destination: 'USLAX' }),
      {
        field: 'tradeTerm',
        key: 'rule.tradeTermSeaOnly',
        message:
          'FAS, FOB, CFR and CIF are for sea transport only (Incoterms 2020); choose another trade term for air, rail or truck',
      },
    ],
    [
      'the destination equal to the origin',
      (b) => ({ ...b, destination: 'CNSHA' }),
      {
        field: 'destination',
        key: 'rule.destinationDiffersFromOrigin',
        message: 'Destination must differ from the origin',
      },
    ],
  ]
  it.each(refusals)('refuses %s with the rule message and stores nothing', async (_name, change, expected) => {
    const before = await countInquiries()
    const answer = await refused(change(seaInquiry()), customer)
    expect(answer.status).toBe(400)
    expect(answer.code).toBe('validation')
    expect(answer.fields).toContainEqual(expected)
    expect(await countInquiries()).toBe(before)
  })

  it('answers the rule message in the caller language', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/booking/inquiry/save',
      headers: { host: 'localhost', language: 'zh_CN', authorization: `Bearer ${customer}` },
      payload: { ...seaInquiry(), transportModes: [4] },
    })
    const fields = response.json().content.fieldErrors as { field: string; message: string }[]
    expect(fields.find((f) => f.field === 'tradeTerm')?.message).toContain('仅适用于海运')
  })

  it('refuses a visitor and a provider user without palletInquiry', async () => {
    expect((await call('POST', '/api/booking/inquiry/save', undefined, seaInquiry())).statusCode).toBe(401)
    const answer = (await call('POST', '/api/booking/inquiry/save', await test.login('opcs'), seaInquiry())).json()
    expect(answer.code).toBe('220000')
  })
})

describe("the form's UI rules hold on the server (screens/inquiry.yaml, schemas/inquiry.yaml)", () => {
  it('ignores what waits for origin and destination when they are not both sent: the required ones then count as missing', async () => {
    const before = await countInquiries()
    const { destination: _left, ...withoutDestination } = seaInquiry()
    const answer = await refused(withoutDestination, customer)
    expect(answer.status).toBe(400)
    const missing = answer.fields.filter((f) => f.key === 'validation.required').map((f) => f.field)
    // Sent, but disabled until the route is chosen: not taken, so the required ones are missing.
    expect(missing).toEqual(expect.arrayContaining(['destination', 'tradeRole', 'tradeTerm', 'goodsReady']))
    expect(missing).not.toContain('origin')
    expect(await countInquiries()).toBe(before)
    // The same body with the destination is taken whole.
    const saved = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry())
    expect(saved).toMatchObject({ tradeTerm: 'FOB', goodsReady: 'withinTwoWeeks', contractNo: 'MH-2026-0318' })
  })

  it('ignores the goods value without insurance, and stores it with insurance', async () => {
    const value = { goodsValue: '125000.000', goodsValueCurrency: 'USD' }
    const without = await ok('POST', '/api/booking/inquiry/save', customer, { ...seaInquiry(), ...value })
    expect(without.goodsValue ?? null).toBeNull()
    expect(without.goodsValueCurrency ?? null).toBeNull()
    const insured = await ok('POST', '/api/booking/inquiry/save', customer, {
      ...seaInquiry(),
      ...value,
      insurance: true,
    })
    expect(insured).toMatchObject({ insurance: true, goodsValueCurrency: 'USD' })
    expect(Number(insured.goodsValue)).toBe(125000)
  })
})

describe('who sees an inquiry', () => {
  it('answers 404 to another company of the tenant and to another tenant', async () => {
    const saved = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry())
    // A second customer company of the demo tenant, with a user holding entadmin's role and password.
    const db = test.database.db
    await sql`
      with t as (select id from tenant where code = 'demo'),
           c as (insert into company (tenant_id, name, name_en, company_type)
                 select id, '宁波海天贸易有限公司', 'Ningbo Haitian Trading Co., Ltd.', 2 from t returning id, tenant_id),
           u as (insert into app_user (tenant_id, company_id, username, real_name, email, password_hash, company_user_type)
                 select c.tenant_id, c.id, 'haitian', 'Zhou Qiang', 'haitian@demo.example', a.password_hash, 2
                 from c, app_user a where a.username = 'entadmin' and a.tenant_id = c.tenant_id returning id, tenant_id)
      insert into user_role (tenant_id, user_id, role_id)
      select u.tenant_id, u.id, r.role_id from u, user_role r
      where r.user_id = (select id from app_user where username = 'entadmin' and tenant_id = u.tenant_id)`.execute(db)
    const stranger = await test.login('haitian')
    expect((await call('GET', `/api/booking/inquiry/getItem?id=${saved.id}`, stranger)).json().code).toBe('404')
    const theirs = await ok('POST', '/api/booking/inquiry/listByCompany', stranger, { pageSize: 200 })
    expect(theirs.list.map((r: { id: number }) => r.id)).not.toContain(saved.id)
    // Nor can they withdraw it.
    const attempt = { id: saved.id, version: saved.version, transition: 'withdraw' }
    expect((await call('POST', '/api/inquiry/transition', stranger, attempt)).json().code).toBe('404')

    const acmeCustomer = await test.login('entadmin', 'acme.localhost')
    const acmeOperator = await test.login('opadmin', 'acme.localhost')
    expect(
      (
        await call('GET', `/api/booking/inquiry/getItem?id=${saved.id}`, acmeCustomer, undefined, 'acme.localhost')
      ).json().code,
    ).toBe('404')
    expect(
      (
        await call('GET', `/api/booking/inquiry/detail?id=${saved.id}`, acmeOperator, undefined, 'acme.localhost')
      ).json().code,
    ).toBe('404')
    expect((await ok('GET', `/api/booking/inquiry/getItem?id=${saved.id}`, customer)).state).toBe('submitted')
  })
})

describe('inquiry states', () => {
  it('withdraw moves the inquiry and its open quotes to withdrawn, audited on each', async () => {
    const saved = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry())
    // An operator's draft quote answering it (stored directly: the quote editor is another flow's).
    const db = test.database.db
    const { rows } = await sql<{ id: number }>`
      insert into quote (tenant_id, inquiry, state, version, created_by)
      select tenant_id, id, 'draft', 1, created_by from inquiry where id = ${saved.id} returning id`.execute(db)
    const quoteId = rows[0]?.id
    const withdrawn = await ok('POST', '/api/inquiry/transition', customer, {
      id: saved.id,
      version: saved.version,
      transition: 'withdraw',
    })
    expect(withdrawn.state).toBe('withdrawn')
    const quote = await sql<{ state: string }>`select state from quote where id = ${quoteId}`.execute(db)
    expect(quote.rows[0]?.state).toBe('withdrawn')
    const audit = await sql<{ transition: string }>`
      select transition from audit_log where entity = 'quote' and record_id = ${quoteId}`.execute(db)
    expect(audit.rows.map((r) => r.transition)).toContain('inquiryWithdrawn')

    // Withdrawn is final: a second withdraw, or a reject, is an illegal transition (320001).
    const again = await call('POST', '/api/inquiry/transition', customer, {
      id: saved.id,
      version: withdrawn.version,
      transition: 'withdraw',
    })
    expect(again.json().code).toBe('320001')
    const reject = await call('POST', '/api/inquiry/transition', operator, {
      id: saved.id,
      version: withdrawn.version,
      transition: 'reject',
    })
    expect(reject.json().code).toBe('320001')
  })

  it('the operator rejects a submitted inquiry with a reason (the transition input); the customer cannot', async () => {
    const saved = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry())
    const reason = 'No capacity on this lane before the goods are ready'
    const attempt = { id: saved.id, version: saved.version, transition: 'reject', input: { remark: reason } }
    expect((await call('POST', '/api/inquiry/transition', customer, attempt)).json().code).toBe('220000')
    // schemas/inquiryRejection.yaml: the reason is required, bounded, and nothing else is taken.
    const refusedInput = async (input: object | undefined) => {
      const body = (await call('POST', '/api/inquiry/transition', operator, { ...attempt, input })).json()
      expect(body.code).toBe('validation')
      return (body.content.fieldErrors as { field: string; key: string }[]).map((f) => [f.field, f.key])
    }
    expect(await refusedInput(undefined)).toEqual([['remark', 'validation.required']])
    expect(await refusedInput({ remark: '' })).toEqual([['remark', 'validation.required']])
    expect(await refusedInput({ remark: 'x'.repeat(501) })).toEqual([['remark', 'validation.maxLength']])
    expect(await refusedInput({ remark: reason, state: 'submitted' })).toEqual([['state', 'validation.unknownField']])
    const rejected = await ok('POST', '/api/inquiry/transition', operator, attempt)
    expect(rejected.state).toBe('rejected')
    const detail = await ok('GET', `/api/booking/inquiry/detail?id=${saved.id}`, operator)
    expect(detail.history[0]).toMatchObject({ action: 'transition', transition: 'reject', remark: reason })
    // A transition that asks for nothing takes nothing.
    const other = await ok('POST', '/api/booking/inquiry/save', customer, seaInquiry())
    const withdraw = { id: other.id, version: other.version, transition: 'withdraw', input: { remark: reason } }
    expect((await call('POST', '/api/inquiry/transition', customer, withdraw)).json().code).toBe('validation')
    expect((await ok('GET', `/api/booking/inquiry/getItem?id=${saved.id}`, customer)).state).toBe('rejected')
  })
})

describe('trade terms for the inquiry form', () => {
  it("answers the tenant's enabled terms of a party and mode, default first", async () => {
    const sea = await ok(
      'GET',
      '/api/booking/public/api/inquiry/tradeTerms?tradeParty=seller&transportMode=1',
      undefined,
    )
    const terms = sea.list.map((r: { tradeTerm: string }) => r.tradeTerm)
    expect(terms[0]).toBe('FOB')
    expect(sea.list[0]).toMatchObject({ isDefault: true, customsDeclaration: true, lockedCustomsDeclaration: true })
    expect(terms).toContain('CIF')
    expect(terms).not.toContain('DPU') // seeded disabled
    const air = await ok(
      'GET',
      '/api/booking/public/api/inquiry/tradeTerms?tradeParty=buyer&transportMode=2',
      undefined,
    )
    expect(air.list[0]).toMatchObject({ tradeTerm: 'FCA', isDefault: true })
    expect(air.list.some((r: { tradeTerm: string }) => ['FAS', 'FOB', 'CFR', 'CIF'].includes(r.tradeTerm))).toBe(false)
    // acme supports sea and air only.
    const acme = await ok(
      'GET',
      '/api/booking/public/api/inquiry/tradeTerms?transportMode=3',
      undefined,
      undefined,
      'acme.localhost',
    )
    expect(acme.list).toEqual([])
  })

  it('refuses a sea-only term configured for air, on the configuration screen too', async () => {
    const body = (
      await call('POST', '/api/b2b/tradeTerm/add', operator, {
        tradeParty: 'buyer',
        tradeTerm: 'CIF',
        transportMode: 4,
        enabled: true,
      })
    ).json()
    expect(body.code).toBe('validation')
    expect(body.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'tradeTerm', key: 'rule.tradeTermSeaOnly' }),
    )
    const answer = await call('GET', '/api/booking/public/api/inquiry/tradeTerms?transportMode=9', undefined)
    expect(answer.json().code).toBe('validation')
  })
})
