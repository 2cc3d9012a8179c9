import { describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { setupTestApp, TEST_PROXIES } from '../support/app.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * Role management (issue #21): copy a preset role, narrow its permission tree and data scope, assign it, and
 * the user it went to feels it on their very next call — with the token they already hold, since sessions read
 * roles per call (migration 0012) and nothing is cached in a process. Preset roles and roles in use are not
 * deleted; unknown or other-side permissions are refused per name; a tenant sees only its own roles and users.
 */

const test = setupTestApp()

const PAGE = '/api/b2b/role/page'
const DETAIL = '/api/b2b/role/detail'
const SAVE = '/api/b2b/role/save'
const COPY = '/api/b2b/role/copy'
const STATUS = '/api/b2b/role/status'
const BRANCH = '/api/b2b/role/setBranch'
const ASSIGN = '/api/b2b/role/assignUsers'
const DELETE = '/api/b2b/role/delete'
const MY_ORDERS = '/api/booking/order/queryOrderListByCompany'
const MY_EXPORT = '/api/booking/order/exportOrderListByCompany'
const ACME = 'acme.localhost'

type Method = 'GET' | 'POST' | 'DELETE'
interface RoleRow {
  id: number
  version: number
  code: string
  name: string
  preset: boolean
  status: number
  dataScope: string
  companyUserType: number
  users: number
  permissions: string[]
  groupId: number | null
  branch: string | null
  labels: Record<string, string>
}

function call(token: string, method: Method, url: string, payload?: object, language = 'en_US', host = 'localhost') {
  return test.app.inject({
    method,
    url,
    headers: { host, cookie: `b2b_token=${token}`, resource: '1', language },
    ...(payload ? { payload } : {}),
  })
}

async function roles(token: string, host = 'localhost'): Promise<RoleRow[]> {
  const answer = (await call(token, 'POST', PAGE, { pageNum: 1, pageSize: 50 }, 'en_US', host)).json()
  expect(answer.code).toBe('0000')
  return answer.content.list as RoleRow[]
}

const byCode = (list: RoleRow[], code: string) => list.find((r) => r.code === code) as RoleRow

async function userId(username: string, tenant = 'demo'): Promise<number> {
  const row = await test.database.db
    .selectFrom('app_user')
    .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
    .select('app_user.id')
    .where('tenant.code', '=', tenant)
    .where('app_user.username', '=', username)
    .executeTakeFirstOrThrow()
  return row.id
}

async function myOrders(token: string) {
  const answer = (await call(token, 'POST', MY_ORDERS, { pageNum: 1, pageSize: 100 })).json()
  return answer as { code: string; content: { total: number; list: { createdBy: number }[] } }
}

describe('role management: copy, narrow, assign (the acceptance of issue #21)', () => {
  it('a copied preset role, without the export and with data scope self, bites on the colleague’s next call', async () => {
    const admin = await test.login('opadmin')
    const entop = await test.login('entop')
    const entadmin = await test.login('entadmin')
    const entopId = await userId('entop')
    const company = await myOrders(entadmin)
    expect(company.code).toBe('0000')
    // The seed places Minghui's orders by entadmin and entop in turn: both own some.
    const owners = new Set(company.content.list.map((o) => o.createdBy))
    expect(owners.has(entopId)).toBe(true)
    expect(owners.size).toBeGreaterThan(1)

    const source = byCode(await roles(admin), 'EnterpriseAdministrator')
    expect(source).toMatchObject({ preset: true, dataScope: 'all', companyUserType: 2 })
    expect(source.permissions).toContain('myOrdersExport')
    const copied = (await call(admin, 'POST', COPY, { id: source.id, version: source.version })).json()
    expect(copied.code).toBe('0000')
    const copy = copied.content as RoleRow
    expect(copy).toMatchObject({
      code: 'EnterpriseAdministratorCopy',
      // The preset role's name is the demo tenant's (Chinese); the copy's suffix is the caller's language.
      name: '企业管理员 (copy)',
      preset: false,
      status: 1,
      dataScope: 'all',
      companyUserType: 2,
      users: 0,
    })
    expect(copy.permissions).toEqual(source.permissions)

    const assigned = (await call(admin, 'POST', ASSIGN, { id: copy.id, account: 'entop' })).json()
    expect(assigned).toMatchObject({ code: '0000', content: { users: 1 } })
    // entop's token is the one from before the assignment: the next call reads the new role.
    const wide = await myOrders(entop)
    expect(wide.content.total).toBe(company.content.total)
    const exported = await call(entop, 'POST', MY_EXPORT, {})
    expect(exported.statusCode).toBe(200)
    expect((await readXlsx(exported.rawPayload)).rows.length).toBe(company.content.total)

    // The operator opens the copy, unticks the export and narrows the data scope to the user's own.
    const detail = (await call(admin, 'GET', `${DETAIL}?id=${copy.id}`)).json().content as RoleRow
    const saved = (
      await call(admin, 'POST', SAVE, {
        id: detail.id,
        version: detail.version,
        name: '单证专员（仅本人）',
        code: detail.code,
        companyUserType: 2,
        status: 1,
        dataScope: 'self',
        permissions: detail.permissions.filter((p) => p !== 'myOrdersExport'),
      })
    ).json()
    expect(saved.code).toBe('0000')
    expect(saved.content.permissions).not.toContain('myOrdersExport')
    expect(saved.content.version).toBe(detail.version + 1)

    const refused = await call(entop, 'POST', MY_EXPORT, {})
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('220000')
    const own = await myOrders(entop)
    expect(own.code).toBe('0000')
    expect(own.content.total).toBeGreaterThan(0)
    expect(own.content.total).toBeLessThan(company.content.total)
    expect(own.content.list.every((o) => o.createdBy === entopId)).toBe(true)
    // The change is audited on the role: who, and which fields.
    const history = (await call(admin, 'GET', `${DETAIL}?id=${copy.id}`)).json().content.history as {
      action: string
      after: Record<string, unknown>
    }[]
    expect(history[0]).toMatchObject({ action: 'update', after: { dataScope: 'self' } })
  })

  it('a disabled role grants nothing from the next call; enabled again, it grants again', async () => {
    const admin = await test.login('opadmin')
    const entop = await test.login('entop')
    const copy = byCode(await roles(admin), 'EnterpriseAdministratorCopy')
    const off = (await call(admin, 'POST', STATUS, { id: copy.id, version: copy.version, status: 0 })).json()
    expect(off).toMatchObject({ code: '0000', content: { status: 0 } })
    expect((await myOrders(entop)).code).toBe('220000')
    const on = (await call(admin, 'POST', STATUS, { id: copy.id, status: 1 })).json()
    expect(on).toMatchObject({ code: '0000', content: { status: 1 } })
    expect((await myOrders(entop)).code).toBe('0000')
    // A stale version is refused and changes nothing.
    const stale = (await call(admin, 'POST', STATUS, { id: copy.id, version: copy.version, status: 0 })).json()
    expect(stale.code).toBe('330002')
    expect(byCode(await roles(admin), copy.code).status).toBe(1)
  })

  it('a change made through another replica holds on this one from the next call', async () => {
    // Two servers on one database, as two replicas behind a load balancer: no process keeps roles.
    const replica = await buildApp({ database: test.database, trustedProxies: TEST_PROXIES })
    try {
      const entop = await test.login('entop')
      const admin = await test.login('opadmin')
      const copy = byCode(await roles(admin), 'EnterpriseAdministratorCopy')
      expect((await myOrders(entop)).code).toBe('0000')
      const off = await replica.inject({
        method: 'POST',
        url: STATUS,
        headers: { host: 'localhost', cookie: `b2b_token=${admin}`, resource: '1', language: 'en_US' },
        payload: { id: copy.id, status: 0 },
      })
      expect(off.json().code).toBe('0000')
      expect((await myOrders(entop)).code).toBe('220000')
      const on = await replica.inject({
        method: 'POST',
        url: STATUS,
        headers: { host: 'localhost', cookie: `b2b_token=${admin}`, resource: '1', language: 'en_US' },
        payload: { id: copy.id, status: 1 },
      })
      expect(on.json().code).toBe('0000')
      expect((await myOrders(entop)).code).toBe('0000')
    } finally {
      await replica.close()
    }
  })

  it('sets and clears the responsible branch', async () => {
    const admin = await test.login('opadmin')
    const copy = byCode(await roles(admin), 'EnterpriseAdministratorCopy')
    const set = (await call(admin, 'POST', BRANCH, { id: copy.id, branch: '宁波分公司' })).json()
    expect(set).toMatchObject({ code: '0000', content: { branch: '宁波分公司' } })
    const cleared = (await call(admin, 'POST', BRANCH, { id: copy.id, branch: '' })).json()
    expect(cleared).toMatchObject({ code: '0000', content: { branch: null } })
  })
})

describe('deleting roles', () => {
  it('refuses a preset role with 360001, "this role cannot be deleted", in the caller’s language', async () => {
    const admin = await test.login('opadmin')
    const preset = byCode(await roles(admin), 'EnterpriseSales')
    const en = (await call(admin, 'DELETE', `${DELETE}?id=${preset.id}`)).json()
    const zh = (await call(admin, 'DELETE', `${DELETE}?id=${preset.id}`, undefined, 'zh_CN')).json()
    expect(en).toMatchObject({ code: '360001', message: 'This role cannot be deleted' })
    expect(zh).toMatchObject({ code: '360001', message: '该角色不能删除' })
    expect(byCode(await roles(admin), 'EnterpriseSales')).toBeDefined()
  })

  it('refuses a role users still hold, saying how many, and changes nothing', async () => {
    const admin = await test.login('opadmin')
    const held = byCode(await roles(admin), 'EnterpriseAdministratorCopy')
    expect(held.users).toBe(1)
    const en = (await call(admin, 'DELETE', `${DELETE}?id=${held.id}`)).json()
    const zh = (await call(admin, 'DELETE', `${DELETE}?id=${held.id}`, undefined, 'zh_CN')).json()
    expect(en).toMatchObject({
      code: '360001',
      message: 'This role cannot be deleted while 1 user(s) hold it; assign them another role first',
    })
    expect(zh).toMatchObject({
      code: '360001',
      message: '该角色不能删除：仍有 1 个用户持有该角色，请先为他们分配其他角色',
    })
    const after = byCode(await roles(admin), held.code)
    expect(after).toMatchObject({ id: held.id, version: held.version, users: 1 })
    // Given back their own role, entop no longer holds the copy, which then goes.
    expect(
      (
        await call(admin, 'POST', ASSIGN, {
          id: byCode(await roles(admin), 'EnterpriseOperation').id,
          account: 'entop',
        })
      ).json().code,
    ).toBe('0000')
    expect((await call(admin, 'DELETE', `${DELETE}?id=${held.id}`)).json().code).toBe('0000')
    expect(byCode(await roles(admin), held.code)).toBeUndefined()
  })
})

describe('what a role may hold and who may hold it', () => {
  const base = { name: '出口单证', code: 'exportDocs', companyUserType: 2, status: 1, dataScope: 'self' }

  it('refuses an unknown permission name, and one of the other side, per name, and stores nothing', async () => {
    const admin = await test.login('opadmin')
    const unknown = await call(admin, 'POST', SAVE, { ...base, permissions: ['myOrders', 'myOrderz'] })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().content.fieldErrors).toEqual([
      { field: 'permissions[1]', key: 'validation.notInCatalogue', message: 'Is not one of the available choices' },
    ])
    const zh = await call(admin, 'POST', SAVE, { ...base, permissions: ['myOrderz'] }, 'zh_CN')
    expect(zh.json().content.fieldErrors[0].message).toBe('不是可选的项目')
    const otherSide = (await call(admin, 'POST', SAVE, { ...base, permissions: ['myOrders', 'orderList'] })).json()
    expect(otherSide.content.fieldErrors).toEqual([
      {
        field: 'permissions[1]',
        key: 'rule.permissionOtherSide',
        message: 'This permission is not of the role’s side',
      },
    ])
    expect(byCode(await roles(admin), 'exportDocs')).toBeUndefined()
  })

  it('creates a custom role, refuses its code twice, and keeps a preset role’s grants as the YAML gives them', async () => {
    const admin = await test.login('opadmin')
    const created = (await call(admin, 'POST', SAVE, { ...base, permissions: ['myOrders', 'personalInfo'] })).json()
    expect(created).toMatchObject({ code: '0000', content: { code: 'exportDocs', preset: false, users: 0 } })
    const again = (await call(admin, 'POST', SAVE, { ...base, permissions: [] })).json()
    expect(again.content.fieldErrors).toEqual([
      { field: 'code', key: 'rule.roleCodeTaken', message: 'This role code is already in use' },
    ])
    const preset = byCode(await roles(admin), 'EnterpriseCS')
    const widened = (
      await call(admin, 'POST', SAVE, {
        ...base,
        id: preset.id,
        version: preset.version,
        code: preset.code,
        name: preset.name,
        dataScope: preset.dataScope,
        permissions: [...preset.permissions, 'priceMonitor'],
      })
    ).json()
    expect(widened.content.fieldErrors[0]).toMatchObject({ field: 'permissions', key: 'rule.presetRoleFixed' })
    expect(byCode(await roles(admin), 'EnterpriseCS').permissions).toEqual(preset.permissions)
  })

  it('assigns an operator role to operators only, never to oneself, and only within one’s own rights', async () => {
    const admin = await test.login('opadmin')
    const list = await roles(admin)
    const cs = byCode(list, 'OperationCS')
    const wrongSide = (await call(admin, 'POST', ASSIGN, { id: cs.id, account: 'entadmin' })).json()
    expect(wrongSide.content.fieldErrors[0]).toMatchObject({ field: 'account', key: 'rule.roleAccountSide' })
    const self = (await call(admin, 'POST', ASSIGN, { id: cs.id, account: 'opadmin' })).json()
    expect(self.content.fieldErrors[0]).toMatchObject({ field: 'account', key: 'rule.assignSelf' })
    // The system administrator's role holds walltechAdmin, which the operations administrator does not.
    const beyond = (
      await call(admin, 'POST', ASSIGN, { id: byCode(list, 'SystemAdministrator').id, account: 'opcs' })
    ).json()
    expect(beyond.content.fieldErrors[0]).toMatchObject({ field: 'account', key: 'rule.roleNotGrantable' })
    const nobody = (await call(admin, 'POST', ASSIGN, { id: cs.id, account: 'nobody@nowhere.example' })).json()
    expect(nobody.content.fieldErrors[0]).toMatchObject({ field: 'account', key: 'rule.roleAccountUnknown' })
    const disableOwn = (
      await call(admin, 'POST', STATUS, { id: byCode(list, 'OperationAdministrator').id, status: 0 })
    ).json()
    expect(disableOwn.content.fieldErrors[0]).toMatchObject({ field: 'status', key: 'rule.assignSelf' })
  })
})

