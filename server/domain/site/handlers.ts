import type { HandlerRegistry } from '../../http/endpoints.ts'

/** The public site's calls: the tenant's site settings (SPEC §3) and the personalization call (SPEC §7). */
export const siteHandlers: HandlerRegistry = {
  async siteSettings({ request }) {
    const { tenant } = request
    return { tenantId: tenant.id, tenantCode: tenant.code, ...tenant.settings }
  },
  async personalization({ request }) {
    const { settings } = request.tenant
    return {
      pageTemplate: settings.pageTemplate ?? 0,
      homeMode: settings.homeMode ?? 1,
      themeColor: settings.themeColor,
    }
  },
}
