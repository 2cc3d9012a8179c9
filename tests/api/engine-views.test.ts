import { type RootOperationNode, sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EntityDef } from '../../model/definitions.ts'
import { entitySchema } from '../../model/jsonschema.ts'
import type { ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import type { Database } from '../../server/db/database.ts'
import type { DB } from '../../server/db/schema.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngineApi, type EngineApi } from '../../server/engine/api.ts'
import type { ApiRow, EngineCall } from '../../server/engine/types.ts'
import { loadManifest, type Manifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { freshDatabase } from '../support/database.ts'
import { sessionOf } from '../support/session.ts'

/**
 * What the engine's reads leave out when told to: the creator of a view registered without one (registry `view`,
 * `creator: false`: roles, operation accounts) — neither selected nor labelled — and the history of a detail its
 * caller asks for as the row alone (`{ history: false }`: what the role and account writes answer).
 */

/** Two views of the tenant's users, alike but for their creator (each account "made" by itself), labelled by user. */
const ACCOUNT: EntityDef = {
  entity: 'engineTestAccount',
  label: 'entity.operationAccount',
  stored: false,
  fields: {
    username: { type: 'string', required: true, maxLength: 31 },
    createdBy: { type: 'ref', ref: 'user', label: 'field.createdBy', readOnly: true },
  },
}
const WITHOUT = 'engineTestAccount'
const WITH = 'engineTestCreatedAccount'

const endpointsOf = (entity: string): ManifestEndpoint[] =>
  (['list', 'detail'] as const).map((kind) => ({
    id: `${entity}.${kind}`,
    kind,
    entity,
    method: 'POST',
    path: `/test/${entity}/${kind}`,
    permissions: ['orderList'],
    public: false,
    screens: [],
    ...(kind === 'list' ? { search: [] } : {}),
  }))

function testManifest(): Manifest {
  const manifest = structuredClone(loadManifest())
  for (const entity of [WITHOUT, WITH]) {
    manifest.entities[entity] = {
      ...ACCOUNT,
      entity,
      stored: false,
      table: 'engine_test_account',
      scope: 'tenant',
      schema: entitySchema({ ...ACCOUNT, entity }, manifest.entities),
    } as ManifestEntity
    manifest.endpoints.push(...endpointsOf(entity))
  }
  return manifest
}

const accounts = (trx: Transaction<DB>, tenantId: number, creator: boolean) =>
  trx
    .selectFrom('app_user as u')
    .select(['u.tenant_id', 'u.id', 'u.version', 'u.created_at', 'u.updated_at', 'u.username'])
    .$if(creator, (query) => query.select(sql<number>`u.id`.as('created_by')))
    .where('u.tenant_id', '=', tenantId)

let database: Database
let engine: EngineApi
let call: EngineCall

beforeAll(async () => {
  database = await freshDatabase()
  const registry = domainRegistry()
  registry.view(WITHOUT, ({ trx, call }) => accounts(trx, call.tenantId, false), { creator: false })
  registry.view(WITH, ({ trx, call }) => accounts(trx, call.tenantId, true))
  engine = createEngineApi(testManifest(), { registry })
  const demo = await database.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
  const session = await sessionOf(database.db, demo.id, 'opadmin')
  call = { tenantId: demo.id, session, language: 'en' }
})
afterAll(async () => {
  await database?.close()
})

/** What `work` answers, and the SQL of each statement it sends, in order. */
async function watched<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<{ answer: T; statements: string[] }> {
  const statements: string[] = []
  const answer = await withTenant(database.db, call.tenantId, (trx) => {
    const nodes = new Map<unknown, RootOperationNode>()
    return work(
      trx.withPlugin({
        transformQuery: (args) => {
          nodes.set(args.queryId, args.node)
          return args.node
        },
        // Called once per statement run (transformQuery also sees the subqueries being built).
        transformResult: async (args) => {
          const node = nodes.get(args.queryId) as RootOperationNode
          statements.push(trx.getExecutor().compileQuery(node, args.queryId).sql)
          return args.result
        },
      }) as Transaction<DB>,
    )
  })
  return { answer, statements }
}

const byId = (rows: ApiRow[], id: unknown) =>
  rows.find((r) => r.id === id) as ApiRow & { labels: Record<string, unknown> }

describe('a view registered without a creator', () => {
  it('answers no createdBy and sends no created_by, neither as a column nor as its label', async () => {
    const listOf = (entity: string) => watched((trx) => engine.list(trx, { entity }, call, { pageSize: 200 }))
    const created = await listOf(WITH)
    const without = await listOf(WITHOUT)
    expect(without.answer.total).toBe(created.answer.total)
    expect(without.answer.list.length).toBeGreaterThan(1)
    // The same view with a creator reads it and names it: what the other leaves out.
    for (const row of created.answer.list) {
      expect(row.createdBy).toBe(row.id)
      expect((row.labels as Record<string, string>).createdBy).toEqual(expect.any(String))
    }
    expect(created.statements.some((s) => s.includes('created_by'))).toBe(true)
    for (const row of without.answer.list) {
      const {
        createdBy: _id,
        labels: { createdBy: _name, ...labels },
        ...rest
      } = byId(created.answer.list, row.id)
      expect(row).toStrictEqual({ ...rest, labels })
      expect(row).not.toHaveProperty('createdBy')
      expect(row.labels).not.toHaveProperty('createdBy')
    }
    expect(without.statements.length).toBeGreaterThan(0)
    expect(without.statements.filter((s) => s.includes('created_by'))).toEqual([])

    const id = without.answer.list[0]?.id
    const detail = await watched((trx) => engine.detail(trx, { entity: WITHOUT }, call, { id }))
    expect(detail.answer).toMatchObject({ id, username: byId(created.answer.list, id).username })
    expect(detail.answer).not.toHaveProperty('createdBy')
    expect(detail.answer.labels).toEqual({})
    expect(detail.statements.filter((s) => s.includes('created_by'))).toEqual([])
  })
})

describe('a detail without its history', () => {
  it('answers the row and labels the full detail does, and reads no audit log', async () => {
    const role = await database.db
      .selectFrom('role')
      .select('id')
      .where('tenant_id', '=', call.tenantId)
      .where('group_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow()
    const full = await watched((trx) => engine.detail(trx, { entity: 'role' }, call, { id: role.id }))
    const alone = await watched((trx) =>
      engine.detail(trx, { entity: 'role' }, call, { id: role.id }, { history: false }),
    )
    const { history, ...row } = full.answer
    expect(Array.isArray(history)).toBe(true)
    expect(alone.answer).toEqual(row)
    expect(alone.answer).not.toHaveProperty('history')
    // The group's name is read either way: only the history goes.
    expect((alone.answer.labels as Record<string, string>).groupId).toEqual(expect.any(String))
    expect(full.statements.some((s) => s.includes('audit_log'))).toBe(true)
    expect(alone.statements).toHaveLength(full.statements.length)
    expect(alone.statements.filter((s) => s.includes('audit_log'))).toEqual([])
  })
})
