import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { Manifest } from '../../model/resolve.ts'
import { type ActionContext, actionAllowed, confirmKey } from '../../runtime/screens/list/actions.ts'
import { cellView } from '../../runtime/screens/list/format.ts'
import {
  type ListState,
  pageCount,
  readListState,
  sameSearch,
  searchKeys,
  toListRequest,
  withPage,
  withPageSize,
  withSearch,
  withSortToggled,
  writeListState,
} from '../../runtime/screens/list/listState.ts'

const { screens, entities, endpoints } = manifest as unknown as Manifest
const screen = (name: string) => {
  const found = screens.find((s) => s.name === name)
  if (!found) throw new Error(`no screen ${name} in the manifest`)
  return found
}
const orderList = screen('orderList')

const read = (query: string) => readListState(orderList, new URLSearchParams(query))

describe('list state in the address', () => {
  it('reads defaults from an empty address: page 1, the screen page size, no search, no sort', () => {
    expect(read('')).toEqual({ search: {}, pageNum: 1, pageSize: 10, sort: null })
  })

  it('reads search values by URL key, several values for `in`, the range keys for dateRange', () => {
    const state = read('orderNo=SO1&state=submitted&state=accepted&beginDate=2026-01-01&endDate=2026-01-31&pageNum=3')
    expect(state.search).toEqual({
      orderNo: 'SO1',
      state: ['submitted', 'accepted'],
      beginDate: '2026-01-01',
      endDate: '2026-01-31',
    })
    expect(state.pageNum).toBe(3)
  })

  it('ignores what the screen does not declare and values it does not allow', () => {
    const state = read('hacker=1&pageNum=-2&pageSize=7&sort=vessel.asc')
    expect(state).toEqual({ search: {}, pageNum: 1, pageSize: 10, sort: null })
    expect(read('pageSize=50&sort=etd.desc')).toMatchObject({ pageSize: 50, sort: { field: 'etd', order: 'desc' } })
  })

  it('writes the state back to the same address, defaults left out', () => {
    const query = 'orderNo=SO1&state=submitted&state=accepted&beginDate=2026-01-01&pageNum=2&pageSize=20&sort=etd.asc'
    expect(writeListState(orderList, read(query)).toString()).toBe(query)
    expect(writeListState(orderList, read('')).toString()).toBe('')
  })

  it('round-trips any state it wrote', () => {
    const states: ListState[] = [
      { search: { jobNo: 'J 1', containerLoadType: 'FCL' }, pageNum: 4, pageSize: 100, sort: null },
      { search: { state: ['rejected'] }, pageNum: 1, pageSize: 10, sort: { field: 'createdAt', order: 'desc' } },
    ]
    for (const state of states) expect(read(writeListState(orderList, state).toString())).toEqual(state)
  })

  it('names a range without params by field', () => {
    expect(searchKeys({ field: 'createTime', op: 'dateRange' })).toEqual(['createTimeStart', 'createTimeEnd'])
    expect(searchKeys({ field: 'etd', op: 'dateRange', params: ['beginDate', 'endDate'] })).toEqual([
      'beginDate',
      'endDate',
    ])
  })
})

describe('SPEC §4 list behaviour', () => {
  const onPage3 = read('orderNo=SO1&pageNum=3&pageSize=20')

  it('goes back to page 1 on new filters and on a new page size, keeps the size on a new filter', () => {
    expect(withSearch(onPage3, { orderNo: 'SO2', mbl: '  ' })).toEqual({
      ...onPage3,
      search: { orderNo: 'SO2' },
      pageNum: 1,
    })
    expect(withPageSize(onPage3, 50)).toMatchObject({ pageNum: 1, pageSize: 50, search: { orderNo: 'SO1' } })
    expect(withPage(onPage3, 5)).toMatchObject({ pageNum: 5, pageSize: 20 })
    expect(withPage(onPage3, 0).pageNum).toBe(1)
  })

  it('knows the same filters (to reload instead of navigating)', () => {
    expect(sameSearch({ orderNo: 'SO1' }, { orderNo: ' SO1 ', mbl: '' })).toBe(true)
    expect(sameSearch({ state: ['a', 'b'] }, { state: ['b', 'a'] })).toBe(true)
    expect(sameSearch({ orderNo: 'SO1' }, { orderNo: 'SO2' })).toBe(false)
  })

  it('toggles a sort ascending, descending, off', () => {
    const a = withSortToggled(onPage3, 'etd')
    expect(a.sort).toEqual({ field: 'etd', order: 'asc' })
    expect(a.pageNum).toBe(1)
    const b = withSortToggled(a, 'etd')
    expect(b.sort).toEqual({ field: 'etd', order: 'desc' })
    expect(withSortToggled(b, 'etd').sort).toBeNull()
    expect(withSortToggled(b, 'eta').sort).toEqual({ field: 'eta', order: 'asc' })
  })

  it('builds the list call: searchParams, pageNum, pageSize', () => {
    const state = read('orderNo=SO1&state=submitted&beginDate=2026-01-01&pageNum=2&pageSize=20&sort=etd.desc')
    expect(toListRequest(orderList, state)).toEqual({
      searchParams: { orderNo: 'SO1', state: ['submitted'], beginDate: '2026-01-01' },
      pageNum: 2,
      pageSize: 20,
      sort: { field: 'etd', order: 'desc' },
    })
    expect(toListRequest(orderList, read(''))).toEqual({ searchParams: {}, pageNum: 1, pageSize: 10 })
  })

  it('appends 00:00:00 where a search says so', () => {
    const custom = {
      search: [{ field: 'createDate', op: 'dateRange' as const, params: ['from', 'to'], appendTime: true }],
    }
    const state = readListState(custom, new URLSearchParams('from=2026-02-01'))
    expect(toListRequest(custom, state).searchParams).toEqual({ from: '2026-02-01 00:00:00' })
  })

  it('starts with a search default while the address says nothing of it (SPEC §3 fbaStatus [0, 1])', () => {
    const enterprises = { search: [{ field: 'fbaStatus', op: 'in' as const, default: [0, 1] }] }
    const plain = readListState(enterprises, new URLSearchParams(''))
    expect(toListRequest(enterprises, plain).searchParams).toEqual({ fbaStatus: ['0', '1'] })
    const narrowed = readListState(enterprises, new URLSearchParams('fbaStatus=1'))
    expect(toListRequest(enterprises, narrowed).searchParams).toEqual({ fbaStatus: ['1'] })
  })

  it('counts pages, at least one', () => {
    expect(pageCount(0, 10)).toBe(1)
    expect(pageCount(10, 10)).toBe(1)
    expect(pageCount(11, 10)).toBe(2)
    expect(pageCount(101, 50)).toBe(3)
  })
})

