import type { ManifestScreen } from '../../../model/resolve.ts'
import { type ActionContext, type ActionDef, actionAllowed, asList, type RowData } from '../list/actions.ts'
import type { ColumnDef } from '../list/format.ts'
import type { PortalEntity } from '../manifest.ts'

/**
 * The pure part of a detail screen: which fields show where and as what, which of the record's actions
 * the user is offered, and how an audit entry reads. useDetailScreen and DetailScreen only carry it out.
 */

type Entity = Pick<PortalEntity, 'fields' | 'states'>

/** One field of a section: its label key, and how its value shows (a list column: format, link). */
export interface DetailField {
  field: string
  label: string
  column: ColumnDef
  /** Text blocks (shipper, consignee…) keep their line breaks. */
  multiline: boolean
  /** A list of rows (containers…): shown as a small table, one column per item field. */
  rows?: { fields: PortalEntity['fields']; columns: { field: string; label: string; column: ColumnDef }[] }
}

export interface DetailSection {
  title: string
  columns: number
  fields: DetailField[]
}

/** The section title when a detail screen names no sections: one section with every field. */
export const DEFAULT_SECTION_TITLE = 'detail.sectionGeneral'
const DEFAULT_COLUMNS = 3
/** System fields a record always has, with their types (they are not in the entity's fields). */
const SYSTEM_TYPES: Record<string, string> = { createdAt: 'datetime', updatedAt: 'datetime', id: 'integer' }
/** Fields a record carries for the machinery, never worth a line of their own. */
const NOT_SHOWN = new Set(['id', 'version', 'labels', 'history'])

/** The list format a field of this type shows with, when the screen's `columns:` say nothing. */
export function defaultFormat(name: string, entity: Entity | undefined): ColumnDef['format'] {
  if (entity?.states?.field === name) return 'state'
  const type = entity?.fields[name]?.type ?? SYSTEM_TYPES[name]
  switch (type) {
    case 'enum':
    case 'date':
    case 'datetime':
    case 'money':
    case 'number':
    case 'boolean':
      return type
    case 'integer':
      return 'number'
    default:
      return 'text'
  }
}

function fieldOf(name: string, entity: Entity | undefined, override: ColumnDef | undefined): DetailField {
  const def = entity?.fields[name]
  const column: ColumnDef = { ...override, field: name, format: override?.format ?? defaultFormat(name, entity) }
  const items = def?.type === 'array' && def.items ? def.items : undefined
  return {
    field: name,
    label: override?.label ?? def?.label ?? `field.${name}`,
    column,
    multiline: def?.type === 'textBlock' || def?.type === 'richText',
    ...(items
      ? {
          rows: {
            fields: items,
            columns: Object.entries(items).map(([item, itemDef]) => ({
              field: item,
              label: itemDef.label ?? `field.${item}`,
              column: { field: item, format: defaultFormat(item, { fields: items, states: undefined }) },
            })),
          },
        }
      : {}),
  }
}

/**
 * The sections a detail screen shows: its `form.sections` with each field's label and format (the
 * screen's `columns:` entry for the field, else the field's type), or, without sections, one section with
 * every field of the entity.
 */
export function detailSections(
  screen: Pick<ManifestScreen, 'form' | 'columns'>,
  entity: Pick<PortalEntity, 'fields' | 'states'> | undefined,
): DetailSection[] {
  const overrides = new Map((screen.columns ?? []).map((column) => [column.field, column]))
  const sections = screen.form?.sections.length
    ? screen.form.sections
    : [
        {
          title: DEFAULT_SECTION_TITLE,
          columns: DEFAULT_COLUMNS,
          fields: Object.keys(entity?.fields ?? {}).filter((name) => !NOT_SHOWN.has(name)),
        },
      ]
  return sections.map((section) => ({
    title: section.title,
    columns: section.columns ?? DEFAULT_COLUMNS,
    fields: section.fields.map((name) => fieldOf(name, entity, overrides.get(name))),
  }))
}

/** The record id of the address (`?id=12`, as a list's `link:` column writes it); null when there is none. */
export function recordId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null
  const id = Number(raw)
  return id > 0 ? id : null
}

