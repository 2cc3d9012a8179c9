import { describe, expect, it } from 'vitest'
import generated from '../../generated/manifest.json'
import { checkProject } from '../../generator/pipeline.ts'
import type { Manifest, ManifestEntity, ManifestScreen } from '../../model/resolve.ts'
import {
  DEFAULT_SECTION_TITLE,
  detailSections,
  type HistoryEntry,
  historyView,
  linkingLists,
  offeredActions,
  recordId,
} from '../../runtime/screens/detail/layout.ts'
import type { ActionContext } from '../../runtime/screens/list/actions.ts'

/** The pure part of the generic detail screen (runtime/screens/detail/layout.ts). */

const fixture = checkProject(new URL('./fixtures/detail', import.meta.url).pathname).manifest as Manifest
const watch = fixture.entities.priceWatch as ManifestEntity
const watchDetail = fixture.screens.find((s) => s.name === 'priceMonitorDetail') as ManifestScreen

function contextOf(screen: ManifestScreen, entity: ManifestEntity, permissions: string[]): ActionContext {
  return {
    screen,
    entity,
    permissions: new Set(permissions),
    endpoint: () => undefined,
    route: () => ({ access: 'permission', permissions: ['priceMonitor'] }),
  }
}

describe('section layout', () => {
  const sections = detailSections(watchDetail, watch)

  it('keeps the YAML sections in order, with their columns (3 when not given)', () => {
    expect(sections.map((s) => [s.title, s.columns, s.fields.map((f) => f.field)])).toEqual([
      ['section.prices', 2, ['minPrice', 'maxPrice', 'status']],
      ['section.route', 3, ['pol', 'pod', 'createdAt']],
      ['section.cargo', 1, ['containers', 'totalWeight', 'remarks']],
    ])
  })

  it("shows each field with the list's format for its type, unless the screen's columns say otherwise", () => {
    const byField = Object.fromEntries(sections.flatMap((s) => s.fields).map((f) => [f.field, f]))
    expect(byField.minPrice?.column.format).toBe('money')
    expect(byField.minPrice?.label).toBe('field.minPrice')
    expect(byField.status?.column.format).toBe('state')
    expect(byField.status?.label).toBe('field.status')
    expect(byField.createdAt?.column.format).toBe('datetime')
    expect(byField.createdAt?.label).toBe('field.createdAt')
    expect(byField.totalWeight?.column.format).toBe('number')
    expect(byField.pol?.column.format).toBe('text')
    // columns: [{ field: maxPrice, format: text, label: field.ceiling }]
    expect(byField.maxPrice?.column).toEqual({ field: 'maxPrice', format: 'text', label: 'field.ceiling' })
    expect(byField.maxPrice?.label).toBe('field.ceiling')
    expect(byField.remarks?.multiline).toBe(true)
    expect(byField.pol?.multiline).toBe(false)
  })

  it('shows a list field as a table of its item fields', () => {
    const containers = sections[2]?.fields[0]
    expect(containers?.rows?.columns.map((c) => [c.field, c.label, c.column.format])).toEqual([
      ['containerNo', 'field.containerNo', 'text'],
      ['grossWeight', 'field.grossWeight', 'number'],
    ])
    expect(sections[2]?.fields[1]?.rows).toBeUndefined()
  })

  it('without sections, shows one section with every field of the entity', () => {
    const [only, ...rest] = detailSections({ form: undefined, columns: undefined }, watch)
    expect(rest).toEqual([])
    expect(only?.title).toBe(DEFAULT_SECTION_TITLE)
    expect(only?.fields.map((f) => f.field)).toEqual(Object.keys(watch.fields))
  })
})

