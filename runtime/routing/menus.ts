import type { RouteEntry } from '../../generated/routes.ts'
import { canOpen } from './access.ts'

/** The menus of SPEC §2, as pure functions of the route table, the site settings and the user. */

export interface MenuArea {
  name: string
  label: string
  menu?: { place: string; order?: number }
}

export interface MenuLink {
  key: string
  /** Locale key */
  label: string
  to: string
}

export interface MenuGroup {
  key: string
  label: string
  items: MenuLink[]
}

/** SPEC §9: company user type 3 has no profile entry and its workbench is the order list. */
export const ORDER_DESK_USER_TYPE = 3

/**
 * The workbench's left menu: areas placed in the workbench, in their order; inside each, the screens that
 * are built, not hidden, take no path parameter and that the user may open, in menu order. A planned
 * screen stays out of the menu until it is built (it would open a placeholder). Empty areas vanish.
 */
export function workbenchMenu(
  routes: readonly RouteEntry[],
  areas: readonly MenuArea[],
  permissions: ReadonlySet<string>,
): MenuGroup[] {
  return areas
    .filter((area) => area.menu?.place === 'workbench')
    .sort((a, b) => (a.menu?.order ?? 0) - (b.menu?.order ?? 0))
    .map((area) => ({
      key: area.name,
      label: area.label,
      items: routes
        .filter(
          (route) =>
            route.area === area.name &&
            route.status === 'built' &&
            !route.hidden &&
            !route.redirect &&
            !route.path.includes(':') &&
            route.access !== 'public' &&
            canOpen(route, permissions),
        )
        .sort((a, b) => (a.menuOrder ?? Number.MAX_SAFE_INTEGER) - (b.menuOrder ?? Number.MAX_SAFE_INTEGER))
        .map((route) => ({ key: route.name, label: route.title, to: route.path })),
    }))
    .filter((group) => group.items.length > 0)
}

/** Where "Workbench" leads: the profile, or the order list for user type 3. */
export function workbenchHome(companyUserType: number | undefined): string {
  return companyUserType === ORDER_DESK_USER_TYPE ? '/orderList' : '/personalInfo'
}

/** SPEC §9 transport modes and the inquiry path segment of each. */
export const TRANSPORT_MODES: Record<number, string> = { 1: 'sea', 2: 'air', 3: 'railway', 4: 'truck' }

/** SPEC §2 "Inquiry menu": one entry per supported mode, with 'all' first when there is more than one. */
export function inquiryMenu(transportationSupport: readonly number[] | undefined): MenuLink[] {
  const modes = [...new Set(transportationSupport ?? [])]
    .sort((a, b) => a - b)
    .map((mode) => TRANSPORT_MODES[mode])
    .filter((mode): mode is string => mode !== undefined)
  const entries = modes.length > 1 ? ['all', ...modes] : modes
  return entries.map((mode) => ({ key: `inquiry-${mode}`, label: `ui.inquiry_${mode}`, to: `/palletInquiry/${mode}` }))
}

export interface TopMenuInput {
  settings: { inquiryAllowed?: boolean; transportationSupport?: readonly number[] } | null
  loggedIn: boolean
  permissions: ReadonlySet<string>
  companyUserType?: number
}

export type TopMenuEntry = MenuLink | MenuGroup

export function isGroup(entry: TopMenuEntry): entry is MenuGroup {
  return 'items' in entry
}

/** SPEC §2 "Top menu". */
export function topMenu({ settings, loggedIn, permissions, companyUserType }: TopMenuInput): TopMenuEntry[] {
  const entries: TopMenuEntry[] = [{ key: 'home', label: 'ui.menu_home', to: '/dashboard' }]
  const inquiry = settings?.inquiryAllowed ? inquiryMenu(settings.transportationSupport) : []
  if (inquiry.length) entries.push({ key: 'inquiry', label: 'ui.menu_inquiry', items: inquiry })
  if (permissions.has('fclPriceList')) {
    entries.push({
      key: 'rates',
      label: 'ui.menu_rates',
      items: [
        { key: 'rates-fcl', label: 'ui.mode_fcl', to: '/productService' },
        { key: 'rates-lcl', label: 'ui.mode_lcl', to: '/lclProductService' },
        { key: 'rates-air', label: 'ui.mode_air', to: '/airProductService' },
      ],
    })
  }
  if (permissions.has('directlyEntrusted')) {
    entries.push({
      key: 'direct',
      label: 'ui.menu_directOrder',
      items: [
        { key: 'direct-fcl', label: 'ui.mode_fcl', to: '/fclCreateOrderDirect' },
        { key: 'direct-lcl', label: 'ui.mode_lcl', to: '/lclCreateOrderDirect' },
        { key: 'direct-air', label: 'ui.mode_air', to: '/airCreateOrderDirect' },
        { key: 'direct-railway', label: 'ui.mode_railway', to: '/railwayCreateOrderDirect' },
      ],
    })
  }
  entries.push({ key: 'tracking', label: 'ui.menu_tracking', to: '/orderTracking' })
  if (permissions.has('informationCenter')) {
    entries.push({ key: 'news', label: 'ui.menu_infoCentre', to: '/informationCenterList' })
  }
  if (loggedIn) entries.push({ key: 'workbench', label: 'ui.menu_workbench', to: workbenchHome(companyUserType) })
  return entries
}

/** SPEC §9: the notification badge shows at most 99. */
export function badgeText(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return ''
  return count > 99 ? '99+' : String(Math.floor(count))
}

/**
 * The query key of the top bar's counts (the operating orders awaiting approval): under `list`, so a detail
 * screen's transition, which refreshes every list, refreshes them too; a list's row transition asks for them.
 */
export const HEADER_COUNTS_KEY = ['list', 'headerCounts'] as const

/** SPEC §6: the pending operating-order count is fetched only with one of these permissions. */
export const PENDING_APPROVAL_PERMISSIONS = ['operatingOrderProvider', 'operatingOrderEnterprise'] as const
