import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import { routes } from '../../generated/routes.ts'
import {
  badgeText,
  inquiryMenu,
  isGroup,
  type MenuLink,
  topMenu,
  workbenchHome,
  workbenchMenu,
} from '../../runtime/routing/menus.ts'

const permissionsOf = (role: keyof typeof manifest.roles) => new Set<string>(manifest.roles[role].permissions)

describe('workbench menu', () => {
  it('shows an operator the operator areas in area order, screens in menu order, hidden screens left out', () => {
    const menu = workbenchMenu(routes, manifest.areas, permissionsOf('OperationAdministrator'))
    const areaNames = menu.map((group) => group.key)
    expect(areaNames).toContain('operatorOrders')
    expect(areaNames).toContain('system')
    expect(areaNames).not.toContain('site')
    const order = manifest.areas.filter((a) => a.menu?.place === 'workbench').map((a) => a.name)
    expect(areaNames).toEqual(order.filter((name) => areaNames.includes(name)))
    const operatorOrders = menu.find((group) => group.key === 'operatorOrders')
    expect(operatorOrders?.items[0]).toEqual({ key: 'orderList', label: 'route.orderList', to: '/orderList' })
    const all = menu.flatMap((group) => group.items.map((item) => item.key))
    expect(all).not.toContain('myOrders')
    expect(all).toContain('preOrderList')
    expect(all).not.toContain('orderDetailsOperator')
    expect(all).not.toContain('cargoFeedSubmission')
  })

  it('shows a personal user only what their permissions open', () => {
    const menu = workbenchMenu(routes, manifest.areas, permissionsOf('PersonalUser'))
    const all = menu.flatMap((group) => group.items.map((item) => item.to))
    expect(all).toContain('/personalInfo')
    expect(all).not.toContain('/orderList')
    expect(all).not.toContain('/orderList')
    expect(all).not.toContain('/operationAccount')
    expect(menu.every((group) => group.items.length > 0)).toBe(true)
  })

  it('leaves planned screens out until they are built, whoever may open them', () => {
    // Every workbench screen is built now (issue #28 built the last): one taken back to planned shows the rule.
    const withPlanned = routes.map((route) =>
      route.name === 'bookingReview' ? { ...route, status: 'planned' as typeof route.status } : route,
    )
    const planned = withPlanned.filter((route) => route.status === 'planned' && route.layout === 'workbench')
    expect(planned.map((route) => route.name)).toEqual(['bookingReview'])
    const opadmin = workbenchMenu(routes, manifest.areas, permissionsOf('OperationAdministrator')).flatMap((group) =>
      group.items.map((item) => item.key),
    )
    expect(opadmin).toContain('bookingReview')
    for (const role of Object.keys(manifest.roles) as (keyof typeof manifest.roles)[]) {
      const shown = workbenchMenu(withPlanned, manifest.areas, permissionsOf(role)).flatMap((group) =>
        group.items.map((item) => item.key),
      )
      expect(shown.filter((name) => planned.some((route) => route.name === name))).toEqual([])
      expect(shown.length, role).toBeGreaterThan(0)
    }
  })

  it('leads the Workbench entry to the profile, or to the order list for user type 3', () => {
    expect(workbenchHome(1)).toBe('/personalInfo')
    expect(workbenchHome(2)).toBe('/personalInfo')
    expect(workbenchHome(3)).toBe('/orderList')
  })
})

describe('top menu', () => {
  const keys = (entries: ReturnType<typeof topMenu>) => entries.map((entry) => entry.key)

  it('builds the inquiry entries from the transport modes, "all" first when there are several', () => {
    expect(inquiryMenu([1, 2, 3, 4]).map((e) => e.to)).toEqual([
      '/palletInquiry/all',
      '/palletInquiry/sea',
      '/palletInquiry/air',
      '/palletInquiry/railway',
      '/palletInquiry/truck',
    ])
    expect(inquiryMenu([2]).map((e) => e.to)).toEqual(['/palletInquiry/air'])
    expect(inquiryMenu([3, 1, 1]).map((e) => e.to)).toEqual([
      '/palletInquiry/all',
      '/palletInquiry/sea',
      '/palletInquiry/railway',
    ])
    expect(inquiryMenu([])).toEqual([])
    expect(inquiryMenu(undefined)).toEqual([])
  })

  it('shows a visitor home, inquiry (when allowed) and tracking, and no workbench', () => {
    const entries = topMenu({
      settings: { inquiryAllowed: true, transportationSupport: [1, 2] },
      loggedIn: false,
      permissions: new Set(),
    })
    expect(keys(entries)).toEqual(['home', 'inquiry', 'tracking'])
    expect(
      keys(
        topMenu({
          settings: { inquiryAllowed: false, transportationSupport: [1] },
          loggedIn: false,
          permissions: new Set(),
        }),
      ),
    ).toEqual(['home', 'tracking'])
  })

  it('adds rate inquiry, direct order, info centre and workbench by permission', () => {
    const entries = topMenu({
      settings: { inquiryAllowed: true, transportationSupport: [1] },
      loggedIn: true,
      permissions: permissionsOf('EnterpriseAdministrator'),
      companyUserType: 2,
    })
    expect(keys(entries)).toEqual(['home', 'inquiry', 'rates', 'direct', 'tracking', 'news', 'workbench'])
    const direct = entries.find((entry) => entry.key === 'direct')
    expect(direct && isGroup(direct) && direct.items.map((i) => i.to)).toEqual([
      '/fclCreateOrderDirect',
      '/lclCreateOrderDirect',
      '/airCreateOrderDirect',
      '/railwayCreateOrderDirect',
    ])
    const operator = topMenu({
      settings: null,
      loggedIn: true,
      permissions: permissionsOf('OperationCS'),
      companyUserType: 3,
    })
    expect(keys(operator)).toEqual(['home', 'rates', 'tracking', 'news', 'workbench'])
    expect((operator.at(-1) as MenuLink).to).toBe('/orderList')
  })
})

describe('notification badge', () => {
  it('caps at 99 and hides at zero', () => {
    expect(badgeText(0)).toBe('')
    expect(badgeText(-3)).toBe('')
    expect(badgeText(7)).toBe('7')
    expect(badgeText(99)).toBe('99')
    expect(badgeText(100)).toBe('99+')
    expect(badgeText(Number.NaN)).toBe('')
  })
})
