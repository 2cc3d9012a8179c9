import { beforeAll, describe, expect, it } from 'vitest'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { installWriteLog } from '../support/fingerprint.ts'
import { callEndpoint, endpointById } from '../support/guard.ts'
import { PRESET_ROLES, type PresetRole, ROLE_MATRIX } from './guard-lists.ts'

/**
 * Issue #20: the hand-written role × endpoint matrix of tests/api/guard-lists.ts against the real server. Each
 * preset role calls every permission-gated endpoint as a user holding that role (the seeded one where the
 * seed has one); a role the matrix lists must not be refused (neither 220000 nor 401), a role it leaves out
 * must get 220000 and write nothing. The matrix is data a reviewer reads, not the manifest read back: a
 * permission given to or taken from a preset role in YAML fails here until the matrix agrees.
 */

const test = setupTestApp()
const manifest = loadManifest()

/** The seeded user of each preset role; EnterpriseCS and EnterpriseSales have none, so the test adds them. */
const USERS: Record<PresetRole, string> = {
  SystemAdministrator: 'platform',
  OperationAdministrator: 'opadmin',
  OperationCS: 'opcs',
  EnterpriseAdministrator: 'entadmin',
  EnterpriseOperation: 'entop',
  EnterpriseCS: 'entcs',
  EnterpriseSales: 'entsales',
  PersonalUser: 'personal',
}

/** An id no row has: an allowed call answers not-found or validation, and nothing of the seed moves. */
const INPUT = { id: 987_654_321, version: 1, pageNum: 1, pageSize: 10 }

const tokens = {} as Record<PresetRole, string>

beforeAll(async () => {
  const db = test.database.db
  const demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  await withTenant(db, demo, async (trx) => {
    // Colleagues of entop at Minghui with the two enterprise roles no seeded user holds.
    const entop = await trx
      .selectFrom('app_user')
      .select(['company_id', 'password_hash'])
      .where('tenant_id', '=', demo)
      .where('username', '=', 'entop')
      .executeTakeFirstOrThrow()
    for (const [username, role] of [
      ['entcs', 'EnterpriseCS'],
      ['entsales', 'EnterpriseSales'],
    ] as const) {
      const user = await trx
        .insertInto('app_user')
        .values({
          tenant_id: demo,
          company_id: entop.company_id,
          username,
          real_name: role,
          email: `${username}@demo.example`,
          password_hash: entop.password_hash,
          company_user_type: 2,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const preset = await trx
        .selectFrom('role')
        .select('id')
        .where('tenant_id', '=', demo)
        .where('code', '=', role)
        .where('preset', '=', true)
        .executeTakeFirstOrThrow()
      await trx.insertInto('user_role').values({ tenant_id: demo, user_id: user.id, role_id: preset.id }).execute()
    }
  })
  for (const role of PRESET_ROLES) tokens[role] = await test.login(USERS[role])
})

describe('the role matrix (tests/api/guard-lists.ts) against the server', () => {
  it('names only preset roles the YAML has, and every one of them', () => {
    expect([...PRESET_ROLES].sort()).toEqual(Object.keys(manifest.roles).sort())
  })

  it('lets each preset role call what the matrix allows and refuses it the rest with its refusal, writing nothing', async () => {
    const log = await installWriteLog(test.database.db as never)
    const wrong: string[] = []
    let calls = 0
    for (const [id, allowed] of Object.entries(ROLE_MATRIX)) {
      const endpoint = endpointById(manifest, id)
      for (const role of PRESET_ROLES) {
        const mark = await log.mark()
        const response = await callEndpoint(test, endpoint, INPUT, { token: tokens[role] })
        calls++
        const code = String(response.json().code)
        // 220000, or the code the SPEC names for this call (`refusal:`, orderAdd's 360002).
        const refusal = endpoint.refusal ?? '220000'
        const refused = code === refusal || response.statusCode === 401
        const may = allowed.includes(role)
        if (may && refused) wrong.push(`${role} is refused ${id} (${code}) but the matrix allows it`)
        if (!may && code !== refusal) wrong.push(`${role} may call ${id} (${code}) but the matrix refuses it`)
        if (!may) {
          const writes = await log.since(mark)
          if (writes.length) wrong.push(`${role} was refused ${id} but it wrote ${writes.join(', ')}`)
        }
      }
    }
    console.info(`role matrix: ${calls} calls, ${Object.keys(ROLE_MATRIX).length} endpoints × ${PRESET_ROLES.length}`)
    expect(wrong).toEqual([])
  }, 300_000)
})
