import { describe, expect, it } from 'vitest'
import generated from '../../generated/manifest.json'
import {
  buildPermissionTree,
  nodeState,
  nodesByKey,
  OTHER_GROUP,
  type PermissionTreeNode,
  subtreePermissions,
  toggleNode,
  treeForSide,
} from '../../model/permissionTree.ts'
import type { Manifest } from '../../model/resolve.ts'
import { conditionHolds } from '../../rules/uiRules.ts'
import { actionAllowed } from '../../runtime/screens/list/actions.ts'

const manifest = generated as unknown as Manifest

/** A small manifest: two areas in menu order, a hidden detail, an action with a permission of its own. */
const mini = {
  areas: [
    { name: 'orders', label: 'area.orders', menu: { place: 'workbench' as const, order: 1 } },
    { name: 'system', label: 'area.system', menu: { place: 'workbench' as const, order: 2 } },
  ],
  permissions: {
    myOrders: { label: 'permission.myOrders', side: 'enterprise' as const },
    myOrdersExport: { label: 'permission.myOrdersExport', side: 'enterprise' as const },
    orderList: { label: 'permission.orderList', side: 'provider' as const },
    roles: { label: 'permission.roles', side: 'provider' as const },
    booking: { label: 'permission.booking', side: 'enterprise' as const },
    personalInfo: { label: 'permission.personalInfo', side: 'any' as const },
  },
  entities: { order: { states: { transitions: { accept: { permission: 'orderList' } } } } },
  endpoints: [],
  screens: [
    {
      name: 'orderDetails',
      area: 'orders',
      title: 'route.orderDetails',
      access: 'permission',
      permissions: ['myOrders'],
      hidden: true,
    },
    {
      name: 'orderList',
      area: 'orders',
      title: 'route.orderList',
      access: 'permission',
      permissions: ['orderList'],
      menu: { order: 2 },
      entity: 'order',
      actions: { row: [{ name: 'accept', label: 'action.accept', transition: 'accept' }] },
    },
    {
      name: 'myOrders',
      area: 'orders',
      title: 'route.myOrders',
      access: 'permission',
      permissions: ['myOrders'],
      menu: { order: 1 },
      entity: 'order',
      endpoints: { export: { method: 'POST', path: '/x/export', permission: 'myOrdersExport' } },
      actions: { toolbar: [{ name: 'export', label: 'ui.export', endpoint: 'export' }] },
    },
    { name: 'login', area: 'system', title: 'route.login', access: 'public', permissions: [] },
    {
      name: 'operationAuth',
      area: 'system',
      title: 'route.operationAuth',
      access: 'permission',
      permissions: ['roles'],
      menu: { order: 1 },
    },
  ],
} as unknown as Parameters<typeof buildPermissionTree>[0]

const keys = (nodes: PermissionTreeNode[]): unknown[] =>
  nodes.map((n) => (n.children.length ? { [n.key]: keys(n.children) } : n.key))

