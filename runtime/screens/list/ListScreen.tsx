import {
  Badge,
  Button,
  Dropdown,
  Field,
  Input,
  MessageBar,
  makeStyles,
  mergeClasses,
  Option,
  Select,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title3,
  tokens,
} from '@fluentui/react-components'
import { type ColumnDef as TableColumnDef, tableFeatures, useTable } from '@tanstack/react-table'
import { type FormEvent, lazy, Suspense, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { routes } from '../../../generated/routes.ts'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { withinDays } from '../../../rules/dateSpan.ts'
import { useTenantScreen } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { canOpen } from '../../routing/access.ts'
import { useSession } from '../../session.ts'
import { MenuButton } from '../../shell/MenuButton.tsx'
import { hasLookup } from '../../widgets/lookups.ts'
import { ReferenceCombobox } from '../../widgets/ReferenceCombobox.tsx'
import { FIGURE_CELL, FIGURE_HEAD } from '../detail/styles.ts'
import { LoadFailed } from '../LoadFailed.tsx'
import { codeBeside, entityDef, type PortalEntity, screenEndpoint } from '../manifest.ts'
import { ScreenNotice } from '../ScreenNotice.tsx'
import { cellRoutes, type RowData, routePath } from './actions.ts'
import { ColumnSettings } from './ColumnSettings.tsx'
import { type ColumnDef, cellView, isFigureColumn, refLabel } from './format.ts'
import { ListTabs } from './ListTabs.tsx'
import { type ListState, pageCount, pageSizesOf, type SearchDef, searchKeys } from './listState.ts'
import { type ListController, useListScreen } from './useListScreen.ts'

const EntityFormDialog = lazy(() => import('../form/EntityFormDialog.tsx'))

/** More row actions than this: the first ones as buttons, the rest behind "More" (the column stays narrow). */
const ROW_BUTTONS = 4

/** A row's actions: buttons, and a "More" menu when there are many (role management's copy, assign, status…). */
function RowActions({ list, row, className }: { list: ListController; row: RowData; className: string }) {
  const { t } = useTranslation()
  const actions = list.rowActions(row)
  const split = actions.length > ROW_BUTTONS ? ROW_BUTTONS - 1 : actions.length
  return (
    <div className={className}>
      {actions.slice(0, split).map((action) => (
        <Button key={action.name} size="small" appearance="subtle" onClick={() => void list.run(action, row)}>
          {t(action.label)}
        </Button>
      ))}
      {split < actions.length && (
        <MenuButton
          size="small"
          align="end"
          label={t('ui.more')}
          items={actions.slice(split).map((action) => ({
            key: action.name,
            label: t(action.label),
            onSelect: () => void list.run(action, row),
          }))}
        />
      )}
    </div>
  )
}
const ActionInputDialog = lazy(() => import('./ActionInputDialog.tsx'))
const RevealDialog = lazy(() => import('./RevealDialog.tsx'))
const ImportDialog = lazy(() => import('./ImportDialog.tsx'))

const useStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: '16px' },
  head: { display: 'flex', alignItems: 'center', gap: '12px' },
  tools: { display: 'flex', justifyContent: 'flex-end', gap: '12px', marginBottom: '12px' },
  panel: {
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow2,
    padding: '16px 20px',
  },
  searchGrid: { display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: '12px 16px' },
  // A range takes two of the grid's columns: two date inputs in one column overflowed the panel (and the page).
  rangeField: { gridColumn: 'span 2', minWidth: 0 },
  range: { display: 'flex', gap: '6px', alignItems: 'center' },
  rangeInput: { flex: '1 1 0', minWidth: 0 },
  searchButtons: { display: 'flex', gap: '8px', justifyContent: 'flex-end', marginTop: '12px' },
  tableWrap: { overflowX: 'auto' },
  // A column's name is not broken inside a word (装载类/型, コンテナ/タイプ): it breaks at spaces or not at all, and a
  // table wider than the workbench scrolls sideways.
  table: { width: '100%', tableLayout: 'auto', '& th': { wordBreak: 'keep-all' } },
  actions: { display: 'flex', gap: '4px', flexWrap: 'nowrap', '& > *': { whiteSpace: 'nowrap', flexShrink: 0 } },
  cell: { whiteSpace: 'nowrap' },
  figure: FIGURE_CELL,
  figureHead: FIGURE_HEAD,
  // A row's actions stay in sight at the right while a wide table scrolls under them (/webhookList's were past the
  // card's edge at 1,440 px), over a white of their own. A sticky cell is a layer of its own, so the row whose
  // "More" menu is open is raised over the rows below it, which would cover the menu.
  sticky: {
    position: 'sticky',
    right: 0,
    zIndex: 1,
    ':focus-within': { zIndex: 2 },
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: `-6px 0 6px -6px ${tokens.colorNeutralShadowAmbient}`,
  },
  empty: { padding: '32px', textAlign: 'center', color: tokens.colorNeutralForeground3 },
  pager: { display: 'flex', alignItems: 'center', gap: '12px', justifyContent: 'flex-end', marginTop: '12px' },
  link: { color: tokens.colorBrandForeground1, textDecoration: 'none', ':hover': { textDecoration: 'underline' } },
})

