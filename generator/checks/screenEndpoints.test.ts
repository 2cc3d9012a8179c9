import { describe, expect, it } from 'vitest'
import { checkScreenEndpoints } from './screenEndpoints.ts'
import { contextOf, printed, watchArea, where } from './testing.ts'

const AREA = watchArea(`    endpoints:
      list: { method: POST, path: /priceWatch/list }
      import: { method: POST, path: /priceWatch/import }
    actions:
      toolbar:
        - { name: import, label: l, endpoint: import }
`)
const check = (area: string) => checkScreenEndpoints(contextOf({ 'screens/watch.yaml': area }))

describe('checkScreenEndpoints', () => {
  it('finds nothing wrong with a built list that binds its list and offers an import on its toolbar', () => {
    expect(check(AREA)).toEqual([])
  })

  it('a built list without endpoints.list, and an action calling an endpoint the screen does not bind', () => {
    const area = AREA.replace('      list: { method: POST, path: /priceWatch/list }\n', '').replace(
      'endpoint: import',
      'endpoint: export',
    )
    expect(printed(check(area))).toEqual([
      'screens/watch.yaml:15:47 screens[0].actions.toolbar[0].endpoint: the screen binds no export endpoint\n' +
        '    expected: one of import',
      'screens/watch.yaml:11:5 screens[0].endpoints: a built list screen needs endpoints.list\n' +
        '    expected: { method, path }',
    ])
  })

  it('an import anywhere but a list toolbar, and an import that is not a POST', () => {
    const area = AREA.replace('kind: list', 'kind: form').replace(
      'method: POST, path: /priceWatch/import',
      'method: PUT, path: /priceWatch/import',
    )
    expect(where(check(area))).toEqual([
      "screens/watch.yaml:16:47 screens[0].actions.toolbar[0].endpoint: an import action reads a file into the whole list: only a list screen's toolbar offers it",
      'screens/watch.yaml:13:25 screens[0].endpoints.import.method: an import receives the file as multipart/form-data',
    ])
  })

  it('an export answered to a POST or a GET, not to a DELETE', () => {
    const exporting = (method: string) =>
      check(
        AREA.replace(
          '      import: { method: POST, path: /priceWatch/import }\n',
          `      export: { method: ${method}, path: /priceWatch/export }\n`,
        ).replace('endpoint: import', 'endpoint: export'),
      )
    expect(exporting('POST')).toEqual([])
    expect(exporting('GET')).toEqual([])
    expect(where(exporting('DELETE'))).toEqual([
      'screens/watch.yaml:13:25 screens[0].endpoints.export.method: an export answers its file to a POST (its list request the body) or a GET, not a DELETE',
    ])
  })

  it('an endpoint binding on a screen without an entity, and a built screen without a kind', () => {
    const area = AREA.replace('    entity: priceWatch\n', '').replace('    kind: list\n', '')
    expect(where(check(area))).toEqual([
      "screens/watch.yaml:14:47 screens[0].actions.toolbar[0].endpoint: an import action reads a file into the whole list: only a list screen's toolbar offers it",
      "screens/watch.yaml:10:7 screens[0].endpoints.list: an endpoint binding needs the screen's entity",
      "screens/watch.yaml:11:7 screens[0].endpoints.import: an endpoint binding needs the screen's entity",
      'screens/watch.yaml:4:5 screens[0].kind: a built screen needs kind:',
    ])
  })
})
