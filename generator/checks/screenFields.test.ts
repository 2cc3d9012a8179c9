import { describe, expect, it } from 'vitest'
import { checkScreenFields } from './screenFields.ts'
import { contextOf, printed, watchArea, where } from './testing.ts'

const WATCH = `entity: priceWatch
label: l
fields:
  pol: { type: string }
  maxPrice: { type: money }
states: { field: status, initial: open, values: { open: { label: l } }, transitions: {} }
`
const AREA = watchArea(`    search:
      - { field: pol, op: eq }
      - { field: createdAt, op: dateRange, params: [begin, end] }
    columns:
      - { field: maxPrice }
      - { field: status, linkBy: { field: status, routes: { open: priceMonitor } } }
    form:
      sections:
        - { title: t, fields: [pol, maxPrice] }
`)
const check = (area: string) =>
  checkScreenFields(contextOf({ 'schemas/priceWatch.yaml': WATCH, 'screens/watch.yaml': area }))

describe('checkScreenFields', () => {
  it("finds nothing wrong with the entity's own, system and state fields", () => {
    expect(check(AREA)).toEqual([])
  })

  it('a column naming an unknown field, with every field the screen may name', () => {
    expect(printed(check(AREA.replace('{ field: maxPrice }', '{ field: maxPrise }')))).toEqual([
      'screens/watch.yaml:15:18 screens[0].columns[0].field: unknown field "maxPrise" of entity priceWatch\n' +
        '    expected: one of pol, maxPrice, id, version, createdAt, updatedAt, createdBy, status\n' +
        '    fix: did you mean "maxPrice"?',
    ])
  })

  it('an unknown field in a search, a link-by and a form section; a range search without two params', () => {
    const area = AREA.replace('{ field: pol, op: eq }', '{ field: port, op: eq }')
      .replace('params: [begin, end]', 'params: [begin]')
      .replace('linkBy: { field: status', 'linkBy: { field: state')
      .replace('fields: [pol, maxPrice]', 'fields: [pol, remarks]')
    expect(where(check(area))).toEqual([
      'screens/watch.yaml:16:43 screens[0].columns[1].linkBy.field: unknown field "state" of entity priceWatch',
      'screens/watch.yaml:12:18 screens[0].search[0].field: unknown field "port" of entity priceWatch',
      'screens/watch.yaml:13:44 screens[0].search[1].params: dateRange needs two params (begin and end)',
      'screens/watch.yaml:19:37 screens[0].form.sections[0].fields[1]: unknown field "remarks" of entity priceWatch',
    ])
    expect(check(area).at(-1)?.fix).toBe('add remarks to schemas/priceWatch.yaml')
  })

  it("a money column's currency names a field of the row", () => {
    expect(check(AREA.replace('{ field: maxPrice }', '{ field: maxPrice, currency: pol }'))).toEqual([])
    expect(where(check(AREA.replace('{ field: maxPrice }', '{ field: maxPrice, currency: currency }')))).toEqual([
      'screens/watch.yaml:15:38 screens[0].columns[0].currency: unknown field "currency" of entity priceWatch',
    ])
  })

  it("a link's query names fields of the row", () => {
    const linked = (query: string) =>
      check(AREA.replace('{ field: maxPrice }', `{ field: maxPrice, link: priceMonitor, linkQuery: ${query} }`))
    expect(linked('{ ids: pol, id: id }')).toEqual([])
    expect(where(linked('{ ids: rateId }'))).toEqual([
      'screens/watch.yaml:15:66 screens[0].columns[0].linkQuery.ids: unknown field "rateId" of entity priceWatch',
    ])
  })

  it("a form's prefill names fields its sections show, and only a form screen has one", () => {
    const form = AREA.replace('kind: list', 'kind: form').replace(
      '        - { title: t, fields: [pol, maxPrice] }\n',
      '        - { title: t, fields: [pol, maxPrice] }\n      prefill: [pol]\n',
    )
    expect(check(form)).toEqual([])
    expect(where(check(form.replace('prefill: [pol]', 'prefill: [pol, status]')))).toEqual([
      'screens/watch.yaml:20:22 screens[0].form.prefill[1]: "status" is not a field of the form\'s sections',
    ])
    expect(where(check(form.replace('prefill: [pol]', 'prefill: [port]')))).toEqual([
      'screens/watch.yaml:20:17 screens[0].form.prefill[0]: unknown field "port" of entity priceWatch',
    ])
    expect(where(check(form.replace('kind: form', 'kind: list')))).toEqual([
      'screens/watch.yaml:20:7 screens[0].form.prefill: only a form screen is prefilled from its query',
    ])
  })

  it("a form's prefill call is a GET that takes the prefilled fields and answers the form's entity", () => {
    const PREFILL = `entity: priceWatchPrefill
label: l
stored: false
extends: { entity: priceWatch }
fields: {}
`
    const QUERY = `entity: polQuery
label: l
stored: false
fields:
  pol: { type: string }
`
    const area = (call: string, method = 'GET', response = 'priceWatchPrefill', kind = 'custom') =>
      AREA.replace(
        'label: l\n',
        `label: l\nendpoints:\n  - { name: watchPrefill, method: ${method}, path: /p, summary: s, body: polQuery, response: ${response} }\n`,
      )
        .replace('kind: list', `kind: ${kind}\n    component: c`)
        .replace(
          '        - { title: t, fields: [pol, maxPrice] }\n',
          `        - { title: t, fields: [pol, maxPrice] }\n      prefill: [pol]\n      prefillCall: ${call}\n`,
        )
    const checked = (text: string) =>
      where(
        checkScreenFields(
          contextOf({
            'schemas/priceWatch.yaml': WATCH,
            'schemas/priceWatchPrefill.yaml': PREFILL,
            'schemas/polQuery.yaml': QUERY,
            'screens/watch.yaml': text,
          }),
        ),
      )
    expect(checked(area('watchPrefill'))).toEqual([])
    expect(checked(area('watchPrefill', 'GET', 'priceWatch', 'form'))).toEqual([])
    expect(checked(area('watchPrefil'))).toEqual([
      expect.stringMatching(/form\.prefillCall: "watchPrefil" is not a hand-written GET endpoint/),
    ])
    expect(checked(area('watchPrefill', 'POST'))).toEqual([
      expect.stringMatching(/form\.prefillCall: "watchPrefill" is not a hand-written GET endpoint/),
    ])
    expect(checked(area('watchPrefill', 'GET', 'polQuery'))).toEqual([
      expect.stringMatching(/form\.prefillCall: "watchPrefill" answers polQuery, not the form's entity priceWatch/),
    ])
    expect(checked(area('watchPrefill').replace('prefill: [pol]', 'prefill: [maxPrice]'))).toEqual([
      expect.stringMatching(/form\.prefillCall: "watchPrefill" takes no "maxPrice"/),
    ])
  })

  it("an import's input is a request entity of the screen entity's fields, on an import binding only", () => {
    const TARGET = `entity: watchImportTarget
label: l
stored: false
fields:
  pol: { type: string, required: true }
`
    const area = (binding: string) => AREA.replace('    search:\n', `    endpoints:\n      ${binding}\n    search:\n`)
    const checked = (text: string, target = TARGET) =>
      where(
        checkScreenFields(
          contextOf({
            'schemas/priceWatch.yaml': WATCH,
            'schemas/watchImportTarget.yaml': target,
            'screens/watch.yaml': text,
          }),
        ),
      )
    expect(checked(area('import: { method: POST, path: /w/import, input: watchImportTarget }'))).toEqual([])
    expect(checked(area('export: { method: POST, path: /w/export, input: watchImportTarget }'))).toEqual([
      expect.stringMatching(/endpoints\.export\.input: only an import binding asks for input/),
    ])
    expect(
      checked(
        area('import: { method: POST, path: /w/import, input: watchImportTarget }'),
        TARGET.replace('pol:', 'port:'),
      ),
    ).toEqual([expect.stringMatching(/watchImportTarget's "port" is not a field of priceWatch/)])
    expect(
      checked(
        area('import: { method: POST, path: /w/import, input: watchImportTarget }'),
        TARGET.replace('stored: false\n', ''),
      ),
    ).toEqual([expect.stringMatching(/"watchImportTarget" is not a request entity/)])
  })

  it('a screen without an entity names no fields to check', () => {
    expect(check(AREA.replace('    entity: priceWatch\n', ''))).toEqual([])
  })

  it("a form's notice names a text and a boolean switch of the site settings, and only a form has one", () => {
    const SETTINGS = `entity: siteSettingsView
label: l
stored: false
fields:
  newContactInformationCheck: { type: boolean }
  newContactInformation: { type: string }
`
    const area = (notice: string, kind = 'form') =>
      AREA.replace('kind: list', `kind: ${kind}`).replace('    form:\n', `    notice: ${notice}\n    form:\n`)
    const checked = (text: string) =>
      where(
        checkScreenFields(
          contextOf({
            'schemas/priceWatch.yaml': WATCH,
            'schemas/siteSettingsView.yaml': SETTINGS,
            'screens/watch.yaml': text,
          }),
        ),
      )
    expect(checked(area('{ text: newContactInformation, when: newContactInformationCheck }'))).toEqual([])
    expect(checked(area('{ text: newContactInformationCheck, when: newContactInfo }'))).toEqual([
      expect.stringMatching(/notice\.text: "newContactInformationCheck" is not a string site setting/),
      expect.stringMatching(/notice\.when: "newContactInfo" is not a boolean site setting/),
    ])
    expect(checked(area('{ text: newContactInformation, when: newContactInformationCheck }', 'list'))).toEqual([
      expect.stringMatching(/notice: a notice is shown by form screens only/),
    ])
  })

  it("a list's notice from the server names a hand-written GET endpoint and a boolean field of its answer", () => {
    const DELIVERY = `entity: mailDeliveryView
label: l
stored: false
fields:
  localMailbox: { type: boolean }
  mailbox: { type: string }
`
    const area = (notice: string, method = 'GET') =>
      AREA.replace(
        'label: l\n',
        `label: l\nendpoints:\n  - { name: mailDelivery, method: ${method}, path: /m, summary: s, response: mailDeliveryView }\n`,
      ).replace('    form:\n', `    notice: ${notice}\n    form:\n`)
    const checked = (text: string) =>
      where(
        checkScreenFields(
          contextOf({
            'schemas/priceWatch.yaml': WATCH,
            'schemas/mailDeliveryView.yaml': DELIVERY,
            'screens/watch.yaml': text,
          }),
        ),
      )
    expect(checked(area('{ call: mailDelivery, when: localMailbox, message: m.n }'))).toEqual([])
    expect(checked(area('{ call: mailDelivery, when: mailbox, message: m.n }'))).toEqual([
      expect.stringMatching(/notice\.when: "mailbox" is not a boolean field of mailDeliveryView/),
    ])
    expect(checked(area('{ call: mailDelivery, when: localMailbox, message: m.n }', 'POST'))).toEqual([
      expect.stringMatching(/notice\.call: "mailDelivery" is not a hand-written GET endpoint/),
    ])
  })

  it('tabs over the state field, its states, with a search by it; else each says what is wrong', () => {
    const tabbed = (tabs: string, search = '      - { field: status, op: in }\n') =>
      check(AREA.replace('    search:\n', `    tabs: ${tabs}\n    search:\n${search}`))
    expect(tabbed('{ field: status, values: [open] }')).toEqual([])
    expect(where(tabbed('{ field: pol, values: [open] }'))).toEqual([
      expect.stringMatching(/tabs\.field: "pol" is not the state field of entity priceWatch/),
    ])
    expect(where(tabbed('{ field: status, values: [opened] }'))).toEqual([
      expect.stringMatching(/tabs\.values\[0\]: "opened" is not a state of priceWatch/),
    ])
    expect(where(tabbed('{ field: status, values: [open] }', ''))).toEqual([
      expect.stringMatching(/tabs: the tabs search by "status" but the screen has no such search/),
    ])
  })
})
