import { describe, expect, it } from 'vitest'
import { syncPresetRoles } from '../../server/db/presetRoles.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()
const login = (username: string, host?: string) => test.login(username, host)

const call = (method: 'GET' | 'DELETE', url: string, token?: string, language = 'en_US') =>
  test.app.inject({
    method,
    url,
    headers: { host: 'localhost', language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  })

describe('roles', () => {
  it('lists the preset roles of SPEC §6 with their users', async () => {
    const token = await login('opadmin')
    const body = (await call('GET', '/api/b2b/role/list', token)).json()
    expect(body.code).toBe('0000')
    const codes = body.content.map((r: { code: string }) => r.code)
    expect(codes).toEqual(
      expect.arrayContaining([
        'PersonalUser',
        'EnterpriseAdministrator',
        'OperationAdministrator',
        'SystemAdministrator',
      ]),
    )
    // The preset roles are marked so; the two the demo tenant made itself (server/db/seed/demo.ts) are not.
    const custom = body.content.filter((r: { preset: boolean }) => !r.preset).map((r: { code: string }) => r.code)
    expect(custom.sort()).toEqual(['BookingClerk', 'OrderFollowUp'])
    expect(codes.length - custom.length).toBe(8)
  })

  it("names each preset role by its label in the tenant's language and keeps its code", async () => {
    const namesOf = async (host: string) => {
      const token = await login('opadmin', host)
      const body = (
        await test.app.inject({
          method: 'GET',
          url: '/api/b2b/role/list',
          headers: { host, language: 'en_US', authorization: `Bearer ${token}` },
        })
      ).json()
      expect(body.code).toBe('0000')
      const roles = body.content as { code: string; name: string; preset: boolean }[]
      return Object.fromEntries(roles.filter((r) => r.preset).map((r) => [r.code, r.name]))
    }
    // demo writes Chinese, acme English; whoever reads, the stored name is the tenant's.
    expect(await namesOf('localhost')).toMatchObject({
      EnterpriseAdministrator: '企业管理员',
      OperationCS: '运营客服',
      PersonalUser: '个人用户',
    })
    expect(await namesOf('acme.localhost')).toMatchObject({
      EnterpriseAdministrator: 'Enterprise administrator',
      OperationCS: 'Operations customer service',
      PersonalUser: 'Personal user',
    })
    const demo = await namesOf('localhost')
    expect(Object.entries(demo).filter(([code, name]) => code === name)).toEqual([])
  })

  it('refuses to delete a preset role with 360001, in the caller language, and keeps it', async () => {
    const token = await login('opadmin')
    const roles = (await call('GET', '/api/b2b/role/list', token)).json().content as { id: number; code: string }[]
    const preset = roles.find((r) => r.code === 'OperationCS') as { id: number }
    const en = (await call('DELETE', `/api/b2b/role/delete?id=${preset.id}`, token)).json()
    const zh = (await call('DELETE', `/api/b2b/role/delete?id=${preset.id}`, token, 'zh_CN')).json()
    expect(en.code).toBe('360001')
    expect(en.message).not.toBe(zh.message)
    const still = (await call('GET', '/api/b2b/role/list', token)).json().content as { id: number }[]
    expect(still.some((r) => r.id === preset.id)).toBe(true)
  })

  it('deletes a custom role', async () => {
    const demo = await test.database.db
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', 'demo')
      .executeTakeFirstOrThrow()
    const custom = await withTenant(test.database.db, demo.id, (trx) =>
      trx
        .insertInto('role')
        .values({
          tenant_id: demo.id,
          code: 'nightShift',
          name: 'Night shift',
          preset: false,
          data_scope: 'self',
          permissions: '["orderList"]',
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    )
    const token = await login('opadmin')
    expect((await call('DELETE', `/api/b2b/role/delete?id=${custom.id}`, token)).json().code).toBe('0000')
    const roles = (await call('GET', '/api/b2b/role/list', token)).json().content as { id: number }[]
    expect(roles.some((r) => r.id === custom.id)).toBe(false)
  })

  it('is refused to users without the permission and to visitors', async () => {
    expect((await call('GET', '/api/b2b/role/list', await login('entadmin'))).json().code).toBe('220000')
    expect((await call('GET', '/api/b2b/role/list')).statusCode).toBe(401)
  })

  it('cannot reach another tenant role: acme sees not-found for a demo role id', async () => {
    const demoToken = await login('opadmin')
    const demoRole = ((await call('GET', '/api/b2b/role/list', demoToken)).json().content as { id: number }[])[0] as {
      id: number
    }
    const acmeToken = await login('opadmin', 'acme.localhost')
    const response = await test.app.inject({
      method: 'DELETE',
      url: `/api/b2b/role/delete?id=${demoRole.id}`,
      headers: { host: 'acme.localhost', authorization: `Bearer ${acmeToken}` },
    })
    expect(response.json().code).toBe('404')
  })
})

describe('preset roles follow the YAML (issue #19: permissions reach a database that already exists)', () => {
  const manifest = loadManifest()
  const rolesOf = (tenant: string) =>
    test.database.db
      .selectFrom('role')
      .innerJoin('tenant', 'tenant.id', 'role.tenant_id')
      .select(['role.code', 'role.name', 'role.preset', 'role.permissions', 'role.data_scope', 'role.tenant_id'])
      .where('tenant.code', '=', tenant)
      .execute()

  it('changes nothing on a database that matches the YAML', async () => {
    expect(await syncPresetRoles(test.database.db, manifest)).toBe(0)
  })

  it('gives back a preset permission an old database lacks, re-creates a missing preset role, leaves custom roles', async () => {
    const [demo] = await test.database.db.selectFrom('tenant').select('id').where('code', '=', 'demo').execute()
    const tenantId = (demo as { id: number }).id
    await withTenant(test.database.db, tenantId, async (trx) => {
      await trx
        .updateTable('role')
        .set({ permissions: JSON.stringify(['orderList']) as never })
        .where('tenant_id', '=', tenantId)
        .where('code', '=', 'OperationCS')
        .execute()
      await trx.deleteFrom('role').where('tenant_id', '=', tenantId).where('code', '=', 'EnterpriseSales').execute()
      await trx
        .insertInto('role')
        .values({
          tenant_id: tenantId,
          code: 'NightDesk',
          name: 'Night desk',
          preset: false,
          data_scope: 'self',
          permissions: JSON.stringify(['orderList']),
        })
        .execute()
    })
    expect(await syncPresetRoles(test.database.db, manifest)).toBe(2)
    const roles = await rolesOf('demo')
    const byCode = new Map(roles.map((role) => [role.code, role]))
    expect([...((byCode.get('OperationCS')?.permissions as unknown as string[]) ?? [])].sort()).toEqual(
      [...(manifest.roles.OperationCS?.permissions ?? [])].sort(),
    )
    // Re-created with its label in the tenant's language (demo configures none: Chinese, SPEC §9).
    expect(byCode.get('EnterpriseSales')).toMatchObject({ preset: true, data_scope: 'self', name: '企业销售' })
    expect(byCode.get('NightDesk')).toMatchObject({ preset: false, permissions: ['orderList'] })
    expect(await syncPresetRoles(test.database.db, manifest)).toBe(0)
  })

  it('lets the operation administrator use a permission added to the YAML after a restart', async () => {
    const grown = structuredClone(manifest)
    const admin = grown.roles.OperationAdministrator as { permissions: string[] }
    admin.permissions = [...admin.permissions, 'nightDeskList']
    // Every tenant's OperationAdministrator role gets it: demo and acme.
    expect(await syncPresetRoles(test.database.db, grown)).toBe(2)
    const me = await call('GET', '/api/b2b/user/getCurrentUserInfo', await login('opadmin'))
    expect(me.json().content.permissions).toContain('nightDeskList')
    // And the YAML as it is takes it away again.
    expect(await syncPresetRoles(test.database.db, manifest)).toBe(2)
    const again = await call('GET', '/api/b2b/user/getCurrentUserInfo', await login('opadmin'))
    expect(again.json().content.permissions).not.toContain('nightDeskList')
  })
})
