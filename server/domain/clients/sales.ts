import { type SqlBool, sql, type Transaction } from 'kysely'
import type { CompanySales } from '../../../generated/types.ts'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import { type HandlerContext, sessionOf } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { loadManifest, type Manifest } from '../../manifest.ts'
import { type LookupPlan, type LookupQuery, lookup, lookupEntity } from '../reference/lookup.ts'

/**
 * An enterprise's sales (SPEC §7 cusCompanySales): its salesman, an enabled provider-side account, and the
 * sales branch, one of the provider's own companies (schemas/company.yaml salesman, salesBranch). The
 * look-ups the sales dialog searches (getGlobalSales, checkBox), the enterprise's assignment (list), and its
 * change (addOrEdit, delete) through the engine's update of the enterprise: version, validation, history.
 * Also the look-up of the enterprise-side roles an enterprise account may be given.
 */

const PROVIDER = 1
const ENTERPRISE = 2
/** The enterprise list's detail: a customer enterprise of the caller's tenant, else 404. */
const ENTERPRISE_DETAIL = 'clientEnterpriseManage.detail'

const invalid = (errors: [field: string, message: string][]) =>
  new ApiError(
    'validation',
    {},
    errors.map(([field, message]) => ({ field, message, params: {} })),
  )

function plans(manifest: Manifest): Record<string, LookupPlan> {
  const sideOf = (permission: string) => manifest.permissions[permission]?.side
  const names = (side: string) => Object.keys(manifest.permissions).filter((p) => sideOf(p) === side)
  const anyOf = (list: string[]) => sql`array[${sql.join(list.length ? list : [''])}]::text[]`
  const enterprisePresets = Object.entries(manifest.roles)
    .filter(([code, role]) => role.companyUserType === ENTERPRISE && code !== 'PersonalUser')
    .map(([code]) => code)
  return {
    getGlobalSales: {
      entity: lookupEntity(manifest, 'user'),
      where: () => [sql<SqlBool>`${sql.ref('company_user_type')} = ${PROVIDER}`, sql<SqlBool>`${sql.ref('state')} = 1`],
    },
    salesBranchCheckBox: {
      entity: lookupEntity(manifest, 'company'),
      where: () => [sql<SqlBool>`${sql.ref('company_type')} = ${PROVIDER}`],
    },
    enterpriseRoleFuzzyQuery: {
      entity: lookupEntity(manifest, 'role'),
      // As server/domain/clients/accounts.ts isEnterpriseRole; an enterprise caller, within their own rights.
      where: ({ session }) => [
        sql<SqlBool>`${sql.ref('status')} = 1`,
        sql<SqlBool>`(case when ${sql.ref('preset')} then ${sql.ref('code')} = any(${anyOf(enterprisePresets)})
          else ${sql.ref('permissions')} ?| ${anyOf(names('enterprise'))}
            and not (${sql.ref('permissions')} ?| ${anyOf(names('provider'))}) end)`,
        ...(session && session.companyUserType !== PROVIDER
          ? [sql<SqlBool>`${sql.ref('permissions')} <@ ${JSON.stringify([...session.permissions])}::jsonb`]
          : []),
      ],
    },
  }
}

/** The salesman and branch are the tenant's: an enabled provider-side account, a provider-side company. */
async function checkSales(trx: Transaction<DB>, tenantId: number, salesman: number, salesBranch: number) {
  const errors: [string, string][] = []
  const user = await trx
    .selectFrom('app_user')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', salesman)
    .where('company_user_type', '=', PROVIDER)
    .where('state', '=', 1)
    .executeTakeFirst()
  if (!user) errors.push(['salesman', 'rule.salesman'])
  const branch = await trx
    .selectFrom('company')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', salesBranch)
    .where('company_type', '=', PROVIDER)
    .executeTakeFirst()
  if (!branch) errors.push(['salesBranch', 'rule.salesBranch'])
  if (errors.length) throw invalid(errors)
}

export const clientSalesHandlers = (engine: EngineApi): HandlerRegistry => {
  const manifest = loadManifest()
  const lookups = plans(manifest)
  const lookupHandler = (plan: LookupPlan) => async (ctx: HandlerContext & { input: unknown }) => {
    const list = await ctx.inTenant((trx) =>
      lookup(
        trx,
        plan,
        { tenantId: ctx.request.tenant.id, session: ctx.request.session, language: ctx.request.language },
        ctx.input as LookupQuery,
      ),
    )
    return { list }
  }
  const callOf = (ctx: HandlerContext) => {
    const session = sessionOf(ctx)
    return { tenantId: session.tenantId, session, language: ctx.request.language }
  }
  return {
    getGlobalSales: lookupHandler(lookups.getGlobalSales as LookupPlan),
    salesBranchCheckBox: lookupHandler(lookups.salesBranchCheckBox as LookupPlan),
    enterpriseRoleFuzzyQuery: lookupHandler(lookups.enterpriseRoleFuzzyQuery as LookupPlan),

    /** GET /b2b/cusCompanySales/list?id=: the enterprise's salesman and branch, with their names. */
    async companySalesList(ctx) {
      const call = callOf(ctx)
      const id = parseId((ctx.input as { id: string }).id)
      return ctx.inTenant(async (trx) => {
        const row = await engine.detail(trx, ENTERPRISE_DETAIL, call, { id })
        if (row.salesman === null || row.salesman === undefined) return []
        const labels = (row.labels ?? {}) as Record<string, string>
        return [
          {
            companyId: id,
            companyName: String(row.name),
            salesman: Number(row.salesman),
            salesmanName: labels.salesman ?? '',
            salesBranch: row.salesBranch === null ? null : Number(row.salesBranch),
            salesBranchName: labels.salesBranch ?? null,
          },
        ]
      })
    },

    /** POST /b2b/cusCompanySales/addOrEdit: `{ id, version, salesman, salesBranch }` → the enterprise. */
    async companySalesSave(ctx) {
      const call = callOf(ctx)
      const input = ctx.input as CompanySales
      const missing: [string, string][] = []
      if (!input.id) missing.push(['id', 'validation.required'])
      if (!input.version) missing.push(['version', 'validation.required'])
      if (!input.salesman) missing.push(['salesman', 'validation.required'])
      if (!input.salesBranch) missing.push(['salesBranch', 'validation.required'])
      if (missing.length) throw invalid(missing)
      return ctx.inTenant(async (trx) => {
        await engine.detail(trx, ENTERPRISE_DETAIL, call, { id: input.id })
        await checkSales(trx, call.tenantId, input.salesman as number, input.salesBranch as number)
        const { id, version, salesman, salesBranch } = input
        return engine.update(trx, { entity: 'company' }, call, { id, version, salesman, salesBranch })
      })
    },

    /** DELETE /b2b/cusCompanySales/delete?id=&version=: the enterprise without sales. */
    async companySalesDelete(ctx) {
      const call = callOf(ctx)
      const query = ctx.input as { id: string; version: string }
      const id = parseId(query.id)
      const version = parseId(query.version, 'version')
      return ctx.inTenant(async (trx) => {
        await engine.detail(trx, ENTERPRISE_DETAIL, call, { id })
        return engine.update(trx, { entity: 'company' }, call, { id, version, salesman: null, salesBranch: null })
      })
    },
  }
}
