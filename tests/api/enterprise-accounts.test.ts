import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { caller, idIn } from '../support/calls.ts'

/**
 * The customer-side account lists of issue #21: /clientEnterpriseAccount (operators, every customer account
 * of the tenant) and /enterpriseAccount (an enterprise administrator, their own enterprise's accounts), both
 * the engine's reading of a view of app_user (schemas/enterpriseUser.yaml, server/domain/clients/register.ts),
 * and their change (enable, disable, role).
 */

const t = setupTestApp()
const OPS_LIST = '/api/b2b/user/customerAccount/list'
const OPS_DETAIL = '/api/b2b/user/customerAccount/detail'
const OPS_UPDATE = '/api/b2b/user/customerAccount/update'
const ENT_LIST = '/api/b2b/user/enterpriseAccount/list'
const ENT_DETAIL = '/api/b2b/user/enterpriseAccount/detail'
const ENT_UPDATE = '/api/b2b/user/enterpriseAccount/update'
const ACME = 'acme.localhost'

type Row = Record<string, unknown> & { id: number; version: number; username: string }

const call = caller(t)

async function listed(url: string, token: string, searchParams: object = {}, host?: string): Promise<string[]> {
  const response = await call('POST', url, token, { searchParams, pageSize: 200 }, { host })
  expect(response.json().code, response.body).toBe('0000')
  return (response.json().content.list as Row[]).map((row) => row.username).sort()
}

const idOf = (username: string, tenant = 'demo') => idIn(t, 'app_user', 'username', username, tenant)
const roleId = (code: string, tenant = 'demo') => idIn(t, 'role', 'code', code, tenant)

let opadmin = ''
let entadmin = ''

beforeAll(async () => {
  opadmin = await t.login('opadmin')
  entadmin = await t.login('entadmin')
  // Known dates for the time-range searches: entop was created and last signed in in January, the others later.
  const db = t.database.db
  await sql`update app_user set created_at = '2026-01-10T08:00:00Z', last_login_at = '2026-01-12T09:00:00Z'
    where username = 'entop'`.execute(db)
  await sql`update app_user set created_at = '2026-03-01T08:00:00Z' where username <> 'entop'`.execute(db)
  await sql`update app_user set last_login_at = '2026-03-05T09:00:00Z' where username = 'nbclerk'`.execute(db)
})

describe('the operators’ customer-account list (/clientEnterpriseAccount)', () => {
  it('lists every customer-side account of the tenant and no operator, nor another tenant’s', async () => {
    expect(await listed(OPS_LIST, opadmin)).toEqual(['entadmin', 'entop', 'nbclerk', 'nbtrack', 'personal'])
    const acme = await t.login('opadmin', ACME)
    expect(await listed(OPS_LIST, acme, {}, ACME)).toEqual(['entadmin'])
  })

  it('answers names: the enterprise, the role and the inviter in labels, whether the account is the contact', async () => {
    const response = await call('POST', OPS_LIST, opadmin, { searchParams: { email: 'entop@' } }, { language: 'en' })
    const [row] = response.json().content.list as Row[]
    expect(row).toMatchObject({
      username: 'entop',
      userRealName: 'Wang Fang',
      companyName: '杭州明辉纺织品进出口有限公司',
      origin: 1,
      inviter: await idOf('entadmin'),
      isContact: false,
      isUsed: true,
    })
    expect(row?.labels).toMatchObject({ inviter: 'Chen Jing', companyAppRoleId: expect.any(String) })
    const admin = await call('POST', OPS_LIST, opadmin, { searchParams: { email: 'entadmin@' } })
    expect((admin.json().content.list as Row[])[0]?.isContact).toBe(true)
  })

  it.each([
    ['email', { email: 'ENTOP@demo' }, ['entop']],
    ['qq', { qq: '28193' }, ['entadmin']],
    ['userRealName', { userRealName: 'sun' }, ['nbclerk']],
    ['realName (the enterprise)', { realName: '宁波海通' }, ['nbclerk', 'nbtrack']],
    ['isContact', { isContact: true }, ['entadmin']],
    ['isUsed', { isUsed: true }, ['entadmin', 'entop', 'nbclerk', 'nbtrack', 'personal']],
    ['origin', { origin: 2 }, ['nbtrack']],
    ['createTime', { createTimeBegin: '2026-01-01', createTimeEnd: '2026-01-31' }, ['entop']],
    ['lastLoginTime', { lastLoginTimeBegin: '2026-03-01', lastLoginTimeEnd: '2026-03-31' }, ['nbclerk']],
    ['inviterName', { inviterName: 'chen' }, ['entop']],
  ])('filters by %s', async (_name, searchParams, expected) => {
    expect(await listed(OPS_LIST, opadmin, searchParams)).toEqual(expected)
  })

  it('filters by role', async () => {
    expect(await listed(OPS_LIST, opadmin, { companyAppRoleId: await roleId('EnterpriseAdministrator') })).toEqual([
      'entadmin',
    ])
  })

  it('refuses another tenant’s account by id, as a missing one', async () => {
    const response = await call('GET', `${OPS_DETAIL}?id=${await idOf('entadmin', 'acme')}`, opadmin)
    expect(response.json().code).toBe('404')
  })
})