describe('transitions offered for a state and a permission set (fixture)', () => {
  const offered = (status: string, permissions: string[]) =>
    offeredActions(watchDetail.actions?.toolbar, contextOf(watchDetail, watch, permissions), { id: 1, status }).map(
      (a) => a.name,
    )

  it("offers only the transitions the state machine allows from the record's state", () => {
    expect(offered('notStarted', ['priceMonitor'])).toEqual(['start', 'cancel'])
    expect(offered('inProgress', ['priceMonitor'])).toEqual(['cancel'])
    expect(offered('cancelled', ['priceMonitor'])).toEqual([])
  })

  it("offers nothing without the transition's permission, and nothing before the record is there", () => {
    expect(offered('notStarted', [])).toEqual([])
    expect(offered('notStarted', ['somethingElse'])).toEqual([])
    expect(offeredActions(watchDetail.actions?.toolbar, contextOf(watchDetail, watch, ['priceMonitor']), null)).toEqual(
      [],
    )
  })
})

describe('the order detail screens (generated manifest)', () => {
  const manifest = generated as unknown as Manifest
  const order = manifest.entities.order as ManifestEntity
  const screen = (name: string) => {
    const found = manifest.screens.find((s) => s.name === name)
    if (!found) throw new Error(`the manifest has no screen ${name}: run npm run generate`)
    return found
  }
  const rolePermissions = (role: string) => manifest.roles[role]?.permissions ?? []
  const offered = (name: string, state: string, permissions: string[]) => {
    const detail = screen(name)
    const context: ActionContext = {
      screen: detail,
      entity: order,
      permissions: new Set(permissions),
      endpoint: () => undefined,
      route: () => undefined,
    }
    return offeredActions(detail.actions?.toolbar, context, { id: 1, version: 1, state }).map(
      (a) => a.transition ?? a.name,
    )
  }

  it('are built detail screens of orders with history, reached from the order lists', () => {
    for (const name of ['orderDetailsOperator', 'orderDetails']) {
      expect(screen(name)).toMatchObject({ kind: 'detail', entity: 'order', status: 'built', history: true })
      expect(screen(name).endpoints?.detail).toEqual({ method: 'GET', path: '/booking/order/getOrderDetail' })
    }
    // Booking forecasts (/preOrderList) is both sides' list: it links to either detail, the first one opens.
    // "Back" goes to the list that opens the detail alone, before the shared one.
    expect(linkingLists('orderDetailsOperator', manifest.screens)).toEqual(['orderList', 'preOrderList'])
    expect(linkingLists('orderDetails', manifest.screens)).toEqual(['myOrders', 'preOrderList'])
  })

  it("lay out SPEC §3's order labels: references, source, parties, contact, route, containers, cargo, services, remarks", () => {
    const sections = detailSections(screen('orderDetailsOperator'), order)
    expect(sections.map((s) => s.title)).toEqual([
      'detail.sectionReferences',
      'detail.sectionSource',
      'detail.sectionParties',
      'detail.sectionContact',
      'detail.sectionRoute',
      'detail.sectionContainers',
      'detail.sectionCargo',
      'detail.sectionServices',
      'detail.sectionRemarks',
    ])
    const fields = sections.flatMap((s) => s.fields)
    expect(fields.find((f) => f.field === 'etd')?.column.format).toBe('date')
    expect(fields.find((f) => f.field === 'containerLoadType')?.column.format).toBe('enum')
    expect(fields.find((f) => f.field === 'shipper')?.multiline).toBe(true)
  })

  it('offer an operator the provider-side transitions of a submitted order', () => {
    const opadmin = rolePermissions('OperationAdministrator')
    expect(offered('orderDetailsOperator', 'submitted', opadmin)).toEqual(['accept', 'bargain', 'sendBack', 'reject'])
    // And, once accepted, the link to the shipment for the customer's consignee (issue #29).
    expect(offered('orderDetailsOperator', 'accepted', opadmin)).toEqual([
      'book',
      'sendBack',
      'invalidate',
      'shareTracking',
    ])
    expect(offered('orderDetailsOperator', 'cancelled', opadmin)).toEqual([])
  })

  it('offer a customer only the customer-side transitions, whatever the state', () => {
    const entadmin = rolePermissions('EnterpriseAdministrator')
    expect(entadmin).toContain('myOrders')
    expect(entadmin).not.toContain('orderList')
    expect(offered('orderDetails', 'submitted', entadmin)).toEqual(['withdraw', 'cancel'])
    expect(offered('orderDetails', 'rejected', entadmin)).toEqual(['reapply', 'reEdit'])
    expect(offered('orderDetails', 'draft', entadmin)).toEqual(['submit', 'cancel'])
    // The operator's screen, opened by a customer somehow, still offers them nothing.
    for (const state of Object.keys(order.states?.values ?? {}))
      expect(offered('orderDetailsOperator', state, entadmin)).toEqual([])
  })
})