describe('buildPermissionTree', () => {
  it('groups as the workbench menu: area, its screens in menu order, their own actions; hidden screens folded', () => {
    const tree = buildPermissionTree(mini)
    expect(keys(tree.nodes)).toEqual([
      { 'area:orders': [{ 'screen:myOrders': ['action:myOrders.export'] }, 'screen:orderList'] },
      { 'area:system': ['screen:operationAuth'] },
      { [OTHER_GROUP]: ['permission:booking', 'permission:personalInfo'] },
    ])
    const byKey = nodesByKey(tree.nodes)
    expect(byKey.get('action:myOrders.export')).toMatchObject({ label: 'ui.export', permissions: ['myOrdersExport'] })
    // The accept transition needs orderList, the screen's own: no node of its own.
    expect(byKey.get('screen:orderList')?.children).toEqual([])
    expect(tree.sides).toMatchObject({ myOrders: 'enterprise', orderList: 'provider', personalInfo: 'any' })
  })

  it('keeps one side (and either side) for a role of that side, dropping what grants nothing', () => {
    const tree = buildPermissionTree(mini)
    expect(keys(treeForSide(tree, 'enterprise'))).toEqual([
      { 'area:orders': [{ 'screen:myOrders': ['action:myOrders.export'] }] },
      { [OTHER_GROUP]: ['permission:booking', 'permission:personalInfo'] },
    ])
    expect(keys(treeForSide(tree, 'provider'))).toEqual([
      { 'area:orders': ['screen:orderList'] },
      { 'area:system': ['screen:operationAuth'] },
      { [OTHER_GROUP]: ['permission:personalInfo'] },
    ])
  })

  it('ticks: a group all, none or mixed; ticking a group adds or removes its whole subtree', () => {
    const tree = buildPermissionTree(mini)
    const orders = nodesByKey(tree.nodes).get('area:orders') as PermissionTreeNode
    expect(subtreePermissions(orders).sort()).toEqual(['myOrders', 'myOrdersExport', 'orderList'])
    expect(nodeState(orders, new Set())).toBe(false)
    expect(nodeState(orders, new Set(['myOrders']))).toBe('mixed')
    expect(nodeState(orders, new Set(['myOrders', 'myOrdersExport', 'orderList']))).toBe(true)
    expect(toggleNode(orders, true, ['personalInfo'])).toEqual([
      'myOrders',
      'myOrdersExport',
      'orderList',
      'personalInfo',
    ])
    const screen = nodesByKey(tree.nodes).get('screen:myOrders') as PermissionTreeNode
    expect(toggleNode(screen, false, ['myOrders', 'myOrdersExport', 'personalInfo'])).toEqual(['personalInfo'])
  })

  it('on the real manifest: every permission of the catalogue sits in the tree, /myOrders with its export under it', () => {
    const tree = buildPermissionTree(manifest)
    const all = new Set(tree.nodes.flatMap(subtreePermissions))
    expect([...all].sort()).toEqual(Object.keys(manifest.permissions).sort())
    const byKey = nodesByKey(tree.nodes)
    expect(byKey.get('screen:myOrders')?.children.map((c) => [c.key, c.permissions])).toContainEqual([
      'action:myOrders.export',
      ['myOrdersExport'],
    ])
    // The workbench's areas come in its menu order, each labelled with its own key.
    const areas = tree.nodes.filter((n) => n.key !== OTHER_GROUP).map((n) => n.key.slice('area:'.length))
    expect(areas).toEqual(manifest.areas.map((a) => a.name).filter((name) => areas.includes(name)))
    expect(byKey.get('area:customerOrders')?.label).toBe('area.customerOrders')
    // Keys are unique: the widget finds a tick's node by it.
    const count = (nodes: PermissionTreeNode[]): number => nodes.reduce((n, node) => n + 1 + count(node.children), 0)
    expect(byKey.size).toBe(count(tree.nodes))
  })
})

describe('row actions for some rows only (when:) and their call’s permission', () => {
  const screen = manifest.screens.find((s) => s.name === 'operationAuth') as Manifest['screens'][number]
  const enable = screen.actions?.row?.find((a) => a.name === 'enable')
  const disable = screen.actions?.row?.find((a) => a.name === 'disable')
  const context = (permissions: string[]) => ({
    screen,
    entity: undefined,
    permissions: new Set(permissions),
    endpoint: () => ({ permissions: ['addOperationAuth'] }),
    call: (name: string) => manifest.endpoints.find((e) => e.id === name),
    route: () => undefined,
  })

  it('offers enable only on a disabled role, disable only on an enabled one, and neither without the permission', () => {
    if (!enable || !disable) throw new Error('operationAuth has no enable or disable action')
    expect(conditionHolds(enable.when as never, { status: 0 })).toBe(true)
    expect(actionAllowed(enable, context(['addOperationAuth']), { id: 1, status: 0 })).toBe(true)
    expect(actionAllowed(enable, context(['addOperationAuth']), { id: 1, status: 1 })).toBe(false)
    expect(actionAllowed(enable, context(['myOrders']), { id: 1, status: 0 })).toBe(false)
    expect(actionAllowed(disable, context(['addOperationAuth']), { id: 1, status: 0 })).toBe(false)
    expect(actionAllowed(disable, context(['addOperationAuth']), { id: 1, status: 1 })).toBe(true)
  })
})