const features = tableFeatures({})
/** The column of a row's actions. */
const ACTIONS = '__actions'

function fieldLabel(entity: PortalEntity | undefined, field: string, explicit?: string): string {
  return explicit ?? entity?.fields[field]?.label ?? `field.${field}`
}

/** One search input, chosen by operator and field type (SPEC §3 list search fields). */
function SearchInput({
  def,
  entity,
  draft,
  onChange,
}: {
  def: SearchDef
  entity: PortalEntity | undefined
  draft: ListState['search']
  onChange: (key: string, value: string | string[]) => void
}) {
  const styles = useStyles()
  const { t } = useTranslation()
  const field = entity?.fields[def.field]
  const label = t(fieldLabel(entity, def.field, def.label))
  const [first = def.field, second = def.field] = searchKeys(def)
  const one = (key: string) => {
    const value = draft[key]
    return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
  }

  if (def.op === 'dateRange' || def.op === 'between') {
    const type = def.op === 'dateRange' ? 'date' : 'text'
    // A window of at most maxDays (the sailing schedules' departure window), held before the search is asked.
    const tooLong = !rangeWithin(def, draft)
    return (
      <Field
        label={label}
        className={styles.rangeField}
        {...(tooLong
          ? { validationState: 'error' as const, validationMessage: t('validation.dateSpan', { limit: def.maxDays }) }
          : {})}
      >
        <div className={styles.range}>
          <Input
            className={styles.rangeInput}
            type={type}
            aria-label={`${label} ${t('ui.dateFrom')}`}
            value={one(first)}
            onChange={(_, data) => onChange(first, data.value)}
          />
          <span>–</span>
          <Input
            className={styles.rangeInput}
            type={type}
            aria-label={`${label} ${t('ui.dateTo')}`}
            value={one(second)}
            onChange={(_, data) => onChange(second, data.value)}
          />
        </div>
      </Field>
    )
  }

  const options =
    field?.type === 'enum'
      ? (field.values ?? []).map((v) => ({ value: String(v.value), label: t(v.label) }))
      : field?.type === 'boolean'
        ? [
            { value: 'true', label: t('ui.yes') },
            { value: 'false', label: t('ui.no') },
          ]
        : null

  if (options && def.op === 'in') {
    const selected = (() => {
      const value = draft[first]
      return Array.isArray(value) ? value : value ? [value] : []
    })()
    return (
      <Field label={label}>
        <Dropdown
          multiselect
          aria-label={label}
          placeholder={t('ui.all')}
          selectedOptions={selected}
          value={options
            .filter((o) => selected.includes(o.value))
            .map((o) => o.label)
            .join(', ')}
          onOptionSelect={(_, data) => onChange(first, data.selectedOptions)}
        >
          {options.map((o) => (
            <Option key={o.value} value={o.value}>
              {o.label}
            </Option>
          ))}
        </Dropdown>
      </Field>
    )
  }
  // A reference (port, carrier, customer company…): searched on the server as the user types, in the field's
  // own look-up where it names one (a salesman among the staff).
  const lookup = field?.lookup ?? field?.ref
  if (field?.type === 'ref' && lookup && hasLookup(lookup) && (def.op === 'eq' || def.op === 'in')) {
    const value = draft[first]
    const values = Array.isArray(value) ? value : value ? [value] : []
    return (
      <Field label={label}>
        <ReferenceCombobox
          entity={lookup}
          multiple={def.op === 'in'}
          values={values}
          label={label}
          placeholder={t('ui.all')}
          onChange={(next) => onChange(first, def.op === 'in' ? next : (next[0] ?? ''))}
        />
      </Field>
    )
  }
  if (options) {
    return (
      <Field label={label}>
        <Select value={one(first)} onChange={(_, data) => onChange(first, data.value)}>
          <option value="">{t('ui.all')}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </Field>
    )
  }
  return (
    <Field label={label}>
      <Input
        type={field?.type === 'integer' || field?.type === 'number' ? 'number' : 'text'}
        value={one(first)}
        onChange={(_, data) => onChange(first, data.value)}
      />
    </Field>
  )
}

