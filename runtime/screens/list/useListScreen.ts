import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { ListContent } from '../../../generated/client.ts'
import { routes } from '../../../generated/routes.ts'
import type { ManifestScreen } from '../../../generator/resolve.ts'
import { useClient } from '../../client.tsx'
import { useEffects } from '../../effects.tsx'
import { useSession } from '../../session.ts'
import { clientCall, entityDef, screenEndpoint, transitionEndpoint } from '../manifest.ts'
import { type ActionContext, type ActionDef, actionAllowed, confirmKey, type RowData } from './actions.ts'
import {
  type ListState,
  readListState,
  sameSearch,
  toListRequest,
  withPage,
  withPageSize,
  withSearch,
  withSortToggled,
  writeListState,
} from './listState.ts'

/** An open create/update form over the list. */
export interface Editing {
  action: ActionDef
  row?: RowData
}

/**
 * The controller of a generic list screen (STYLE §2): URL-driven search, paging and sort, the list
 * query, the permitted actions and running them. No markup: ListScreen.tsx draws what this returns.
 */
export function useListScreen(screen: ManifestScreen) {
  const client = useClient()
  const effects = useEffects()
  const session = useSession()
  const queryClient = useQueryClient()
  const { t, i18n } = useTranslation()
  const [params, setParams] = useSearchParams()
  const [editing, setEditing] = useState<Editing | null>(null)
  const entity = entityDef(screen.entity)

  const address = params.toString()
  const state = useMemo(() => readListState(screen, new URLSearchParams(address)), [screen, address])
  const request = useMemo(() => toListRequest(screen, state), [screen, state])
  const listKey = useMemo(() => ['list', screen.name] as const, [screen.name])

  const query = useQuery({
    // The rows' labels (port and company names) are in the caller's language: a switch asks again.
    queryKey: [...listKey, request, i18n.language],
    queryFn: async ({ signal }) => {
      const call = clientCall(client, screen.endpoints?.list)
      if (!call) throw new Error(`The generated client has no call for ${screen.name}'s list: run \`waybill generate\``)
      return (await call(request, signal)).content as ListContent<RowData>
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

  /** Runs an action: asks first when it has a confirm text, then calls, opens or navigates. */
  const run = useCallback(
    async (action: ActionDef, row?: RowData) => {
      const confirm = confirmKey(action, entity)
      if (confirm && !(await effects.confirm({ title: t(action.label), body: t(confirm) }))) return
      if (action.route) {
        const route = routes.find((r) => r.name === action.route)
        if (route) effects.navigate(row?.id !== undefined ? `${route.path}?id=${row.id}` : route.path)
        return
      }
      if (action.transition && row) {
        const call = clientCall(client, transitionEndpoint(screen.entity))
        if (!call) return
        await call({ id: row.id, version: row.version, transition: action.transition })
          .then(() => effects.toast(t('ui.actionDone'), { intent: 'success' }))
          .catch(() => undefined) // toasted by the client
        await reload()
        return
      }
      if (action.endpoint === 'create' || action.endpoint === 'update') {
        setEditing({ action, row })
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
    [client, effects, entity, reload, screen, t],
  )

  return {
    screen,
    entity,
    state,
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
    run,
    editing,
    closeEditing(saved: boolean) {
      setEditing(null)
      if (saved) void reload()
    },
  }
}

export type ListController = ReturnType<typeof useListScreen>
