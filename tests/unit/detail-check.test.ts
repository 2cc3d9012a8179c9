import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { formatError } from '../../generator/errors.ts'
import { checkProject } from '../../generator/pipeline.ts'

/** `waybill check` on detail screens: the fixture is tests/unit/fixtures/mini plus /priceMonitorDetail. */

const FIXTURE = new URL('./fixtures/detail', import.meta.url).pathname
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the detail fixture with one file changed, checked; answers the formatted errors. */
function checkWith(file: string, edit: (text: string) => string): string[] {
  const root = mkdtempSync(join(tmpdir(), 'waybill-detail-check-'))
  made.push(root)
  cpSync(FIXTURE, root, { recursive: true })
  const path = join(root, file)
  const before = readFileSync(path, 'utf8')
  const after = edit(before)
  expect(after, 'the edit must change the file').not.toBe(before)
  writeFileSync(path, after)
  return checkProject(root).errors.map(formatError)
}

const WATCH = 'screens/watch.yaml'

describe('a clean detail screen', () => {
  it('checks clean and reaches the manifest with its sections, display columns, history and actions', () => {
    const { errors, manifest } = checkProject(FIXTURE)
    expect(errors.map(formatError)).toEqual([])
    const detail = manifest?.screens.find((s) => s.name === 'priceMonitorDetail')
    expect(detail?.kind).toBe('detail')
    expect(detail?.history).toBe(true)
    expect(detail?.form?.sections.map((s) => s.fields)).toEqual([
      ['minPrice', 'maxPrice', 'status'],
      ['pol', 'pod', 'createdAt'],
      ['containers', 'totalWeight', 'remarks'],
    ])
    expect(detail?.actions?.toolbar?.map((a) => a.transition)).toEqual(['start', 'cancel'])
    // The detail call is a manifest endpoint like any other, and the entity's transitions serve the detail too.
    const get = manifest?.endpoints.find((e) => e.path === '/priceWatch/detail')
    expect(get).toMatchObject({ kind: 'detail', method: 'GET', permissions: ['priceMonitor'] })
    const transition = manifest?.endpoints.find((e) => e.kind === 'transition' && e.entity === 'priceWatch')
    expect(transition?.screens).toContain('priceMonitorDetail')
  })
})

