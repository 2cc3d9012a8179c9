import type { Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import type { Database } from '../../server/db/database.ts'
import type { DB } from '../../server/db/schema.ts'
import { OCEAN_CARRIERS } from '../../server/db/seed/reference/carriers.ts'
import { CONTAINER_TYPES } from '../../server/db/seed/reference/containerTypes.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngine, type Engine, type ListContent } from '../../server/engine/core.ts'
import { attachLabels, type LabelField, labelFields, labelTarget } from '../../server/engine/labels.ts'
import type { Session } from '../../server/http/context.ts'
import type { Language } from '../../server/http/errors.ts'
import { loadManifest, type Manifest } from '../../server/manifest.ts'
import { withoutHiddenFields } from '../../server/overlays/enforce.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { freshDatabase } from '../support/database.ts'
import { sessionOf as sessionFor } from '../support/session.ts'

/**
 * The display text the engine answers beside ids and codes (server/engine/labels.ts): reference lists by
 * code in the caller's language, tenant entities by id inside the caller's tenant, one lookup per table.
 */

const MINGHUI_EN = 'Hangzhou Minghui Textile Import and Export Co Ltd'
const MINGHUI_ZH = '杭州明辉纺织品进出口有限公司'
const MAERSK = OCEAN_CARRIERS.find((c) => c.scac === 'MAEU') as (typeof OCEAN_CARRIERS)[number]
const OPERATOR_LIST = '/booking/order/queryOrderListByOperator'

type Row = Record<string, unknown> & { labels?: Record<string, string | string[]> }

let database: Database
let manifest: Manifest
let engine: Engine
const tenants: Record<string, number> = {}

beforeAll(async () => {
  database = await freshDatabase()
  manifest = loadManifest()
  engine = createEngine(manifest, { registry: domainRegistry() })
  for (const t of await database.db.selectFrom('tenant').select(['id', 'code']).execute()) tenants[t.code] = t.id
})
afterAll(async () => {
  await database?.close()
})

const sessionOf = (tenant: string, username: string) => sessionFor(database.db, tenants[tenant] as number, username)

const endpointAt = (path: string): ManifestEndpoint => {
  const found = manifest.endpoints.find((e) => e.path === path)
  if (!found) throw new Error(`no endpoint ${path}`)
  return found
}

function call<T>(session: Session, path: string, input: unknown, language: Language): Promise<T> {
  return withTenant(database.db, session.tenantId, (trx) =>
    engine.handle(trx, endpointAt(path), { tenantId: session.tenantId, session, language }, input),
  ) as Promise<T>
}

const list = (session: Session, input: unknown, language: Language) =>
  call<ListContent>(session, OPERATOR_LIST, input, language) as Promise<{ list: Row[]; total: number }>

/** The names of a tenant's companies and users, read as the superuser: the ground truth for its labels. */
async function namesOf(tenant: string) {
  const tenantId = tenants[tenant] as number
  const companies = await database.db
    .selectFrom('company')
    .select(['id', 'name', 'name_en'])
    .where('tenant_id', '=', tenantId)
    .execute()
  const users = await database.db
    .selectFrom('app_user')
    .select(['id', 'real_name'])
    .where('tenant_id', '=', tenantId)
    .execute()
  return {
    companies: new Map(companies.map((c) => [c.id, c])),
    users: new Map(users.map((u) => [u.id, u.real_name])),
  }
}

describe('labels on the order list', () => {
  it('names the customer company, ports, carrier and creator in English', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const { list: rows } = await list(operator, { searchParams: { pol: 'CNSHA' }, pageSize: 200 }, 'en')
    const maersk = rows.find((r) => r.carrier === 'MAEU')
    expect(maersk).toBeDefined()
    expect(maersk?.labels).toMatchObject({
      customerCompany: MINGHUI_EN,
      pol: 'Shanghai',
      carrier: MAERSK.name_en,
    })
    const { users } = await namesOf('demo')
    for (const row of rows) {
      expect(row.labels?.customerCompany).toBe(MINGHUI_EN)
      expect(row.labels?.pol).toBe('Shanghai')
      expect(row.labels?.createdBy).toBe(users.get(row.createdBy as number))
      // The raw values stay as they were: the label is beside them, not instead of them.
      expect(row.pol).toBe('CNSHA')
      expect(typeof row.customerCompany).toBe('number')
    }
    const usLax = rows.find((r) => r.pod === 'USLAX')
    if (usLax) expect(usLax.labels?.pod).toBe('Los Angeles')
  })

  it('answers the Chinese names in zh', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const { list: rows } = await list(operator, { searchParams: { pol: 'CNSHA' }, pageSize: 200 }, 'zh')
    const maersk = rows.find((r) => r.carrier === 'MAEU')
    expect(maersk?.labels).toMatchObject({ customerCompany: MINGHUI_ZH, pol: '上海', carrier: MAERSK.name_zh })
    expect(rows.every((r) => r.labels?.pol === '上海' && r.labels?.customerCompany === MINGHUI_ZH)).toBe(true)
  })

  it('leaves out refs without a value', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const { list: rows } = await list(operator, { pageSize: 200 }, 'en')
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.labels).toBeDefined()
      for (const field of ['pol', 'pod', 'carrier', 'customerCompany', 'createdBy'])
        expect(field in (row.labels ?? {})).toBe(row[field] !== null)
    }
  })

  it('gives an acme user only names of acme', async () => {
    const acme = await sessionOf('acme', 'opadmin')
    const { list: rows } = await list(acme, { pageSize: 200 }, 'en')
    expect(rows.length).toBeGreaterThan(0)
    const own = await namesOf('acme')
    const demo = await namesOf('demo')
    const demoTexts = new Set([
      ...[...demo.companies.values()].flatMap((c) => [c.name, c.name_en]),
      ...demo.users.values(),
    ])
    for (const row of rows) {
      const company = own.companies.get(row.customerCompany as number)
      expect(company).toBeDefined()
      expect(row.labels?.customerCompany).toBe(company?.name_en ?? company?.name)
      expect(row.labels?.createdBy).toBe(own.users.get(row.createdBy as number))
      expect(demoTexts.has(row.labels?.customerCompany as string)).toBe(false)
      expect(demoTexts.has(row.labels?.createdBy as string)).toBe(false)
    }
  })

  it('never looks up an id of another tenant, even when a row names one', async () => {
    const demo = await namesOf('demo')
    const [demoCompany] = [...demo.companies.keys()]
    const [demoUser] = [...demo.users.keys()]
    const order = manifest.entities.order as ManifestEntity
    const fields = labelFields(order, manifest.entities)
    const rows = await withTenant(database.db, tenants.acme as number, (trx) =>
      attachLabels(trx, fields, [{ customerCompany: demoCompany, createdBy: demoUser, pol: 'CNSHA' } as Row], {
        tenantId: tenants.acme as number,
        language: 'en',
      }),
    )
    expect(rows[0]?.labels).toEqual({ pol: 'Shanghai' })
  })

  it('reads each referenced tenant table once per page, not once per row, and shared lists not at all', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const { list: rows } = await list(operator, { pageSize: 50 }, 'en')
    expect(rows.length).toBeGreaterThan(10)
    const plain = rows.map(({ labels: _, ...row }) => row as Row)
    const fields = labelFields(manifest.entities.order as ManifestEntity, manifest.entities)
    let queries = 0
    const labelled = await withTenant(database.db, operator.tenantId, (trx) =>
      attachLabels(
        trx.withPlugin({
          transformQuery: (args) => {
            queries++
            return args.node
          },
          transformResult: async (args) => args.result,
        }) as Transaction<DB>,
        fields,
        plain,
        { tenantId: operator.tenantId, language: 'en' },
      ),
    )
    // company and app_user; ref_port and ref_carrier were read whole by the list above (once per process).
    expect(queries).toBe(2)
    expect(labelled.map((r) => r.labels)).toEqual(rows.map((r) => r.labels))
  })

  it("reads a page's company and user names in the page's own query, and the first page its total too", async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const listed = async (request: object) => {
      const statements: string[] = []
      const content = (await withTenant(database.db, operator.tenantId, (trx) =>
        engine.handle(
          trx.withPlugin({
            transformQuery: (args) => args.node,
            // Called once per query run (transformQuery also sees the subqueries being built).
            transformResult: async (args) => {
              statements.push(args.queryId.queryId)
              return args.result
            },
          }) as Transaction<DB>,
          endpointAt(OPERATOR_LIST),
          { tenantId: operator.tenantId, session: operator, language: 'en' },
          request,
        ),
      )) as { list: Row[]; total: number }
      return { content, statements }
    }
    // The first page with its labels and its total (from the row tally) in one statement; ports and carriers come
    // from the shared lists.
    const first = await listed({ pageSize: 5 })
    expect(first.statements).toHaveLength(1)
    expect(first.content.list.every((r) => typeof r.labels?.customerCompany === 'string')).toBe(true)
    expect(first.content.list).toEqual((await list(operator, { pageSize: 5 }, 'en')).list)
    // A later page needs the total first (it decides the direction it is read in): two statements, the same total.
    const second = await listed({ pageSize: 5, pageNum: 2 })
    expect(second.statements).toHaveLength(2)
    expect(second.content.total).toBe(first.content.total)
    expect(first.content.total).toBeGreaterThan(10)
    expect(second.content.list.map((r) => r.id)).toEqual(
      (await list(operator, { pageSize: 10 }, 'en')).list.slice(5).map((r) => r.id),
    )
  })

  it('answers multiple refs as a list of names, in the order of the values', async () => {
    const port = labelTarget(manifest.entities.port as ManifestEntity)
    if (!port) throw new Error('port has no label target')
    const fields: LabelField[] = [{ field: 'ports', multiple: true, target: port }]
    const rows = await withTenant(database.db, tenants.demo as number, (trx) =>
      attachLabels(trx, fields, [{ ports: ['USLAX', 'CNSHA', 'ZZZZZ'] }, { ports: [] }, { ports: null }] as Row[], {
        tenantId: tenants.demo as number,
        language: 'zh',
      }),
    )
    expect(rows.map((r) => r.labels)).toEqual([{ ports: ['洛杉矶', '上海', 'ZZZZZ'] }, {}, {}])
  })
})