describe('row and toolbar actions', () => {
  const order = entities.order
  const context = (screenName: string, permissions: string[]): ActionContext => ({
    screen: screen(screenName),
    entity: order,
    permissions: new Set(permissions),
    endpoint: (kind) => {
      const binding = screen(screenName).endpoints?.[kind]
      return endpoints.find((e) => e.method === binding?.method && e.path === binding?.path)
    },
    route: () => ({ access: 'open', permissions: [] }),
  })
  const accept = orderList.actions?.row?.find((a) => a.name === 'accept')
  if (!accept) throw new Error('orderList has no accept action')

  it('offers a transition only with its permission and from its source states', () => {
    const operator = context('orderList', ['orderList'])
    expect(actionAllowed(accept, operator, { id: 1, version: 1, state: 'submitted' })).toBe(true)
    expect(actionAllowed(accept, operator, { id: 1, version: 1, state: 'booked' })).toBe(false)
    expect(actionAllowed(accept, context('orderList', ['myOrders']), { id: 1, version: 1, state: 'submitted' })).toBe(
      false,
    )
    expect(confirmKey(accept, order)).toBe('confirm.acceptOrder')
  })

  it('offers a toolbar action only with its own permission', () => {
    const direct = screen('myOrders').actions?.toolbar?.find((a) => a.name === 'directOrder')
    if (!direct) throw new Error('myOrders has no directOrder action')
    expect(actionAllowed(direct, context('myOrders', ['myOrders']))).toBe(false)
    expect(actionAllowed(direct, context('myOrders', ['myOrders', 'directlyEntrusted']))).toBe(true)
  })

  it('offers an endpoint action only with the endpoint permission', () => {
    const create = screen('operationAccount').actions?.toolbar?.find((a) => a.endpoint === 'create')
    if (!create) throw new Error('operationAccount has no create action')
    const ctx = (permissions: string[]) => ({
      ...context('operationAccount', permissions),
      entity: entities.operationAccount,
    })
    expect(actionAllowed(create, ctx(['operationAccount']))).toBe(true)
    expect(actionAllowed(create, ctx(['orderList']))).toBe(false)
  })

  it("offers a download only with its endpoint's permission (issue #23: the order's documents)", () => {
    const draft = screen('orderDetails').actions?.toolbar?.find((a) => a.download === 'blDraftPdf')
    if (!draft) throw new Error('orderDetails has no draft B/L download')
    const ctx = (permissions: string[]) => ({
      ...context('orderDetails', permissions),
      call: (name: string) => endpoints.find((e) => e.kind === 'custom' && e.id === name),
    })
    expect(actionAllowed(draft, ctx(['myOrders']))).toBe(true)
    expect(actionAllowed(draft, ctx(['orderList']))).toBe(true)
    expect(actionAllowed(draft, ctx(['priceMonitor']))).toBe(false)
  })
})

describe('cells', () => {
  const column = (field: string) => {
    const found = orderList.columns?.find((c) => c.field === field)
    if (!found) throw new Error(`orderList has no column ${field}`)
    return found
  }

  it('shows a state as a badge with its label and colour', () => {
    expect(cellView('booked', column('state'), entities.order)).toEqual({
      kind: 'badge',
      key: 'state.booked',
      color: 'brand',
    })
  })

  it('shows enum labels, calendar days, and money exactly as sent, its digits grouped', () => {
    expect(cellView('FCL', column('containerLoadType'), entities.order)).toEqual({
      kind: 'label',
      key: 'enum.containerLoadType.FCL',
    })
    expect(cellView('2026-03-04', column('etd'), entities.order, undefined, 'zh')).toEqual({
      kind: 'text',
      text: '2026年3月4日',
    })
    expect(cellView('12345678901234.567890', { field: 'amount', format: 'money' }, entities.order)).toEqual({
      kind: 'text',
      text: '12,345,678,901,234.567890',
    })
    expect(cellView(null, column('pol'), entities.order)).toEqual({ kind: 'text', text: '' })
    expect(cellView({ code: 'CNSHA', name: 'Shanghai' }, column('pol'), entities.order)).toEqual({
      kind: 'text',
      text: 'Shanghai',
    })
  })
})
