import { sql, type Transaction } from 'kysely'
import type { PlatformTenantView } from '../../../generated/content.ts'
import type { PlatformTenant } from '../../../generated/types.ts'
import type { ManifestEndpoint } from '../../../model/resolve.ts'
import { hashPassword } from '../../auth/password.ts'
import { currentDelivery } from '../../auth/sms.ts'
import { insertPresetRole, tenantLanguageOf } from '../../db/presetRoles.ts'
import type { DB } from '../../db/schema.ts'
import { type ListPlan, parseListRequest, planList, searchConditions } from '../../engine/index.ts'
import type { HandlerContext, Session } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, messageFor } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { loadManifest, type Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import {
  defaultSettings,
  featuresOf,
  type TenantFeature,
  type TenantVersion,
  VERSION_FEATURES,
  withFeatures,
} from '../../tenancy/defaults.ts'
import { forgetTenantHosts } from '../../tenancy/resolve.ts'
import { initialPassword } from '../accounts/handlers.ts'

/**
 * Platform tenants (issue #25; /tenantList, /tenantDetail). walltechAdmin counts only for a user of the platform's
 * own tenant (`tenant.platform`): a tenant's system administrator holds every permission of the catalogue, and
 * must not reach other tenants by it. Reads of `tenant` and `tenant_domain` need nothing new (the API's role has
 * always read them, to resolve hosts); every write goes through migration 0027's functions, which check the
 * caller again in the database and write the audit row (`tenant_change`) in the same transaction.
 *
 * A new tenant is made whole in that one transaction: the tenant and its domains (the function), then — with the
 * transaction's tenant switched to the new one, so row-level security holds every row to it — its preset roles,
 * its provider company, its order-number rule and its first operation administrator, whose invitation (user
 * name and initial password) is queued in its own outbox. The process's host cache is emptied after the commit.
 */

const ENTITY = 'platformTenantView'
const VIEW = 'platform_tenant'
/** SPEC §6: company user type 1 is the provider side. */
const PROVIDER = 1
const FIRST_ADMIN_ROLE = 'OperationAdministrator'

const invalid = (field: string, message: string, params: Record<string, unknown> = {}) =>
  new ApiError('validation', {}, [{ field, message, params }])

function platformSession(ctx: HandlerContext): Session {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  if (!ctx.request.tenant.platform || !session.permissions.has('walltechAdmin')) throw new ApiError('220000')
  return session
}

/** Every tenant as one row with the view's columns (snake_case of platformTenantView's fields). */
const TENANT_VIEW = sql`(
  select t.id, t.version_no as version, t.created_at, t.updated_at, t.id as tenant_id, t.code, t.name_zh, t.name_en,
    coalesce((select string_agg(d.domain, ', ' order by d.domain <> coalesce(t.settings->>'companyDomainName', ''), d.domain)
      from tenant_domain d where d.tenant_id = t.id), '') as website_domain_name,
    coalesce(t.settings->>'websiteName', '') as website_name,
    coalesce(t.settings->>'websiteNameEn', '') as website_name_en,
    t.version as tenant_version, t.settings,
    coalesce(t.settings->>'fms', '') as fms,
    coalesce((t.settings->>'individuationPage')::boolean, false) as individuation_page,
    t.state::int as state
  from tenant t
) as ${sql.raw(VIEW)}`

interface ViewRow {
  id: number
  version: number
  created_at: Date | string
  updated_at: Date | string
  tenant_id: number
  code: string
  name_zh: string
  name_en: string
  website_domain_name: string
  website_name: string
  website_name_en: string
  tenant_version: string
  settings: Record<string, unknown>
  fms: string
  individuation_page: boolean
  state: number
}

const iso = (value: Date | string) => new Date(value).toISOString()

function toView(row: ViewRow): PlatformTenantView {
  return {
    id: row.id,
    version: row.version,
    tenantId: row.tenant_id,
    code: row.code,
    nameZh: row.name_zh,
    nameEn: row.name_en,
    websiteDomainName: row.website_domain_name,
    websiteName: row.website_name,
    websiteNameEn: row.website_name_en,
    tenantVersion: row.tenant_version as PlatformTenantView['tenantVersion'],
    features: featuresOf(row.settings),
    defaultLanguage: tenantLanguageOf(row.settings),
    fms: row.fms,
    individuationPage: row.individuation_page,
    state: row.state as PlatformTenantView['state'],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }
}

const listPlans = new WeakMap<ManifestEndpoint, ListPlan>()
function listPlanOf(manifest: Manifest, endpoint: ManifestEndpoint): ListPlan {
  let plan = listPlans.get(endpoint)
  if (!plan) {
    const entity = manifest.entities[ENTITY]
    if (!entity) throw new Error(`the manifest has no entity ${ENTITY}: run npm run generate`)
    const screen = manifest.screens.find((s) => endpoint.screens.includes(s.name) && s.kind === 'list')
    plan = planList(manifest, { ...endpoint, search: screen?.search ?? [] }, entity)
    listPlans.set(endpoint, plan)
  }
  return plan
}

async function readTenant(trx: Transaction<DB>, id: number): Promise<ViewRow> {
  const { rows } = await sql<ViewRow>`select * from ${TENANT_VIEW} where ${sql.ref(`${VIEW}.id`)} = ${id}`.execute(trx)
  const row = rows[0]
  if (!row) throw new ApiError('404')
  return row
}

/**
 * One side of a change (platform_tenant_row's JSON: the tenant, its settings and domains) in the fields of the
 * form, so that /tenantDetail's log reads as its form does: "Website name: A → B", "State: Live → Suspended".
 */
function formSide(side: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!side) return null
  const settings = (side.settings ?? {}) as Record<string, unknown>
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  return {
    code: side.code,
    nameZh: side.nameZh,
    nameEn: side.nameEn,
    websiteDomainName: (Array.isArray(side.domains) ? side.domains : []).join(', '),
    websiteName: text(settings.websiteName),
    websiteNameEn: text(settings.websiteNameEn),
    tenantVersion: side.version,
    features: featuresOf(settings),
    defaultLanguage: tenantLanguageOf(settings),
    fms: text(settings.fms),
    individuationPage: settings.individuationPage === true,
    state: side.state,
  }
}

