import { describe, expect, it } from 'vitest'
import { checkReferences } from './references.ts'
import { contextOf, printed, watchArea, where } from './testing.ts'

const PORT = 'entity: port\nlabel: l\nfields:\n  code: { type: string }\n'
const WATCH = `entity: priceWatch
label: l
fields:
  pol: { type: ref, ref: port }
  rows: { type: array, items: { pod: { type: ref, ref: port } } }
`
const AREA = watchArea(`    columns:
      - { field: pol, link: home }
      - { field: rows, link: [home, priceMonitor] }
      - { field: pol, linkBy: { field: pol, routes: { CNSHA: home } } }
    actions:
      toolbar:
        - { name: open, label: l, route: home }
  - { name: home, route: /, title: t, access: public, status: built, kind: custom, redirect: priceMonitor }
endpoints:
  - { name: count, method: POST, path: /count, summary: s, body: port, response: port }
`)
const check = (files: Record<string, string>) =>
  checkReferences(
    contextOf({ 'schemas/port.yaml': PORT, 'schemas/priceWatch.yaml': WATCH, 'screens/watch.yaml': AREA, ...files }),
  )

describe('checkReferences', () => {
  it('finds nothing wrong when every name points at something', () => {
    expect(check({})).toEqual([])
  })

  it('a ref field, nested or not, naming no entity', () => {
    expect(
      printed(
        check({
          'schemas/priceWatch.yaml': WATCH.replace('ref: port }', 'ref: prot }').replace(
            'ref: port }',
            'ref: harbour }',
          ),
        }),
      ),
    ).toEqual([
      'schemas/priceWatch.yaml:4:26 fields.pol.ref: unknown entity or reference list "prot"\n' +
        '    expected: one of port, priceWatch\n' +
        '    fix: did you mean "port"?',
      'schemas/priceWatch.yaml:5:56 fields.rows.items.pod.ref: unknown entity or reference list "harbour"\n' +
        '    expected: one of port, priceWatch\n' +
        '    fix: create schemas/harbour.yaml',
    ])
  })

  it("a screen's entity, redirect, links and routes naming nothing", () => {
    const area = AREA.replace('entity: priceWatch', 'entity: priceWtch')
      .replaceAll('home', 'hom')
      .replace('name: hom,', 'name: home,')
      .replace('redirect: priceMonitor', 'redirect: priceMonitr')
    expect(where(check({ 'screens/watch.yaml': area }))).toEqual([
      'screens/watch.yaml:10:13 screens[0].entity: unknown entity "priceWtch"',
      'screens/watch.yaml:12:29 screens[0].columns[0].link: unknown screen "hom"',
      'screens/watch.yaml:13:31 screens[0].columns[1].link[0]: unknown screen "hom"',
      'screens/watch.yaml:14:62 screens[0].columns[2].linkBy.routes.CNSHA: unknown screen "hom"',
      'screens/watch.yaml:17:42 screens[0].actions.toolbar[0].route: unknown screen "hom"',
      'screens/watch.yaml:18:94 screens[1].redirect: unknown screen "priceMonitr"',
    ])
    expect(check({ 'screens/watch.yaml': area })[1]?.fix).toBe('did you mean "home"?')
  })

  it("a hand-written endpoint's body and response naming no entity", () => {
    const area = AREA.replace('body: port, response: port', 'body: query, response: answer')
    expect(where(check({ 'screens/watch.yaml': area }))).toEqual([
      'screens/watch.yaml:20:66 endpoints[0].body: unknown entity "query"',
      'screens/watch.yaml:20:83 endpoints[0].response: unknown entity "answer"',
    ])
  })
})
