import { describe, expect, it } from 'vitest'
import { checkStateMachines } from './stateMachines.ts'
import { contextOf, printed, watchArea, where } from './testing.ts'

const WATCH = `entity: priceWatch
label: l
fields:
  pol: { type: string }
states:
  field: status
  initial: open
  deletableIn: [open]
  values: { open: { label: l }, closed: { label: l } }
  transitions:
    close: { from: [open], to: closed, permission: p, label: l }
`
const AREA = watchArea(`    actions:
      row:
        - { name: close, label: l, transition: close }
`)
const check = (watch: string, area = AREA) =>
  checkStateMachines(contextOf({ 'schemas/priceWatch.yaml': watch, 'screens/watch.yaml': area }))

describe('checkStateMachines', () => {
  it('finds nothing wrong with a machine over its own states and an action firing one of its transitions', () => {
    expect(check(WATCH)).toEqual([])
  })

  it('a transition sets only fields of its entity', () => {
    const text = WATCH.replace('label: l }\n', 'label: l, sets: { pol: CNSHA, podd: x } }\n')
    expect(text).toContain('sets:')
    expect(where(check(text))).toEqual([
      'schemas/priceWatch.yaml:11:91 states.transitions.close.sets.podd: unknown field "podd" of priceWatch',
    ])
  })

  it('states that are not the machine’s: initial, deletable, from and to', () => {
    const text = WATCH.replace('initial: open', 'initial: opne')
      .replace('deletableIn: [open]', 'deletableIn: [draft]')
      .replace('from: [open], to: closed', 'from: [opened], to: close')
    expect(printed(check(text))[0]).toBe(
      'schemas/priceWatch.yaml:7:12 states.initial: unknown state "opne"\n' +
        '    expected: one of open, closed\n' +
        '    fix: did you mean "open"?',
    )
    expect(where(check(text))).toEqual([
      'schemas/priceWatch.yaml:7:12 states.initial: unknown state "opne"',
      'schemas/priceWatch.yaml:8:17 states.deletableIn[0]: unknown state "draft"',
      'schemas/priceWatch.yaml:11:21 states.transitions.close.from[0]: unknown state "opened"',
      'schemas/priceWatch.yaml:11:34 states.transitions.close.to: unknown state "close"',
    ])
  })

  it('a state field that is neither string nor enum', () => {
    expect(where(check(WATCH.replace('pol: { type: string }', 'status: { type: integer }')))).toEqual([
      'schemas/priceWatch.yaml:4:19 fields.status.type: the state field must be a string or enum',
    ])
  })

  it('an action firing a transition the entity does not have, or on an entity without a machine', () => {
    expect(where(check(WATCH, AREA.replace('transition: close', 'transition: cancel')))).toEqual([
      'screens/watch.yaml:13:48 screens[0].actions.row[0].transition: unknown transition "cancel" of priceWatch',
    ])
    const plain = WATCH.slice(0, WATCH.indexOf('states:'))
    expect(where(check(plain))).toEqual([
      'screens/watch.yaml:13:48 screens[0].actions.row[0].transition: entity priceWatch has no state machine',
    ])
  })

  it('a transition that creates a record of another entity: the entity, its link back, and fields both have', () => {
    const LOG = `entity: watchLog
label: l
fields:
  watch: { type: ref, ref: priceWatch }
  port: { type: string }
  note: { type: string }
`
    const creating = (creates: string) =>
      checkStateMachines(
        contextOf({
          'schemas/priceWatch.yaml': WATCH.replace(
            'close: { from: [open], to: closed, permission: p, label: l }',
            `close:\n      from: [open]\n      to: closed\n      permission: p\n      label: l\n      creates:\n${creates}`,
          ),
          'schemas/watchLog.yaml': LOG,
          'screens/watch.yaml': AREA,
        }),
      )
    const good =
      '        entity: watchLog\n        link: watch\n        fields: { port: pol, note: { value: closed } }\n'
    expect(creating(good)).toEqual([])
    expect(where(creating(good.replace('entity: watchLog', 'entity: watchLogs')))).toEqual([
      'schemas/priceWatch.yaml:17:17 states.transitions.close.creates.entity: unknown entity "watchLogs"',
    ])
    expect(
      where(
        creating(
          good
            .replace('link: watch', 'link: port')
            .replace('port: pol', 'prot: pol, port: { from: pod, map: { a: b } }'),
        ),
      ),
    ).toEqual([
      'schemas/priceWatch.yaml:18:15 states.transitions.close.creates.link: watchLog.port is not a ref to priceWatch',
      'schemas/priceWatch.yaml:19:25 states.transitions.close.creates.fields.prot: unknown field "prot" of watchLog',
      'schemas/priceWatch.yaml:19:44 states.transitions.close.creates.fields.port.from: unknown field "pod" of priceWatch',
    ])
    expect(where(creating(`${good}        writeBack: { pol: notes }\n`))).toEqual([
      'schemas/priceWatch.yaml:20:27 states.transitions.close.creates.writeBack.pol: unknown field "notes" of watchLog',
    ])
    // A record made every time the transition fires (an FBA order's milestones) is never written back.
    expect(creating(`${good}        repeat: true\n`)).toEqual([])
    expect(
      printed(creating(`${good}        repeat: true\n        writeBack: { pol: note }\n`)).map((e) => e.split('\n')[0]),
    ).toEqual([
      'schemas/priceWatch.yaml:21:9 states.transitions.close.creates.writeBack: a repeated record is never written back',
    ])
  })

  it('an action firing a transition the engine fires on an update', () => {
    const fired = WATCH.replace(
      'close: { from: [open], to: closed, permission: p, label: l }',
      'close: { from: [open], to: closed, permission: p, label: l, onUpdate: true }',
    )
    expect(where(check(fired))).toEqual([
      'screens/watch.yaml:13:48 screens[0].actions.row[0].transition: the transition "close" of priceWatch is fired by the engine on an update (onUpdate)',
    ])
  })
})
