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
})
