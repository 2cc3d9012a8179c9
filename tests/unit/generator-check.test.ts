import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { formatError } from '../../generator/errors.ts'
import { checkProject } from '../../generator/pipeline.ts'

const FIXTURE = new URL('./fixtures/mini', import.meta.url).pathname
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the mini fixture with one file changed, checked; answers the formatted errors. */
function checkWith(file: string, edit: (text: string) => string): string[] {
  const root = mkdtempSync(join(tmpdir(), 'waybill-check-'))
  made.push(root)
  cpSync(FIXTURE, root, { recursive: true })
  const path = join(root, file)
  const before = readFileSync(path, 'utf8')
  const after = edit(before)
  expect(after, 'the edit must change the file').not.toBe(before)
  writeFileSync(path, after)
  return checkProject(root).errors.map(formatError)
}

describe('waybill check on a clean configuration', () => {
  it('finds nothing wrong with the fixture', () => {
    expect(checkProject(FIXTURE).errors.map(formatError)).toEqual([])
  })
})

describe('waybill check: each class of error, with file, line, column, path and fix', () => {
  it('a column naming an unknown field', () => {
    const errors = checkWith('screens/watch.yaml', (t) =>
      t.replace('- { field: maxPrice, format: money }', '- { field: maxPrise, format: money }'),
    )
    expect(errors).toEqual([
      'screens/watch.yaml:20:18 screens[0].columns[1].field: unknown field "maxPrise" of entity priceWatch\n' +
        '    expected: one of pol, pod, minPrice, maxPrice, containers, totalWeight, remarks, id, version, createdAt, updatedAt, createdBy, status\n' +
        '    fix: did you mean "maxPrice"?',
    ])
  })

  it('an unknown permission', () => {
    const errors = checkWith('screens/watch.yaml', (t) =>
      t.replace('permission: priceMonitor\n', 'permission: priceMonitr\n'),
    )
    expect(errors).toEqual([
      'screens/watch.yaml:9:17 screens[0].permission: unknown permission "priceMonitr"\n' +
        '    expected: a permission of screens/access.yaml\n' +
        '    fix: did you mean "priceMonitor"?',
    ])
  })

  it('a route defined twice', () => {
    const errors = checkWith('screens/watch.yaml', (t) => t.replace('route: /\n', 'route: /priceMonitor\n'))
    expect(errors).toEqual([
      'screens/watch.yaml:26:12 screens[1].route: route /priceMonitor is defined twice (also by screen priceMonitor)\n' +
        '    expected: each path once\n' +
        '    fix: merge the two screens; list both permissions in one screen',
    ])
  })

  it('a locale key missing in one language', () => {
    const errors = checkWith('locales/ja/route.json', (t) => t.replace(/\s*"home": "ja:home",?/, ''))
    expect(errors).toEqual([
      'screens/watch.yaml:27:12 screens[1].title: locale key "route.home" is missing in ja\n' +
        '    expected: a string at "home" in locales/<lang>/route.json\n' +
        '    fix: add it to locales/ja/route.json',
    ])
  })

  it('an unknown widget', () => {
    const errors = checkWith('schemas/priceWatch.yaml', (t) =>
      t.replace('label: field.pol }', 'label: field.pol, widget: portPicker }'),
    )
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^schemas\/priceWatch\.yaml:4:58 fields\.pol\.widget: unknown widget "portPicker"\n {4}expected: one of text, /,
    )
    expect(errors[0]).toMatch(/fix: did you mean "portSelect"\?$/)
  })

  it('an unknown component', () => {
    const errors = checkWith('screens/watch.yaml', (t) =>
      t.replace('    status: planned', '    status: planned\n    kind: custom\n    component: hme'),
    )
    expect(errors).toEqual([
      expect.stringMatching(
        /^screens\/watch\.yaml:31:16 screens\[1\]\.component: unknown component "hme"\n {4}expected: a component registered in the runtime: login, .*\n {4}fix: did you mean "home"\?$/,
      ),
    ])
  })

  it('a property the meta-schema does not know, with the likely one', () => {
    const errors = checkWith('screens/watch.yaml', (t) => t.replace('    kind: list', '    kind: list\n    colums: []'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^screens\/watch\.yaml:12:5 screens\[0\]\.colums: unknown property "colums"\n {4}expected: one of name, route, .*\n {4}fix: did you mean "columns"\?$/,
    )
  })

  it('a value outside an enumeration', () => {
    const errors = checkWith('screens/watch.yaml', (t) =>
      t.replace('- { field: status, op: in }', '- { field: status, op: inn }'),
    )
    expect(errors).toEqual([
      'screens/watch.yaml:17:30 screens[0].search[1].op: "inn" is not allowed here\n' +
        '    expected: one of eq, like, in, between, dateRange, gte, lte\n' +
        '    fix: did you mean "in"?',
    ])
  })

  it('a missing required property', () => {
    const errors = checkWith('screens/watch.yaml', (t) => t.replace('    title: route.home\n', ''))
    expect(errors).toEqual([
      'screens/watch.yaml:25:5 screens[1]: missing required property "title"\n    fix: add title:',
    ])
  })

  it('a YAML syntax error', () => {
    const errors = checkWith('screens/watch.yaml', (t) => t.replace('    kind: list', '    kind: [list'))
    expect(errors[0]).toMatch(/^screens\/watch\.yaml:\d+:\d+ /)
  })

  it('an unknown transition and an unknown reference list', () => {
    const errors = checkWith('screens/watch.yaml', (t) => t.replace('transition: cancel', 'transition: cancell'))
    expect(errors).toEqual([
      'screens/watch.yaml:24:61 screens[0].actions.row[0].transition: unknown transition "cancell" of priceWatch\n' +
        '    expected: one of start, cancel\n' +
        '    fix: did you mean "cancel"?',
    ])
    const refs = checkWith('schemas/priceWatch.yaml', (t) =>
      t.replace('pod: { type: ref, ref: port', 'pod: { type: ref, ref: prt'),
    )
    expect(refs[0]).toMatch(/^schemas\/priceWatch\.yaml:5:\d+ fields\.pod\.ref: unknown entity or reference list "prt"/)
  })

  it('an invalid example that passes, and a valid example that fails', () => {
    const passes = checkWith('schemas/priceWatch.yaml', (t) =>
      t.replace('{ pol: CNSHA, minPrice: "200", maxPrice: "100" }', '{ pol: CNSHA, minPrice: "100", maxPrice: "200" }'),
    )
    expect(passes).toEqual([
      'schemas/priceWatch.yaml:42:7 examples.invalid[0]: this invalid example passes validation\n' +
        '    expected: an error on "maxPrice" with message rule.maxAboveMin\n' +
        '    fix: add the rule or field limit the example expects, or correct the example',
    ])
    const fails = checkWith('schemas/priceWatch.yaml', (t) =>
      t.replace(
        '- { pol: CNSHA, minPrice: "100", maxPrice: "200.5" }',
        '- { pol: CNSHA, minPrice: "100", maxPrice: "50" }',
      ),
    )
    expect(fails[0]).toMatch(
      /^schemas\/priceWatch\.yaml:33:7 examples\.valid\[0\]: this valid example fails validation: maxPrice: rule\.maxAboveMin/,
    )
  })

  it('reports every error of a run, not just the first', () => {
    const errors = checkWith('screens/watch.yaml', (t) =>
      t
        .replace('- { field: pol }', '- { field: poll }')
        .replace('- { field: status, format: state }', '- { field: statsu, format: state }'),
    )
    expect(errors).toHaveLength(2)
  })
})
