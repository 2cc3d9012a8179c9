import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { databaseFingerprint } from '../support/fingerprint.ts'

/**
 * Issue #9's permission guard, generated from the manifest: every endpoint, including the ones written
 * next month, without a token answers HTTP 401 (unless public); and every endpoint that names
 * permissions, called by a user who holds every permission of the catalogue except those, answers 220000
 * and changes nothing in the database. A transition endpoint is tried once per transition, without that
 * transition's own permission. An endpoint the sweep cannot reach (no route) fails, it is never skipped.
 */

const test = setupTestApp()
const manifest = loadManifest()
const ALL_PERMISSIONS = Object.keys(manifest.permissions)

let demoTenant = 0
let probeRole = 0
let token = ''
let fingerprint: () => Promise<string>

const url = (endpoint: ManifestEndpoint) => `/api${endpoint.path}`

function request(endpoint: ManifestEndpoint, input: Record<string, unknown>, bearer?: string) {
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString()
  const read = endpoint.method === 'GET' || endpoint.method === 'DELETE'
  return test.app.inject({
    method: endpoint.method,
    url: read ? `${url(endpoint)}?${query}` : url(endpoint),
    headers: { host: 'localhost', language: 'en_US', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    ...(read ? {} : { payload: input }),
  })
}

/** The probe user holds exactly these permissions from now on (read on each request, no new login). */
async function grant(permissions: string[]) {
  await withTenant(test.database.db, demoTenant, (trx) =>
    trx
      .updateTable('role')
      .set({ permissions: JSON.stringify(permissions) })
      .where('id', '=', probeRole)
      .execute(),
  )
}

beforeAll(async () => {
  const db = test.database.db
  demoTenant = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  // The probe is the seeded OperationCS user with a role of its own instead of the preset one.
  await withTenant(db, demoTenant, async (trx) => {
    const user = await trx.selectFrom('app_user').select('id').where('username', '=', 'opcs').executeTakeFirstOrThrow()
    const role = await trx
      .insertInto('role')
      .values({
        tenant_id: demoTenant,
        code: 'guardProbe',
        name: 'Guard probe',
        preset: false,
        data_scope: 'all',
        permissions: JSON.stringify(ALL_PERMISSIONS),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    probeRole = role.id
    await trx.deleteFrom('user_role').where('user_id', '=', user.id).execute()
    await trx.insertInto('user_role').values({ tenant_id: demoTenant, user_id: user.id, role_id: role.id }).execute()
  })
  token = await test.login('opcs')
  fingerprint = await databaseFingerprint(db as never)
})

describe('permission guard (every endpoint of the manifest)', () => {
  const privateEndpoints = manifest.endpoints.filter((e) => !e.public)
  const gated = manifest.endpoints.filter((e) => !e.public && e.kind !== 'transition' && e.permissions.length)
  const transitions = manifest.endpoints
    .filter((e) => e.kind === 'transition')
    .flatMap((e) =>
      Object.entries(manifest.entities[e.entity]?.states?.transitions ?? {})
        // Those the engine fires on an update (onUpdate) are no call's: the endpoint refuses them as unknown.
        .filter(([, t]) => !t.onUpdate)
        .map(([name, t]) => ({
          endpoint: e,
          name,
          permission: t.permission,
        })),
    )

  it('answers HTTP 401 without a token on every endpoint that is not public', async () => {
    const answered: string[] = []
    for (const endpoint of privateEndpoints) {
      const response = await request(endpoint, { id: 1 })
      expect(response.statusCode, `${endpoint.method} ${endpoint.path}: ${response.body}`).toBe(401)
      expect(response.json().code, `${endpoint.method} ${endpoint.path}`).toBe('401')
      answered.push(endpoint.id)
    }
    console.info(`permission guard: ${answered.length} endpoints refuse a call without a token`)
    expect(answered.length).toBe(privateEndpoints.length)
  })

  it('answers 220000 (or its own refusal) and changes nothing when the caller lacks every permission the endpoint names', async () => {
    for (const endpoint of gated) {
      await grant(ALL_PERMISSIONS.filter((p) => !endpoint.permissions.includes(p)))
      const before = await fingerprint()
      const response = await request(endpoint, { id: 1, version: 1, pageNum: 1, pageSize: 10 }, token)
      // The SPEC's own code where the YAML names one (`refusal:`, orderAdd's 360002: a business answer, HTTP 200).
      const refusal = endpoint.refusal ?? '220000'
      expect(response.statusCode, `${endpoint.method} ${endpoint.path}: ${response.body}`).toBe(
        endpoint.refusal ? 200 : 403,
      )
      expect(response.json().code, `${endpoint.method} ${endpoint.path}: ${response.body}`).toBe(refusal)
      expect(await fingerprint(), `${endpoint.method} ${endpoint.path} changed the database`).toBe(before)
    }
    console.info(`permission guard: ${gated.length} permission-gated endpoints answer 220000 and change nothing`)
    expect(gated.length).toBeGreaterThan(30)
  }, 300_000)

  it("answers 220000 for each transition without the transition's own permission, and changes nothing", async () => {
    for (const { endpoint, name, permission } of transitions) {
      await grant(ALL_PERMISSIONS.filter((p) => p !== permission))
      const before = await fingerprint()
      // A row that exists, so a missing check would really move it.
      const table = manifest.entities[endpoint.entity]?.table as string
      const { rows } = await sql<{ id: number; version: number }>`
        select id, version from ${sql.table(table)} where tenant_id = ${demoTenant} order by id limit 1`.execute(
        test.database.db,
      )
      const row = rows[0] ?? { id: 1, version: 1 }
      const response = await request(endpoint, { id: row.id, version: row.version, transition: name }, token)
      expect(response.json().code, `${endpoint.path} ${name}: ${response.body}`).toBe('220000')
      expect(await fingerprint(), `${endpoint.path} ${name} changed the database`).toBe(before)
    }
    console.info(`permission guard: ${transitions.length} transitions answer 220000 without their permission`)
    expect(transitions.length).toBeGreaterThan(5)
  })
})
