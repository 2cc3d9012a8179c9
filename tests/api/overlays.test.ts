import { describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngine } from '../../server/engine/core.ts'
import { loadManifest, type Manifest } from '../../server/manifest.ts'
import { endpointOverlay } from '../../server/overlays/enforce.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { sessionOf } from '../support/session.ts'

/**
 * Tenant screen overlays over HTTP: saving (checked as the editor checks it), versions with who and
 * when, rollback, stale saves, permissions, and the server honouring what an overlay hides, locks and
 * tightens — for the tenant that saved it only.
 */

const test = setupTestApp()

const SAVE = '/api/b2b/screen/overlay/save'
const ROLLBACK = '/api/b2b/screen/overlay/rollback'
const VERSIONS = '/api/b2b/screen/overlay/versions'
const IN_FORCE = '/api/b2b/screen/overlays'
const ORDER_LIST = '/api/booking/order/queryOrderListByOperator'

function post(token: string, url: string, payload: object, host = 'localhost', language = 'en') {
  return test.app.inject({
    method: 'POST',
    url,
    headers: { host, cookie: `b2b_token=${token}`, resource: '1', language },
    payload,
  })
}
function get(token: string, url: string, host = 'localhost') {
  return test.app.inject({ method: 'GET', url, headers: { host, cookie: `b2b_token=${token}` } })
}

async function tenantId(code: string): Promise<number> {
  const row = await test.database.db
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  return row.id
}

async function overlayRows(code: string, screen: string): Promise<number> {
  const id = await tenantId(code)
  return withTenant(test.database.db, id, async (trx) => {
    const rows = await trx.selectFrom('screen_overlay').select('version').where('screen', '=', screen).execute()
    return rows.length
  })
}

describe('saving an overlay', () => {
  it('refuses a text that names what the screen lacks, with the line, in the caller language, and stores nothing', async () => {
    const token = await test.login('opadmin')
    const response = await post(token, SAVE, {
      screen: 'orderList',
      source: 'columns:\n  hidden:\n    - jobNo\n    - shoeSize\n',
      after: 0,
    })
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe('validation')
    expect(body.content.fieldErrors ?? body.content).toBeDefined()
    const errors = (body.content?.fieldErrors ?? body.fieldErrors) as { field: string; key: string; message: string }[]
    expect(errors).toEqual([
      expect.objectContaining({
        field: 'source',
        key: 'overlay.unknownColumn',
        message: expect.stringContaining('shoeSize'),
      }),
    ])
    expect(JSON.stringify(errors)).toContain('"line":4')
    expect(await overlayRows('demo', 'orderList')).toBe(0)
  })

  it('refuses a rule looser than the screen’s own', async () => {
    const token = await test.login('opadmin')
    const response = await post(token, SAVE, {
      screen: 'orderList',
      source: 'fields:\n  rules:\n    vessel: { maxLength: 200 }\n',
      after: 0,
    })
    expect(response.json().code).toBe('validation')
    expect(JSON.stringify(response.json())).toContain('overlay.ruleLooser')
  })

  it('is refused to users without the screenOverlay permission', async () => {
    for (const username of ['opcs', 'personal']) {
      const token = await test.login(username)
      const response = await post(token, SAVE, {
        screen: 'orderList',
        source: 'columns: { hidden: [jobNo] }',
        after: 0,
      })
      expect(response.json().code, username).toBe('220000')
    }
    expect(await overlayRows('demo', 'orderList')).toBe(0)
  })

  it('refuses a screen that is not a generic screen', async () => {
    const token = await test.login('opadmin')
    const response = await post(token, SAVE, { screen: 'login', source: '', after: 0 })
    expect(JSON.stringify(response.json())).toContain('overlay.unknownScreen')
  })
})

