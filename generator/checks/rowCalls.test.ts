import { describe, expect, it } from 'vitest'
import { checkMetaSchema } from './metaSchema.ts'
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

describe('what a call answers once has one vocabulary (reveals:, issue #29)', () => {
  it('refuses the retired shows: and names reveals: as what says it now', () => {
    const context = (action: string) =>
      contextOf({
        'schemas/letter.yaml': letter,
        'schemas/letterRef.yaml': letterRef,
        'screens/messages.yaml': area(action),
      })
    const ofActions = (action: string) =>
      checkMetaSchema(context(action)).filter((e) => e.path.startsWith('screens[0].actions'))
    expect(ofActions('{ name: open, label: letter.open, call: letterRead, reveals: title }')).toEqual([])
    const [error, ...rest] = ofActions('{ name: open, label: letter.open, call: letterRead, shows: letter.shown }')
    expect(rest).toEqual([])
    expect(error).toMatchObject({
      path: 'screens[0].actions.row[0].shows',
      message: 'unknown property "shows"',
    })
    expect(error?.fix).toMatch(/^use reveals: /)
  })
})

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
    expect(where(check(AREA.replace('kind: detail', 'kind: form')))).toEqual([
      'screens/orders.yaml:18:46 screens[0].actions.toolbar[0].download: download: is a toolbar action of a record’s screen (it sends the record’s id) or of a list',
    ])
  })

  it("takes a custom flow's toolbar download when the flow shows a record of its entity (the B/L editor)", () => {
    expect(check(AREA.replace('kind: detail', 'kind: custom'))).toEqual([])
    expect(
      where(check(AREA.replace('kind: detail', 'kind: custom').replace('entity: order', 'entity: orderr'))),
    ).toEqual([
      'screens/orders.yaml:18:46 screens[0].actions.toolbar[0].download: download: is a toolbar action of a record’s screen (it sends the record’s id) or of a list',
    ])
  })
})

describe('checkRowCalls: a list’s download (issue #24, a customer’s statement)', () => {
  const STATEMENT =
    'entity: statementQuery\nlabel: l\nstored: false\nfields:\n  customerCompany: { type: string }\n  rateDate: { type: date }\n'
  const LIST = AREA.replace('kind: detail', 'kind: list')
    .replace('body: recordIdQuery, response: binary', 'body: statementQuery, response: binary')
    .replace('download: draftPdf', 'download: draftPdf, input: statementQuery, asks: [rateDate]')
  const checkList = (area: string) =>
    checkRowCalls(
      contextOf({
        'schemas/order.yaml': ORDER,
        'schemas/recordIdQuery.yaml': QUERY,
        'schemas/statementQuery.yaml': STATEMENT,
        'screens/orders.yaml': area,
      }),
    )

  it('takes a GET answering a file by a query, asking for fields of that query first', () => {
    expect(checkList(LIST)).toEqual([])
    expect(checkList(LIST.replace(', input: statementQuery, asks: [rateDate]', ''))).toEqual([])
  })

  it('refuses an input that is not the query, a field it does not have, and asks: without input:', () => {
    expect(where(checkList(LIST.replace('input: statementQuery', 'input: recordIdQuery')))).toEqual([
      'screens/orders.yaml:18:63 screens[0].actions.toolbar[0].input: input: of a download is its query, asked for on a list: statementQuery',
      'screens/orders.yaml:18:78 screens[0].actions.toolbar[0].asks: "rateDate" is not a field of the action\'s input recordIdQuery',
    ])
    expect(where(checkList(LIST.replace('asks: [rateDate]', 'asks: [rateDat]')))).toEqual([
      'screens/orders.yaml:18:79 screens[0].actions.toolbar[0].asks: "rateDat" is not a field of the action\'s input statementQuery',
    ])
    expect(where(checkList(LIST.replace('input: statementQuery, ', '')))).toEqual([
      'screens/orders.yaml:18:56 screens[0].actions.toolbar[0].asks: "rateDate" is not a field of the action\'s input',
    ])
  })
})

