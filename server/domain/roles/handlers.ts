import { type Insertable, type Kysely, sql, type Transaction } from 'kysely'
import type { RoleView } from '../../../generated/content.ts'
import type { Role } from '../../../generated/types.ts'
import type { DB, RoleTable } from '../../db/schema.ts'
import { type ApiRow, changes, type EngineApi, type EngineCall, writeAudit } from '../../engine/index.ts'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, messageFor } from '../../http/errors.ts'
import { loadManifest, type Manifest } from '../../manifest.ts'

/**
 * Roles of the tenant (SPEC §6, issue #21): preset roles come from screens/access.yaml and cannot be deleted
 * (360001); custom roles are made, copied, changed, enabled or disabled, filed under groups, given a responsible
 * branch, and assigned to users here. Role is a core table — the session lookup (migration 0012) reads a user's
 * enabled roles on every call, so whatever is saved here holds from the user's next call, on every replica,
 * with nothing cached in a process. The engine reads it through a view (./register.ts: the /operationAuth list and
 * the role's detail); these handlers write it, following the engine's semantics by hand — 404 for a row of another
 * tenant, 330002 for a stale version, an audit row per change — and answer the role as the engine reads it.
 *
 * Who may hold what: a role is on one side (companyUserType 1 the operator's, 2 the client enterprises'); it
 * holds permissions of its side and of either side only, and goes to users of its side only. Nobody hands out
 * an operator permission they do not hold themselves (as server/domain/accounts), and nobody changes their own
 * role or disables a role they hold.
 */

const ENTITY = 'role'
const ROLE = { entity: ENTITY } as const
const PROVIDER = 1

type Dynamic = Kysely<Record<string, Record<string, unknown>>>
const dynamic = (trx: Transaction<DB>) => trx as unknown as Dynamic

/** A role still held by users: 360001, saying how many (the stricter reading of "not deleted silently"). */
class RoleInUse extends ApiError {
  constructor(count: number) {
    super('360001', { count })
  }
  override get key(): string {
    return 'error.roleInUse'
  }
}

const invalid = (field: string, message: string, params: Record<string, unknown> = {}) =>
  new ApiError('validation', {}, [{ field, message, params }])

/** Who calls, as the engine reads the role for them. */
const callOf = (ctx: HandlerContext): EngineCall => {
  const session = sessionOf(ctx)
  return { tenantId: session.tenantId, session, language: ctx.request.language }
}

/**
 * The role as the engine's detail reads it through the view (./register.ts): labelled as every role answer is,
 * without its history (not read); 404 when the tenant has none.
 */
async function readRole(engine: EngineApi, trx: Transaction<DB>, call: EngineCall, id: number): Promise<RoleView> {
  return (await engine.detail(trx, ROLE, call, { id }, { history: false })) as unknown as RoleView
}

/** What the audit keeps of a role: the record, without the display texts of its references. */
const recordOf = ({ labels: _labels, ...record }: RoleView): ApiRow => record

/** The role row a write acts on, locked for the call; 404 when the tenant has none, 330002 when stale. */
async function lockRole(trx: Transaction<DB>, tenantId: number, id: number, version?: number | null) {
  const role = await trx
    .selectFrom('role')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  if (!role) throw new ApiError('404')
  if (version !== undefined && version !== null && version !== role.version) throw new ApiError('330002')
  return role
}

const sideOf = (companyUserType: number): 'provider' | 'enterprise' =>
  companyUserType === PROVIDER ? 'provider' : 'enterprise'

/**
 * The permissions a role of this side may be given by this caller, as per-field errors: a name of the other
 * side, or (an operator role) one the caller does not hold. Only the names it does not hold already count.
 */
function permissionErrors(
  manifest: Manifest,
  session: Session,
  companyUserType: number,
  permissions: readonly string[],
  held: readonly string[],
) {
  const side = sideOf(companyUserType)
  const errors: { field: string; message: string; params: Record<string, unknown> }[] = []
  permissions.forEach((name, i) => {
    if (held.includes(name)) return
    const of = manifest.permissions[name]?.side ?? 'any'
    if (of !== 'any' && of !== side)
      errors.push({ field: `permissions[${i}]`, message: 'rule.permissionOtherSide', params: {} })
    else if (side === 'provider' && !session.permissions.has(name))
      errors.push({ field: `permissions[${i}]`, message: 'rule.roleNotGrantable', params: {} })
  })
  return errors
}

async function checkGroup(trx: Transaction<DB>, tenantId: number, groupId: number | null | undefined) {
  if (groupId === undefined || groupId === null) return
  const found = await dynamic(trx)
    .selectFrom('role_group')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', groupId)
    .executeTakeFirst()
  if (!found) throw invalid('groupId', 'validation.notInCatalogue')
}