describe('role groups', () => {
  it('files roles under groups the engine keeps: the seeded ones, a new one, searched by group and by name', async () => {
    const admin = await test.login('opadmin')
    const seeded = byCode(await roles(admin), 'OperationCS')
    expect(seeded.labels.groupId).toBe('运营管理组')
    const group = (
      await call(admin, 'POST', '/api/b2b/role/group/add', { name: '华东单证组', remark: '上海、宁波' })
    ).json()
    expect(group.code).toBe('0000')
    const role = byCode(await roles(admin), 'exportDocs')
    const moved = (
      await call(admin, 'POST', SAVE, {
        id: role.id,
        version: role.version,
        name: role.name,
        code: role.code,
        companyUserType: 2,
        status: 1,
        dataScope: 'self',
        groupId: group.content.id,
      })
    ).json()
    expect(moved).toMatchObject({
      code: '0000',
      content: { groupId: group.content.id, labels: { groupId: '华东单证组' } },
    })
    // Permissions left out of the body are kept.
    expect(moved.content.permissions).toEqual(role.permissions)
    const inGroup = (
      await call(admin, 'POST', PAGE, { pageNum: 1, pageSize: 50, searchParams: { groupId: group.content.id } })
    ).json()
    expect(inGroup.content.list.map((r: RoleRow) => r.code)).toEqual(['exportDocs'])
    const byName = (
      await call(admin, 'POST', PAGE, { pageNum: 1, pageSize: 50, searchParams: { roleName: '单证' } })
    ).json()
    expect(byName.content.list.map((r: RoleRow) => r.code)).toEqual(['exportDocs'])
    const presets = (
      await call(admin, 'POST', PAGE, { pageNum: 1, pageSize: 50, searchParams: { preset: true, status: 1 } })
    ).json()
    expect(presets.content.total).toBe(8)
    const unknown = (
      await call(admin, 'POST', SAVE, {
        id: role.id,
        version: moved.content.version,
        name: role.name,
        code: role.code,
        companyUserType: 2,
        status: 1,
        dataScope: 'self',
        groupId: 999_999,
      })
    ).json()
    expect(unknown.content.fieldErrors[0]).toMatchObject({ field: 'groupId', key: 'validation.notInCatalogue' })
  })
})

