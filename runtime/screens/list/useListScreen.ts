import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { routes } from '../../../generated/routes.ts'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { RequestError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import { downloadFrom, exportFrom, refusalText } from '../../download.ts'
import { useEffects } from '../../effects.tsx'
import { quietClient } from '../../quietClient.ts'
import { HEADER_COUNTS_KEY } from '../../routing/menus.ts'
import { reloadSession, useSession } from '../../session.ts'
import {
  clientCall,
  engineCall,
  entityDef,
  namedEndpoint,
  type PortalEntity,
  screenEndpoint,
  transitionCall,
} from '../manifest.ts'
import {
  type ActionContext,
  type ActionDef,
  actionAllowed,
  confirmKey,
  openedAddress,
  type RowData,
  revealedText,
  routeTarget,
} from './actions.ts'
import { useDialogState } from './dialogState.ts'
import {
  type ListState,
  readListState,
  sameSearch,
  searchKeys,
  toListRequest,
  withPage,
  withPageSize,
  withSearch,
  withSortToggled,
  writeListState,
} from './listState.ts'

/** One column as the user arranged it. */
export interface ColumnChoice {
  field: string
  hidden?: boolean
}

/**
 * The screen's columns in the user's order, with their hidden flags: columns the user never arranged (new
 * ones, say) keep their place after the arranged ones; settings for columns the screen no longer has
 * (or a tenant overlay hides) are dropped.
 */
export function arrangeColumns(columns: readonly { field: string }[], chosen: readonly ColumnChoice[]): ColumnChoice[] {
  const present = new Set(columns.map((c) => c.field))
  const arranged = chosen.filter((c) => present.has(c.field))
  const named = new Set(arranged.map((c) => c.field))
  return [...arranged, ...columns.filter((c) => !named.has(c.field)).map((c) => ({ field: c.field }))]
}

/** A fresh name for an export to follow (random hex: crypto.randomUUID needs a secure context). */
const exportId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')

/** An open create/update form over the list. */
export interface Editing {
  action: ActionDef
  row?: RowData
}

/**
 * The controller of a generic list screen (STYLE §2): URL-driven search, paging and sort, the list
 * query, the permitted actions and running them. No markup: ListScreen.tsx draws what this returns.
 */
export function useListScreen(screen: ManifestScreen, tenantEntity?: PortalEntity) {
  const client = useClient()
  const effects = useEffects()
  const session = useSession()
  const queryClient = useQueryClient()
  const { t, i18n } = useTranslation()
  const [params, setParams] = useSearchParams()
  const editing = useDialogState<Editing>()
  const { show: edit } = editing
  const importing = useDialogState<ActionDef>()
  const { show: importWith } = importing
  // A row action that calls a hand-written endpoint and asks for something first (its input's dialog).
  const calling = useDialogState<Editing>()
  const { show: askFor, close: closeCalling } = calling
  // What a call answered to be shown once (`reveals:`, an API key's secret), and the action's label.
  const revealed = useDialogState<{ title: string; value: string }>()
  const { show: reveal } = revealed
  // The export under way: rows the server has written of its total (asked while the file streams down).
  const [exporting, setExporting] = useState<{ written: number; total: number } | null>(null)
  const exportingRef = useRef(false)
  // The tenant's view of the entity (an overlay's labels, defaults and rules), else the manifest's.
  const entity = tenantEntity ?? entityDef(screen.entity)

  const address = params.toString()
  const state = useMemo(() => readListState(screen, new URLSearchParams(address)), [screen, address])
  const request = useMemo(() => toListRequest(screen, state), [screen, state])
  const listKey = useMemo(() => ['list', screen.name] as const, [screen.name])

  const query = useQuery({
    // The rows' labels (port and company names) are in the caller's language: a switch asks again.
    queryKey: [...listKey, request, i18n.language],
    queryFn: async ({ signal }) => {
      const call = engineCall(client, screen.endpoints?.list, 'list')
      if (!call) throw new Error(`The generated client has no call for ${screen.name}'s list: run \`waybill generate\``)
      return (await call(request, signal)).content
    },
    placeholderData: keepPreviousData,
    // A failed list call has been toasted already; asking again would toast twice.
    retry: false,
  })

  const go = useCallback(
    (next: ListState, replace = false) => setParams(writeListState(screen, next), { replace }),
    [screen, setParams],
  )

  const actionContext: ActionContext = useMemo(
    () => ({
      screen,
      entity,
      permissions: session.permissions,
      endpoint: (kind) => screenEndpoint(screen, kind),
      call: (name) => namedEndpoint(name),
      route: (name) => routes.find((route) => route.name === name),
    }),
    [screen, entity, session.permissions],
  )

  const toolbarActions = useMemo(
    () => (screen.actions?.toolbar ?? []).filter((action) => actionAllowed(action, actionContext)),
    [screen, actionContext],
  )
  const rowActions = useCallback(
    (row: RowData) => (screen.actions?.row ?? []).filter((action) => actionAllowed(action, actionContext, row)),
    [screen, actionContext],
  )

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: listKey }), [queryClient, listKey])

  // The user's own columns (order, hidden), kept on the server so they follow them to any browser.
  const settingsKey = useMemo(() => ['listColumns', screen.name] as const, [screen.name])
  const settings = useQuery({
    queryKey: settingsKey,
    queryFn: async ({ signal }) =>
      (await client.b2b.listColumnsGet({ screen: screen.name }, signal)).content.columns ?? [],
    enabled: session.loggedIn,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
  const columnChoices = useMemo(
    () => arrangeColumns(screen.columns ?? [], settings.data ?? []),
    [screen, settings.data],
  )
  const saveColumns = useCallback(
    async (columns: ColumnChoice[]) => {
      const stored = columns.map((c) => ({ field: c.field, ...(c.hidden ? { hidden: true } : {}) }))
      queryClient.setQueryData(settingsKey, stored)
      await client.b2b.listColumnsSave({ screen: screen.name, columns: stored }).catch(() => undefined)
    },
    [client, queryClient, screen.name, settingsKey],
  )
  const resetColumns = useCallback(async () => {
    queryClient.setQueryData(settingsKey, [])
    await client.b2b.listColumnsSave({ screen: screen.name, columns: [] }).catch(() => undefined)
  }, [client, queryClient, screen.name, settingsKey])
  const visibleColumns = useMemo(
    () =>
      columnChoices
        .filter((c) => !c.hidden)
        .map((c) => (screen.columns ?? []).find((column) => column.field === c.field))
        .filter((column) => column !== undefined),
    [columnChoices, screen],
  )

  /**
   * A hand-written call: a row action's with the row's id and version, the action's fixed values and what was
   * asked for; a list toolbar's with what its dialog asked. What the answer `reveals:` is shown once.
   */
  const callRow = useCallback(
    async (action: ActionDef, row: RowData | undefined, input: Record<string, unknown>) => {
      const call = clientCall(client, namedEndpoint(action.call))
      if (!call) return
      const answer = await call({ ...input, ...action.values, ...(row ? { id: row.id, version: row.version } : {}) })
      if (action.reveals) {
        const value = revealedText(action, answer.content, window.location.origin)
        // The input dialog (a new key's name) gives way to the secret.
        closeCalling()
        if (value !== undefined) reveal({ title: action.label, value })
        await reload()
        return
      }
      // An action that opens the row's record (a letter read, then its order) goes there; the rest stay.
      const address = row ? openedAddress(action, row) : undefined
      if (address) {
        effects.navigate(address)
        return
      }
      effects.toast(t('ui.actionDone'), { intent: 'success' })
      await reload()
    },
    [client, closeCalling, effects, reload, reveal, t],
  )

  /**
   * A toolbar download (a customer's statement): the file of what the list is searched by — the search values
   * its query takes — and what the action's dialog asked; a refusal is shown in the reader's language.
   */
  const downloadOfList = useCallback(
    async (action: ActionDef, asked: Record<string, unknown>) => {
      const endpoint = namedEndpoint(action.download)
      if (!endpoint) return
      const takes = entityDef(endpoint.entity)?.fields ?? {}
      const searched = Object.entries(request.searchParams ?? {}).filter(
        ([key, value]) => key in takes && value !== undefined && value !== '' && !Array.isArray(value),
      )
      const query = Object.fromEntries(
        [...searched, ...Object.entries(asked)].filter(([, value]) => value !== undefined && value !== ''),
      )
      try {
        await downloadFrom(endpoint.path, query, `${action.name}.pdf`)
      } catch (error) {
        effects.toast(refusalText(error), { intent: 'error' })
        throw error
      }
    },
    [effects, request],
  )

  /** Runs an action: asks first when it has a confirm text, then calls, opens or navigates. */
  const run = useCallback(
    async (action: ActionDef, row?: RowData) => {
      const confirm = confirmKey(action, entity)
      if (confirm && !(await effects.confirm({ title: t(action.label), body: t(confirm) }))) return
      if (action.route) {
        const route = routes.find((r) => r.name === action.route)
        if (route) effects.navigate(routeTarget(route.path, action, row?.id))
        return
      }
      if (action.download && !row) {
        if (action.input) askFor({ action })
        else await downloadOfList(action, {}).catch(() => undefined) // toasted
        return
      }
      if (action.call && !action.transition && (row || action.input)) {
        if (action.input) {
          askFor({ action, row })
          return
        }
        if (row) await callRow(action, row, {}).catch(() => undefined) // toasted by the client
        return
      }
      if (action.transition && row) {
        const call = transitionCall(client, screen.entity, action)
        if (!call) return
        const done = await call(row)
          .then(() => effects.toast(t('ui.actionDone'), { intent: 'success' }))
          .then(() => true)
          .catch(() => false) // toasted by the client
        // Whom the user acts for changed: menus and permissions follow now, not at the next page load.
        if (done && action.reloadsSession) await reloadSession(queryClient)
        // A state change may move a count the top bar shows (operating orders awaiting approval).
        await Promise.all([reload(), queryClient.invalidateQueries({ queryKey: HEADER_COUNTS_KEY })])
        return
      }
      if (action.endpoint === 'create' || action.endpoint === 'update') {
        edit({ action, row })
        return
      }
      if (action.endpoint === 'import') {
        importWith(action)
        return
      }
      if (action.endpoint === 'export') {
        const endpoint = screen.endpoints?.export
        if (!endpoint || exportingRef.current) return
        exportingRef.current = true
        // What the user sees: the current filters and sort, their columns in their order, every page.
        const { pageNum: _pageNum, pageSize: _pageSize, ...filters } = request as Record<string, unknown>
        const progressId = exportId()
        setExporting({ written: 0, total: 0 })
        // While the .xlsx streams down, the server says how many rows it has written (decisions: #24).
        const poll = setInterval(() => {
          quietClient.b2b
            .exportProgress({ progressId })
            .then(({ content }) => {
              if (content.known && exportingRef.current)
                setExporting({ written: content.written, total: content.total })
            })
            .catch(() => undefined)
        }, 700)
        try {
          const rows = await exportFrom(
            endpoint,
            { ...filters, columns: visibleColumns.map((c) => c.field), progressId },
            `${screen.name}.xlsx`,
          )
          effects.toast(t('ui.exported', { count: rows }), { intent: 'success' })
        } catch (error) {
          const refused = error instanceof RequestError ? error : null
          effects.toast(refused?.fieldErrors[0]?.message ?? refused?.message ?? t('ui.loadFailed'), {
            intent: 'error',
          })
        } finally {
          clearInterval(poll)
          exportingRef.current = false
          setExporting(null)
        }
        return
      }
      if (action.endpoint === 'delete' && row) {
        const call = clientCall(client, screen.endpoints?.delete)
        if (!call) return
        await call({ id: row.id, version: row.version })
          .then(() => effects.toast(t('ui.actionDone'), { intent: 'success' }))
          .catch(() => undefined)
        await reload()
      }
    },
    [
      client,
      effects,
      entity,
      reload,
      screen,
      t,
      request,
      visibleColumns,
      callRow,
      downloadOfList,
      queryClient,
      askFor,
      edit,
      importWith,
    ],
  )

  // A tabbed list (SPEC §4): the search key of the tabs' field, and the tab the address holds.
  const tabKey = useMemo(() => {
    const def = screen.tabs && (screen.search ?? []).find((d) => d.field === screen.tabs?.field)
    return def ? searchKeys(def)[0] : undefined
  }, [screen])
  const chosen = tabKey ? state.search[tabKey] : undefined
  const chosenOne = Array.isArray(chosen) ? (chosen.length === 1 ? chosen[0] : undefined) : chosen
  const tab = chosenOne && screen.tabs?.values.includes(chosenOne) ? chosenOne : 'all'

  return {
    screen,
    entity,
    state,
    /** The tab chosen ('all' unless the search holds one of the tabs' values) and the counts by tab. */
    tab,
    tabCounts: query.data?.tabs,
    chooseTab(value: string) {
      if (!tabKey) return
      const { [tabKey]: _, ...others } = state.search
      go(withSearch(state, value === 'all' ? others : { ...others, [tabKey]: [value] }))
    },
    rows: query.data?.list ?? [],
    total: query.data?.total ?? 0,
    status: query.isPending ? ('loading' as const) : query.isError ? ('error' as const) : ('ready' as const),
    fetching: query.isFetching,
    error: query.error,
    /** SPEC §4: new filters go back to page 1; the same filters on page 1 load again. */
    search(values: ListState['search']) {
      if (sameSearch(values, state.search) && state.pageNum === 1) void query.refetch()
      else go(withSearch(state, values))
    },
    reset() {
      go(withSearch({ ...state, sort: null }, {}))
    },
    setPage(pageNum: number) {
      go(withPage(state, pageNum))
    },
    setPageSize(pageSize: number) {
      go(withPageSize(state, pageSize))
    },
    toggleSort(field: string) {
      go(withSortToggled(state, field))
    },
    reload,
    toolbarActions,
    rowActions,
    /** The export under way (rows written of the total), else null. */
    exporting,
    /** Every column of the screen with the user's order and hidden flags; the table draws visibleColumns. */
    columnChoices,
    visibleColumns,
    saveColumns,
    resetColumns,
    run,
    /** The create or update action whose form dialog is open or closing (mounted until closed: ./dialogState.ts). */
    editing: editing.shown ? { ...editing.shown, open: editing.open, key: editing.key } : null,
    closeEditing(saved: boolean) {
      editing.close()
      if (saved) void reload()
    },
    /**
     * The action whose input dialog is shown, with the entity it asks for; `open` false while it closes (it stays
     * mounted: ./dialogState.ts), `key` new at each showing.
     */
    calling: calling.shown?.action.input
      ? { ...calling.shown, input: entityDef(calling.shown.action.input), open: calling.open, key: calling.key }
      : null,
    /** Sends the input dialog's values with the row; the dialog closes once the call succeeded. */
    async submitCalling(values: Record<string, unknown>) {
      const asked = calling.shown
      if (!asked || !calling.open) return
      if (asked.action.download) await downloadOfList(asked.action, values)
      else await callRow(asked.action, asked.row, values)
      closeCalling()
    },
    closeCalling() {
      closeCalling()
    },
    /**
     * What a call answered to be shown this once (`reveals:`), while its dialog is open or closing; closed, the
     * value is forgotten at once.
     */
    revealed: revealed.shown ? { ...revealed.shown, open: revealed.open, key: revealed.key } : null,
    closeRevealed() {
      revealed.close((shown) => ({ ...shown, value: '' }))
    },
    /** The import action whose upload dialog is open, and the import endpoint's path. */
    importing:
      importing.shown && screen.endpoints?.import
        ? { action: importing.shown, path: screen.endpoints.import.path, open: importing.open, key: importing.key }
        : null,
    closeImporting(imported: boolean) {
      importing.close()
      if (imported) void reload()
    },
  }
}

export type ListController = ReturnType<typeof useListScreen>
