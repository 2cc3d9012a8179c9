import type { AccessDef, ActionDef, PermissionList } from './definitions.ts'
import type { Manifest, ManifestScreen } from './resolve.ts'

/**
 * The permission tree a role's `permissionTree` field is drawn as (issue #21): every route and action of the
 * manifest that a permission gates, grouped as the workbench menu is — area, then its screens in menu order,
 * then the actions of a screen that need a permission of their own (the customer's order export) — and, last,
 * the catalogue's permissions no screen names. Labels are locale keys (the area's, the screen's title, the
 * action's, the permission's). Pure: the generator writes it (generated/permission-tree.json) and the
 * portal's widget only draws it.
 *
 * A node grants its own `permissions`; its state is that of every permission in its subtree (all held:
 * checked, some: mixed), and ticking it adds or removes them all. A permission may sit under two nodes (a
 * screen both sides share): it is one grant, so the two tick together.
 */

export type PermissionSide = NonNullable<AccessDef['permissions'][string]['side']>

export interface PermissionTreeNode {
  /** Unique in the tree: `area:<name>`, `screen:<name>`, `action:<screen>.<action>`, `permission:<name>`. */
  key: string
  /** A locale key. */
  label: string
  /** What ticking this node itself grants (an area grants nothing itself). */
  permissions: string[]
  children: PermissionTreeNode[]
}

export interface PermissionTree {
  nodes: PermissionTreeNode[]
  /** Every permission's side (screens/access.yaml), to draw the tree of a provider or an enterprise role. */
  sides: Record<string, PermissionSide>
}

/** The group of the catalogue's permissions that no screen or action names. */
export const OTHER_GROUP = 'area:otherPermissions'
export const OTHER_LABEL = 'ui.otherPermissions'

type TreeManifest = Pick<Manifest, 'areas' | 'screens' | 'permissions'> & {
  entities: Record<string, { states?: { transitions: Record<string, { permission: string }> } }>
  endpoints: Pick<Manifest['endpoints'][number], 'screens' | 'kind' | 'permissions'>[]
}

const asList = (p: PermissionList | undefined): string[] => (p === undefined ? [] : Array.isArray(p) ? p : [p])

/** The permissions an action needs beyond its screen's: its own, its transition's, its endpoint binding's. */
function actionPermissions(manifest: TreeManifest, screen: ManifestScreen, action: ActionDef): string[] {
  const names = [...asList(action.permission)]
  if (action.transition) {
    const transition = screen.entity
      ? manifest.entities[screen.entity]?.states?.transitions[action.transition]
      : undefined
    if (transition) names.push(transition.permission)
  }
  if (action.endpoint && screen.endpoints?.[action.endpoint]?.permission !== undefined) {
    // Only a binding that names a permission of its own gates the action beyond its screen.
    names.push(...asList(screen.endpoints[action.endpoint]?.permission))
  }
  return [...new Set(names)]
}