async function codeTaken(trx: Transaction<DB>, tenantId: number, code: string, exceptId?: number) {
  let query = trx.selectFrom('role').select('id').where('tenant_id', '=', tenantId).where('code', '=', code)
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
  return (await query.executeTakeFirst()) !== undefined
}

/** Whether the caller holds the role (disabling it, or changing who holds it, would change their own rights). */
async function holdsRole(trx: Transaction<DB>, session: Session, roleId: number) {
  const row = await trx
    .selectFrom('user_role')
    .select('role_id')
    .where('tenant_id', '=', session.tenantId)
    .where('user_id', '=', session.userId)
    .where('role_id', '=', roleId)
    .executeTakeFirst()
  return row !== undefined
}

/** What a body says about an optional field: absent keeps the stored value, null or '' clears it. */
function edited(ctx: HandlerContext, key: string): { value: unknown } | undefined {
  const raw = ctx.request.body
  if (!raw || typeof raw !== 'object' || !Object.hasOwn(raw, key)) return undefined
  const value = (raw as Record<string, unknown>)[key]
  return { value: value === '' || value === undefined ? null : value }
}

const sorted = (list: readonly string[] | null | undefined) => [...(list ?? [])].sort()
const sameList = (a: readonly string[], b: readonly string[]) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))

/** A new custom role of the tenant, audited; answers it as the engine reads it. */
async function insertRole(
  engine: EngineApi,
  trx: Transaction<DB>,
  call: EngineCall,
  values: Omit<Insertable<RoleTable>, 'tenant_id' | 'preset' | 'permissions'> & { permissions: string[] },
  remark?: string,
): Promise<RoleView> {
  const { session } = call
  const created = await trx
    .insertInto('role')
    .values({ ...values, tenant_id: session.tenantId, preset: false, permissions: JSON.stringify(values.permissions) })
    .returning('id')
    .executeTakeFirstOrThrow()
  const role = await readRole(engine, trx, call, created.id)
  await writeAudit(trx, {
    tenantId: session.tenantId,
    userId: session.userId,
    entity: ENTITY,
    recordId: created.id,
    action: 'create',
    ...(remark ? { remark } : {}),
    before: null,
    after: recordOf(role),
  })
  return role
}

/** One column of a role changed (status, branch) at the next version, audited; nothing when it is the same. */
async function changeOne<K extends 'status' | 'branch'>(
  trx: Transaction<DB>,
  session: Session,
  id: number,
  column: K,
  before: RoleTable[K] | number,
  after: RoleTable[K] | number,
): Promise<void> {
  if (before === after) return
  await trx
    .updateTable('role')
    .set({ [column]: after, version: sql`version + 1`, updated_at: sql`now()` })
    .where('tenant_id', '=', session.tenantId)
    .where('id', '=', id)
    .execute()
  await writeAudit(trx, {
    tenantId: session.tenantId,
    userId: session.userId,
    entity: ENTITY,
    recordId: id,
    action: 'update',
    before: { [column]: before },
    after: { [column]: after },
  })
}