describe('waybill check on detail screens: file, line, column, path and fix', () => {
  it('a section field the entity does not have', () => {
    expect(checkWith(WATCH, (t) => t.replace('[minPrice, maxPrice, status]', '[minPrice, maxPrice, statsu]'))).toEqual([
      'screens/watch.yaml:40:40 screens[1].form.sections[0].fields[2]: unknown field "statsu" of entity priceWatch\n' +
        '    expected: one of pol, pod, minPrice, maxPrice, containers, totalWeight, remarks, id, version, createdAt, updatedAt, createdBy, status\n' +
        '    fix: did you mean "status"?',
    ])
  })

  it('a transition the state machine does not have', () => {
    expect(checkWith(WATCH, (t) => t.replace('transition: start }', 'transition: begin }'))).toEqual([
      'screens/watch.yaml:51:59 screens[1].actions.toolbar[0].transition: unknown transition "begin" of priceWatch\n' +
        '    expected: one of start, cancel',
    ])
  })

  it('a link to a route that does not exist, from the list and from a detail field', () => {
    expect(checkWith(WATCH, (t) => t.replace('link: priceMonitorDetail', 'link: priceMonitorDetial'))).toEqual([
      'screens/watch.yaml:19:29 screens[0].columns[0].link: unknown screen "priceMonitorDetial"\n' +
        '    expected: a screen name\n' +
        '    fix: did you mean "priceMonitorDetail"?',
    ])
    expect(
      checkWith(WATCH, (t) => t.replace('format: text, label: field.ceiling }', 'format: text, link: priceMonitr }')),
    ).toEqual([
      'screens/watch.yaml:47:48 screens[1].columns[0].link: unknown screen "priceMonitr"\n' +
        '    expected: a screen name\n' +
        '    fix: did you mean "priceMonitor"?',
    ])
  })

  it('a link by value: an unknown field, an unknown screen', () => {
    const linkBy = (by: string) => (t: string) =>
      t.replace('{ field: pol, link: priceMonitorDetail }', `{ field: pol, link: priceMonitorDetail, linkBy: ${by} }`)
    expect(checkWith(WATCH, linkBy('{ field: status, routes: { cancelled: priceMonitorDetail } }'))).toEqual([])
    expect(checkWith(WATCH, linkBy('{ field: statsu, routes: { cancelled: priceMonitorDetail } }'))[0]).toMatch(
      /columns\[0\]\.linkBy\.field: unknown field "statsu" of entity priceWatch/,
    )
    expect(checkWith(WATCH, linkBy('{ field: status, routes: { cancelled: priceMonitorDetial } }'))[0]).toMatch(
      /columns\[0\]\.linkBy\.routes\.cancelled: unknown screen "priceMonitorDetial"[\s\S]*did you mean "priceMonitorDetail"/,
    )
  })

  it('a link to alternatives (the first the user may open): each must be a screen', () => {
    const link = (to: string) => (t: string) =>
      t.replace('{ field: pol, link: priceMonitorDetail }', `{ field: pol, link: ${to} }`)
    expect(checkWith(WATCH, link('[priceMonitorDetail, priceMonitor]'))).toEqual([])
    expect(checkWith(WATCH, link('[priceMonitorDetail, priceMonitr]'))[0]).toMatch(
      /columns\[0\]\.link\[1\]: unknown screen "priceMonitr"[\s\S]*did you mean "priceMonitor"/,
    )
    expect(
      checkWith(WATCH, (t) =>
        t.replace(
          '{ field: pol, link: priceMonitorDetail }',
          '{ field: pol, linkBy: { field: status, routes: { cancelled: [priceMonitorDetial] } } }',
        ),
      )[0],
    ).toMatch(/columns\[0\]\.linkBy\.routes\.cancelled\[0\]: unknown screen "priceMonitorDetial"/)
  })

  it('an unknown screen kind', () => {
    const errors = checkWith(WATCH, (t) => t.replace('kind: detail', 'kind: detial'))
    expect(errors).toEqual([
      'screens/watch.yaml:32:11 screens[1].kind: "detial" is not allowed here\n' +
        '    expected: one of list, detail, form, chart, custom\n' +
        '    fix: did you mean "detail"?',
    ])
  })

  it('a field shown in two sections', () => {
    expect(checkWith(WATCH, (t) => t.replace('[pol, pod, createdAt]', '[pol, pod, minPrice]'))).toEqual([
      'screens/watch.yaml:42:30 screens[1].form.sections[1].fields[2]: field "minPrice" is shown twice (also in form.sections[0])\n' +
        '    expected: each field in one section\n' +
        '    fix: remove one of them',
    ])
  })

  it('a display column for a field no section shows', () => {
    expect(
      checkWith(WATCH, (t) => t.replace('- { field: maxPrice, format: text', '- { field: pod, format: text')),
    ).toEqual([])
    expect(
      checkWith(WATCH, (t) =>
        t
          .replace('- { field: maxPrice, format: text', '- { field: updatedAt, format: date')
          .replace('[pol, pod, createdAt]', '[pol, pod]'),
      ),
    ).toEqual([
      'screens/watch.yaml:47:18 screens[1].columns[0].field: field "updatedAt" is in no section, so this column changes nothing\n' +
        '    expected: a field of form.sections[].fields\n' +
        '    fix: add updatedAt to a section, or remove the column',
    ])
  })

  it('row actions on a detail screen, and endpoint actions there', () => {
    expect(
      checkWith(WATCH, (t) =>
        t.replace(
          '    actions:\n      toolbar:\n        - { name: start',
          '    actions:\n      row:\n        - { name: start',
        ),
      ),
    ).toEqual([
      'screens/watch.yaml:50:7 screens[1].actions.row: a detail screen has no rows\n' +
        '    expected: actions.toolbar: the buttons of the record shown\n' +
        '    fix: rename row: to toolbar:',
    ])
    expect(checkWith(WATCH, (t) => t.replace('transition: start }', 'endpoint: delete }'))).toEqual([
      'screens/watch.yaml:51:57 screens[1].actions.toolbar[0].endpoint: the screen binds no delete endpoint\n' +
        '    expected: one of detail',
      'screens/watch.yaml:51:57 screens[1].actions.toolbar[0].endpoint: endpoint: delete does nothing on a detail screen\n' +
        '    expected: transition: (a state change) or route: (opened with the record id)\n' +
        '    fix: edit and delete from the list screen, or open a form screen with route:',
    ])
  })

  it('a built detail screen without the call that loads its record', () => {
    expect(
      checkWith(WATCH, (t) => t.replace('      detail: { method: GET, path: /priceWatch/detail }\n', '      {}\n')),
    ).toEqual([
      'screens/watch.yaml:34:5 screens[1].endpoints: a built detail screen needs endpoints.detail\n' +
        '    expected: { method, path } of the call that answers one record by id\n' +
        '    fix: add endpoints: { detail: { method: GET, path: … } } (the list screen that links here may already bind one)',
    ])
  })

  it('history on a list, and on an entity without an audit log', () => {
    expect(checkWith(WATCH, (t) => t.replace('    kind: list\n', '    kind: list\n    history: true\n'))).toEqual([
      'screens/watch.yaml:12:14 screens[0].history: history: belongs to detail and form screens\n' +
        '    expected: kind: detail or kind: form\n' +
        '    fix: remove history: or make the screen a detail or a form',
    ])
    const global = checkWith(WATCH, (t) =>
      t
        .replace(
          '    entity: priceWatch\n    endpoints:\n      detail: { method: GET, path: /priceWatch/detail }',
          '    entity: port\n    endpoints:\n      detail: { method: GET, path: /port/detail }',
        )
        .replace(
          / {4}form:\n[\s\S]*? {4}history: true\n {4}actions:\n[\s\S]*?confirm: confirm.cancel }\n {2}- name: home/,
          '    history: true\n  - name: home',
        ),
    )
    expect(global).toEqual([
      'screens/watch.yaml:36:14 screens[1].history: entity port keeps no history\n' +
        '    expected: a stored tenant entity (the audit log records its changes), or a detail call whose response declares history\n' +
        '    fix: remove history:',
    ])
  })
})
