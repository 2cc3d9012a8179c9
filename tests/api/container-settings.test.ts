import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { seaInquiry } from '../support/fixtures.ts'

/**
 * Container settings (issue #25, schemas/containerSetting.yaml, /containerConfiguration): the operation
 * administrator sets the container types the tenant offers, with its payload and volume, over the shared ISO
 * 6346 list; the inquiry's look-up lists only those and an inquiry naming another is refused in the caller's
 * language; a tenant with none offers the whole list; another tenant sees none of the settings.
 */

const test = setupTestApp()
const { answer, ok } = bearerCalls(test)
const ACME = { host: 'acme.localhost' }
const OFFERED = '/api/booking/public/api/basic/containerType/offered?limit=50'

let operator: string
let customer: string

beforeAll(async () => {
  operator = await test.login('opadmin')
  customer = await test.login('entadmin')
})

const countSettings = async () =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from container_setting`.execute(test.database.db)).rows[0]?.n ??
      Number.NaN,
  )

const offered = async (options?: { host: string }) =>
  ((await ok('GET', OFFERED, customer, undefined, options)).list as { value: string }[]).map((o) => o.value)

describe('container settings', () => {
  it('lists the seeded settings, adds one with its figures, refuses bad or repeated ones and deletes it', async () => {
    const seeded = await ok('POST', '/api/b2b/container/list', operator, { pageSize: 50 })
    const rows = seeded.list as { containerType: string; payloadTons: number; volumeCbm: number; enabled: boolean }[]
    expect(rows.find((row) => row.containerType === '45G1')).toMatchObject({ payloadTons: 26.5, volumeCbm: 68 })
    expect(rows.find((row) => row.containerType === '22T1')?.enabled).toBe(false)

    const before = await countSettings()
    const zero = await answer(
      'POST',
      '/api/b2b/container/add',
      operator,
      { containerType: '42U1', payloadTons: 0, volumeCbm: 64 },
      { language: 'zh_CN' },
    )
    expect(zero.code).toBe('validation')
    expect(zero.content.fieldErrors).toContainEqual(expect.objectContaining({ field: 'payloadTons' }))
    const unknown = await answer('POST', '/api/b2b/container/add', operator, {
      containerType: 'ZZ9Z',
      payloadTons: 20,
      volumeCbm: 30,
    })
    expect(unknown.content.fieldErrors).toContainEqual(
      expect.objectContaining({
        field: 'containerType',
        message: 'Choose a value from the list',
      }),
    )
    const again = await answer('POST', '/api/b2b/container/add', operator, {
      containerType: '45G1',
      payloadTons: 20,
      volumeCbm: 30,
    })
    expect(again.code).not.toBe('0000')
    expect(await countSettings()).toBe(before)

    const created = await ok('POST', '/api/b2b/container/add', operator, {
      containerType: '42U1',
      payloadTons: 26.4,
      volumeCbm: 64.5,
      remarks: 'Machinery, top-loaded',
    })
    expect(await offered()).toContain('42U1')
    const detail = await ok('GET', `/api/b2b/container/detail?id=${created.id}`, operator)
    const edited = await ok('POST', '/api/b2b/container/edit', operator, {
      id: created.id,
      version: detail.version,
      enabled: false,
    })
    expect(edited.enabled).toBe(false)
    expect(await offered()).not.toContain('42U1')
    await ok('DELETE' as 'POST', `/api/b2b/container/delete?id=${created.id}`, operator)
    expect(await countSettings()).toBe(before)
  })

  it("offers the inquiry only the tenant's enabled types, and refuses another in the caller's language", async () => {
    expect((await offered()).sort()).toEqual(['22G1', '22R1', '42G1', '45G1', '45R1', 'L5G1'])
    // acme sets none: the whole reference list.
    expect(await offered(ACME)).toEqual(expect.arrayContaining(['22T1', '22U1', '42P1', '45G1']))

    const tank = seaInquiry({
      containers: [
        { containerType: '45G1', quantity: 1 },
        { containerType: '22T1', quantity: 2 },
      ],
    })
    const refused = await answer('POST', '/api/booking/inquiry/save', customer, tank, { language: 'zh_CN' })
    expect(refused.code).toBe('validation')
    expect(refused.content.fieldErrors).toEqual([
      expect.objectContaining({
        field: 'containers[1].containerType',
        message: '本公司不提供该箱型，请选择箱型设置中的箱型',
      }),
    ])
    const reefer = await ok(
      'POST',
      '/api/booking/inquiry/save',
      customer,
      seaInquiry({ containers: [{ containerType: '45R1', quantity: 1 }] }),
    )
    expect(reefer.containers).toEqual([{ containerType: '45R1', quantity: 1 }])
  })

  it("keeps a tenant's settings to itself and from its customers", async () => {
    const acmeOperator = await test.login('opadmin', 'acme.localhost')
    const acme = await ok('POST', '/api/b2b/container/list', acmeOperator, { pageSize: 50 }, ACME)
    expect(acme.total).toBe(0)
    const demo = await ok('POST', '/api/b2b/container/list', operator, { pageSize: 1 })
    const first = (demo.list as { id: number }[])[0]
    const peek = await answer('GET', `/api/b2b/container/detail?id=${first?.id}`, acmeOperator, undefined, ACME)
    expect(peek.code).not.toBe('0000')
    const refused = await answer('POST', '/api/b2b/container/list', customer, { pageSize: 10 })
    expect(refused.code).toBe('220000')
  })
})