describe('the /operationAuth list (the engine reading the role view)', () => {
  it('lists preset roles first in the order the seed made them, then the tenant’s own newest first, on every page', async () => {
    const admin = await test.login('opadmin')
    const all = await roles(admin)
    const presets = all.filter((r) => r.preset)
    const own = all.filter((r) => !r.preset)
    expect(presets.length).toBeGreaterThan(0)
    // Earlier tests made custom roles (copies, exportDocs): the order has both kinds to keep.
    expect(own.length).toBeGreaterThan(1)
    expect(all.slice(0, presets.length)).toEqual(presets)
    expect(presets.map((r) => r.id)).toEqual([...presets.map((r) => r.id)].sort((a, b) => a - b))
    expect(own.map((r) => r.id)).toEqual([...own.map((r) => r.id)].sort((a, b) => b - a))
    // Later pages are read from the end backwards (server/engine/core.ts): the same order, page after page.
    const pageSize = 3
    const paged: RoleRow[] = []
    for (let pageNum = 1; paged.length < all.length; pageNum++) {
      const page = (await call(admin, 'POST', PAGE, { pageNum, pageSize })).json().content
      expect(page.total).toBe(all.length)
      expect(page.list.length).toBeGreaterThan(0)
      paged.push(...page.list)
    }
    expect(paged.map((r) => r.id)).toEqual(all.map((r) => r.id))
  })

  it('answers each role as the role calls do: no creator, permissions in name order, users counted, labels', async () => {
    const admin = await test.login('opadmin')
    const cs = byCode(await roles(admin), 'OperationCS')
    expect(Object.keys(cs).sort()).toEqual(
      [
        'branch',
        'code',
        'companyUserType',
        'createdAt',
        'dataScope',
        'groupId',
        'id',
        'labels',
        'name',
        'permissions',
        'personalization',
        'preset',
        'status',
        'updatedAt',
        'users',
        'version',
      ].sort(),
    )
    expect(cs.permissions).toEqual([...cs.permissions].sort())
    expect(cs.users).toBeGreaterThan(0)
    const detail = (await call(admin, 'GET', `${DETAIL}?id=${cs.id}`)).json().content
    const { history: _, ...row } = detail
    expect(row).toEqual(cs)
  })
})

