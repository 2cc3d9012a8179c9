import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '../../server/auth/password.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngineApi } from '../../server/engine/index.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { sessionOf } from '../support/session.ts'

/**
 * Enterprise certification (issue #21, SPEC §3 Enterprise, §4 review states, §5, §8 310004 / 310010): a
 * personal user applies, saves a draft and submits; the provider's operators approve or reject with a
 * remark; approval creates the enterprise and makes the applicant its administrator, all in one transaction.
 */
const test = setupTestApp()

type Method = 'GET' | 'POST'
const call = (method: Method, url: string, token: string, payload?: object, language = 'en_US', host = 'localhost') =>
  test.app.inject({
    method,
    url: `/api${url}`,
    headers: { host, language, authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  })

async function ok(method: Method, url: string, token: string, payload?: object, host = 'localhost') {
  const body = (await call(method, url, token, payload, 'en_US', host)).json()
  expect(body.code, JSON.stringify(body).slice(0, 500)).toBe('0000')
  return body.content
}

/** A refusal: its code, message and each field's key and text. */
async function refused(method: Method, url: string, token: string, payload: object, language = 'en_US') {
  const response = await call(method, url, token, payload, language)
  const body = response.json()
  return {
    code: body.code as string,
    message: body.message as string,
    fields: ((body.content?.fieldErrors ?? []) as { field: string; key: string; message: string }[]).map(
      ({ field, key, message }) => ({ field, key, message }),
    ),
  }
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

/** Uploads a licence scan to the application's certificate field, as the form's upload widget does. */
async function uploadLicence(token: string): Promise<string> {
  const boundary = '----waybillcertification'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="licence.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/b2b/file/upload?entity=enterpriseApplication&field=certificateFiles',
    headers: {
      host: 'localhost',
      authorization: token,
      language: 'en_US',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  })
  const body = response.json()
  expect(body.code, response.body).toBe('0000')
  return body.content.uuid as string
}

/** A complete application of a Suzhou machinery maker, as the form sends it. */
const ruifeng = (files: string[], name = '苏州工业园区瑞丰精密机械有限公司') => ({
  name,
  nameEn: 'Suzhou Ruifeng Precision Machinery Co Ltd',
  enterpriseType: 1,
  certificateType: 1,
  uniqueNumber: '91320594MA1MXK3L2T',
  registeredCapital: '300.00',
  foundingDate: '2017-06-08',
  corporateName: '沈瑞丰',
  contactName: '刘洋',
  contactMobile: '13912345678',
  contactEmail: 'liuyang@ruifeng-machinery.example',
  address: '江苏省苏州市工业园区星湖街 328 号创意产业园 12 幢',
  certificateFiles: files,
  businessStartDate: '2017-06-08',
  businessEndDate: '2047-06-07',
})

const transition = (token: string, row: { id: number; version: number }, name: string, input?: object) =>
  call('POST', '/enterpriseApplication/transition', token, {
    id: row.id,
    version: row.version,
    transition: name,
    ...(input ? { input } : {}),
  })

const count = async (table: 'enterprise_application' | 'company') =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(test.database.db)).rows[0]?.n)