describe('the record id of the address', () => {
  it('reads ?id= as the list link writes it, and nothing else', () => {
    expect(recordId('12')).toBe(12)
    expect(recordId(null)).toBeNull()
    expect(recordId('')).toBeNull()
    expect(recordId('0')).toBeNull()
    expect(recordId('-3')).toBeNull()
    expect(recordId('12abc')).toBeNull()
    expect(recordId('1e3')).toBeNull()
  })
})

describe('history entries', () => {
  const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
    id: 1,
    action: 'update',
    transition: null,
    remark: null,
    userId: 5,
    userName: 'Chen Jing',
    before: null,
    after: null,
    at: '2026-03-02T08:00:00.000Z',
    ...over,
  })

  it('reads a transition by its label and the states it moved between', () => {
    const view = historyView(
      entry({
        id: 9,
        action: 'transition',
        transition: 'cancel',
        remark: 'customer asked',
        before: { status: 'inProgress', version: 2 },
        after: { status: 'cancelled', version: 3 },
      }),
      watch,
    )
    expect(view).toMatchObject({
      id: 9,
      who: 'Chen Jing',
      what: 'action.cancel',
      from: 'inProgress',
      to: 'cancelled',
      remark: 'customer asked',
      changes: [],
    })
  })

  it('reads an update by the fields it changed, leaving out the bookkeeping', () => {
    const view = historyView(
      entry({
        before: { maxPrice: '200.000', pol: 'CNSHA', version: 1, updatedAt: 'a' },
        after: { maxPrice: '250.000', pol: 'CNSHA', version: 2, updatedAt: 'b' },
      }),
      watch,
    )
    expect(view.what).toBe('detail.updated')
    expect(view.from).toBeNull()
    expect(view.changes).toEqual([
      {
        field: 'maxPrice',
        label: 'field.maxPrice',
        column: { field: 'maxPrice', format: 'money' },
        before: '200.000',
        after: '250.000',
      },
    ])
  })

  it("shows a state field's change when the entity has no state machine, and hides it when one moves it", () => {
    const suspended = entry({ before: { state: 1, nameEn: 'Star' }, after: { state: 0, nameEn: 'Star' } })
    const plain = { fields: { state: { type: 'enum', label: 'field.tenantState' } }, states: undefined }
    expect(
      historyView(suspended, plain as never).changes.map((change) => [change.field, change.before, change.after]),
    ).toEqual([['state', 1, 0]])
    const machine = entry({ before: { status: 'a', pol: 'CNSHA' }, after: { status: 'b', pol: 'CNNGB' } })
    expect(historyView(machine, watch).changes.map((change) => change.field)).toEqual(['pol'])
  })

  it('reads a creation without a field list, and names an unnamed user by id', () => {
    const view = historyView(entry({ action: 'create', userName: null, after: { pol: 'CNSHA' } }), watch)
    expect(view).toMatchObject({ what: 'detail.created', who: '#5', changes: [], from: null, to: null })
    expect(historyView(entry({ action: 'delete', userName: null, userId: null }), watch).who).toBeNull()
  })
})