/** Whether a dateRange search with maxDays spans no more than that in the draft (rules/dateSpan.ts, as the engine). */
function rangeWithin(def: SearchDef, draft: ListState['search']): boolean {
  if (def.op !== 'dateRange' || !def.maxDays) return true
  const [begin = '', end = ''] = searchKeys(def).map((key) => {
    const value = draft[key]
    return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
  })
  return withinDays(begin, end, def.maxDays)
}

function SearchForm({ list }: { list: ListController }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const [draft, setDraft] = useState<ListState['search']>(list.state.search)
  const defs = list.screen.search ?? []
  if (!defs.length) return null
  const submit = (event: FormEvent) => {
    event.preventDefault()
    // The field says what is wrong (SearchInput); the server would refuse the same range.
    if (defs.every((def) => rangeWithin(def, draft))) list.search(draft)
  }
  return (
    // A search landmark: screen readers list it beside the page's main and menus.
    <search className={styles.panel} aria-label={t('ui.search')}>
      <form onSubmit={submit}>
        <div className={styles.searchGrid}>
          {defs.map((def) => (
            <SearchInput
              key={`${def.field}-${def.op}`}
              def={def}
              entity={list.entity}
              draft={draft}
              onChange={(key, value) => setDraft((current) => ({ ...current, [key]: value }))}
            />
          ))}
        </div>
        <div className={styles.searchButtons}>
          <Button type="submit" appearance="primary">
            {t('ui.search')}
          </Button>
          <Button
            type="button"
            onClick={() => {
              setDraft({})
              list.reset()
            }}
          >
            {t('ui.reset')}
          </Button>
        </div>
      </form>
    </search>
  )
}

function Cell({ list, column, row }: { list: ListController; column: ColumnDef; row: RowData }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const session = useSession()
  const label = refLabel(row, column.field, list.entity, codeBeside)
  const view = cellView(row[column.field], column, list.entity, label, i18n.language)
  const content =
    view.kind === 'text' && view.hint ? (
      <span title={view.hint} data-code={view.hint}>
        {view.text}
      </span>
    ) : view.kind === 'badge' ? (
      <Badge appearance="tint" color={view.color}>
        {t(view.key)}
      </Badge>
    ) : view.kind === 'label' ? (
      t(view.key)
    ) : view.kind === 'labels' ? (
      view.keys.map((key) => t(key)).join(', ')
    ) : (
      view.text
    )
  const target = cellRoutes(column, row)
    .map((name) => routes.find((route) => route.name === name))
    .find((route) => route !== undefined && canOpen(route, session.permissions))
  // The query the link carries (column.linkQuery, parameter → the row's field; { id: id } unless it says).
  const query = Object.entries(column.linkQuery ?? { id: 'id' }).map(([name, field]) => [name, row[field]] as const)
  if (target && query.every(([, value]) => value !== undefined && value !== null && value !== '')) {
    const search = new URLSearchParams(query.map(([name, value]) => [name, String(value)])).toString()
    return (
      <RouterLink className={styles.link} to={`${routePath(target.path, column.routeParams)}?${search}`}>
        {content}
      </RouterLink>
    )
  }
  return <>{content}</>
}