describe('labels of refs inside list rows', () => {
  const labelOf = (code: string) => CONTAINER_TYPES.find((t) => t.code === code)?.label
  const typesOf = (row: Row) => ((row.containers ?? []) as { containerType: string }[]).map((c) => c.containerType)

  it("name each container row's type by its SPEC §3 label (40'HQ), in the rows' order, on lists and details", async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const { list: rows } = await list(operator, { searchParams: { containerLoadType: 'FCL' }, pageSize: 20 }, 'en')
    const withContainers = rows.filter((r) => typesOf(r).length > 0)
    expect(withContainers.length).toBeGreaterThan(0)
    for (const row of withContainers)
      expect(row.labels?.['containers.containerType']).toEqual(typesOf(row).map(labelOf))
    // The label is the same in every language (size, apostrophe, type).
    for (const language of ['zh', 'en', 'ja'] as const) {
      const detail = await call<Row>(operator, '/booking/order/getOrderDetail', { id: withContainers[0]?.id }, language)
      expect(typesOf(detail).length).toBeGreaterThan(0)
      expect(detail.labels?.['containers.containerType']).toEqual(typesOf(detail).map(labelOf))
      expect(detail.labels?.['containers.containerType']).toContain("40'HQ")
    }
  })

  it("name an inquiry's container rows the same way", async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const inquiries = (await call<ListContent>(operator, '/booking/inquiry/list', { pageSize: 50 }, 'en')) as {
      list: Row[]
    }
    const inquiry = inquiries.list.find((r) => typesOf(r).length > 1)
    expect(inquiry).toBeDefined()
    const detail = await call<Row>(operator, '/booking/inquiry/detail', { id: inquiry?.id }, 'zh')
    expect(detail.labels?.['containers.containerType']).toEqual(typesOf(detail).map(labelOf))
  })

  it('keep one text per row: a code not found stays itself, a row without a value is empty, no rows no label', async () => {
    const fields = labelFields(manifest.entities.order as ManifestEntity, manifest.entities).filter((f) => f.item)
    expect(fields.map((f) => [f.field, f.item, f.target.table])).toEqual([
      ['containers', 'containerType', 'ref_container_type'],
    ])
    const rows = await withTenant(database.db, tenants.demo as number, (trx) =>
      attachLabels(
        trx,
        fields,
        [
          {
            containers: [
              { containerType: '22G1' },
              { containerType: 'ZZ9Z' },
              { quantity: 1 },
              { containerType: 'L5G1' },
            ],
          },
          { containers: [] },
          { containers: null },
          { containers: [{ quantity: 2 }] },
        ] as Row[],
        { tenantId: tenants.demo as number, language: 'en' },
      ),
    )
    expect(rows.map((r) => r.labels)).toEqual([
      { 'containers.containerType': ["20'GP", 'ZZ9Z', '', "45'HQ"] },
      {},
      {},
      {},
    ])
  })

  it("go with their list when a tenant's overlay hides it", () => {
    const row = {
      pol: 'CNSHA',
      containers: [{ containerType: '45G1', quantity: 1 }],
      labels: { pol: 'Shanghai', 'containers.containerType': ["40'HQ"] },
    }
    expect(withoutHiddenFields({ document: { fields: { hidden: ['containers'] } }, rules: null }, row)).toEqual({
      pol: 'CNSHA',
      labels: { pol: 'Shanghai' },
    })
  })
})