describe('tenant isolation', () => {
  it('acme neither reads, copies nor assigns demo’s roles, nor reaches demo’s users', async () => {
    const demoAdmin = await test.login('opadmin')
    const acmeAdmin = await test.login('opadmin', ACME)
    const demoRole = byCode(await roles(demoAdmin), 'BookingClerk')
    const acmeRoles = await roles(acmeAdmin, ACME)
    expect(acmeRoles.some((r) => r.code === 'BookingClerk')).toBe(false)
    expect(acmeRoles.some((r) => r.id === demoRole.id)).toBe(false)
    const read = await call(acmeAdmin, 'GET', `${DETAIL}?id=${demoRole.id}`, undefined, 'en_US', ACME)
    expect(read.statusCode).toBe(404)
    const copy = await call(acmeAdmin, 'POST', COPY, { id: demoRole.id }, 'en_US', ACME)
    expect(copy.statusCode).toBe(404)
    const assign = await call(acmeAdmin, 'POST', ASSIGN, { id: demoRole.id, account: 'entadmin' }, 'en_US', ACME)
    expect(assign.statusCode).toBe(404)
    // acme's own enterprise role cannot reach a demo user by name: acme has its own entadmin, demo's nbclerk none.
    const acmeRole = byCode(acmeRoles, 'EnterpriseOperation')
    const demoUser = (
      await call(acmeAdmin, 'POST', ASSIGN, { id: acmeRole.id, account: 'nbclerk' }, 'en_US', ACME)
    ).json()
    expect(demoUser.content.fieldErrors[0]).toMatchObject({ field: 'account', key: 'rule.roleAccountUnknown' })
    expect(byCode(await roles(demoAdmin), 'BookingClerk')).toMatchObject({
      version: demoRole.version,
      users: demoRole.users,
    })
  })

  it('refuses every role call to a user without addOperationAuth', async () => {
    const entadmin = await test.login('entadmin')
    for (const [method, url] of [
      ['POST', PAGE],
      ['GET', `${DETAIL}?id=1`],
      ['POST', COPY],
      ['POST', ASSIGN],
    ] as const)
      expect(
        (await call(entadmin, method, url, method === 'POST' ? { id: 1, account: 'x' } : undefined)).json().code,
      ).toBe('220000')
  })
})
