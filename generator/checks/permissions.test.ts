import { describe, expect, it } from 'vitest'
import { checkPermissions } from './permissions.ts'
import { ACCESS, contextOf, printed, where } from './testing.ts'

const WATCH = `entity: priceWatch
label: entity.priceWatch
fields:
  pol: { type: string }
states:
  field: status
  initial: open
  values: { open: { label: s }, closed: { label: s } }
  transitions:
    close: { from: [open], to: closed, permission: priceMonitor, label: a }
`
const AREA = `area: watch
label: area.watch
screens:
  - name: priceMonitor
    route: /priceMonitor
    title: t
    access: permission
    permission: priceMonitor
    status: built
    kind: list
    entity: priceWatch
    endpoints:
      list: { method: POST, path: /priceWatch/list, permission: [priceMonitor] }
    actions:
      toolbar:
        - { name: add, label: a, permission: priceMonitor, route: priceMonitor }
endpoints:
  - { name: count, method: GET, path: /priceWatch/count, summary: s, permission: priceMonitor, refusal: '360002' }
  - { name: open, method: GET, path: /priceWatch/open, summary: s, public: true }
`

describe('checkPermissions', () => {
  it('finds nothing wrong when every permission named is in the catalogue', () => {
    const context = contextOf({
      'screens/access.yaml': ACCESS,
      'schemas/priceWatch.yaml': WATCH,
      'screens/watch.yaml': AREA,
    })
    expect(checkPermissions(context)).toEqual([])
  })

  it('no catalogue at all', () => {
    expect(
      printed(checkPermissions(contextOf({ 'schemas/port.yaml': 'entity: port\nlabel: l\nfields: {}\n' }))),
    ).toEqual([
      'screens/access.yaml:1:1 the permission catalogue is missing\n' +
        '    fix: create screens/access.yaml with permissions: and roles:',
    ])
  })

  it('a second catalogue', () => {
    const context = contextOf({ 'screens/access.yaml': ACCESS, 'screens/more.yaml': ACCESS })
    expect(where(checkPermissions(context))).toEqual([
      'screens/more.yaml:1:1 a second permission catalogue (the first is screens/access.yaml)',
    ])
  })

  it('an unknown permission of a role, a transition, a screen, an action and both kinds of endpoint', () => {
    const context = contextOf({
      'screens/access.yaml': ACCESS.replace('permissions: [priceMonitor]', 'permissions: [priceMonitr]'),
      'schemas/priceWatch.yaml': WATCH.replace('permission: priceMonitor', 'permission: watch'),
      'screens/watch.yaml': AREA.replaceAll('priceMonitor', 'monitor'),
    })
    expect(where(checkPermissions(context))).toEqual([
      'screens/access.yaml:4:96 roles.PersonalUser.permissions[0]: unknown permission "priceMonitr"',
      'schemas/priceWatch.yaml:10:52 states.transitions.close.permission: unknown permission "watch"',
      'screens/watch.yaml:8:17 screens[0].permission: unknown permission "monitor"',
      'screens/watch.yaml:16:46 screens[0].actions.toolbar[0].permission: unknown permission "monitor"',
      'screens/watch.yaml:13:66 screens[0].endpoints.list.permission[0]: unknown permission "monitor"',
      'screens/watch.yaml:18:82 endpoints[0].permission: unknown permission "monitor"',
    ])
    const [role] = checkPermissions(context)
    expect(role?.fix).toBe('did you mean "priceMonitor"?')
    expect(role?.expected).toBe('a permission of screens/access.yaml')
  })

  it('an unknown permission without a near spelling says where to add it', () => {
    const context = contextOf({
      'screens/access.yaml': ACCESS,
      'schemas/priceWatch.yaml': WATCH.replace('permission: priceMonitor', 'permission: xyz'),
    })
    expect(checkPermissions(context).map((e) => e.fix)).toEqual(['add xyz to screens/access.yaml permissions'])
  })

  it('a public endpoint that needs a permission', () => {
    const context = contextOf({
      'screens/access.yaml': ACCESS,
      'screens/watch.yaml': AREA.replace('public: true', 'public: true, permission: priceMonitor'),
    })
    expect(where(checkPermissions(context))).toEqual([
      'screens/watch.yaml:19:76 endpoints[1].public: a public endpoint cannot need a permission',
    ])
  })

  it('a refusal without a permission, and one that is no error code', () => {
    const context = contextOf({
      'screens/access.yaml': ACCESS,
      'screens/watch.yaml': AREA.replace("permission: priceMonitor, refusal: '360002'", "refusal: '360002'").replace(
        'public: true',
        "public: true, refusal: '360020'",
      ),
    })
    expect(where(checkPermissions(context))).toEqual([
      'screens/watch.yaml:18:79 endpoints[0].refusal: a refusal without a permission refuses nobody',
      'screens/watch.yaml:19:91 endpoints[1].refusal: a refusal without a permission refuses nobody',
      'screens/watch.yaml:19:91 endpoints[1].refusal: unknown error code "360020"',
    ])
    expect(checkPermissions(context).at(-1)?.expected).toBe('a code of model/errorCodes.ts')
  })
})
