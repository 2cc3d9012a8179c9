import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngine } from '../../server/engine/core.ts'
import { loadManifest, type Manifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { sessionOf } from '../support/session.ts'

/**
 * Order numbers from the tenant's rules (issue #8): the engine fills order.orderNo (`numbering: orderNo`)
 * on create from the rule of the order's transport mode, else the tenant's default rule (seeded: HY / AC +
 * YYMMDD + 4 digits, daily reset, in Asia/Shanghai). Counters are per tenant and per period, and parallel
 * creations never share a number.
 */

const test = setupTestApp()

function post(token: string, url: string, payload: object, host = 'localhost') {
  return test.app.inject({
    method: 'POST',
    url,
    headers: { host, cookie: `b2b_token=${token}`, resource: '1', language: 'en' },
    payload,
  })
}

async function tenantId(code: string): Promise<number> {
  const row = await test.database.db
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', code)
    .executeTakeFirstOrThrow()
  return row.id
}

const order = {
  transportMode: 1,
  containerLoadType: 'FCL',
  containers: [{ containerType: '45G1', quantity: 1 }],
  pol: 'CNNGB',
  pod: 'USLAX',
  shipper: 'HANGZHOU MINGHUI TEXTILE',
  consignee: 'PACIFIC HOME GOODS INC.',
}

describe('order numbers', () => {
  const manifest = structuredClone(loadManifest()) as Manifest
  const create: ManifestEndpoint = {
    id: 'test.create',
    kind: 'create',
    method: 'POST',
    path: '/test/order/add',
    entity: 'order',
    permissions: ['myOrders'],
    public: false,
    screens: ['myOrders'],
  }
  manifest.endpoints.push(create)
  let now = new Date('2030-05-01T02:00:00Z') // 10:00 in Shanghai
  const engine = createEngine(manifest, { registry: domainRegistry(), clock: () => now })

  const createAs = async (code: string, user: string, body: object = order) => {
    const tenant = await tenantId(code)
    const session = await sessionOf(test.database.db, tenant, user)
    return withTenant(test.database.db, tenant, (trx) =>
      engine.handle(trx, create, { tenantId: tenant, session, language: 'en' }, body),
    ) as Promise<Record<string, unknown>>
  }

  // Direct orders need the tenant's online booking (server/domain/orders/source.ts): acme's seed has none.
  beforeAll(async () => {
    await sql`update tenant set settings = settings || ${JSON.stringify({
      directOrder: { contactName: 'Booking desk', email: 'booking@acme.example' },
    })}::jsonb where code = 'acme'`.execute(test.database.db)
    // …and the enterprise's, which the provider turns on per enterprise (/clientEnterpriseService).
    await sql`update company set online_booking = true
      where company_type = 2 and tenant_id = (select id from tenant where code = 'acme')`.execute(test.database.db)
  })

  it('numbers a new order from the default rule, per tenant, with a daily reset', async () => {
    expect((await createAs('demo', 'entadmin', { ...order, orderNo: 'FORGED' })).orderNo).toBe('HY3005010001')
    expect((await createAs('demo', 'entadmin')).orderNo).toBe('HY3005010002')
    expect((await createAs('acme', 'entadmin')).orderNo).toBe('AC3005010001')
    now = new Date('2030-05-01T16:30:00Z') // 00:30 on 2 May in Shanghai: a new day
    expect((await createAs('demo', 'entadmin')).orderNo).toBe('HY3005020001')
    expect((await createAs('demo', 'entadmin')).orderNo).toBe('HY3005020002')
    expect((await createAs('acme', 'entadmin')).orderNo).toBe('AC3005020001')
  })

  it('lists and edits the rules on /OrderNoManagement, and a mode rule wins over the default', async () => {
    const admin = await test.login('opadmin')
    const listed = await post(admin, '/api/b2b/orderNo/rule/list', { searchParams: {} })
    expect(listed.json().code, listed.body).toBe('0000')
    expect(listed.json().content.list).toEqual([
      expect.objectContaining({
        transportMode: 0,
        prefix: 'HY',
        datePattern: 'YYMMDD',
        sequenceLength: 4,
        reset: 'daily',
      }),
    ])
    const air = {
      transportMode: 2,
      prefix: 'AIR',
      datePattern: 'YYYYMM',
      sequenceLength: 5,
      reset: 'monthly',
      enabled: true,
    }
    const added = await post(admin, '/api/b2b/orderNo/rule/add', air)
    expect(added.json().code, added.body).toBe('0000')
    const again = await post(admin, '/api/b2b/orderNo/rule/add', air)
    expect(again.json().code).toBe('400003') // one rule per mode
    const bad = await post(admin, '/api/b2b/orderNo/rule/add', { ...air, transportMode: 3, prefix: 'R-1' })
    expect(bad.json().code).toBe('validation')
    expect(bad.json().content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'prefix', key: 'rule.orderNoPrefix' }),
    ])

    now = new Date('2030-05-20T02:00:00Z')
    expect((await createAs('demo', 'entadmin', { ...order, transportMode: 2, containerLoadType: 'AIR' })).orderNo).toBe(
      'AIR20300500001',
    )
    expect((await createAs('demo', 'entadmin')).orderNo).toBe('HY3005200001')

    const rule = added.json().content
    const disabled = await post(admin, '/api/b2b/orderNo/rule/edit', {
      id: rule.id,
      version: rule.version,
      enabled: false,
    })
    expect(disabled.json().code, disabled.body).toBe('0000')
    expect((await createAs('demo', 'entadmin', { ...order, transportMode: 2, containerLoadType: 'AIR' })).orderNo).toBe(
      'HY3005200002',
    )
  })

  it('gives 50 parallel creations 50 distinct consecutive numbers', async () => {
    now = new Date('2030-06-01T02:00:00Z')
    const rows = await Promise.all(Array.from({ length: 50 }, () => createAs('demo', 'entadmin')))
    const numbers = rows.map((r) => r.orderNo as string).sort()
    expect(new Set(numbers).size).toBe(50)
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `HY300601${String(i + 1).padStart(4, '0')}`))
  })

  it('refuses an order once the sequence of its period is used up', async () => {
    const demo = await tenantId('demo')
    now = new Date('2030-07-01T02:00:00Z')
    await withTenant(test.database.db, demo, (trx) =>
      trx
        .insertInto('order_number_counter' as never)
        .values({ tenant_id: demo, rule_key: 'HY|YYMMDD|4', period: '2030-07-01', value: 9999 } as never)
        .execute(),
    )
    await expect(createAs('demo', 'entadmin')).rejects.toMatchObject({
      code: 'validation',
      fieldErrors: [expect.objectContaining({ field: 'orderNo', message: 'rule.orderNoOverflow' })],
    })
  })
})
