import { type SqlBool, sql } from 'kysely'
import { scopeConditions } from '../../engine/index.ts'
import type { HandlerRegistry, TypedHandler } from '../../http/endpoints.ts'
import { loadManifest, type Manifest } from '../../manifest.ts'
import { type LookupOption, type LookupPlan, type LookupQuery, lookup, lookupEntity } from './lookup.ts'

/**
 * The look-up endpoints of screens/basicData.yaml: one handler per list, all the same query
 * (./lookup.ts) with what each list adds — the carrier's mode, the company wall, enabled provider roles.
 *
 * Reference lists are public (SPEC §7 names them under /public/api/; the public site's rate search needs
 * ports before login) and shared by every tenant. Tenant look-ups need a login and read inside the
 * caller's tenant transaction (row-level security) with the tenant named as well.
 */

/** SPEC §6: company user type 1 is the provider side. */
const PROVIDER = 1

function plans(manifest: Manifest): Record<string, LookupPlan> {
  const list = (name: string): LookupPlan => ({ entity: lookupEntity(manifest, name) })
  // Permissions only an enterprise-side role carries: a custom role holding one is not an operator's role.
  const enterpriseOnly = Object.entries(manifest.permissions)
    .filter(([, p]) => p.side === 'enterprise')
    .map(([name]) => name)
  const providerPresets = Object.entries(manifest.roles)
    .filter(([, r]) => r.companyUserType === PROVIDER)
    .map(([code]) => code)
  const providerOnly = Object.entries(manifest.permissions)
    .filter(([, p]) => p.side === 'provider')
    .map(([name]) => name)
  const anyOf = (names: string[]) => sql`array[${sql.join(names.length ? names : [''])}]::text[]`
  return {
    portFuzzyQuery: list('port'),
    airportFuzzyQuery: list('airport'),
    currencyFuzzyQuery: list('currency'),
    countryFuzzyQuery: list('country'),
    amazonFcFuzzyQuery: list('amazonFc'),
    containerTypeFuzzyQuery: list('containerType'),
    // The tenant's offered container types (schemas/containerSetting.yaml): its enabled settings, or every type
    // when it has none.
    offeredContainerTypes: {
      entity: lookupEntity(manifest, 'containerType'),
      where: ({ tenantId }) => [
        sql<SqlBool>`(${sql.ref('code')} in (select container_type from container_setting
            where tenant_id = ${tenantId} and enabled is not false)
          or not exists (select 1 from container_setting where tenant_id = ${tenantId} and enabled is not false))`,
      ],
    },
    getCommodityCodes: list('hsCode'),
    carrierFuzzyQuery: {
      entity: lookupEntity(manifest, 'carrier'),
      where: (_call, query: LookupQuery) => (query.mode ? [sql<SqlBool>`${sql.ref('mode')} = ${query.mode}`] : []),
    },
    companyFuzzyQuery: {
      entity: lookupEntity(manifest, 'company'),
      // The company wall (server/engine/scope.ts): an enterprise-side user sees their own company only.
      where: ({ session }) =>
        session && session.companyUserType !== PROVIDER
          ? [session.companyId ? sql<SqlBool>`${sql.ref('id')} = ${session.companyId}` : sql<SqlBool>`false`]
          : [],
    },
    // A shipment subscription's order (issue #22): the orders the caller's order list shows, by the order
    // entity's data scope (server/engine/scope.ts); a caller without a session sees none.
    orderFuzzyQuery: {
      entity: lookupEntity(manifest, 'order'),
      where: ({ session }) =>
        session ? scopeConditions(lookupEntity(manifest, 'order'), session, 'booking_order') : [sql<SqlBool>`false`],
    },
    // The B/L instruction's order (issue #23): confirmed FCL orders the caller's order list shows (the order
    // entity's data scope, as above).
    blOrderFuzzyQuery: {
      entity: lookupEntity(manifest, 'order'),
      where: ({ session }) =>
        session
          ? [
              sql<SqlBool>`${sql.ref('container_load_type')} = 'FCL'`,
              sql<SqlBool>`${sql.ref('state')} in ('accepted', 'booked')`,
              ...scopeConditions(lookupEntity(manifest, 'order'), session, 'booking_order'),
            ]
          : [sql<SqlBool>`false`],
    },
    // A payment's bill (issue #24): the bills the caller sees by billing number — an operator the tenant's, a
    // customer their company's (the bill entity's data scope).
    billFuzzyQuery: {
      entity: lookupEntity(manifest, 'bill'),
      where: ({ session }) =>
        session ? scopeConditions(lookupEntity(manifest, 'bill'), session, 'bill') : [sql<SqlBool>`false`],
    },
    // SPEC §7's office by tenant, region and booking agent (issue #25): the tenant's enabled rows. Booking agents
    // answer only while the tenant's hasBookingAgent is on (the booking form asks for one only then), and
    // ?carrier= keeps the agents that serve that carrier.
    regionFuzzyQuery: list('region'),
    officeFuzzyQuery: {
      entity: lookupEntity(manifest, 'office'),
      where: () => [sql<SqlBool>`${sql.ref('enabled')} is not false`],
    },
    bookingAgentFuzzyQuery: {
      entity: lookupEntity(manifest, 'bookingAgent'),
      where: ({ settings }, query) => [
        settings?.hasBookingAgent === true ? sql<SqlBool>`${sql.ref('enabled')} is not false` : sql<SqlBool>`false`,
        ...(query.carrier ? [sql<SqlBool>`${sql.ref('carriers')} @> ${JSON.stringify([query.carrier])}::jsonb`] : []),
      ],
    },
    // Role management's group field (issue #21): the tenant's role groups.
    roleGroupFuzzyQuery: list('roleGroup'),
    roleFuzzyQuery: {
      entity: lookupEntity(manifest, 'role'),
      // The roles an operation account may be given (server/domain/accounts: isProviderRole): enabled, and a
      // provider preset or a custom role with provider permissions and no enterprise one.
      where: () => [
        sql<SqlBool>`${sql.ref('status')} = 1`,
        sql<SqlBool>`(case when ${sql.ref('preset')} then ${sql.ref('code')} = any(${anyOf(providerPresets)})
          else ${sql.ref('permissions')} ?| ${anyOf(providerOnly)} and not (${sql.ref('permissions')} ?| ${anyOf(enterpriseOnly)}) end)`,
      ],
    },
  }
}

