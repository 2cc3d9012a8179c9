import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { richTextHtml } from '../../http/sanitize.ts'
import { loadManifest } from '../../manifest.ts'
import { booksOnline } from '../clients/services.ts'
import { sitePages } from './pages.ts'
import { siteSettingsHandlers } from './settings.ts'

/**
 * The tenant's direct-order service (SPEC §2 "Direct order menu"): who takes direct orders and how to
 * reach them, kept in the tenant's settings under `directOrder`. A tenant without it has not enabled
 * online booking, and the portal says so before letting anyone into a direct-order screen.
 */
export interface DirectOrderService {
  contactName: string
  phone: string
  email: string
  /** Free text: hours, cut-offs, what to prepare. */
  note: string
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

/** The tenant's direct-order service, or null when it has none (or only empty values). */
export function directOrderService(settings: Record<string, unknown>): DirectOrderService | null {
  const raw = settings.directOrder
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null
  const value = raw as Record<string, unknown>
  const service = {
    contactName: text(value.contactName),
    phone: text(value.phone),
    email: text(value.email),
    note: text(value.note),
  }
  return Object.values(service).some(Boolean) ? service : null
}

/** SPEC §9-style default: the home page shows 6 featured lanes unless the tenant says otherwise. */
export const DEFAULT_SPECIAL_ROUTE_COUNT = 6

/** `configuration.homeSpecialRouteCount`, kept between 0 and 12. */
export function specialRouteCount(settings: Record<string, unknown>): number {
  const configuration = settings.configuration as { homeSpecialRouteCount?: unknown } | undefined
  const raw = Number(configuration?.homeSpecialRouteCount ?? DEFAULT_SPECIAL_ROUTE_COUNT)
  return Number.isInteger(raw) ? Math.min(Math.max(raw, 0), 12) : DEFAULT_SPECIAL_ROUTE_COUNT
}

const declaredOnly = (values: Record<string, unknown>, fields: object | undefined) =>
  Object.fromEntries(Object.entries(values).filter(([key]) => fields !== undefined && key in fields))

/**
 * What GET site/settings answers (SPEC §3), also written into the pages' HTML (server/portal/initial.ts):
 * the settings schemas/siteSettingsView.yaml names and nothing else. A tenant's settings also hold what
 * only the server reads (OCR channel, visitor limits, HS code options…), which no visitor needs to see;
 * a setting the portal comes to read is declared in that YAML and answered from then on.
 */
export function publicSiteSettings(tenant: { id: number; code: string; settings: Record<string, unknown> }) {
  const { entities } = loadManifest()
  const settings = withRichTexts(
    tenant.settings,
    withImageAddresses(declaredOnly(tenant.settings, entities.siteSettingsView?.fields)),
  )
  const configuration = tenant.settings.configuration
  return {
    ...settings,
    ...(configuration && typeof configuration === 'object' && !Array.isArray(configuration)
      ? { configuration: declaredOnly(configuration as Record<string, unknown>, entities.siteConfiguration?.fields) }
      : {}),
    tenantId: tenant.id,
    tenantCode: tenant.code,
    // The external IM website (SPEC §2 "IM link"); empty when the tenant has none.
    imUrl: text(tenant.settings.imUrl),
  }
}

const RICH_TEXTS = ['serviceAgreementList', 'privacyAgreementList', 'newContactInformation'] as const
const richTexts = new WeakMap<object, Record<string, unknown>>()

/**
 * The agreements' contents and the new-contact notice as safe HTML (richTextHtml: sanitised, or a text stored
 * before it was rich as paragraphs), worked out once per settings object (the host cache keeps it 30 s).
 */
function withRichTexts(source: Record<string, unknown>, settings: Record<string, unknown>): Record<string, unknown> {
  let html = richTexts.get(source)
  if (!html) {
    const contents = (list: unknown) =>
      Array.isArray(list)
        ? list.map((item) =>
            item && typeof item === 'object' && typeof item.content === 'string'
              ? { ...item, content: richTextHtml(item.content) }
              : item,
          )
        : list
    html = {
      serviceAgreementList: contents(source.serviceAgreementList),
      privacyAgreementList: contents(source.privacyAgreementList),
      newContactInformation:
        typeof source.newContactInformation === 'string'
          ? richTextHtml(source.newContactInformation)
          : source.newContactInformation,
    }
    richTexts.set(source, html)
  }
  const shown = { ...settings }
  for (const key of RICH_TEXTS) if (key in settings) shown[key] = html[key]
  return shown
}

/** Where the public site reads an uploaded image of the settings (a uuid); a path of the portal stays itself. */
export const siteImageUrl = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)
    ? `/api/b2b/public/api/site/image?uuid=${value}`
    : value