/** A code no role of the tenant has: the source's with "Copy" and the first free number. */
async function freeCopyCode(trx: Transaction<DB>, tenantId: number, code: string): Promise<string> {
  const base = `${code.slice(0, 40)}Copy`
  const taken = new Set(
    (
      await trx
        .selectFrom('role')
        .select('code')
        .where('tenant_id', '=', tenantId)
        .where('code', 'like', `${base}%`)
        .execute()
    ).map((r) => r.code),
  )
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}${n}`
    if (!taken.has(candidate)) return candidate
  }
}

/** The role calls; each write answers the role as the engine reads it (readRole). */
export function roleHandlers(engine: EngineApi) {
  return {
    /** GET /b2b/role/list: every role of the tenant with its permissions and users (the accounts' role column). */
    async roleList(ctx) {
      const tenantId = ctx.request.tenant.id
      const rows = await ctx.inTenant((trx) =>
        trx
          .selectFrom('role')
          .leftJoin('user_role', (join) =>
            join.onRef('user_role.tenant_id', '=', 'role.tenant_id').onRef('user_role.role_id', '=', 'role.id'),
          )
          .select([
            'role.id',
            'role.code',
            'role.name',
            'role.preset',
            'role.data_scope',
            'role.status',
            'role.permissions',
            sql<number>`count(user_role.user_id)::int`.as('users'),
          ])
          .where('role.tenant_id', '=', tenantId)
          // The whole primary key: the other columns depend on it (issue #29 keyed roles by tenant and id).
          .groupBy(['role.tenant_id', 'role.id'])
          .orderBy('role.id')
          .execute(),
      )
      return rows.map((r) => ({
        id: r.id,
        code: r.code,
        name: r.name,
        preset: r.preset,
        dataScope: r.data_scope,
        status: r.status,
        permissions: r.permissions,
        users: r.users,
      }))
    },

    /** POST /b2b/role/save: a new custom role, or a change to one at its version. */
    async roleSave(ctx) {
      const session = sessionOf(ctx)
      const manifest = loadManifest()
      const call = callOf(ctx)
      const input = ctx.input as Role
      const id = input.id ?? null
      return ctx.inTenant(async (trx) => {
        if (id === null) {
          const permissions = sorted(input.permissions)
          const errors = permissionErrors(manifest, session, input.companyUserType, input.permissions ?? [], [])
          if (errors.length) throw new ApiError('validation', {}, errors)
          await checkGroup(trx, session.tenantId, input.groupId)
          if (await codeTaken(trx, session.tenantId, input.code)) throw invalid('code', 'rule.roleCodeTaken')
          return insertRole(engine, trx, call, {
            code: input.code,
            name: input.name,
            company_user_type: input.companyUserType,
            status: input.status,
            data_scope: input.dataScope,
            group_id: input.groupId ?? null,
            branch: input.branch || null,
            personalization: input.personalization || null,
            permissions,
          })
        }
        const role = await lockRole(trx, session.tenantId, id, input.version ?? null)
        const before = await readRole(engine, trx, call, id)
        const permissions = edited(ctx, 'permissions') ? sorted(input.permissions) : sorted(role.permissions)
        if (input.companyUserType !== role.company_user_type) throw invalid('companyUserType', 'rule.roleSideFixed')
        if (role.preset) {
          // screens/access.yaml gives a preset role these; the start-up sync would put them back anyway.
          if (input.code !== role.code) throw invalid('code', 'rule.presetRoleFixed')
          if (input.dataScope !== role.data_scope) throw invalid('dataScope', 'rule.presetRoleFixed')
          if (!sameList(permissions, role.permissions)) throw invalid('permissions', 'rule.presetRoleFixed')
        }
        const errors = permissionErrors(manifest, session, role.company_user_type, permissions, role.permissions ?? [])
        if (errors.length) throw new ApiError('validation', {}, errors)
        if (input.status !== 1 && role.status === 1 && (await holdsRole(trx, session, id)))
          throw invalid('status', 'rule.assignSelf')
        const group = edited(ctx, 'groupId')
        if (group) await checkGroup(trx, session.tenantId, group.value as number | null)
        if (input.code !== role.code && (await codeTaken(trx, session.tenantId, input.code, id)))
          throw invalid('code', 'rule.roleCodeTaken')
        const branch = edited(ctx, 'branch')
        const personalization = edited(ctx, 'personalization')
        await trx
          .updateTable('role')
          .set({
            code: input.code,
            name: input.name,
            status: input.status,
            data_scope: input.dataScope,
            permissions: sql`${JSON.stringify(permissions)}::jsonb` as never,
            ...(group ? { group_id: group.value as number | null } : {}),
            ...(branch ? { branch: branch.value as string | null } : {}),
            ...(personalization ? { personalization: personalization.value as string | null } : {}),
            version: sql`version + 1`,
            updated_at: sql`now()`,
          })
          .where('tenant_id', '=', session.tenantId)
          .where('id', '=', id)
          .execute()
        const after = await readRole(engine, trx, call, id)
        const diff = changes(recordOf(before), recordOf(after))
        await writeAudit(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          entity: ENTITY,
          recordId: id,
          action: 'update',
          before: diff.before,
          after: diff.after,
        })
        return after
      })
    },

    /** POST /b2b/role/copy: a new, enabled custom role with everything of the source but its code and name. */
    async roleCopy(ctx) {
      const session = sessionOf(ctx)
      const manifest = loadManifest()
      const input = ctx.input
      return ctx.inTenant(async (trx) => {
        const source = await lockRole(trx, session.tenantId, input.id, input.version ?? null)
        const permissions = sorted(source.permissions)
        // Copying hands out what the source holds: an operator role only within the caller's own rights.
        if (permissionErrors(manifest, session, source.company_user_type, permissions, []).length)
          throw new ApiError('220000')
        const name = messageFor('role.copyName', ctx.request.language, { name: source.name }).slice(0, 50)
        return insertRole(
          engine,
          trx,
          callOf(ctx),
          {
            code: await freeCopyCode(trx, session.tenantId, source.code),
            name,
            company_user_type: source.company_user_type,
            status: 1,
            data_scope: source.data_scope,
            group_id: source.group_id,
            branch: source.branch,
            personalization: source.personalization,
            permissions,
          },
          `copy of ${source.code}`,
        )
      })
    },

    /** POST /b2b/role/status: enable or disable; a disabled role grants nothing from its users' next call. */
    async roleStatus(ctx) {
      const session = sessionOf(ctx)
      const input = ctx.input
      return ctx.inTenant(async (trx) => {
        const role = await lockRole(trx, session.tenantId, input.id, input.version ?? null)
        if (input.status !== 1 && (await holdsRole(trx, session, input.id))) throw invalid('status', 'rule.assignSelf')
        await changeOne(trx, session, input.id, 'status', role.status, input.status)
        return readRole(engine, trx, callOf(ctx), input.id)
      })
    },

    /** POST /b2b/role/setBranch: the branch responsible for the role (empty clears it). */
    async roleSetBranch(ctx) {
      const session = sessionOf(ctx)
      const input = ctx.input
      return ctx.inTenant(async (trx) => {
        const role = await lockRole(trx, session.tenantId, input.id, input.version ?? null)
        const branch = input.branch?.trim() || null
        await changeOne(trx, session, input.id, 'branch', role.branch, branch)
        return readRole(engine, trx, callOf(ctx), input.id)
      })
    },

    /**
     * POST /b2b/role/assignUsers: the role becomes the role of the user named (username, mobile or e-mail) —
     * their only one, so what they may do is exactly what the role grants — from their next call on.
     */
    async roleAssignUsers(ctx) {
      const session = sessionOf(ctx)
      const input = ctx.input
      const account = input.account.trim()
      return ctx.inTenant(async (trx) => {
        const role = await lockRole(trx, session.tenantId, input.id, input.version ?? null)
        if (role.status !== 1) throw invalid('account', 'rule.roleDisabled')
        const user = await trx
          .selectFrom('app_user')
          .select(['id', 'username', 'company_user_type'])
          .where('tenant_id', '=', session.tenantId)
          .where((eb) =>
            eb.or([
              eb(sql`lower(username)`, '=', account.toLowerCase()),
              eb(sql`lower(email)`, '=', account.toLowerCase()),
              eb('mobile', '=', account),
            ]),
          )
          .orderBy('id')
          .executeTakeFirst()
        if (!user) throw invalid('account', 'rule.roleAccountUnknown')
        if (user.id === session.userId) throw invalid('account', 'rule.assignSelf')
        const userSide = user.company_user_type === PROVIDER ? 1 : 2
        if (userSide !== role.company_user_type) throw invalid('account', 'rule.roleAccountSide')
        if (userSide === PROVIDER) {
          // An operator account is changed only by someone holding everything it holds and the role grants.
          const current = await trx
            .selectFrom('user_role')
            .innerJoin('role', 'role.id', 'user_role.role_id')
            .select('role.permissions')
            .where('user_role.tenant_id', '=', session.tenantId)
            .where('user_role.user_id', '=', user.id)
            .execute()
          const beyond = [...current.flatMap((r) => r.permissions ?? []), ...(role.permissions ?? [])].some(
            (p) => !session.permissions.has(p),
          )
          if (beyond) throw invalid('account', 'rule.roleNotGrantable')
        }
        const before = await trx
          .selectFrom('user_role')
          .innerJoin('role', 'role.id', 'user_role.role_id')
          .select('role.code')
          .where('user_role.tenant_id', '=', session.tenantId)
          .where('user_role.user_id', '=', user.id)
          .execute()
        await trx
          .deleteFrom('user_role')
          .where('tenant_id', '=', session.tenantId)
          .where('user_id', '=', user.id)
          .execute()
        await trx
          .insertInto('user_role')
          .values({ tenant_id: session.tenantId, user_id: user.id, role_id: role.id })
          .execute()
        await writeAudit(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          entity: ENTITY,
          recordId: role.id,
          action: 'update',
          remark: `assigned to ${user.username}`,
          before: { user: user.username, roles: before.map((r) => r.code) },
          after: { user: user.username, roles: [role.code] },
        })
        return readRole(engine, trx, callOf(ctx), role.id)
      })
    },

    /** DELETE /b2b/role/delete?id=: a custom role nobody holds; a preset or held role answers 360001. */
    async roleDelete(ctx) {
      const id = Number((ctx.request.query as { id?: string }).id)
      if (!Number.isInteger(id) || id < 1)
        throw new ApiError('validation', {}, [{ field: 'id', message: 'validation.required', params: {} }])
      const tenantId = ctx.request.tenant.id
      const session = ctx.request.session
      await ctx.inTenant(async (trx) => {
        const role = await lockRole(trx, tenantId, id)
        if (role.preset) throw new ApiError('360001')
        const held = await trx
          .selectFrom('user_role')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('tenant_id', '=', tenantId)
          .where('role_id', '=', id)
          .executeTakeFirstOrThrow()
        if (held.n > 0) throw new RoleInUse(held.n)
        await trx.deleteFrom('role').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
        await writeAudit(trx, {
          tenantId,
          userId: session?.userId as number,
          entity: ENTITY,
          recordId: id,
          action: 'delete',
          before: { code: role.code, name: role.name, permissions: role.permissions },
          after: null,
        })
      })
      return null
    },
  } satisfies Handlers
}