describe('the enterprise administrator’s accounts (/enterpriseAccount)', () => {
  it('lists the accounts of their own enterprise only', async () => {
    expect(await listed(ENT_LIST, entadmin)).toEqual(['entadmin', 'entop'])
    // Naming another enterprise finds nothing: the company wall holds.
    const haitong = await t.database.db
      .selectFrom('company')
      .select('id')
      .where('name', '=', '宁波海通汽车零部件有限公司')
      .executeTakeFirstOrThrow()
    expect(await listed(ENT_LIST, entadmin, { customCompanyId: haitong.id })).toEqual([])
    expect(await listed(ENT_LIST, entadmin, { userRealName: 'sun' })).toEqual([])
  })

  it('never answers another enterprise’s or tenant’s account by id', async () => {
    for (const id of [await idOf('nbclerk'), await idOf('entadmin', 'acme')]) {
      const detail = await call('GET', `${ENT_DETAIL}?id=${id}`, entadmin)
      expect(detail.json().code).toBe('404')
      const change = await call('POST', ENT_UPDATE, entadmin, { id, version: 1, isUsed: false })
      expect(change.json().code).toBe('404')
    }
    const acmeAdmin = await t.login('entadmin', ACME)
    expect(await listed(ENT_LIST, acmeAdmin, {}, ACME)).toEqual(['entadmin'])
  })

  it('is refused to operators and to enterprise users without the permission', async () => {
    expect((await call('POST', ENT_LIST, opadmin, {})).json().code).toBe('220000')
    expect((await call('POST', OPS_LIST, entadmin, {})).json().code).toBe('220000')
    const entop = await t.login('entop')
    expect((await call('POST', ENT_LIST, entop, {})).json().code).toBe('220000')
  })
})