function ResultsTable({ list }: { list: ListController }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const hasRowActions = (list.screen.actions?.row ?? []).length > 0
  const columns = useMemo<TableColumnDef<typeof features, RowData>[]>(() => {
    const data: TableColumnDef<typeof features, RowData>[] = list.visibleColumns.map((column) => ({
      id: column.field,
      accessorFn: (row: RowData) => row[column.field],
      header: () => t(fieldLabel(list.entity, column.field, column.label)),
      cell: ({ row }) => <Cell list={list} column={column} row={row.original} />,
    }))
    if (!hasRowActions) return data
    return [
      ...data,
      {
        id: ACTIONS,
        header: () => t('ui.actions'),
        cell: ({ row }) => <RowActions list={list} row={row.original} className={styles.actions} />,
      },
    ]
  }, [list, t, hasRowActions, styles.actions])

  const table = useTable({
    features,
    columns,
    data: list.rows,
    getRowId: (row, index) => String(row.id ?? index),
  })
  // The browser sizes columns to their content; the YAML widths are floors (at 60 %), so a narrow
  // workbench scrolls sideways rather than cutting dates and badges short.
  const minWidth = new Map<string, number>((list.screen.columns ?? []).map((c) => [c.field, (c.width ?? 120) * 0.6]))
  const sortable = new Set((list.screen.columns ?? []).filter((c) => c.sortable).map((c) => c.field))
  const figures = new Set(list.visibleColumns.filter((c) => isFigureColumn(c, list.entity)).map((c) => c.field))

  return (
    <div className={styles.tableWrap}>
      <Table className={styles.table} size="small" aria-label={t(list.screen.title)} aria-busy={list.fetching}>
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => {
                const id = header.column.id
                const direction = list.state.sort?.field === id ? list.state.sort.order : undefined
                return (
                  <TableHeaderCell
                    key={header.id}
                    style={{ minWidth: minWidth.get(id) }}
                    sortable={sortable.has(id)}
                    sortDirection={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
                    onClick={sortable.has(id) ? () => list.toggleSort(id) : undefined}
                    className={id === ACTIONS ? styles.sticky : figures.has(id) ? styles.figureHead : undefined}
                    button={figures.has(id) ? { className: styles.figureHead } : undefined}
                  >
                    <table.FlexRender header={header} />
                  </TableHeaderCell>
                )
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.map((row) => (
            <TableRow key={row.id}>
              {row.getAllCells().map((cell) => (
                <TableCell
                  key={cell.id}
                  className={
                    cell.column.id === ACTIONS
                      ? styles.sticky
                      : mergeClasses(styles.cell, figures.has(cell.column.id) && styles.figure)
                  }
                >
                  <table.FlexRender cell={cell} />
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {list.status === 'ready' && list.rows.length === 0 && <div className={styles.empty}>{t('ui.noData')}</div>}
    </div>
  )
}

function Pager({ list }: { list: ListController }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const pages = pageCount(list.total, list.state.pageSize)
  const page = list.state.pageNum
  return (
    <nav className={styles.pager} aria-label={t('ui.pagination')}>
      <Text>{t('ui.total', { total: list.total })}</Text>
      <Select
        aria-label={t('ui.pageSizeLabel')}
        value={String(list.state.pageSize)}
        onChange={(_, data) => list.setPageSize(Number(data.value))}
      >
        {pageSizesOf(list.screen).map((size) => (
          <option key={size} value={size}>
            {t('ui.pageSize', { size })}
          </option>
        ))}
      </Select>
      <Button size="small" disabled={page <= 1} onClick={() => list.setPage(page - 1)}>
        {t('ui.prevPage')}
      </Button>
      <Text>{t('ui.page', { page, pages })}</Text>
      <Button size="small" disabled={page >= pages} onClick={() => list.setPage(page + 1)}>
        {t('ui.nextPage')}
      </Button>
    </nav>
  )
}

function GenericList({ screen, entity }: { screen: ManifestScreen; entity?: PortalEntity }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const list = useListScreen(screen, entity)
  return (
    <div className={styles.screen}>
      <div className={styles.head}>
        <Title3 as="h1">{t(screen.title)}</Title3>
        {list.fetching && <Spinner size="extra-tiny" aria-label={t('ui.loading')} />}
      </div>
      <ScreenNotice screen={screen} />
      {/* A new address (Back, a link) starts the search form again from it. */}
      <SearchForm key={JSON.stringify(list.state.search)} list={list} />
      <div className={styles.panel}>
        <ListTabs list={list} />
        {/* Over the results they act on, after the search: the skip link's next Tab is the search (#18). */}
        <div className={styles.tools}>
          <ColumnSettings
            choices={list.columnChoices}
            entity={list.entity}
            labels={Object.fromEntries((screen.columns ?? []).map((c) => [c.field, c.label]))}
            onChange={(choices) => void list.saveColumns(choices)}
            onReset={() => void list.resetColumns()}
          />
          {list.toolbarActions.map((action) => {
            // The export under way says how far it has got, and is not started twice.
            const busy = action.endpoint === 'export' && list.exporting !== null
            return (
              <Button
                key={action.name}
                appearance="primary"
                disabledFocusable={busy}
                icon={busy ? <Spinner size="tiny" /> : undefined}
                onClick={() => void list.run(action)}
              >
                {busy && list.exporting?.total
                  ? t('ui.exporting', {
                      written: list.exporting.written.toLocaleString(i18n.language),
                      total: list.exporting.total.toLocaleString(i18n.language),
                    })
                  : t(action.label)}
              </Button>
            )
          })}
        </div>
        {list.status === 'loading' && <Spinner label={t('ui.loading')} />}
        {list.status === 'error' && (
          <LoadFailed message={list.error?.message} fallback="ui.loadFailed" retry={() => void list.reload()} />
        )}
        {list.status === 'ready' && (
          <>
            <ResultsTable list={list} />
            <Pager list={list} />
          </>
        )}
      </div>
      {list.editing && list.entity && (
        <Suspense fallback={null}>
          <EntityFormDialog
            key={list.editing.key}
            open={list.editing.open}
            screen={screen}
            entity={list.entity}
            mode={list.editing.action.endpoint === 'create' ? 'create' : 'update'}
            title={t(list.editing.action.label)}
            row={list.editing.row}
            onClose={(saved) => list.closeEditing(saved)}
          />
        </Suspense>
      )}
      {list.calling?.input && (
        <Suspense fallback={null}>
          <ActionInputDialog
            key={list.calling.key}
            open={list.calling.open}
            title={t(list.calling.action.label)}
            entity={list.calling.input}
            row={list.calling.row ?? {}}
            asks={list.calling.action.asks}
            onSubmit={(values) => list.submitCalling(values)}
            onClose={() => list.closeCalling()}
          />
        </Suspense>
      )}
      {list.revealed && (
        <Suspense fallback={null}>
          <RevealDialog
            key={list.revealed.key}
            open={list.revealed.open}
            title={t(list.revealed.title)}
            value={list.revealed.value}
            onClose={() => list.closeRevealed()}
          />
        </Suspense>
      )}
      {list.importing && (
        <Suspense fallback={null}>
          <ImportDialog
            key={list.importing.key}
            open={list.importing.open}
            title={t(list.importing.action.label)}
            path={list.importing.path}
            asks={entityDef(screenEndpoint(screen, 'import')?.input)}
            sheets={screenEndpoint(screen, 'import')?.sheets !== undefined}
            onClose={(imported) => list.closeImporting(imported)}
          />
        </Suspense>
      )}
    </div>
  )
}

/** `kind: list` (DESIGN §4): the manifest screen of the route as the tenant's overlay has it, drawn generically. */
export default function ListScreen({ route }: ScreenProps) {
  const { t } = useTranslation()
  const { ready, screen, entity } = useTenantScreen(route.name)
  if (!ready) return <Spinner />
  if (!screen?.columns) return <MessageBar intent="warning">{t('ui.screenMissing', { name: route.name })}</MessageBar>
  return <GenericList screen={screen} entity={entity} />
}