describe('an overlay in force', () => {
  it('hides a column from the demo tenant’s order list and export, and leaves acme’s alone', async () => {
    const demo = await test.login('opadmin')
    const acme = await test.login('opadmin', 'acme.localhost')
    const before = await post(demo, ORDER_LIST, { pageNum: 1, pageSize: 5, searchParams: {} })
    expect(before.json().content.list[0]).toHaveProperty('jobNo')

    const saved = await post(demo, SAVE, {
      screen: 'orderList',
      source: '# demo desk\ncolumns:\n  hidden: [jobNo]\n  labels: { customerCompany: { en: Client } }\n',
      after: 0,
    })
    expect(saved.json()).toMatchObject({ code: '0000', content: { screen: 'orderList', version: 1 } })

    const after = await post(demo, ORDER_LIST, { pageNum: 1, pageSize: 5, searchParams: {} })
    expect(after.json().content.list.length).toBeGreaterThan(0)
    for (const row of after.json().content.list) expect(row).not.toHaveProperty('jobNo')

    const other = await post(acme, ORDER_LIST, { pageNum: 1, pageSize: 5, searchParams: {} }, 'acme.localhost')
    expect(other.json().content.list[0]).toHaveProperty('jobNo')

    const inForce = await get(demo, IN_FORCE)
    expect(inForce.json().content.screens.orderList).toMatchObject({
      version: 1,
      document: { columns: { hidden: ['jobNo'] } },
    })
    expect((await get(acme, IN_FORCE, 'acme.localhost')).json().content.screens).toEqual({})
  })

  it('keeps every version with who saved it, refuses a stale save, and rolls back as a new version', async () => {
    const token = await test.login('opadmin')
    const stale = await post(token, SAVE, { screen: 'orderList', source: 'columns: { hidden: [carrier] }', after: 0 })
    expect(stale.json().code).toBe('330002')

    const second = await post(token, SAVE, {
      screen: 'orderList',
      source: 'columns: { hidden: [carrier, pod] }',
      after: 1,
    })
    expect(second.json().content.version).toBe(2)
    const rolled = await post(token, ROLLBACK, { screen: 'orderList', version: 1, after: 2 })
    expect(rolled.json()).toMatchObject({ code: '0000', content: { version: 3 } })

    const versions = (await get(token, `${VERSIONS}?screen=orderList`)).json().content.list
    expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1])
    expect(versions[0]).toMatchObject({ rolledBackFrom: 1, source: expect.stringContaining('# demo desk') })
    expect(versions[0].createdBy).toContain('opadmin')
    expect(Date.parse(versions[0].createdAt)).not.toBeNaN()

    const list = await post(token, ORDER_LIST, { pageNum: 1, pageSize: 5, searchParams: {} })
    expect(list.json().content.list[0]).toHaveProperty('pod')
    expect(list.json().content.list[0]).not.toHaveProperty('jobNo')
  })

  it('does not send the fields a detail screen hides, for the saving tenant only', async () => {
    const demo = await test.login('opadmin')
    const acme = await test.login('opadmin', 'acme.localhost')
    const saved = await post(demo, SAVE, {
      screen: 'orderDetailsOperator',
      source: 'fields: { hidden: [vessel] }',
      after: 0,
    })
    expect(saved.json().code, saved.body).toBe('0000')
    const first = async (token: string, host: string) => {
      const list = await post(token, ORDER_LIST, { pageNum: 1, pageSize: 1, searchParams: {} }, host)
      const id = list.json().content.list[0].id
      return (await get(token, `/api/booking/order/getOrderDetail?id=${id}`, host)).json().content
    }
    const shown = await first(demo, 'localhost')
    expect(shown).toHaveProperty('orderNo')
    expect(shown).not.toHaveProperty('vessel')
    expect(await first(acme, 'acme.localhost')).toHaveProperty('vessel')
  })

  it('on a hand-written save: ignores a locked optional field and checks the tighter rule', async () => {
    const token = await test.login('personal')
    const admin = await test.login('opadmin')
    const saved = await post(admin, SAVE, {
      screen: 'personalInfo',
      source: 'fields:\n  readOnly: [individuationCurrency]\n  rules:\n    realName: { maxLength: 6 }\n',
      after: 0,
    })
    expect(saved.json().code).toBe('0000')
    const locked = await post(admin, SAVE, {
      screen: 'personalInfo',
      source: 'fields: { readOnly: [realName] }',
      after: 1,
    })
    expect(JSON.stringify(locked.json())).toContain('overlay.requiredLocked')

    const change = '/api/b2b/user/change/userInfo'
    const tooLong = await post(token, change, { realName: 'Maximilian Lopez', individuationCurrency: 'EUR' })
    expect(tooLong.json().code).toBe('validation')
    expect(tooLong.json().content.fieldErrors?.[0] ?? tooLong.json().fieldErrors?.[0]).toMatchObject({
      field: 'realName',
      message: 'At most 6 characters',
    })
    const ok = await post(token, change, { realName: 'Liu', individuationCurrency: 'EUR' })
    expect(ok.json().code).toBe('0000')
    expect(ok.json().content.realName).toBe('Liu')
    expect(ok.json().content.individuationCurrency).not.toBe('EUR')
  })
})

