import { describe, expect, it } from 'vitest'
import { checkEntityRules } from './entityRules.ts'
import { contextOf, printed, where } from './testing.ts'

const WATCH = `entity: priceWatch
label: l
fields:
  minPrice: { type: money }
  maxPrice: { type: money }
  mode: { type: enum, values: [{ value: 1, label: l }, { value: 2, label: l }] }
  extras: { type: enum, multiple: true, values: [{ value: a, label: l }, { value: b, label: l }] }
  total: { type: number }
  rows: { type: array, items: { no: { type: string }, weight: { type: number } } }
rules:
  - { kind: compare, field: maxPrice, op: gt, other: minPrice, message: m }
  - { kind: atLeastOne, fields: [minPrice, maxPrice], message: m }
  - { kind: requiredWhen, field: total, when: { field: mode, equals: 1 }, message: m }
  - { kind: excludedWhen, field: extras, values: [a], when: { field: mode, includesAny: [2] }, message: m }
  - { kind: sumEquals, field: total, of: rows, item: weight, message: m }
  - { kind: uniqueItems, field: rows, by: [no], message: m }
`
const check = (text: string) => checkEntityRules(contextOf({ 'schemas/priceWatch.yaml': text }))

describe('checkEntityRules', () => {
  it('finds nothing wrong with rules over known fields and values', () => {
    expect(check(WATCH)).toEqual([])
  })

  it('a compare rule naming an unknown field, with the fields there are and the nearest', () => {
    expect(printed(check(WATCH.replace('other: minPrice', 'other: minPrise')))).toEqual([
      'schemas/priceWatch.yaml:11:54 rules[0].other: unknown field "minPrise" of priceWatch\n' +
        '    expected: one of minPrice, maxPrice, mode, extras, total, rows\n' +
        '    fix: did you mean "minPrice"?',
    ])
  })

  it('atLeastOne and requiredWhen naming unknown fields', () => {
    const text = WATCH.replace('fields: [minPrice, maxPrice]', 'fields: [minPrice, top]').replace(
      'when: { field: mode, equals',
      'when: { field: kind, equals',
    )
    expect(where(check(text))).toEqual([
      'schemas/priceWatch.yaml:12:44 rules[1].fields[1]: unknown field "top" of priceWatch',
      'schemas/priceWatch.yaml:13:56 rules[2].when.field: unknown field "kind" of priceWatch',
    ])
  })

  it('excludedWhen naming a value its field cannot take', () => {
    const text = WATCH.replace('values: [a]', 'values: [c]').replace('includesAny: [2]', 'includesAny: [3]')
    expect(where(check(text))).toEqual([
      'schemas/priceWatch.yaml:14:51 rules[3].values[0]: "c" is not a value of priceWatch.extras',
      'schemas/priceWatch.yaml:14:90 rules[3].when.includesAny[0]: "3" is not a value of priceWatch.mode',
    ])
  })

  it('sumEquals and uniqueItems over a field that is not an array, or a row field that does not exist', () => {
    const text = WATCH.replace('of: rows, item: weight', 'of: rows, item: weigth').replace(
      'field: rows, by: [no]',
      'field: total, by: [no]',
    )
    expect(where(check(text))).toEqual([
      'schemas/priceWatch.yaml:15:54 rules[4].item: unknown field "weigth" of priceWatch.rows',
      'schemas/priceWatch.yaml:16:33 rules[5].field: "total" is not an array field',
    ])
  })

  it('itemsIn over fields that are not arrays, or row fields that do not exist', () => {
    const order = (rule: string) => `entity: priceWatch
label: l
fields:
  total: { type: number }
  rows: { type: array, items: { no: { type: string } } }
  lines: { type: array, items: { rowNo: { type: string } } }
rules:
  - ${rule}
`
    expect(check(order('{ kind: itemsIn, field: lines, item: rowNo, of: rows, key: no, message: m }'))).toEqual([])
    expect(
      where(check(order('{ kind: itemsIn, field: lines, item: rowNumber, of: total, key: no, message: m }'))),
    ).toEqual([
      expect.stringMatching(/rules\[0\]\.item: unknown field "rowNumber" of priceWatch\.lines/),
      expect.stringMatching(/rules\[0\]\.of: "total" is not an array field/),
    ])
    expect(
      where(check(order('{ kind: itemsIn, field: lines, item: rowNo, of: rows, key: number, message: m }'))),
    ).toEqual([expect.stringMatching(/rules\[0\]\.key: unknown field "number" of priceWatch\.rows/)])
  })
})