/** A second personal user of the demo tenant (the seed has one), signed in. */
async function personalUser(username: string, realName: string): Promise<string> {
  const db = test.database.db
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
  const role = await db
    .selectFrom('role')
    .select('id')
    .where('tenant_id', '=', tenant.id)
    .where('code', '=', 'PersonalUser')
    .executeTakeFirstOrThrow()
  const user = await db
    .insertInto('app_user')
    .values({
      tenant_id: tenant.id,
      username,
      real_name: realName,
      password_hash: await hashPassword(DEMO_PASSWORD),
      company_user_type: 2,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.insertInto('user_role').values({ tenant_id: tenant.id, user_id: user.id, role_id: role.id }).execute()
  return test.login(username)
}

let personal: string
let operator: string

beforeAll(async () => {
  personal = await test.login('personal')
  operator = await test.login('opadmin')
})

describe('applying', () => {
  it('saves an incomplete draft, refuses to submit it with the missing fields named, and shows it only to its applicant', async () => {
    const draft = await ok('POST', '/b2b/company/certification/apply', personal, { name: '杭州草稿测试有限公司' })
    expect(draft.state).toBe('draft')
    const submit = await transition(personal, draft, 'submit')
    expect(submit.json().code).toBe('validation')
    expect(
      (submit.json().content.fieldErrors as { field: string; message: string }[]).map((e) => [e.field, e.message]),
    ).toEqual([
      ['enterpriseType', 'Required'],
      ['certificateType', 'Required'],
      ['uniqueNumber', 'Required'],
      ['corporateName', 'Required'],
      ['contactName', 'Required'],
      ['contactMobile', 'Required'],
      ['address', 'Required'],
      ['certificateFiles', 'Required'],
    ])
    const detail = await ok('GET', `/b2b/company/certification/detail?id=${draft.id}`, personal)
    expect(detail.state).toBe('draft')
    // Nobody else's: another personal user, an enterprise user, and the operators' list (drafts stay private).
    const other = await personalUser('zhaolei', 'Zhao Lei')
    expect((await call('GET', `/b2b/company/certification/detail?id=${draft.id}`, other)).json().code).toBe('404')
    expect((await ok('POST', '/b2b/company/certification/mine', other, {})).total).toBe(0)
    const reviewList = await ok('POST', '/b2b/company/certification/list', operator, {})
    expect(reviewList.list.map((r: { id: number }) => r.id)).not.toContain(draft.id)
    expect((await call('GET', `/b2b/company/certification/getById?id=${draft.id}`, operator)).json().code).toBe('404')
    expect((await ok('POST', '/b2b/company/certification/mine', personal, {})).total).toBe(1)
  })

  it('answers bounds per field in the caller’s language and stores nothing: a 300-character address, a 33-character certificate number', async () => {
    const before = await count('enterprise_application')
    const body = { ...ruifeng([]), address: '江'.repeat(300), uniqueNumber: `9132059${'0'.repeat(26)}` }
    const en = await refused('POST', '/b2b/company/certification/apply', personal, body)
    expect(en.code).toBe('validation')
    expect(en.fields).toEqual([
      { field: 'uniqueNumber', key: 'validation.maxLength', message: 'At most 32 characters' },
      { field: 'address', key: 'validation.maxLength', message: 'At most 255 characters' },
    ])
    const zh = await refused('POST', '/b2b/company/certification/apply', personal, body, 'zh_CN')
    expect(zh.fields.map((f) => f.message)).toEqual(['最多 32 个字符', '最多 255 个字符'])
    const english = await refused('POST', '/b2b/company/certification/apply', personal, {
      ...ruifeng([]),
      nameEn: 'Ruifeng Co., Ltd.',
    })
    expect(english.fields).toEqual([
      {
        field: 'nameEn',
        key: 'rule.englishName',
        message: 'English names may hold letters, digits and spaces only',
      },
    ])
    expect(await count('enterprise_application')).toBe(before)
  })
})

describe('the review', () => {
  it('rejects only with a remark (310010, in the caller’s language), the applicant reads it, corrects and resubmits; approval makes them the enterprise administrator', async () => {
    const licence = await uploadLicence(personal)
    const created = await ok('POST', '/b2b/company/certification/apply', personal, {
      ...ruifeng([licence]),
      contactMobile: '13912345670',
    })
    const submitted = (await transition(personal, created, 'submit')).json()
    expect(submitted.code).toBe('0000')
    expect(submitted.content.state).toBe('pending')
    // Under review: the applicant cannot change it, nor approve it.
    const edit = await call('POST', '/b2b/company/certification/saveDraft', personal, {
      id: created.id,
      version: submitted.content.version,
      contactName: '刘洋洋',
    })
    expect(edit.json().code).toBe('320001')
    expect((await transition(personal, submitted.content, 'approve')).json().code).toBe('220000')

    const listed = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['pending'], cusCompanyName: '瑞丰' },
    })
    expect(listed.list.map((r: { id: number }) => r.id)).toEqual([created.id])
    const pending = await ok('GET', `/b2b/company/certification/getById?id=${created.id}`, operator)
    expect(pending.certificateFiles).toEqual([licence])
    // The operator downloads the certificate.
    const file = await test.app.inject({
      method: 'GET',
      url: `/api/b2b/file/download?uuid=${licence}`,
      headers: { host: 'localhost', authorization: `Bearer ${operator}` },
    })
    expect(file.statusCode).toBe(200)
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')

    for (const [input, language, message] of [
      [{}, 'en_US', 'Remarks cannot be empty'],
      [{ reviewRemark: '   ' }, 'zh_CN', '备注不能为空'],
    ] as const) {
      const response = await call(
        'POST',
        '/enterpriseApplication/transition',
        operator,
        { id: pending.id, version: pending.version, transition: 'reject', input },
        language,
      )
      expect(response.statusCode).toBe(200)
      expect(response.json().code).toBe('310010')
      expect(response.json().message).toBe(message)
      expect(response.json().content.fieldErrors[0].field).toBe('reviewRemark')
    }
    expect((await ok('GET', `/b2b/company/certification/getById?id=${created.id}`, operator)).state).toBe('pending')

    const remark = '营业执照扫描件模糊，请上传清晰的彩色扫描件'
    const rejected = (await transition(operator, pending, 'reject', { reviewRemark: remark })).json()
    expect(rejected.code).toBe('0000')
    const seen = await ok('GET', `/b2b/company/certification/detail?id=${created.id}`, personal)
    expect([seen.state, seen.reviewRemark]).toEqual(['rejected', remark])

    // Corrected and submitted again.
    const corrected = await ok('POST', '/b2b/company/certification/saveDraft', personal, {
      id: seen.id,
      version: seen.version,
      contactMobile: '13912345678',
    })
    const again = (await transition(personal, corrected, 'submit')).json()
    expect(again.content.state).toBe('pending')

    const companiesBefore = await count('company')
    const approved = (await transition(operator, again.content, 'approve')).json()
    expect(approved.code).toBe('0000')
    expect(await count('company')).toBe(companiesBefore + 1)

    // The applicant's next call sees their enterprise and their new role.
    const me = await ok('GET', '/b2b/user/getCurrentUserInfo', personal)
    expect(me.roles).toEqual(['EnterpriseAdministrator'])
    expect(me.userInfo.companyUserType).toBe(2)
    expect(me.permissions).toContain('myEnterprise')
    expect(me.permissions).not.toContain('enterpriseApply')
    const mine = await ok('POST', '/b2b/company/myEnterprise/list', personal, {})
    expect(mine.total).toBe(1)
    expect(mine.list[0]).toMatchObject({
      id: me.cusCompanyId,
      name: '苏州工业园区瑞丰精密机械有限公司',
      uniqueNumber: '91320594MA1MXK3L2T',
      contactMobile: '13912345678',
      origin: 0,
      fbaStatus: 0,
      companyType: 2,
    })
    const application = await ok('GET', `/b2b/company/certification/detail?id=${created.id}`, personal)
    expect([application.state, application.company]).toEqual(['approved', me.cusCompanyId])
  })

  it('refuses a name another enterprise has (310004) on submit, and on approval when it was taken meanwhile, leaving everything as it was', async () => {
    const applicant = await personalUser('wuming', 'Wu Ming')
    const licence = await uploadLicence(applicant)
    const taken = await ok('POST', '/b2b/company/certification/apply', applicant, {
      ...ruifeng([licence], '杭州明辉纺织品进出口有限公司'),
      contactMobile: '13812340001',
    })
    const zh = await call(
      'POST',
      '/enterpriseApplication/transition',
      applicant,
      { id: taken.id, version: taken.version, transition: 'submit' },
      'zh_CN',
    )
    expect([zh.json().code, zh.json().message]).toEqual(['310004', '企业名称已存在'])
    expect((await ok('GET', `/b2b/company/certification/detail?id=${taken.id}`, applicant)).state).toBe('draft')

    // Renamed and submitted; then an operator's enterprise of that name appears before the approval.
    const renamed = await ok('POST', '/b2b/company/certification/saveDraft', applicant, {
      id: taken.id,
      version: taken.version,
      name: '温州鸿达鞋业有限公司',
    })
    const pending = (await transition(applicant, renamed, 'submit')).json().content
    const db = test.database.db
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
    await db
      .insertInto('company')
      .values({ tenant_id: tenant.id, name: '温州鸿达鞋业有限公司', company_type: 2 })
      .execute()
    const companies = await count('company')
    const approval = await call('POST', '/enterpriseApplication/transition', operator, {
      id: pending.id,
      version: pending.version,
      transition: 'approve',
    })
    expect([approval.json().code, approval.json().message]).toEqual([
      '310004',
      'An enterprise with this name already exists',
    ])
    // Nothing half-written: the application is still under review, the applicant still a personal user.
    expect(await count('company')).toBe(companies)
    expect((await ok('GET', `/b2b/company/certification/getById?id=${pending.id}`, operator)).state).toBe('pending')
    const me = await ok('GET', '/b2b/user/getCurrentUserInfo', applicant)
    expect([me.roles, me.cusCompanyId]).toEqual([['PersonalUser'], null])
  })
})

