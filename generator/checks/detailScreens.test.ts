import { describe, expect, it } from 'vitest'
import { checkDetailScreens } from './detailScreens.ts'
import { contextOf, printed, where } from './testing.ts'

const WATCH = 'entity: priceWatch\nlabel: l\nfields:\n  pol: { type: string }\n  pod: { type: string }\n'
const AREA = `area: watch
label: l
screens:
  - name: priceMonitorDetail
    route: /priceMonitorDetail
    title: t
    access: open
    status: built
    kind: detail
    entity: priceWatch
    history: true
    endpoints:
      detail: { method: GET, path: /priceWatch/detail }
    columns:
      - { field: pol }
    form:
      sections:
        - { title: t, fields: [pol] }
        - { title: t, fields: [pod] }
    actions:
      toolbar:
        - { name: edit, label: l, route: priceMonitorDetail }
`
const check = (area: string, watch = WATCH) =>
  checkDetailScreens(contextOf({ 'schemas/priceWatch.yaml': watch, 'screens/watch.yaml': area }))

describe('checkDetailScreens', () => {
  it('finds nothing wrong with a built detail: its call, each field once, header actions, history', () => {
    expect(check(AREA)).toEqual([])
  })

  it('a built detail without the call that loads its record', () => {
    expect(
      printed(check(AREA.replace('    endpoints:\n      detail: { method: GET, path: /priceWatch/detail }\n', ''))),
    ).toEqual([
      'screens/watch.yaml:4:5 screens[0].endpoints: a built detail screen needs endpoints.detail\n' +
        '    expected: { method, path } of the call that answers one record by id\n' +
        '    fix: add endpoints: { detail: { method: GET, path: … } } (the list screen that links here may already bind one)',
    ])
  })

  it('row actions, an endpoint action, a field shown twice and a column in no section', () => {
    const area = AREA.replace(
      'toolbar:\n        - { name: edit, label: l, route: priceMonitorDetail }',
      'toolbar:\n        - { name: edit, label: l, endpoint: update }\n      row: []',
    )
      .replace('fields: [pod]', 'fields: [pol]')
      .replace('{ field: pol }', '{ field: pod }')
    expect(where(check(area))).toEqual([
      'screens/watch.yaml:23:7 screens[0].actions.row: a detail screen has no rows',
      'screens/watch.yaml:22:45 screens[0].actions.toolbar[0].endpoint: endpoint: update does nothing on a detail screen',
      'screens/watch.yaml:19:32 screens[0].form.sections[1].fields[0]: field "pol" is shown twice (also in form.sections[0])',
      'screens/watch.yaml:15:18 screens[0].columns[0].field: field "pod" is in no section, so this column changes nothing',
    ])
  })

  it('history on an entity without an audit log, and history on a screen that is not a detail', () => {
    expect(where(check(AREA, `${WATCH}stored: false\n`))).toEqual([
      'screens/watch.yaml:11:14 screens[0].history: entity priceWatch keeps no history',
    ])
    expect(where(check(AREA.replace('kind: detail', 'kind: list')))).toEqual([
      'screens/watch.yaml:11:14 screens[0].history: history: belongs to detail and form screens',
    ])
    expect(check(AREA.replace('kind: detail', 'kind: form'))).toEqual([])
  })

  it('history of an entity without an audit log, answered by a hand-written detail call that declares it', () => {
    const view = 'entity: watchView\nlabel: l\nstored: false\nfields:\n  pol: { type: string }\n'
    const answered = (history: string) =>
      checkDetailScreens(
        contextOf({
          'schemas/priceWatch.yaml': `${WATCH}stored: false\n`,
          'schemas/watchView.yaml': `${view}${history}`,
          'schemas/historyEntry.yaml':
            'entity: historyEntry\nlabel: l\nstored: false\nfields:\n  id: { type: integer }\n',
          'screens/watch.yaml': AREA.replace(
            'screens:\n',
            'endpoints:\n  - { name: watchDetail, method: GET, path: /priceWatch/detail, response: watchView }\nscreens:\n',
          ),
        }),
      )
    expect(answered('  history: { type: list, entity: historyEntry }\n')).toEqual([])
    expect(where(answered(''))).toEqual([
      'screens/watch.yaml:13:14 screens[0].history: entity priceWatch keeps no history',
    ])
  })
})