describe('a transition fired through the endpoint that fires it (transition: with call:)', () => {
  const order = `
entity: order
label: entity.order
fields:
  orderNo: { type: string, label: field.orderNo }
states:
  field: state
  initial: submitted
  values: { submitted: { label: state.submitted }, withdrawn: { label: state.withdrawn } }
  transitions:
    withdraw: { from: [submitted], to: withdrawn, permission: myOrders, label: action.withdraw }
    reapply: { from: [withdrawn], to: submitted, permission: myOrders, label: action.reapply }
`
  const orderConfirmation = `
entity: orderConfirmation
label: entity.orderConfirmation
stored: false
fields:
  id: { type: integer, required: true }
  version: { type: integer, required: true }
`
  const orders = (kind: string, place: string, action: string) => `
area: orders
label: area.orders
endpoints:
  - name: withdraw
    method: GET
    path: /booking/order/withdraw
    transition: { entity: order, name: withdraw }
    summary: s
    body: orderConfirmation
    response: order
screens:
  - name: orderDetails
    route: /orderDetails
    title: route.orderDetails
    access: permission
    status: built
    kind: ${kind}
    entity: order
    actions:
      ${place}:
        - ${action}
`
  const errors = (kind: string, place: string, action: string) =>
    checkRowCalls(
      contextOf({
        'schemas/order.yaml': order,
        'schemas/orderConfirmation.yaml': orderConfirmation,
        'screens/orders.yaml': orders(kind, place, action),
      }),
    ).map((error) => error.message)

  it('is taken on a detail’s toolbar and a list’s row when the endpoint fires that very transition', () => {
    const action = '{ name: withdraw, label: action.withdraw, transition: withdraw, call: withdraw }'
    expect(errors('detail', 'toolbar', action)).toEqual([])
    expect(errors('list', 'row', action)).toEqual([])
  })

  it('is refused when the endpoint fires another transition or none, or the place has no record', () => {
    expect(
      errors('detail', 'toolbar', '{ name: r, label: action.reapply, transition: reapply, call: withdraw }'),
    ).toEqual(['endpoint "withdraw" does not fire order\'s transition "reapply"'])
    expect(
      errors('detail', 'toolbar', '{ name: r, label: action.reapply, transition: reapply, call: withdrew }'),
    ).toEqual(['unknown endpoint "withdrew"'])
    expect(
      errors('list', 'toolbar', '{ name: w, label: action.withdraw, transition: withdraw, call: withdraw }'),
    ).toEqual([
      'call: with transition: fires it on a record: a toolbar action of a detail or form screen, or a row action of a list',
    ])
  })
})

describe('checkRowCalls: a row action’s when: and a detail’s chat (issues #26, #27)', () => {
  const WATCH = `entity: priceWatch
label: l
fields:
  pol: { type: string }
states:
  field: status
  initial: open
  values: { open: { label: l }, closed: { label: l } }
  transitions:
    close: { from: [open], to: closed, permission: p, label: l }
`
  const screens = (actions: string, kind = 'list') => `area: watch
label: l
screens:
  - name: priceMonitor
    route: /priceMonitor
    title: t
    access: open
    status: built
    kind: ${kind}
    entity: priceWatch
    endpoints:
      ${kind === 'list' ? 'list: { method: POST, path: /watch/list }' : 'detail: { method: GET, path: /watch/detail }'}
    actions:
${actions}`
  const run = (area: string) =>
    checkRowCalls(contextOf({ 'schemas/priceWatch.yaml': WATCH, 'screens/watch.yaml': area })).map((e) => e.message)

  it('takes the state of an entity with states in when:, as the rows carry it, and no field the rows lack', () => {
    const row = (field: string) =>
      `      row:\n        - { name: close, label: l, transition: close, when: { field: ${field}, in: [open] } }\n`
    expect(run(screens(row('status')))).toEqual([])
    expect(run(screens(row('stat')))).toEqual(['unknown field "stat" of the screen’s rows'])
  })

  it('opens the chat about the record from a detail’s toolbar, its reference a field of the record', () => {
    const chat = (ref: string) =>
      `      toolbar:\n        - { name: ask, label: l, chat: { contextType: order, contextRef: ${ref} } }\n`
    expect(run(screens(chat('pol'), 'detail'))).toEqual([])
    expect(run(screens(chat('pod'), 'detail'))).toEqual(['unknown field "pod"'])
    expect(run(screens(chat('pol'), 'list'))).toEqual([
      'chat: opens the chat about the record shown: a toolbar action of a detail screen',
    ])
  })
})