/** The change log of a tenant, read through the audited function (the API's role has no grant on the table). */
async function tenantHistory(trx: Transaction<DB>, session: Session, id: number) {
  const { rows } = await sql<{
    id: number
    action: string
    actor_user_id: number
    before: Record<string, unknown> | null
    after: Record<string, unknown>
    at: Date | string
  }>`select * from platform_tenant_log(${session.userId}, ${id})`.execute(trx)
  const names = new Map(
    (
      await trx
        .selectFrom('app_user')
        .select(['id', 'real_name'])
        .where('tenant_id', '=', session.tenantId)
        .where('id', 'in', [...new Set(rows.map((r) => r.actor_user_id))].concat([0]))
        .execute()
    ).map((u) => [u.id, u.real_name]),
  )
  // The audit's before/after are the JSON the function stored: what content.ts calls Json.
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    transition: null,
    remark: null,
    userId: r.actor_user_id,
    userName: names.get(r.actor_user_id) ?? null,
    before: formSide(r.before),
    after: formSide(r.after),
    at: iso(r.at),
  })) as PlatformTenantView['history']
}

/** The domains typed, lower-case, each once, in order. */
function domainsOf(input: string): string[] {
  return [
    ...new Set(
      input
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]
}

/** A database refusal of the platform functions as the API says it. */
function refusal(error: unknown, domains: string[]): unknown {
  const e = error as { code?: string; constraint?: string; message?: string; detail?: string }
  if (e?.code === '23505') {
    if (e.constraint === 'tenant_code_key' || e.message?.includes('tenant_code_key'))
      return invalid('code', 'rule.tenantCodeTaken')
    const taken = domains.find((d) => e.detail?.includes(d) || e.message?.includes(d)) ?? domains[0]
    return invalid('websiteDomainName', 'rule.tenantDomainTaken', { domain: taken })
  }
  if (e?.code === 'WB001') return new ApiError('330002')
  if (e?.code === 'WB002') return invalid('state', 'rule.platformTenantFixed')
  if (e?.code === '42501') return new ApiError('220000')
  if (e?.code === 'P0002') return new ApiError('404')
  return error
}

/** Runs `work` in the tenant `tenantId` for the rest of the transaction (row-level security follows it). */
async function enterTenant(trx: Transaction<DB>, tenantId: number): Promise<void> {
  if (!Number.isSafeInteger(tenantId)) throw new Error(`enterTenant: ${tenantId} is not an integer`)
  await sql`select set_config('app.tenant_id', ${sql.lit(String(tenantId))}, true)`.execute(trx)
}

/** The settings with the tenant's default language (SPEC §9's configuration.defaultLanguage) set. */
function withLanguage(settings: Record<string, unknown>, language: string): Record<string, unknown> {
  const configuration = (settings.configuration ?? {}) as Record<string, unknown>
  return { ...settings, configuration: { ...configuration, defaultLanguage: language } }
}

/** The features the form chose, else the version's (a new tenant, or a version changed without choosing). */
function chosenFeatures(input: PlatformTenant, version: TenantVersion): TenantFeature[] {
  // A form left untouched sends none: a new tenant then has its version's features.
  const sent = input.features as unknown
  if (Array.isArray(sent) && sent.length > 0) return sent as TenantFeature[]
  return [...VERSION_FEATURES[version]]
}

async function makeTenant(
  ctx: HandlerContext,
  trx: Transaction<DB>,
  manifest: Manifest,
  session: Session,
  input: PlatformTenant,
): Promise<number> {
  const domains = domainsOf(input.websiteDomainName)
  const username = input.adminUsername?.trim()
  const adminName = input.adminName?.trim()
  const email = input.adminEmail?.trim().toLowerCase()
  const missing = [
    ['adminUsername', username],
    ['adminName', adminName],
    ['adminEmail', email],
  ].filter(([, value]) => !value)
  if (missing.length)
    throw new ApiError(
      'validation',
      {},
      missing.map(([field]) => ({ field: field as string, message: 'rule.tenantAdminRequired', params: {} })),
    )
  const version = input.tenantVersion as TenantVersion
  const year = now().getFullYear()
  const settings = withFeatures(
    withLanguage(
      defaultSettings({
        websiteName: input.websiteName,
        websiteNameEn: input.websiteNameEn ?? '',
        mail: email,
        companyDomainName: domains[0],
        copyright: `© ${year} ${input.nameZh}`,
        copyrightEn: `© ${year} ${input.nameEn}`,
        fms: input.fms ?? '',
        individuationPage: input.individuationPage ?? false,
      }),
      input.defaultLanguage ?? 'zh',
    ),
    chosenFeatures(input, version),
  )
  const { rows } = await sql<{ id: number }>`
    select platform_tenant_create(${session.userId}, ${input.code}, ${input.nameZh}, ${input.nameEn}, ${version},
      ${JSON.stringify(settings)}::jsonb, ${domains}::text[]) as id`.execute(trx)
  const tenantId = rows[0]?.id as number
  // From here on the transaction is the new tenant's: every row below is held to it by row-level security.
  await enterTenant(trx, tenantId)
  const language = tenantLanguageOf(settings)
  const roleIds: Record<string, number | null> = {}
  for (const [code, role] of Object.entries(manifest.roles))
    roleIds[code] = await insertPresetRole(trx, tenantId, code, role, language)
  const company = await trx
    .insertInto('company')
    .values({ tenant_id: tenantId, name: input.nameZh, name_en: input.nameEn, company_type: PROVIDER })
    .returning('id')
    .executeTakeFirstOrThrow()
  const prefix = input.code
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 4)
    .toUpperCase()
  await sql`
    insert into order_number_rule
      (tenant_id, version, document, transport_mode, prefix, date_pattern, sequence_length, reset, enabled)
    values (${tenantId}, 1, 'order', 0, ${prefix}, 'YYMMDD', 4, 'daily', true)`.execute(trx)
  const password = initialPassword()
  const user = await trx
    .insertInto('app_user')
    .values({
      tenant_id: tenantId,
      company_id: company.id,
      username: username as string,
      real_name: adminName as string,
      email: email as string,
      password_hash: await hashPassword(password),
      company_user_type: PROVIDER,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const adminRole = roleIds[FIRST_ADMIN_ROLE]
  if (!adminRole) throw new Error(`the manifest has no preset role ${FIRST_ADMIN_ROLE}`)
  await trx.insertInto('user_role').values({ tenant_id: tenantId, user_id: user.id, role_id: adminRole }).execute()
  // The invitation: the new site's address, the user name and the initial password, sealed in the outbox.
  const site = language === 'zh' ? input.websiteName : input.websiteNameEn || input.websiteName
  const port = ctx.request.port ? `:${ctx.request.port}` : ''
  const url = `${ctx.request.protocol}://${domains[0]}${port}/login`
  const params = { site, name: adminName, url, username, password }
  await currentDelivery()
    .mail({ trx, tenantId, log: ctx.request.log, language })
    .send(
      email as string,
      messageFor('common.tenantInvitationSubject', language, params),
      messageFor('common.tenantInvitationText', language, params),
    )
  await enterTenant(trx, session.tenantId)
  return tenantId
}

export const platformHandlers = {
  /** POST /b2b/platform/tenant/page: every tenant, SPEC §3's search, a page at a time (newest first). */
  async platformTenantPage(ctx) {
    platformSession(ctx)
    const manifest = loadManifest()
    const plan = listPlanOf(manifest, ctx.endpoint)
    const request = parseListRequest(plan, ctx.input)
    const conditions = searchConditions(plan, request.searchParams, VIEW)
    const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``
    return ctx.inTenant(async (trx) => {
      const { rows: counted } = await sql<{ total: number }>`
        select count(*)::int as total from ${TENANT_VIEW} ${where}`.execute(trx)
      const { rows } = await sql<ViewRow>`
        select * from ${TENANT_VIEW} ${where} order by ${sql.ref(`${VIEW}.id`)} desc
        limit ${request.pageSize} offset ${(request.pageNum - 1) * request.pageSize}`.execute(trx)
      return {
        list: rows.map(toView),
        total: Number(counted[0]?.total ?? 0),
        pageNum: request.pageNum,
        pageSize: request.pageSize,
      }
    })
  },

  /** GET /b2b/platform/tenant/detail?id=: one tenant and its change log. */
  async platformTenantDetail(ctx) {
    const session = platformSession(ctx)
    const id = parseId(ctx.input.id)
    return ctx.inTenant(async (trx) => ({
      ...toView(await readTenant(trx, id)),
      history: await tenantHistory(trx, session, id),
    }))
  },

  /** POST /b2b/platform/tenant/save: a new tenant made whole, or a change to one at its version. */
  async platformTenantSave(ctx) {
    const session = platformSession(ctx)
    const manifest = loadManifest()
    const input = ctx.input as PlatformTenant & { id?: number; version?: number }
    const domains = domainsOf(input.websiteDomainName)
    const answer = await ctx
      .inTenant(async (trx) => {
        if (input.id === undefined || input.id === null) {
          const id = await makeTenant(ctx, trx, manifest, session, input)
          return toView(await readTenant(trx, id))
        }
        const before = await readTenant(trx, input.id)
        if (input.code !== before.code) throw invalid('code', 'rule.tenantCodeFixed')
        const version = input.tenantVersion as TenantVersion
        const sent = input.features as unknown
        const features = Array.isArray(sent)
          ? (sent as TenantFeature[])
          : version !== before.tenant_version
            ? [...VERSION_FEATURES[version]]
            : featuresOf(before.settings)
        const settings = withFeatures(
          {
            ...withLanguage(before.settings, input.defaultLanguage ?? tenantLanguageOf(before.settings)),
            websiteName: input.websiteName,
            websiteNameEn: input.websiteNameEn ?? '',
            companyDomainName: domains[0],
            fms: input.fms ?? '',
            individuationPage: input.individuationPage ?? false,
          },
          features,
        )
        await sql`select platform_tenant_update(${session.userId}, ${input.id}, ${input.version ?? before.version},
          ${input.nameZh}, ${input.nameEn}, ${version}, ${before.state}::smallint, ${JSON.stringify(settings)}::jsonb,
          ${domains}::text[])`.execute(trx)
        return toView(await readTenant(trx, input.id))
      })
      .catch((error) => {
        throw refusal(error, domains)
      })
    forgetTenantHosts()
    return answer
  },

  /** POST /b2b/platform/tenant/state: suspend (0) or resume (1) a tenant; its data is untouched. */
  async platformTenantState(ctx) {
    const session = platformSession(ctx)
    const input = ctx.input
    const answer = await ctx
      .inTenant(async (trx) => {
        const before = await readTenant(trx, input.id)
        const { rows } = await sql<{ domain: string }>`
          select domain from tenant_domain where tenant_id = ${input.id}`.execute(trx)
        await sql`select platform_tenant_update(${session.userId}, ${input.id}, ${before.version}, ${before.name_zh},
          ${before.name_en}, ${before.tenant_version}, ${input.state}::smallint, ${JSON.stringify(before.settings)}::jsonb,
          ${rows.map((r) => r.domain)}::text[])`.execute(trx)
        return toView(await readTenant(trx, input.id))
      })
      .catch((error) => {
        throw refusal(error, [])
      })
    forgetTenantHosts()
    return answer
  },
} satisfies Handlers
