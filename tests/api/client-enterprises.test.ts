import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '../../server/auth/password.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { setupTestApp } from '../support/app.ts'
import { directFcl } from '../support/booking.ts'
import { caller, idIn } from '../support/calls.ts'

/**
 * The operators' customer enterprises (issue #21): the enterprise list with SPEC §3's search fields
 * (/clientEnterpriseManage, the engine's list of company), the sales assignment (SPEC §7 cusCompanySales),
 * and the services per enterprise (/clientEnterpriseService), whose online booking the Direct order menu's
 * warm reminder (GET /b2b/tenant/checkTenant) and the server's direct-order check read.
 */

const t = setupTestApp()
const LIST = '/api/b2b/company/enterprise/list'
const DETAIL = '/api/b2b/company/enterprise/detail'
const SALES_SAVE = '/api/b2b/cusCompanySales/addOrEdit'
const SALES_DELETE = '/api/b2b/cusCompanySales/delete'
const SALES_LIST = '/api/b2b/cusCompanySales/list'
const SALESMEN = '/api/b2b/cusCompanySales/public/api/getGlobalSales'
const BRANCHES = '/api/b2b/cusCompanySales/checkBox'
const SERVICES_LIST = '/api/b2b/company/service/list'
const SERVICES_SAVE = '/api/b2b/company/service/edit'
const CHECK = '/api/b2b/tenant/checkTenant'
const ACME = 'acme.localhost'
const MINGHUI = '杭州明辉纺织品进出口有限公司'
const HAITONG = '宁波海通汽车零部件有限公司'

type Row = Record<string, unknown> & { id: number; version: number; name: string }

const call = caller(t)

async function names(token: string, searchParams: object = {}, host?: string): Promise<string[]> {
  const response = await call('POST', LIST, token, { searchParams, pageSize: 200 }, { host })
  expect(response.json().code, response.body).toBe('0000')
  return (response.json().content.list as Row[]).map((row) => row.name).sort()
}

async function company(name: string): Promise<Row> {
  const response = await call('POST', LIST, opadmin, { searchParams: { cusCompanyName: name } })
  const row = (response.json().content.list as Row[])[0]
  if (!row) throw new Error(`no enterprise ${name}`)
  return row
}

const userId = (username: string) => idIn(t, 'app_user', 'username', username)

let opadmin = ''
let provider = 0
let ningboBranch = 0