describe('a list toolbar call and reveals: (issue #29, an API key made and its secret shown once)', () => {
  const keyArea = (toolbar: string) => `
area: apiKeys
label: l
endpoints:
  - { name: keyCreate, method: POST, path: /key/create, summary: s, body: keyCreate, response: keySecret }
  - { name: keyRotate, method: POST, path: /key/rotate, summary: s, body: letterRef, response: keySecret }
screens:
  - name: keys
    route: /keys
    title: t
    access: permission
    status: built
    kind: list
    entity: letter
    actions:
      toolbar:
        - ${toolbar}
`
  const keyCreate = 'entity: keyCreate\nlabel: l\nstored: false\nfields:\n  name: { type: string }\n'
  const keySecret = 'entity: keySecret\nlabel: l\nstored: false\nfields:\n  secret: { type: string }\n'
  const toolbarErrors = (toolbar: string) =>
    checkRowCalls(
      contextOf({
        'schemas/letter.yaml': letter,
        'schemas/letterRef.yaml': letterRef,
        'schemas/keyCreate.yaml': keyCreate,
        'schemas/keySecret.yaml': keySecret,
        'screens/apiKeys.yaml': keyArea(toolbar),
      }),
    ).map((error) => error.message)

  it('takes a toolbar call whose body is its input, revealing a field of the answer', () => {
    expect(toolbarErrors('{ name: create, label: l, call: keyCreate, input: keyCreate, reveals: secret }')).toEqual([])
  })

  it('refuses a toolbar call without its body as input:', () => {
    expect(toolbarErrors('{ name: create, label: l, call: keyCreate }')).toEqual([
      'a list\'s toolbar call sends what its dialog asked: "keyCreate" must be a POST whose body is the action\'s input:',
    ])
    expect(toolbarErrors('{ name: create, label: l, call: keyRotate, input: keyCreate }')).toHaveLength(1)
  })

  it('refuses reveals: without call:', () => {
    expect(errorsOf('{ name: open, label: letter.open, route: letterList, reveals: title }')).toEqual([
      'reveals: belongs to an action with call:',
    ])
  })
})

describe('a detail toolbar call on its record (issue #29: Share an order’s tracking, the link revealed once)', () => {
  const shareArea = (toolbar: string) => `
area: orders
label: l
endpoints:
  - { name: linkCreate, method: POST, path: /link/add, summary: s, body: linkRequest, response: linkCreated }
  - { name: linkView, method: GET, path: /link/view, summary: s, body: linkRequest, response: linkCreated }
screens:
  - name: orderDetails
    route: /orderDetails
    title: t
    access: permission
    status: built
    kind: detail
    entity: letter
    actions:
      toolbar:
        - ${toolbar}
`
  const linkRequest =
    'entity: linkRequest\nlabel: l\nstored: false\nfields:\n  order: { type: integer }\n  days: { type: integer }\n'
  const linkCreated = 'entity: linkCreated\nlabel: l\nstored: false\nfields:\n  path: { type: string }\n'
  const shareErrors = (toolbar: string) =>
    checkRowCalls(
      contextOf({
        'schemas/letter.yaml': letter,
        'schemas/linkRequest.yaml': linkRequest,
        'schemas/linkCreated.yaml': linkCreated,
        'screens/orders.yaml': shareArea(toolbar),
      }),
    ).map((error) => error.message)
  const share = 'name: share, label: l, call: linkCreate, param: order, input: linkRequest, asks: [days]'

  it('takes a POST whose body carries the record’s id in param:, asking for the rest, revealing an address', () => {
    expect(shareErrors(`{ ${share}, reveals: path, revealAs: address }`)).toEqual([])
    expect(shareErrors(`{ ${share}, when: { field: status, in: [3, 4] } }`)).toEqual([])
  })

  it('refuses a body without the param, a GET, an unknown endpoint', () => {
    expect(shareErrors('{ name: share, label: l, call: linkCreate, input: linkRequest }')).toEqual([
      'endpoint "linkCreate" is not a POST whose body takes the record’s id in "id"',
    ])
    expect(shareErrors('{ name: share, label: l, call: linkView, param: order }')).toEqual([
      'endpoint "linkView" is not a POST whose body takes the record’s id in "order"',
    ])
    expect(shareErrors('{ name: share, label: l, call: linkMake, param: order }')).toEqual([
      'unknown endpoint "linkMake"',
    ])
  })

  it('refuses revealAs: without reveals:, and opens: on a detail', () => {
    expect(shareErrors(`{ ${share}, revealAs: address }`)).toEqual(['revealAs: says how the field reveals: shows it'])
    expect(shareErrors(`{ ${share}, opens: path }`)).toContain('opens: belongs to a list row’s call')
  })

  it('keeps when: to rows and detail toolbars', () => {
    expect(toolbarWhenErrors()).toEqual([
      'when: belongs to a row action or a detail’s toolbar action (a record to hold for)',
    ])
  })
})

function toolbarWhenErrors() {
  const keyCreate = 'entity: keyCreate\nlabel: l\nstored: false\nfields:\n  name: { type: string }\n'
  return checkRowCalls(
    contextOf({
      'schemas/letter.yaml': letter,
      'schemas/keyCreate.yaml': keyCreate,
      'screens/keys.yaml': `
area: keys
label: l
endpoints:
  - { name: keyCreate, method: POST, path: /key/create, summary: s, body: keyCreate, response: keyCreate }
screens:
  - name: keys
    route: /keys
    title: t
    access: permission
    status: built
    kind: list
    entity: letter
    actions:
      toolbar:
        - { name: create, label: l, call: keyCreate, input: keyCreate, when: { field: title, filled: true } }
`,
    }),
  ).map((error) => error.message)
}