describe('labels on the other answers', () => {
  it('carries them on the detail and on a transition answer, and keeps them out of the audit', async () => {
    const operator = await sessionOf('demo', 'opadmin')
    const [order] = (await list(operator, { searchParams: { state: ['submitted'] }, pageSize: 1 }, 'en')).list
    expect(order).toBeDefined()
    const detail = await call<Row>(operator, '/booking/order/getOrderDetail', { id: order?.id }, 'zh')
    expect(detail.labels).toMatchObject({ customerCompany: MINGHUI_ZH })
    expect(detail.labels?.pol).toBeTypeOf('string')
    const after = await call<Row>(
      operator,
      '/order/transition',
      { id: order?.id, version: order?.version, transition: 'accept' },
      'en',
    )
    expect(after.state).toBe('accepted')
    expect(after.labels).toEqual(order?.labels)
    const again = await call<Row & { history: { after: Record<string, unknown> | null }[] }>(
      operator,
      '/booking/order/getOrderDetail',
      { id: order?.id },
      'en',
    )
    expect(again.history[0]?.after).not.toHaveProperty('labels')
  })

  it('labels the role of an operation account in the tenant', async () => {
    const role = labelFields(manifest.entities.operationAccount as ManifestEntity, manifest.entities)
    expect(role.map((f) => [f.field, f.target.table])).toEqual([['companyAppRoleId', 'role']])
  })
})