beforeAll(async () => {
  opadmin = await t.login('opadmin')
  const db = t.database.db
  const demo = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
  provider = (
    await db
      .selectFrom('company')
      .select('id')
      .where('tenant_id', '=', demo.id)
      .where('company_type', '=', 1)
      .executeTakeFirstOrThrow()
  ).id
  // The forwarder's Ningbo office, a second sales branch; Haitong became a client in February, invited by Zhang Min.
  ningboBranch = (
    await db
      .insertInto('company')
      .values({
        tenant_id: demo.id,
        name: '华远国际货运代理（上海）有限公司宁波分公司',
        name_en: 'Huayuan International Freight Forwarding Shanghai Co Ltd Ningbo Branch',
        company_type: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  await sql`update company set created_at = '2026-02-03T02:00:00Z', inviter = ${await userId('opcs')}
    where name = ${HAITONG}`.execute(db)
  await sql`update company set created_at = '2026-03-20T02:00:00Z' where name = ${MINGHUI}`.execute(db)
})

describe('the enterprise list (/clientEnterpriseManage)', () => {
  it('lists the customer enterprises of the tenant, never the provider’s own companies nor another tenant’s', async () => {
    expect(await names(opadmin)).toEqual([MINGHUI, HAITONG].sort())
    expect(await names(await t.login('opadmin', ACME), {}, ACME)).toEqual(['东莞恒达电子有限公司'])
    const own = await call('GET', `${DETAIL}?id=${provider}`, opadmin)
    expect(own.json().code).toBe('404')
  })

  it('filters by fbaStatus, which defaults to both values: every enterprise, one not yet set included', async () => {
    const both = [MINGHUI, HAITONG].sort()
    expect(await names(opadmin, {})).toEqual(both)
    // An enterprise whose FBA service was never set is listed by default, and by neither value alone.
    await sql`update company set fba_status = null where name = ${HAITONG}`.execute(t.database.db)
    expect(await names(opadmin, {})).toEqual(both)
    expect(await names(opadmin, { fbaStatus: [0] })).toEqual([])
    await sql`update company set fba_status = 0 where name = ${HAITONG}`.execute(t.database.db)
    expect(await names(opadmin, { fbaStatus: [0, 1] })).toEqual(both)
    expect(await names(opadmin, { fbaStatus: [] })).toEqual(both)
    expect(await names(opadmin, { fbaStatus: [1] })).toEqual([MINGHUI])
    expect(await names(opadmin, { fbaStatus: [0] })).toEqual([HAITONG])
  })

  it.each([
    ['cusCompanyName', { cusCompanyName: '明辉纺织' }, [MINGHUI]],
    ['corporateName', { corporateName: '周海' }, [HAITONG]],
    ['uniqueNumber', { uniqueNumber: 'ma2h3k' }, [MINGHUI]],
    ['businessStartDate', { businessStartDatePer: '2012-01-01', businessStartDateTail: '2012-12-31' }, [MINGHUI]],
    ['businessEndDate', { businessEndDatePer: '2045-01-01', businessEndDateTail: '2045-12-31' }, [HAITONG]],
    ['origin', { origin: 2 }, [HAITONG]],
    ['createTime', { createTimeBegin: '2026-02-01', createTimeEnd: '2026-02-28' }, [HAITONG]],
    ['inviterName', { inviterName: 'Zhang' }, [HAITONG]],
  ])('filters by %s', async (_name, searchParams, expected) => {
    expect(await names(opadmin, searchParams)).toEqual(expected)
  })

  it('filters by salesman', async () => {
    expect(await names(opadmin, { salesmanId: await userId('opadmin') })).toEqual([MINGHUI])
    expect(await names(opadmin, { salesmanId: await userId('opcs') })).toEqual([HAITONG])
  })

  it('is the operators’ alone', async () => {
    const entadmin = await t.login('entadmin')
    expect((await call('POST', LIST, entadmin, {})).json().code).toBe('220000')
    expect((await call('POST', SALES_SAVE, entadmin, {})).json().code).toBe('220000')
    expect((await call('POST', SERVICES_SAVE, entadmin, {})).json().code).toBe('220000')
  })
})

describe('sales assignment (cusCompanySales)', () => {
  it('offers the enabled provider-side accounts as salesmen and the provider’s companies as branches', async () => {
    const salesmen = await call('GET', `${SALESMEN}?keyword=`, opadmin)
    const labels = (salesmen.json().content.list as { label: string }[]).map((o) => o.label).sort()
    expect(labels).toEqual(['Li Wei', 'Platform Admin', 'Zhang Min'])
    const branches = await call('GET', `${BRANCHES}?keyword=宁波`, opadmin)
    expect(branches.json().content.list).toEqual([expect.objectContaining({ value: String(ningboBranch) })])
  })

  it('assigns a salesman and branch, lists them, filters by branch, and removes them', async () => {
    const haitong = await company(HAITONG)
    const opcs = await userId('opcs')
    const saved = await call('POST', SALES_SAVE, opadmin, {
      id: haitong.id,
      version: haitong.version,
      salesman: opcs,
      salesBranch: ningboBranch,
    })
    expect(saved.json().code, saved.body).toBe('0000')
    expect(saved.json().content).toMatchObject({ salesman: opcs, salesBranch: ningboBranch })
    const listed = await call('GET', `${SALES_LIST}?id=${haitong.id}`, opadmin, undefined, { language: 'en' })
    expect(listed.json().content).toEqual([
      {
        companyId: haitong.id,
        companyName: HAITONG,
        salesman: opcs,
        salesmanName: 'Zhang Min',
        salesBranch: ningboBranch,
        salesBranchName: 'Huayuan International Freight Forwarding Shanghai Co Ltd Ningbo Branch',
      },
    ])
    expect(await names(opadmin, { salesBranchId: ningboBranch })).toEqual([HAITONG])
    expect(await names(opadmin, { salesBranchId: provider })).toEqual([MINGHUI])

    const version = saved.json().content.version as number
    const removed = await call('DELETE', `${SALES_DELETE}?id=${haitong.id}&version=${version}`, opadmin)
    expect(removed.json().content).toMatchObject({ salesman: null, salesBranch: null })
    expect((await call('GET', `${SALES_LIST}?id=${haitong.id}`, opadmin)).json().content).toEqual([])
    // Both changes are in the enterprise's history.
    const detail = (await call('GET', `${DETAIL}?id=${haitong.id}`, opadmin)).json().content
    expect(detail.history.slice(0, 2)).toEqual([
      expect.objectContaining({ after: expect.objectContaining({ salesman: null, salesBranch: null }) }),
      expect.objectContaining({
        before: { salesBranch: provider, version: 1 },
        after: { salesBranch: ningboBranch, version: 2 },
      }),
    ])
    // A stale version changes nothing.
    const stale = await call('DELETE', `${SALES_DELETE}?id=${haitong.id}&version=${version}`, opadmin)
    expect(stale.json().code).toBe('330002')
  })

  it('refuses a customer as salesman and a customer enterprise as branch, in the caller’s language', async () => {
    const minghui = await company(MINGHUI)
    const haitong = await company(HAITONG)
    const body = { id: minghui.id, version: minghui.version, salesman: await userId('entop'), salesBranch: haitong.id }
    const texts = {
      en: [
        'Choose an enabled member of our staff as the salesman',
        'Choose our company or one of its branches as the sales branch',
      ],
      zh: ['请选择启用中的本公司员工作为销售', '请选择本公司或分支机构作为销售网点'],
    }
    for (const language of ['en', 'zh'] as const) {
      const response = await call('POST', SALES_SAVE, opadmin, body, { language })
      expect(response.json().code).toBe('validation')
      expect(response.json().content.fieldErrors).toEqual([
        expect.objectContaining({ field: 'salesman', message: texts[language][0] }),
        expect.objectContaining({ field: 'salesBranch', message: texts[language][1] }),
      ])
      const missing = await call(
        'POST',
        SALES_SAVE,
        opadmin,
        { id: minghui.id, version: minghui.version },
        { language },
      )
      expect(missing.json().content.fieldErrors).toEqual([
        expect.objectContaining({ field: 'salesman', message: language === 'en' ? 'Required' : '此项为必填项' }),
        expect.objectContaining({ field: 'salesBranch', message: language === 'en' ? 'Required' : '此项为必填项' }),
      ])
      const unknown = await call('POST', SALES_SAVE, opadmin, { ...body, name: 'x' }, { language })
      expect(unknown.json().content.fieldErrors).toEqual([
        expect.objectContaining({
          field: 'name',
          message: language === 'en' ? 'This field is not allowed' : '不支持该字段',
        }),
      ])
    }
    expect((await company(MINGHUI)).version).toBe(minghui.version)
  })

  it('never reaches another tenant’s enterprise', async () => {
    const acmeAdmin = await t.login('opadmin', ACME)
    const acme = (await call('POST', LIST, acmeAdmin, {}, { host: ACME })).json().content.list[0] as Row
    const response = await call('POST', SALES_SAVE, opadmin, {
      id: acme.id,
      version: acme.version,
      salesman: await userId('opcs'),
      salesBranch: provider,
    })
    expect(response.json().code).toBe('404')
    expect((await call('GET', `${SALES_LIST}?id=${acme.id}`, opadmin)).json().code).toBe('404')
  })
})

describe('services per enterprise (/clientEnterpriseService)', () => {
  it('lists the services of each enterprise', async () => {
    const response = await call('POST', SERVICES_LIST, opadmin, { searchParams: { onlineBooking: true } })
    const rows = response.json().content.list as Row[]
    expect(rows.map((r) => [r.name, r.onlineBooking, r.imService]).sort()).toEqual(
      [
        [MINGHUI, true, true],
        [HAITONG, true, false],
      ].sort(),
    )
    const im = await call('POST', SERVICES_LIST, opadmin, { searchParams: { imService: true } })
    expect((im.json().content.list as Row[]).map((r) => r.name)).toEqual([MINGHUI])
  })

  it('turning online booking off brings the warm reminder and the refusal on the customer’s next call; on again, neither', async () => {
    const entadmin = await t.login('entadmin')
    const service = await call('GET', CHECK, entadmin)
    expect(service.json().content).toMatchObject({ contactName: '周丽' })
    const minghui = await company(MINGHUI)
    const off = await call('POST', SERVICES_SAVE, opadmin, {
      id: minghui.id,
      version: minghui.version,
      onlineBooking: false,
    })
    expect(off.json().code, off.body).toBe('0000')
    expect(off.json().content).toMatchObject({ onlineBooking: false, imService: true, fbaStatus: 1 })
    // The same session, its next call: no service (the warm reminder), and a direct order is refused.
    expect((await call('GET', CHECK, entadmin)).json()).toMatchObject({ code: '0000', content: null })
    const refused = await call('POST', '/api/booking/order/add', entadmin, { ...directFcl(), submit: true })
    expect(refused.json().code).toBe('220000')
    // Haitong's users are not affected.
    const on = await call('POST', SERVICES_SAVE, opadmin, {
      id: minghui.id,
      version: off.json().content.version,
      onlineBooking: true,
    })
    expect(on.json().content).toMatchObject({ onlineBooking: true })
    expect((await call('GET', CHECK, entadmin)).json().content).toMatchObject({ contactName: '周丽' })
    const placed = await call('POST', '/api/booking/order/add', entadmin, { ...directFcl(), submit: true })
    expect(placed.json().code, placed.body).toBe('0000')
  })

  it('is its own permission: a role with only clientEnterpriseService sets services, not sales', async () => {
    const db = t.database.db
    const demo = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
    const role = await db
      .insertInto('role')
      .values({
        tenant_id: demo.id,
        code: 'ServiceDesk',
        name: '客户服务开通',
        preset: false,
        data_scope: 'all',
        permissions: JSON.stringify(['clientEnterpriseService', 'personalInfo']),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const user = await db
      .insertInto('app_user')
      .values({
        tenant_id: demo.id,
        company_id: provider,
        username: 'svcdesk',
        real_name: '赵敏',
        email: 'svcdesk@demo.example',
        password_hash: await hashPassword(DEMO_PASSWORD),
        company_user_type: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db.insertInto('user_role').values({ tenant_id: demo.id, user_id: user.id, role_id: role.id }).execute()
    const desk = await t.login('svcdesk')
    const haitong = await company(HAITONG)
    const saved = await call('POST', SERVICES_SAVE, desk, { id: haitong.id, version: haitong.version, imService: true })
    expect(saved.json().content).toMatchObject({ imService: true, onlineBooking: true })
    expect((await call('POST', LIST, desk, {})).json().code).toBe('220000')
    expect((await call('POST', SALES_SAVE, desk, {})).json().code).toBe('220000')
    // The provider's own company is no customer enterprise: not found, as in the list.
    const own = await call('POST', SERVICES_SAVE, desk, { id: provider, version: 1, onlineBooking: true })
    expect(own.json().code).toBe('404')
  })

  it('keeps acme without online booking', async () => {
    const acme = await t.login('entadmin', ACME)
    expect((await call('GET', CHECK, acme, undefined, { host: ACME })).json().content).toBeNull()
  })

  it('answers bad values per field in the caller’s language and changes nothing', async () => {
    const minghui = await company(MINGHUI)
    for (const [language, type, values] of [
      ['en', 'Must be yes or no', 'Must be one of: 0, 1'],
      ['zh', '请选择是或否', '请从以下选项中选择：0, 1'],
    ] as const) {
      const response = await call(
        'POST',
        SERVICES_SAVE,
        opadmin,
        { id: minghui.id, version: minghui.version, onlineBooking: 'yes', fbaStatus: 5 },
        { language },
      )
      expect(response.json().code).toBe('validation')
      const errors = response.json().content.fieldErrors as { field: string; message: string }[]
      expect(errors.find((e) => e.field === 'onlineBooking')?.message).toBe(type)
      expect(errors.find((e) => e.field === 'fbaStatus')?.message).toBe(values)
    }
    expect((await company(MINGHUI)).version).toBe(minghui.version)
  })
})
