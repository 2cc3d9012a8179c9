import {
  makeStyles,
  Spinner,
  Tree,
  type TreeCheckedChangeData,
  TreeItem,
  TreeItemLayout,
  type TreeOpenChangeData,
  tokens,
} from '@fluentui/react-components'
import type { WidgetProps } from '@rjsf/utils'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  nodeState,
  nodesByKey,
  type PermissionTree,
  type PermissionTreeNode,
  toggleNode,
  treeForSide,
} from '../../model/permissionTree.ts'

/**
 * The `permissionTree` field (issue #21): the permissions a role holds, drawn as the workbench menu's tree
 * (area → screen → actions) that the generator built from the manifest (generated/permission-tree.json,
 * model/permissionTree.ts). Ticking a group ticks everything under it; a group with some ticked shows mixed.
 * A field's `sideField` (the record's companyUserType: 1 provider, 2 enterprise) limits the tree to that
 * side's permissions. The value is the sorted list of permission names; the validator checks each against
 * the catalogue here and on the server.
 */

const useStyles = makeStyles({
  box: {
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '6px',
    maxHeight: '420px',
    overflowY: 'auto',
  },
})

let loaded: Promise<PermissionTree> | null = null
/** Loaded with the first form that has such a field, once per page. */
function loadTree(): Promise<PermissionTree> {
  loaded ??= import('../../generated/permission-tree.json').then((m) => m.default as unknown as PermissionTree)
  return loaded
}

const SIDES: Record<string, 'provider' | 'enterprise'> = { '1': 'provider', '2': 'enterprise' }

export function PermissionTreeWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const [tree, setTree] = useState<PermissionTree | null>(null)
  const [open, setOpen] = useState<Set<string>>(new Set())
  useEffect(() => {
    let live = true
    void loadTree().then((data) => live && setTree(data))
    return () => {
      live = false
    }
  }, [])
  const sideField = props.options.sideField as string | undefined
  const formData = (props.registry.formContext as { formData?: Record<string, unknown> } | undefined)?.formData
  const side = sideField ? SIDES[String(formData?.[sideField] ?? '')] : undefined
  const nodes = useMemo(() => (tree ? treeForSide(tree, side) : []), [tree, side])
  const byKey = useMemo(() => nodesByKey(nodes), [nodes])
  const value = useMemo(() => (Array.isArray(props.value) ? (props.value as string[]) : []), [props.value])
  const held = useMemo(() => new Set(value), [value])
  const checkedItems = useMemo(
    () => [...byKey.values()].map((node) => [node.key, nodeState(node, held)] as [string, boolean | 'mixed']),
    [byKey, held],
  )
  const readOnly = props.disabled || props.readonly
  // A side changed in the form drops the other side's names: the tree no longer shows them to untick. (A role
  // as loaded keeps what it holds: the system administrator's "*" spans both sides.)
  const { onChange } = props
  const loadedSide = useRef(side)
  useEffect(() => {
    if (!tree || !side || readOnly || side === loadedSide.current) return
    const kept = value.filter((p) => tree.sides[p] === side || tree.sides[p] === 'any')
    if (kept.length !== value.length) onChange(kept)
  }, [tree, side, value, readOnly, onChange])

  if (!tree) return <Spinner size="tiny" label={t('ui.loading')} />

  const onChecked = (_event: unknown, data: TreeCheckedChangeData) => {
    if (readOnly) return
    const node = byKey.get(String(data.value))
    if (!node) return
    props.onChange(toggleNode(node, data.checked === true, value))
  }
  const onOpen = (_event: unknown, data: TreeOpenChangeData) => setOpen(new Set([...data.openItems].map(String)))

  const draw = (node: PermissionTreeNode) => (
    <TreeItem key={node.key} value={node.key} itemType={node.children.length ? 'branch' : 'leaf'}>
      <TreeItemLayout>{t(node.label)}</TreeItemLayout>
      {node.children.length ? <Tree>{node.children.map(draw)}</Tree> : null}
    </TreeItem>
  )

  return (
    <div className={styles.box}>
      <Tree
        id={props.id}
        aria-label={props.label ? t(props.label) : undefined}
        selectionMode="multiselect"
        checkedItems={checkedItems}
        onCheckedChange={onChecked}
        openItems={open}
        onOpenChange={onOpen}
      >
        {nodes.map(draw)}
      </Tree>
    </div>
  )
}
