import { describe, expect, it } from 'vitest'
import { checkRowCalls } from './rowCalls.ts'
import { contextOf, where } from './testing.ts'

const letter = `
entity: letter
label: letter.entity
fields:
  title: { type: string, label: letter.title }
  link: { type: string, label: letter.link }
  status: { type: integer, label: letter.status }
`
const letterRef = `
entity: letterRef
label: entity.letterRef
stored: false
fields:
  id: { type: integer, required: true }
`
const area = (action: string) => `
area: messages
label: area.messages
endpoints:
  - { name: letterRead, method: POST, path: /b2b/letter/read, permission: letterList, body: letterRef, response: letterRef }
screens:
  - name: letterList
    route: /letterList
    title: route.letterList
    access: permission
    status: built
    kind: list
    entity: letter
    actions:
      row:
        - ${action}
`
const errorsOf = (action: string) =>
  checkRowCalls(
    contextOf({
      'schemas/letter.yaml': letter,
      'schemas/letterRef.yaml': letterRef,
      'screens/messages.yaml': area(action),
    }),
  ).map((error) => error.message)

describe('a row action that opens the row’s address (opens:)', () => {
  it('is taken on a text field of the rows, with call:', () => {
    expect(errorsOf('{ name: open, label: letter.open, call: letterRead, opens: link }')).toEqual([])
  })

  it('is refused on a field that is not text, or one the rows do not have', () => {
    expect(errorsOf('{ name: open, label: letter.open, call: letterRead, opens: status }')).toEqual([
      '"status" is not a text field of the screen’s rows',
    ])
    expect(errorsOf('{ name: open, label: letter.open, call: letterRead, opens: links }')).toEqual([
      '"links" is not a text field of the screen’s rows',
    ])
  })

  it('is refused without call:', () => {
    expect(errorsOf('{ name: open, label: letter.open, route: letterList, opens: link }')).toEqual([
      'opens: belongs to an action with call:',
    ])
  })
})

const ORDER = 'entity: order\nlabel: l\nfields:\n  orderNo: { type: string }\n'
const QUERY = 'entity: recordIdQuery\nlabel: l\nstored: false\nfields:\n  id: { type: string }\n'
const AREA = `area: orders
label: l
endpoints:
  - { name: draftPdf, method: GET, path: /order/draftPdf, summary: s, body: recordIdQuery, response: binary }
  - { name: orderView, method: GET, path: /order/view, summary: s, body: recordIdQuery, response: order }
screens:
  - name: orderDetails
    route: /orderDetails
    title: t
    access: open
    status: built
    kind: detail
    entity: order
    endpoints:
      detail: { method: GET, path: /order/detail }
    actions:
      toolbar:
        - { name: draft, label: l, download: draftPdf }
`
const check = (area: string) =>
  checkRowCalls(
    contextOf({ 'schemas/order.yaml': ORDER, 'schemas/recordIdQuery.yaml': QUERY, 'screens/orders.yaml': area }),
  )

describe('checkRowCalls: download actions (issue #23)', () => {
  it("finds nothing wrong with a detail's download of a GET answering a file by the record's id", () => {
    expect(check(AREA)).toEqual([])
  })

  it('refuses an unknown endpoint, one that answers no file, and a download outside a detail toolbar', () => {
    expect(where(check(AREA.replace('download: draftPdf', 'download: draftPfd')))).toEqual([
      'screens/orders.yaml:18:46 screens[0].actions.toolbar[0].download: unknown endpoint "draftPfd"',
    ])
    expect(where(check(AREA.replace('download: draftPdf', 'download: orderView')))).toEqual([
      'screens/orders.yaml:18:46 screens[0].actions.toolbar[0].download: endpoint "orderView" is not a GET answering a file whose query takes the record’s id',
    ])
    expect(where(check(AREA.replace('kind: detail', 'kind: list')))).toEqual([
      'screens/orders.yaml:18:46 screens[0].actions.toolbar[0].download: download: is a toolbar action of a record’s screen (it sends the record’s id)',
    ])
  })

  it("takes a custom flow's toolbar download when the flow shows a record of its entity (the B/L editor)", () => {
    expect(check(AREA.replace('kind: detail', 'kind: custom'))).toEqual([])
    expect(
      where(check(AREA.replace('kind: detail', 'kind: custom').replace('entity: order', 'entity: orderr'))),
    ).toEqual([
      'screens/orders.yaml:18:46 screens[0].actions.toolbar[0].download: download: is a toolbar action of a record’s screen (it sends the record’s id)',
    ])
  })
})