type Lookup = typeof lookup

/** A national tariff code (SPEC §9: China customs' 10 digits, the US HTS's 8 or 10), beginning with a subheading. */
const NATIONAL_HS = /^\d{8}(\d{2})?$/

/**
 * HS codes (getCommodityCodes): the Harmonized System's subheadings, and a national code of 8 or 10 digits typed
 * or held as itself, described by its subheading — offered only when that subheading is on the list, so the
 * B/L instruction's HS code field can take a customs or US code (schemas/blInstruction.yaml `format: hsCode`).
 */
const hsLookup: Lookup = async (trx, plan, call, query) => {
  const subheadingOf = (code: string) => (NATIONAL_HS.test(code) ? code.slice(0, 6) : code)
  const national = (code: string, option: LookupOption): LookupOption => ({
    value: code,
    code,
    name: option.name,
    label: `${code} — ${option.name}`,
  })
  const codes = (query.codes ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
  const keyword = (query.keyword ?? '').trim()
  if (!codes.some((c) => NATIONAL_HS.test(c)) && !NATIONAL_HS.test(keyword)) return lookup(trx, plan, call, query)
  const asked = codes.length ? codes : [keyword]
  const rows = await lookup(trx, plan, call, { codes: [...new Set(asked.map(subheadingOf))].join(',') })
  return asked.flatMap((code) => {
    const row = rows.find((r) => r.value === subheadingOf(code))
    return row ? [code === row.value ? row : national(code, row)] : []
  })
}

/** Every look-up takes a referenceQuery and answers referenceOptions (screens/basicData.yaml). */
function handlerOf(plan: LookupPlan, find: Lookup = lookup): TypedHandler<'portFuzzyQuery'> {
  return async (ctx) => {
    const query: LookupQuery = ctx.input
    const list = await ctx.inTenant((trx) =>
      find(
        trx,
        plan,
        {
          tenantId: ctx.request.tenant.id,
          session: ctx.request.session,
          language: ctx.request.language,
          settings: ctx.request.tenant.settings,
        },
        query,
      ),
    )
    return { list }
  }
}

export function referenceHandlers(manifest: Manifest = loadManifest()): HandlerRegistry {
  return Object.fromEntries(
    Object.entries(plans(manifest)).map(([name, plan]) => [
      name,
      handlerOf(plan, name === 'getCommodityCodes' ? hsLookup : lookup),
    ]),
  )
}