describe('changing an account', () => {
  it('disabling a colleague signs them out everywhere; enabling lets them sign in again', async () => {
    const entop = await t.login('entop')
    const id = await idOf('entop')
    const before = (await call('GET', `${ENT_DETAIL}?id=${id}`, entadmin)).json().content as Row
    const off = await call('POST', ENT_UPDATE, entadmin, { id, version: before.version, isUsed: false })
    expect(off.json().code, off.body).toBe('0000')
    expect(off.json().content).toMatchObject({ id, isUsed: false, version: before.version + 1 })
    // The session they had is gone, and a new sign-in is refused (300007).
    expect((await call('GET', '/api/b2b/user/getCurrentUserInfo', entop)).json().code).toBe('401')
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/b2b/user/login',
      headers: { host: 'localhost', resource: '1', 'x-forwarded-for': '10.77.0.1' },
      payload: { username: 'entop', password: 'Demo@2026' },
    })
    expect(login.json().code).toBe('300007')
    const on = await call('POST', ENT_UPDATE, entadmin, { id, version: before.version + 1, isUsed: true })
    expect(on.json().content).toMatchObject({ isUsed: true })
    await t.login('entop')
    // The change is in the account's history.
    const detail = (await call('GET', `${ENT_DETAIL}?id=${id}`, entadmin)).json().content
    expect(detail.history[0]).toMatchObject({ action: 'update', after: { isUsed: true } })
  })

  it('gives a colleague another enterprise-side role, which takes effect on their next call', async () => {
    const id = await idOf('entop')
    const entop = await t.login('entop')
    expect((await call('POST', ENT_LIST, entop, {})).json().code).toBe('220000')
    const row = (await call('GET', `${ENT_DETAIL}?id=${id}`, entadmin)).json().content as Row
    const admin = await roleId('EnterpriseAdministrator')
    const changed = await call('POST', ENT_UPDATE, entadmin, { id, version: row.version, companyAppRoleId: admin })
    expect(changed.json().code, changed.body).toBe('0000')
    expect((await call('POST', ENT_LIST, entop, {})).json().code).toBe('0000')
    // Back to what it was, for the other tests.
    const back = await call('POST', ENT_UPDATE, entadmin, {
      id,
      version: row.version + 1,
      companyAppRoleId: row.companyAppRoleId,
    })
    expect(back.json().code).toBe('0000')
  })

  it('refuses an operator’s role, the personal user’s, and one’s own account', async () => {
    const id = await idOf('entop')
    const row = (await call('GET', `${ENT_DETAIL}?id=${id}`, entadmin)).json().content as Row
    for (const code of ['OperationAdministrator', 'PersonalUser']) {
      const response = await call(
        'POST',
        ENT_UPDATE,
        entadmin,
        { id, version: row.version, companyAppRoleId: await roleId(code) },
        { language: 'en' },
      )
      expect(response.json().code).toBe('validation')
      expect(response.json().content.fieldErrors).toEqual([
        expect.objectContaining({ field: 'companyAppRoleId', message: 'Choose an enabled enterprise-side role' }),
      ])
    }
    const self = await idOf('entadmin')
    const mine = (await call('GET', `${ENT_DETAIL}?id=${self}`, entadmin)).json().content as Row
    const response = await call('POST', ENT_UPDATE, entadmin, { id: self, version: mine.version, isUsed: false })
    expect(response.json().code).toBe('350001')
  })

  it('answers 330002 on a stale version and changes nothing', async () => {
    const id = await idOf('nbtrack')
    const row = (await call('GET', `${OPS_DETAIL}?id=${id}`, opadmin)).json().content as Row
    const stale = await call('POST', OPS_UPDATE, opadmin, { id, version: row.version + 5, isUsed: false })
    expect(stale.json().code).toBe('330002')
    const after = (await call('GET', `${OPS_DETAIL}?id=${id}`, opadmin)).json().content as Row
    expect(after).toMatchObject({ isUsed: true, version: row.version })
  })

  it('answers the bounds per field in the caller’s language', async () => {
    const id = await idOf('nbtrack')
    const cases: [string, object, string, string, string][] = [
      [
        'nothing to change',
        { id, version: 1 },
        'isUsed',
        'Choose whether the account is enabled, or its role',
        '请选择启用状态或角色',
      ],
      ['an id of 0', { id: 0, version: 1, isUsed: true }, 'id', 'Must be at least 1', '不能小于 1'],
    ]
    for (const [, body, field, en, zh] of cases) {
      for (const [language, text] of [
        ['en', en],
        ['zh', zh],
      ] as const) {
        const response = await call('POST', OPS_UPDATE, opadmin, body, { language })
        expect(response.json().code).toBe('validation')
        expect(response.json().content.fieldErrors).toContainEqual(
          expect.objectContaining({ field, message: expect.stringContaining(text) }),
        )
      }
    }
  })
})