/**
 * The header buttons offered for the record: those of `actions.toolbar` the user may run now, i.e. a
 * transition only when the state machine allows it from the record's state and the user holds both the
 * action's and the transition's permission; a route only when the user may open it. The server checks again.
 */
export function offeredActions(
  actions: readonly ActionDef[] | undefined,
  context: ActionContext,
  record: RowData | null | undefined,
): ActionDef[] {
  if (!record) return []
  return (actions ?? []).filter((action) => actionAllowed(action, context, record))
}

/**
 * The list screens whose link column opens this detail: where "back" goes. A list that opens this detail
 * alone comes before one that names it among alternatives (a list both sides share, like booking forecasts):
 * the operator's order detail goes back to the order list.
 */
export function linkingLists(
  detail: string,
  screens: readonly Pick<ManifestScreen, 'name' | 'kind' | 'columns'>[],
): string[] {
  const rank = (screen: Pick<ManifestScreen, 'columns'>) =>
    (screen.columns ?? []).some((column) => column.link === detail) ? 0 : 1
  return screens
    .filter(
      (screen) =>
        screen.kind === 'list' && (screen.columns ?? []).some((column) => asList(column.link).includes(detail)),
    )
    .sort((a, b) => rank(a) - rank(b))
    .map((screen) => screen.name)
}

/** One audit entry as the detail answer carries it (server/engine/audit.ts HistoryEntry). */
export interface HistoryEntry {
  id: number
  action: 'create' | 'update' | 'delete' | 'transition'
  transition: string | null
  remark: string | null
  userId: number | null
  userName: string | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  at: string
}

/** A field whose value changed: the field, its label, and the values on each side. */
export interface FieldChange {
  field: string
  label: string
  column: ColumnDef
  before: unknown
  after: unknown
}

/** An audit entry ready to draw: who and when, what happened, and what changed. */
export interface HistoryView {
  id: number
  who: string | null
  at: string
  /** A locale key: the transition's label, else detail.created / detail.updated / detail.deleted. */
  what: string
  /** For state changes: the state before and after (state names of the entity's machine). */
  from: string | null
  to: string | null
  remark: string | null
  changes: FieldChange[]
}

const ACTION_KEYS: Record<HistoryEntry['action'], string> = {
  create: 'detail.created',
  update: 'detail.updated',
  delete: 'detail.deleted',
  transition: 'detail.transitioned',
}
/** Bookkeeping every change touches: never shown as "what changed". */
const BOOKKEEPING = new Set(['version', 'updatedAt', 'createdAt', 'createdBy', 'id', 'labels', 'history'])

/** How one audit entry reads: a transition by its label with the states it moved between, an update by its fields. */
export function historyView(
  entry: HistoryEntry,
  entity: Pick<PortalEntity, 'fields' | 'states'> | undefined,
): HistoryView {
  const stateField = entity?.states?.field ?? 'state'
  const transition = entry.transition ? entity?.states?.transitions[entry.transition] : undefined
  const before = entry.before ?? {}
  const after = entry.after ?? {}
  const state = (side: Record<string, unknown>) => {
    const value = side[stateField]
    return value === undefined || value === null ? null : String(value)
  }
  const from = entry.action === 'transition' ? state(before) : null
  const to = entry.action === 'transition' ? (state(after) ?? transition?.to ?? null) : null
  // A creation shows no field list (the record is on the page); an update shows what it changed.
  const changes =
    entry.action === 'update'
      ? Object.keys(after)
          // The state of a machine moves by transitions (from → to above); a state without one is a field like any.
          .filter((field) => !BOOKKEEPING.has(field) && !(entity?.states && field === stateField))
          .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
          .map((field) => {
            const shown = fieldOf(field, entity, undefined)
            return { field, label: shown.label, column: shown.column, before: before[field], after: after[field] }
          })
      : []
  return {
    id: entry.id,
    who: entry.userName ?? (entry.userId !== null ? `#${entry.userId}` : null),
    at: entry.at,
    what: transition?.label ?? ACTION_KEYS[entry.action],
    from,
    to,
    remark: entry.remark,
    changes,
  }
}
