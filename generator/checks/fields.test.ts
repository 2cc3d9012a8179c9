import { describe, expect, it } from 'vitest'
import { checkFields } from './fields.ts'
import { contextOf, printed, where } from './testing.ts'

const WATCH = `entity: priceWatch
label: entity.priceWatch
display: pol
fields:
  pol: { type: ref, ref: port }
  kind: { type: enum, values: [{ value: a, label: l }] }
  containers:
    type: array
    items:
      containerNo: { type: string }
storage:
  indexes:
    - { fields: [pol, createdAt] }
    - { fields: [containers], method: gin }
`
const check = (text: string) => checkFields(contextOf({ 'schemas/priceWatch.yaml': text }))

describe('checkFields', () => {
  it('finds nothing wrong with complete field definitions and indexes over known fields', () => {
    expect(check(WATCH)).toEqual([])
  })

  it('a ref without ref:, an enum without values:, an array without items:', () => {
    const text = WATCH.replace('ref: port', 'label: l')
      .replace(', values: [{ value: a, label: l }]', '')
      .replace('    items:\n      containerNo: { type: string }\n', '')
    expect(printed(check(text))).toEqual([
      'schemas/priceWatch.yaml:5:16 fields.pol.type: a ref field needs ref:\n' +
        '    expected: the name of an entity or reference list\n' +
        '    fix: add ref: port (for example)',
      'schemas/priceWatch.yaml:6:17 fields.kind.type: an enum field needs values:\n' +
        '    expected: a list of { value, label } (the state field takes its values from states:)',
      'schemas/priceWatch.yaml:8:11 fields.containers.type: an array field needs items: or of:\n' +
        '    expected: the fields of one row, or of: number for a list of numbers',
    ])
  })

  it('a nested row is checked like the entity', () => {
    expect(where(check(WATCH.replace('containerNo: { type: string }', 'containerNo: { type: enum }')))).toEqual([
      'schemas/priceWatch.yaml:10:28 fields.containers.items.containerNo.type: an enum field needs values:',
    ])
  })

  it('a derived field names a derivation of rules/derived.ts, is read-only and holds a number', () => {
    const derived = (props: string) =>
      WATCH.replace('containerNo: { type: string }', `containerNo: { type: string }\n      weight: { ${props} }`)
    expect(check(derived('type: number, readOnly: true, derive: fbaChargeableWeight'))).toEqual([])
    expect(printed(check(derived('type: number, readOnly: true, derive: fbaChargableWeight')))).toEqual([
      'schemas/priceWatch.yaml:11:55 fields.containers.items.weight.derive: unknown derivation "fbaChargableWeight"\n' +
        '    expected: one of rules/derived.ts DERIVED: fbaChargeableWeight, fbaChargeableWeightTotal\n' +
        '    fix: did you mean "fbaChargeableWeight"?',
    ])
    expect(where(check(derived('type: string, derive: fbaChargeableWeight')))).toEqual([
      'schemas/priceWatch.yaml:11:39 fields.containers.items.weight.derive: a derived field is worked out, never typed: it must be read-only',
      'schemas/priceWatch.yaml:11:39 fields.containers.items.weight.derive: a derived field holds a number',
    ])
  })

  it('the state field takes its values from the state machine', () => {
    const text = `${WATCH.replace(', values: [{ value: a, label: l }]', '')}states: { field: kind, initial: a, values: { a: { label: l } }, transitions: {} }\n`
    expect(check(text)).toEqual([])
  })

  it('a permissionTree field misused: with multiple or values, in a sub-table row, or a sideField not of the entity', () => {
    const good = `${WATCH}`.replace(
      'fields:\n',
      'fields:\n  side: { type: integer }\n  grants: { type: permissionTree, sideField: side }\n',
    )
    expect(check(good)).toEqual([])
    expect(where(check(good.replace('sideField: side }', 'sideField: side, multiple: true }')))).toEqual([
      'schemas/priceWatch.yaml:6:62 fields.grants.multiple: a permissionTree field takes no multiple: it is the list of permission names of screens/access.yaml',
    ])
    expect(where(check(good.replace('sideField: side }', 'sideField: sid }')))).toEqual([
      'schemas/priceWatch.yaml:6:46 fields.grants.sideField: unknown field "sid"',
    ])
    expect(
      where(check(good.replace('containerNo: { type: string }', 'containerNo: { type: permissionTree }'))),
    ).toEqual([
      'schemas/priceWatch.yaml:12:28 fields.containers.items.containerNo.type: a permissionTree field belongs to the record itself, not to a sub-table row',
    ])
    expect(where(check(good.replace('kind: { type: enum,', 'kind: { type: enum, sideField: side,')))).toEqual([
      'schemas/priceWatch.yaml:8:34 fields.kind.sideField: sideField belongs to a permissionTree field',
    ])
  })

  it('ticked: on anything but a boolean (issue #21: an agreement that must be ticked)', () => {
    const text = WATCH.replace('pol: { type: ref, ref: port }', 'pol: { type: ref, ref: port, ticked: true }')
    expect(where(check(text))).toEqual(['schemas/priceWatch.yaml:5:40 fields.pol.ticked: only a boolean can be ticked'])
    expect(check(`${WATCH}`.replace('fields:\n', 'fields:\n  agreed: { type: boolean, ticked: true }\n'))).toEqual([])
  })

  it('an unknown display field', () => {
    const [error] = check(WATCH.replace('display: pol', 'display: pool'))
    expect(where(error ? [error] : [])).toEqual(['schemas/priceWatch.yaml:3:10 display: unknown field "pool"'])
    expect(error?.fix).toBe('did you mean "pol"?')
  })

  it('an index over an unknown field, and a gin index that is not over one list field', () => {
    const text = WATCH.replace('[pol, createdAt]', '[pod, createdAt]').replace(
      '[containers], method: gin',
      '[pol], method: gin',
    )
    expect(where(check(text))).toEqual([
      'schemas/priceWatch.yaml:13:18 storage.indexes[0].fields[0]: unknown field "pod" of priceWatch',
      'schemas/priceWatch.yaml:14:32 storage.indexes[1].method: a gin index finds the rows whose list holds a value: one list field (type: array), not unique',
    ])
  })
})
