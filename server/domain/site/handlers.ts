import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'

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

/**
 * The site's calls: the tenant's site settings (SPEC §3), the personalization call (SPEC §7) and the top
 * bar's tenant check (SPEC §7 "Header makes tenant check (by tenantId)").
 */
export const siteHandlers: HandlerRegistry = {
  async siteSettings({ request }) {
    const { tenant } = request
    // The direct-order contact is for signed-in customers (checkTenant), not for every visitor.
    const { directOrder: _directOrder, ...settings } = tenant.settings
    return {
      tenantId: tenant.id,
      tenantCode: tenant.code,
      ...settings,
      // The external IM website (SPEC §2 "IM link"); empty when the tenant has none.
      imUrl: text(settings.imUrl),
    }
  },
  async personalization({ request }) {
    const { settings } = request.tenant
    return {
      pageTemplate: settings.pageTemplate ?? 0,
      homeMode: settings.homeMode ?? 1,
      themeColor: settings.themeColor,
    }
  },
  async checkTenant({ request }) {
    const { tenant } = request
    const asked = (request.query as { tenantId?: string } | undefined)?.tenantId
    // The tenant is the host's; naming another one finds nothing, as another tenant's rows never do.
    if (asked !== undefined && asked !== '' && asked !== String(tenant.id)) throw new ApiError('404')
    return directOrderService(tenant.settings)
  },
}