export function buildPermissionTree(manifest: TreeManifest): PermissionTree {
  const catalogue = manifest.permissions
  const known = (name: string) => Object.hasOwn(catalogue, name)
  const placed = new Set<string>()
  const nodes: PermissionTreeNode[] = []
  // What the menu's own entries grant: a hidden screen granting only these (a list's detail) adds no node.
  const visible = new Set(
    manifest.screens.filter((s) => s.access === 'permission' && !s.hidden).flatMap((s) => s.permissions),
  )
  for (const area of manifest.areas) {
    const screens = manifest.screens
      .filter((s) => s.area === area.name && s.access === 'permission' && s.permissions.some(known))
      // Visible screens first, in menu order; hidden ones after, folded into a visible screen that grants the same.
      .map((s, index) => ({ s, index }))
      .sort(
        (a, b) =>
          Number(a.s.hidden ?? false) - Number(b.s.hidden ?? false) ||
          (a.s.menu?.order ?? 1000) - (b.s.menu?.order ?? 1000) ||
          a.index - b.index,
      )
      .map(({ s }) => s)
    const children: PermissionTreeNode[] = []
    const inArea = new Set<string>()
    for (const screen of screens) {
      const own = screen.permissions.filter(known)
      const actions: PermissionTreeNode[] = []
      const seen = new Set(own)
      for (const action of [...(screen.actions?.toolbar ?? []), ...(screen.actions?.row ?? [])]) {
        const extra = actionPermissions(manifest, screen, action).filter((p) => known(p) && !seen.has(p))
        if (!extra.length) continue
        for (const p of extra) seen.add(p)
        actions.push({
          key: `action:${screen.name}.${action.name}`,
          label: action.label,
          permissions: extra,
          children: [],
        })
      }
      // A hidden screen whose grants a menu entry shows (a list's detail, here or on the other side's menu)
      // adds nothing of its own.
      if (screen.hidden && !actions.length && own.every((p) => inArea.has(p) || visible.has(p))) continue
      for (const p of seen) {
        inArea.add(p)
        placed.add(p)
      }
      children.push({ key: `screen:${screen.name}`, label: screen.title, permissions: own, children: actions })
    }
    if (children.length) nodes.push({ key: `area:${area.name}`, label: area.label, permissions: [], children })
  }
  const rest = Object.keys(catalogue)
    .filter((p) => !placed.has(p))
    .sort()
  if (rest.length)
    nodes.push({
      key: OTHER_GROUP,
      label: OTHER_LABEL,
      permissions: [],
      children: rest.map((p) => ({
        key: `permission:${p}`,
        label: catalogue[p]?.label ?? p,
        permissions: [p],
        children: [],
      })),
    })
  const sides = Object.fromEntries(
    Object.entries(catalogue)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, p]) => [name, p.side ?? 'any']),
  ) as Record<string, PermissionSide>
  return { nodes, sides }
}

/**
 * The tree of one side's roles: only permissions of that side and of either side; a node left granting
 * nothing, with no children, goes. Without a side, the whole tree.
 */
export function treeForSide(tree: PermissionTree, side: 'provider' | 'enterprise' | undefined): PermissionTreeNode[] {
  if (!side) return tree.nodes
  const keep = (p: string) => tree.sides[p] === side || tree.sides[p] === 'any'
  const prune = (nodes: PermissionTreeNode[]): PermissionTreeNode[] =>
    nodes.flatMap((node) => {
      const permissions = node.permissions.filter(keep)
      const children = prune(node.children)
      return permissions.length || children.length ? [{ ...node, permissions, children }] : []
    })
  return prune(tree.nodes)
}

/** Every permission a node and its descendants grant, each once. */
export function subtreePermissions(node: PermissionTreeNode): string[] {
  const out = new Set(node.permissions)
  for (const child of node.children) for (const p of subtreePermissions(child)) out.add(p)
  return [...out]
}

/** A node's tick: all of its subtree's permissions held, none, or some (a tri-state parent). */
export function nodeState(node: PermissionTreeNode, held: ReadonlySet<string>): boolean | 'mixed' {
  const all = subtreePermissions(node)
  const count = all.filter((p) => held.has(p)).length
  if (count === 0) return false
  return count === all.length ? true : 'mixed'
}

/** The value after ticking (checked) or unticking a node: its whole subtree joins or leaves, sorted. */
export function toggleNode(node: PermissionTreeNode, checked: boolean, value: readonly string[]): string[] {
  const next = new Set(value)
  for (const p of subtreePermissions(node)) {
    if (checked) next.add(p)
    else next.delete(p)
  }
  return [...next].sort()
}

/** Every node by key (the widget finds the node a tick names). */
export function nodesByKey(nodes: readonly PermissionTreeNode[]): Map<string, PermissionTreeNode> {
  const map = new Map<string, PermissionTreeNode>()
  const walk = (list: readonly PermissionTreeNode[]) => {
    for (const node of list) {
      map.set(node.key, node)
      walk(node.children)
    }
  }
  walk(nodes)
  return map
}