describe('the operators’ list', () => {
  it('searches every SPEC §3 field and clears fbaStatus as SPEC §4 says', async () => {
    const all = await ok('POST', '/b2b/company/certification/list', operator, {})
    expect(all.total).toBeGreaterThanOrEqual(2)
    const states = (list: { state: string }[]) => [...new Set(list.map((r) => r.state))].sort()
    // Both FBA values chosen: no filter at all (the pending applications, which have none yet, stay).
    const both = await ok('POST', '/b2b/company/certification/list', operator, { searchParams: { fbaStatus: [0, 1] } })
    expect(both.total).toBe(all.total)
    // Only pending or rejected asked for with "no FBA": cleared too, the pending one is found.
    const pendingNoFba = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['pending'], fbaStatus: [0] },
    })
    expect(states(pendingNoFba.list)).toEqual(['pending'])
    // With approved among the states the filter holds: the approved enterprise has FBA off (0).
    const approvedNoFba = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['approved', 'pending'], fbaStatus: [0] },
    })
    expect(states(approvedNoFba.list)).toEqual(['approved'])
    // The seeded Minghui certification: its enterprise books FBA (fbaStatus 1).
    const withFba = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['approved'], fbaStatus: [1] },
    })
    expect(withFba.list.map((r: { name: string }) => r.name)).toEqual(['杭州明辉纺织品进出口有限公司'])
    const searched = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: {
        cusCompanyName: '瑞丰',
        corporateName: '沈',
        uniqueNumber: 'MA1MXK',
        businessStartDatePer: '2017-06-01',
        businessStartDateTail: '2017-06-30',
        businessEndDatePer: '2047-01-01',
        businessEndDateTail: '2047-12-31',
        origin: 0,
        createTimeBegin: '2020-01-01',
        createTimeEnd: '2099-12-31',
      },
    })
    expect(searched.list.map((r: { name: string }) => r.name)).toEqual(['苏州工业园区瑞丰精密机械有限公司'])
    const unknown = await refused('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['pending'], nonsense: 1 },
    })
    expect(unknown.code).toBe('validation')
  })

  it('follows the enterprise: a change of its FBA service or salesman reaches the application the list searches', async () => {
    const db = test.database.db
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
    const minghui = await db
      .selectFrom('company')
      .select(['id', 'version'])
      .where('name', '=', '杭州明辉纺织品进出口有限公司')
      .executeTakeFirstOrThrow()
    const opcs = await db.selectFrom('app_user').select('id').where('username', '=', 'opcs').executeTakeFirstOrThrow()
    // As the operators' enterprise screens will write it: through the engine, in the operator's transaction.
    const engine = createEngineApi(loadManifest(), { registry: domainRegistry() })
    const session = await sessionOf(db, tenant.id, 'opadmin')
    await withTenant(db, tenant.id, (trx) =>
      engine.update(
        trx,
        { entity: 'company' },
        { tenantId: tenant.id, session },
        {
          id: minghui.id,
          version: minghui.version,
          fbaStatus: 0,
          salesman: opcs.id,
        },
      ),
    )
    const found = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['approved'], fbaStatus: [0], salesmanId: opcs.id },
    })
    expect(found.list.map((r: { name: string }) => r.name)).toContain('杭州明辉纺织品进出口有限公司')
    const stillFba = await ok('POST', '/b2b/company/certification/list', operator, {
      searchParams: { status: ['approved'], fbaStatus: [1] },
    })
    expect(stillFba.list.map((r: { name: string }) => r.name)).not.toContain('杭州明辉纺织品进出口有限公司')
  })

  it('keeps each tenant to its own applications: acme never sees the demo tenant’s', async () => {
    const acme = await test.login('opadmin', 'acme.localhost')
    const list = await ok('POST', '/b2b/company/certification/list', acme, {}, 'acme.localhost')
    expect(list.list.map((r: { name: string }) => r.name)).toEqual(['东莞恒达电子有限公司'])
    const demo = await ok('POST', '/b2b/company/certification/list', operator, {})
    expect(demo.list.map((r: { name: string }) => r.name)).not.toContain('东莞恒达电子有限公司')
    const id = demo.list[0].id as number
    const response = await call(
      'GET',
      `/b2b/company/certification/getById?id=${id}`,
      acme,
      undefined,
      'en_US',
      'acme.localhost',
    )
    expect(response.json().code).toBe('404')
    const approve = await call(
      'POST',
      '/enterpriseApplication/transition',
      acme,
      { id, version: 1, transition: 'approve' },
      'en_US',
      'acme.localhost',
    )
    expect(approve.json().code).toBe('404')
  })

  it('shows an enterprise user their own enterprise only, and a personal user none', async () => {
    const entadmin = await test.login('entadmin')
    const mine = await ok('POST', '/b2b/company/myEnterprise/list', entadmin, {})
    expect(mine.list.map((c: { name: string }) => c.name)).toEqual(['杭州明辉纺织品进出口有限公司'])
    expect(mine.list[0]).toMatchObject({ corporateName: '陈明辉', uniqueNumber: '91330106MA2H3K7X5B', origin: 0 })
    const minghui = mine.list[0].id as number
    const ningbo = await test.database.db
      .selectFrom('company')
      .select('id')
      .where('name', '=', '宁波海通汽车零部件有限公司')
      .executeTakeFirstOrThrow()
    expect((await call('GET', `/b2b/company/myEnterprise/detail?id=${ningbo.id}`, entadmin)).json().code).toBe('404')
    expect((await ok('GET', `/b2b/company/myEnterprise/detail?id=${minghui}`, entadmin)).name).toBe(
      '杭州明辉纺织品进出口有限公司',
    )
  })
})
