import type { ListRequest } from '../../../generated/client.ts'
import type { ManifestScreen } from '../../../model/resolve.ts'

/**
 * A list screen's state lives in the address (STYLE §2): search values, page, page size and sort are
 * URL search parameters, so Back and a shared link restore the list exactly. These functions convert
 * between the address and the state and build the list call; they are pure and unit-tested.
 */

export type SearchDef = NonNullable<ManifestScreen['search']>[number]
export type ListScreenDef = Pick<ManifestScreen, 'search' | 'columns' | 'paging'>

export interface SortState {
  field: string
  order: 'asc' | 'desc'
}

export interface ListState {
  /** By URL key: one string, or several for `in` searches. */
  search: Record<string, string | string[]>
  pageNum: number
  pageSize: number
  sort: SortState | null
}

/** SPEC §9: first page 1, page size 10. */
export const FIRST_PAGE = 1
export const DEFAULT_PAGE_SIZE = 10
export const DEFAULT_PAGE_SIZES = [10, 20, 50, 100] as const

const RANGE_OPS = new Set(['dateRange', 'between'])

/** The URL keys a search definition uses: its `params`, or `<field>Start`/`<field>End` for a range. */
export function searchKeys(def: SearchDef): string[] {
  if (def.params?.length) return def.params
  return RANGE_OPS.has(def.op) ? [`${def.field}Start`, `${def.field}End`] : [def.field]
}

export function pageSizesOf(screen: ListScreenDef): number[] {
  return screen.paging?.pageSizes?.length ? screen.paging.pageSizes : [...DEFAULT_PAGE_SIZES]
}

export function defaultPageSize(screen: ListScreenDef): number {
  return screen.paging?.pageSize ?? pageSizesOf(screen)[0] ?? DEFAULT_PAGE_SIZE
}

function positiveInt(raw: string | null): number | null {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null
  const value = Number(raw)
  return value >= 1 ? value : null
}

export function readListState(screen: ListScreenDef, params: URLSearchParams): ListState {
  const search: ListState['search'] = {}
  for (const def of screen.search ?? []) {
    // A search default (SPEC §3: fbaStatus [0, 1]) holds while the address says nothing of its key.
    const [only] = searchKeys(def)
    if (def.default !== undefined && def.default !== null && only && !params.has(only)) {
      search[only] = Array.isArray(def.default) ? def.default.map(String) : String(def.default)
      continue
    }
    for (const key of searchKeys(def)) {
      if (def.op === 'in') {
        const values = params.getAll(key).filter((v) => v !== '')
        if (values.length) search[key] = values
      } else {
        const value = params.get(key)
        if (value !== null && value !== '') search[key] = value
      }
    }
  }
  const sizes = pageSizesOf(screen)
  const size = positiveInt(params.get('pageSize'))
  const sortRaw = /^([A-Za-z0-9_]+)\.(asc|desc)$/.exec(params.get('sort') ?? '')
  const sortable = new Set((screen.columns ?? []).filter((c) => c.sortable).map((c) => c.field))
  return {
    search,
    pageNum: positiveInt(params.get('pageNum')) ?? FIRST_PAGE,
    pageSize: size !== null && sizes.includes(size) ? size : defaultPageSize(screen),
    sort:
      sortRaw?.[1] && sortable.has(sortRaw[1]) ? { field: sortRaw[1], order: sortRaw[2] as SortState['order'] } : null,
  }
}

/** The address of a state; defaults are left out so the plain list has the plain URL. */
export function writeListState(screen: ListScreenDef, state: ListState): URLSearchParams {
  const params = new URLSearchParams()
  for (const def of screen.search ?? []) {
    for (const key of searchKeys(def)) {
      const value = state.search[key]
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== '') params.append(key, item)
      }
    }
  }
  if (state.pageNum !== FIRST_PAGE) params.set('pageNum', String(state.pageNum))
  if (state.pageSize !== defaultPageSize(screen)) params.set('pageSize', String(state.pageSize))
  if (state.sort) params.set('sort', `${state.sort.field}.${state.sort.order}`)
  return params
}

/** SPEC §4 "List behaviour": new filters start again at page 1. */
export function withSearch(state: ListState, search: ListState['search']): ListState {
  return { ...state, search: compactSearch(search), pageNum: FIRST_PAGE }
}

/** A new page size also starts at page 1: the old page number may not exist any more. */
export function withPageSize(state: ListState, pageSize: number): ListState {
  return { ...state, pageSize, pageNum: FIRST_PAGE }
}

export function withPage(state: ListState, pageNum: number): ListState {
  return { ...state, pageNum: Math.max(FIRST_PAGE, Math.floor(pageNum)) }
}

/** Clicking a sortable header: ascending, then descending, then unsorted. */
export function withSortToggled(state: ListState, field: string): ListState {
  const current = state.sort?.field === field ? state.sort.order : null
  const sort: SortState | null =
    current === null ? { field, order: 'asc' } : current === 'asc' ? { field, order: 'desc' } : null
  return { ...state, sort, pageNum: FIRST_PAGE }
}

export function compactSearch(search: ListState['search']): ListState['search'] {
  const out: ListState['search'] = {}
  for (const [key, value] of Object.entries(search)) {
    if (Array.isArray(value)) {
      const items = value.filter((v) => v !== '')
      if (items.length) out[key] = items
    } else if (value !== undefined && value.trim() !== '') out[key] = value.trim()
  }
  return out
}

export function sameSearch(a: ListState['search'], b: ListState['search']): boolean {
  const left = compactSearch(a)
  const right = compactSearch(b)
  const keys = new Set([...Object.keys(left), ...Object.keys(right)])
  for (const key of keys) {
    const x = left[key]
    const y = right[key]
    if (JSON.stringify(Array.isArray(x) ? [...x].sort() : x) !== JSON.stringify(Array.isArray(y) ? [...y].sort() : y))
      return false
  }
  return true
}

/** The body of the list call: `{ searchParams, pageNum, pageSize }` (SPEC §7), plus sort when chosen. */
export function toListRequest(screen: ListScreenDef, state: ListState): ListRequest {
  const searchParams: Record<string, unknown> = {}
  for (const def of screen.search ?? []) {
    for (const key of searchKeys(def)) {
      const value = state.search[key]
      if (value === undefined) continue
      if (def.op === 'in') searchParams[key] = Array.isArray(value) ? value : [value]
      else {
        const single = Array.isArray(value) ? value[0] : value
        // SPEC §3: some lists append 00:00:00 to their dates.
        searchParams[key] = def.appendTime && single ? `${single} 00:00:00` : single
      }
    }
  }
  return {
    searchParams,
    pageNum: state.pageNum,
    pageSize: state.pageSize,
    ...(state.sort ? { sort: state.sort } : {}),
  }
}

/** The number of pages for a total (at least 1, so an empty list still has its page 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)))
}
