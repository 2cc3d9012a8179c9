import { describe, expect, it } from 'vitest'
import { checkEndpointNames, checkEntityNames, checkScreenNames } from './names.ts'
import { contextOf, printed, where } from './testing.ts'

const entity = (name: string) => `entity: ${name}\nlabel: entity.${name}\nfields:\n  code: { type: string }\n`

const AREA = `area: watch
label: area.watch
screens:
  - { name: priceMonitor, route: /priceMonitor, title: t, access: open, status: built, kind: list, entity: port,
      endpoints: { list: { method: POST, path: /port/list } } }
  - { name: home, route: /, title: t, access: public, status: planned }
endpoints:
  - { name: portCount, method: GET, path: /port/count, summary: s, response: port }
`

describe('checkEntityNames', () => {
  it('finds nothing wrong with one entity per file, named like it', () => {
    expect(checkEntityNames(contextOf({ 'schemas/port.yaml': entity('port') }))).toEqual([])
  })

  it('an entity in a file of another name', () => {
    expect(printed(checkEntityNames(contextOf({ 'schemas/ports.yaml': entity('port') })))).toEqual([
      'schemas/ports.yaml:1:9 entity: entity "port" is in a file named ports.yaml\n' +
        '    fix: rename the file to port.yaml or the entity to ports',
    ])
  })

  it('an entity defined twice names the first file', () => {
    const context = contextOf({ 'schemas/port.yaml': entity('port'), 'schemas/sub/port.yaml': entity('port') })
    expect(where(checkEntityNames(context))).toEqual([
      'schemas/sub/port.yaml:1:9 entity: entity "port" is defined twice (also in schemas/port.yaml)',
    ])
  })
})

describe('checkScreenNames', () => {
  it('finds nothing wrong with distinct names and routes', () => {
    expect(checkScreenNames(contextOf({ 'screens/watch.yaml': AREA }))).toEqual([])
  })

  it('a screen name defined twice, with the line of the first', () => {
    const context = contextOf({ 'screens/watch.yaml': AREA.replace('name: home', 'name: priceMonitor') })
    expect(printed(checkScreenNames(context))).toEqual([
      'screens/watch.yaml:6:13 screens[1].name: screen name "priceMonitor" is defined twice (also screens/watch.yaml:4)\n' +
        '    expected: a unique route name\n' +
        '    fix: rename one of them',
    ])
  })

  it('a route defined twice, with the screen that has it', () => {
    const context = contextOf({ 'screens/watch.yaml': AREA.replace('route: /,', 'route: /priceMonitor,') })
    expect(where(checkScreenNames(context))).toEqual([
      'screens/watch.yaml:6:26 screens[1].route: route /priceMonitor is defined twice (also by screen priceMonitor)',
    ])
  })
})

describe('checkEndpointNames', () => {
  it('finds nothing wrong with a hand-written endpoint of its own name and path', () => {
    expect(checkEndpointNames(contextOf({ 'screens/watch.yaml': AREA }))).toEqual([])
  })

  it('a hand-written endpoint may serve a call a screen binds', () => {
    const context = contextOf({
      'screens/watch.yaml': AREA.replace('GET, path: /port/count', 'POST, path: /port/list'),
    })
    expect(checkEndpointNames(context)).toEqual([])
  })

  it('a name used twice, and one call declared twice', () => {
    const second = '  - { name: portCount, method: GET, path: /port/count, summary: s, response: port }\n'
    const context = contextOf({ 'screens/watch.yaml': AREA + second })
    expect(where(checkEndpointNames(context))).toEqual([
      'screens/watch.yaml:9:13 endpoints[1].name: endpoint name "portCount" is used twice (also in screens/watch.yaml)',
      'screens/watch.yaml:9:43 endpoints[1].path: GET /port/count is already declared as portCount',
    ])
  })
})