/** The settings' icon, logos and backgrounds as addresses a visitor's browser can load. */
function withImageAddresses(settings: Record<string, unknown>): Record<string, unknown> {
  const links = (list: unknown) =>
    Array.isArray(list)
      ? list.map((item) =>
          item && typeof item === 'object' && typeof item.url === 'string'
            ? { ...item, url: siteImageUrl(item.url) }
            : item,
        )
      : list
  return {
    ...settings,
    ...(typeof settings.iconPath === 'string' ? { iconPath: siteImageUrl(settings.iconPath) } : {}),
    ...(settings.logoList !== undefined ? { logoList: links(settings.logoList) } : {}),
    ...(settings.backgroundImageList !== undefined ? { backgroundImageList: links(settings.backgroundImageList) } : {}),
  }
}

/** What GET personalization answers (SPEC §7): the home template, the home mode and the theme colour. */
export function personalizationOf(settings: Record<string, unknown>) {
  return {
    pageTemplate: settings.pageTemplate ?? 0,
    homeMode: settings.homeMode ?? 1,
    themeColor: settings.themeColor,
  }
}

/** The tenant's featured lanes for the home page (schemas/specialRoute.yaml), with port and carrier names. */
export async function featuredLanes(
  settings: Record<string, unknown>,
  inTenant: <T>(work: (trx: Transaction<DB>) => Promise<T>) => Promise<T>,
): Promise<Record<string, unknown>[]> {
  const limit = specialRouteCount(settings)
  if (limit === 0) return []
  return inTenant(async (trx) => {
    const result = await sql<Record<string, unknown>>`
      select r.id, r.pol, pol.name_en as "polNameEn", pol.name_zh as "polNameZh",
             r.pod, pod.name_en as "podNameEn", pod.name_zh as "podNameZh",
             r.container_load_type as "containerLoadType", r.carrier, c.name_en as "carrierName",
             r.price_from::text as "priceFrom", r.currency, r.transit_days as "transitDays"
      from special_route r
      left join ref_port pol on pol.code = r.pol
      left join ref_port pod on pod.code = r.pod
      left join ref_carrier c on c.code = r.carrier
      order by r.sort, r.id
      limit ${limit}`.execute(trx as unknown as Kysely<unknown>)
    return result.rows
  })
}

/**
 * The site's calls: the tenant's site settings (SPEC §3), the personalization call (SPEC §7) and the top
 * bar's tenant check (SPEC §7 "Header makes tenant check (by tenantId)").
 */
export const siteHandlers: HandlerRegistry = {
  // /operationSet's site settings and the public address of their images (./settings.ts).
  ...(siteSettingsHandlers as HandlerRegistry),
  async siteSettings({ request }) {
    return publicSiteSettings(request.tenant)
  },
  async personalization({ request }) {
    return personalizationOf(request.tenant.settings)
  },
  /** The service and about pages' copy in the reader's language (server/domain/site/pages.ts). */
  async sitePages({ request }) {
    const { settings } = request.tenant
    const name =
      request.language === 'zh'
        ? text(settings.websiteName)
        : text(settings.websiteNameEn) || text(settings.websiteName)
    return sitePages(settings, request.language, name)
  },
  async specialRoutes({ request, inTenant }) {
    const list = await featuredLanes(request.tenant.settings, inTenant)
    return { list, total: list.length }
  },
  async checkTenant({ request, inTenant }) {
    const { tenant, session } = request
    const asked = (request.query as { tenantId?: string } | undefined)?.tenantId
    // The tenant is the host's; naming another one finds nothing, as another tenant's rows never do.
    if (asked !== undefined && asked !== '' && asked !== String(tenant.id)) throw new ApiError('404')
    const service = directOrderService(tenant.settings)
    // And the caller's enterprise has online booking (/clientEnterpriseService): else the warm reminder.
    if (!service || !session || !(await inTenant((trx) => booksOnline(trx, session)))) return null
    return service
  },
}