describe('the engine honours an overlay on create and update', () => {
  it('drops locked fields, fills hidden defaults and checks tighter rules', async () => {
    const manifest = structuredClone(loadManifest()) as Manifest
    const at = (kind: 'create' | 'update', path: string): ManifestEndpoint => ({
      id: `test.${kind}`,
      kind,
      method: 'POST',
      path,
      entity: 'order',
      permissions: ['myOrders'],
      public: false,
      screens: ['myOrders'],
    })
    manifest.endpoints.push(at('create', '/test/order/add'), at('update', '/test/order/update'))
    const engine = createEngine(manifest, { registry: domainRegistry() })
    const admin = await test.login('opadmin')
    const saved = await post(admin, SAVE, {
      screen: 'myOrders',
      source:
        'fields:\n  hidden: [specialOperationCode]\n  readOnly: [carrier]\n  defaults: { specialOperationCode: STD }\n  rules:\n    vessel: { required: true, pattern: "^[A-Z ]+$" }\n',
      after: 0,
    })
    expect(saved.json().code, saved.body).toBe('0000')

    const demo = await tenantId('demo')
    const session = await sessionOf(test.database.db, demo, 'entadmin')
    const run = (path: string, input: object) =>
      withTenant(test.database.db, demo, async (trx) => {
        const endpoint = manifest.endpoints.find((e) => e.path === path) as ManifestEndpoint
        const overlay = await endpointOverlay(test.database.db, trx, demo, endpoint)
        return engine.handle(trx, endpoint, { tenantId: demo, session, language: 'en', overlay }, input)
      }) as Promise<Record<string, unknown>>
    const order = {
      transportMode: 1,
      containerLoadType: 'FCL',
      containers: [{ containerType: '45G1', quantity: 1 }],
      pol: 'CNNGB',
      pod: 'USLAX',
      carrier: 'MAEU',
      specialOperationCode: 'FORGED',
      shipper: 'HANGZHOU MINGHUI TEXTILE',
      consignee: 'PACIFIC HOME GOODS INC.',
    }
    await expect(run('/test/order/add', order)).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'vessel', message: 'validation.required' })],
    })
    await expect(run('/test/order/add', { ...order, vessel: 'msc gulsun' })).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'vessel', message: 'validation.pattern' })],
    })
    const row = await run('/test/order/add', { ...order, vessel: 'MSC GULSUN' })
    expect(row).toMatchObject({ vessel: 'MSC GULSUN', specialOperationCode: 'STD', carrier: null })

    const updated = await run('/test/order/update', {
      id: row.id,
      version: row.version,
      carrier: 'COSU',
      voyage: '123E',
    })
    expect(updated).toMatchObject({ carrier: null, voyage: '123E' })
  })
})

describe('the Content-Security-Policy', () => {
  it('allows scripts only from the portal itself and never eval', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/health' })
    const policy = String(response.headers['content-security-policy'])
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("object-src 'none'")
    expect(policy).not.toContain('unsafe-eval')
    expect(policy.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe-inline')
  })
})
