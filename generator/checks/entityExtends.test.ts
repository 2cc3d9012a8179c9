import { describe, expect, it } from 'vitest'
import type { EntityDef } from '../../model/definitions.ts'
import { withInherited } from '../../model/resolve.ts'
import { checkEntityExtends } from './entityExtends.ts'
import { checkMetaSchema } from './metaSchema.ts'
import { contextOf, printed, where } from './testing.ts'

const WATCH = `entity: priceWatch
label: l
fields:
  pol: { type: string }
  maxPrice: { type: money, required: true }
  note: { type: string, readOnly: true }
states:
  field: state
  initial: open
  values: { open: { label: l } }
  transitions: {}
`
const EDIT = `entity: priceWatchEdit
label: l
stored: false
extends:
  entity: priceWatch
  fields: [pol, maxPrice, state]
fields:
  notify: { type: boolean }
`
const check = (edit: string, watch = WATCH) =>
  checkEntityExtends(contextOf({ 'schemas/priceWatch.yaml': watch, 'schemas/priceWatchEdit.yaml': edit }))

describe('checkEntityExtends', () => {
  it('finds nothing wrong with a body taking some fields of an entity, its state field among them, or all', () => {
    expect(check(EDIT)).toEqual([])
    expect(check(EDIT.replace('  fields: [pol, maxPrice, state]\n', ''))).toEqual([])
  })

  it('an unknown entity, with the entities there are and the nearest', () => {
    expect(printed(check(EDIT.replace('entity: priceWatch\n', 'entity: priceWach\n')))).toEqual([
      'schemas/priceWatchEdit.yaml:5:11 extends.entity: unknown entity "priceWach"\n' +
        '    expected: one of priceWatch, priceWatchEdit\n' +
        '    fix: did you mean "priceWatch"?',
    ])
  })

  it('a field the entity does not have', () => {
    expect(printed(check(EDIT.replace('[pol, maxPrice, state]', '[pol, minPrice]')))).toEqual([
      'schemas/priceWatchEdit.yaml:6:17 extends.fields[1]: unknown field "minPrice" of priceWatch\n' +
        '    expected: one of state, pol, maxPrice, note\n' +
        '    fix: did you mean "maxPrice"?',
    ])
  })

  it('an own field named like one it takes, named or taken with all of them', () => {
    const twice = EDIT.replace('notify: { type: boolean }', 'pol: { type: integer }')
    expect(where(check(twice))).toEqual([
      'schemas/priceWatchEdit.yaml:8:3 fields.pol: priceWatchEdit takes "pol" from priceWatch and declares it too',
    ])
    expect(where(check(twice.replace('  fields: [pol, maxPrice, state]\n', '')))).toEqual([
      'schemas/priceWatchEdit.yaml:7:3 fields.pol: priceWatchEdit takes "pol" from priceWatch and declares it too',
    ])
    // Leaving it out of the fields taken is the way out the error names.
    expect(check(twice.replace('[pol, maxPrice, state]', '[maxPrice]'))).toEqual([])
  })

  it('a stored entity that extends takes the fields as declared, required included, and the rules among them', () => {
    const watch = `${WATCH}rules:\n  - { kind: atLeastOne, fields: [pol, maxPrice], message: l }\n  - { kind: atLeastOne, fields: [pol, note], message: l }\n`
    const stored = EDIT.replace('stored: false\n', '').replace('[pol, maxPrice, state]', '[pol, maxPrice]')
    expect(check(stored, watch)).toEqual([])
    const context = contextOf({ 'schemas/priceWatch.yaml': watch, 'schemas/priceWatchEdit.yaml': stored })
    expect(context.entities.priceWatchEdit?.fields.maxPrice).toEqual({ type: 'money', required: true })
    expect(Object.keys(context.entities.priceWatchEdit?.fields ?? {})).toEqual(['pol', 'maxPrice', 'notify'])
    // The rule over pol and note stays behind: note is not taken.
    expect(context.entities.priceWatchEdit?.rules).toEqual([
      { kind: 'atLeastOne', fields: ['pol', 'maxPrice'], message: 'l' },
    ])
  })

  it("a body's partial rows leave each row's columns optional; only a body takes partial rows", () => {
    const watch = WATCH.replace(
      '  note: { type: string, readOnly: true }\n',
      '  note: { type: string, readOnly: true }\n  rows: { type: array, items: { no: { type: string, required: true } } }\n',
    )
    const partial = EDIT.replace('[pol, maxPrice, state]', '[pol, rows]').replace(
      '  entity: priceWatch\n',
      '  entity: priceWatch\n  partialRows: true\n',
    )
    const files = (edit: string) => ({ 'schemas/priceWatch.yaml': watch, 'schemas/priceWatchEdit.yaml': edit })
    expect(checkEntityExtends(contextOf(files(partial)))).toEqual([])
    const rowsOf = (edit: string) => {
      const { entities } = contextOf(files(edit))
      return withInherited(entities.priceWatchEdit as EntityDef, entities).fields.rows?.items
    }
    expect(rowsOf(partial)).toEqual({ no: { type: 'string' } })
    expect(rowsOf(partial.replace('partialRows: true', 'partialRows: false'))).toEqual({
      no: { type: 'string', required: true },
    })
    expect(where(checkEntityExtends(contextOf(files(partial.replace('stored: false\n', '')))))).toEqual([
      'schemas/priceWatchEdit.yaml:5:16 extends.partialRows: only a body takes partial rows: a stored entity takes the fields as declared',
    ])
  })

  it('an entity that extends one that extends', () => {
    const files = {
      'schemas/priceWatch.yaml': WATCH,
      'schemas/priceWatchEdit.yaml': EDIT,
      'schemas/priceWatchDraft.yaml': EDIT.replace('priceWatchEdit', 'priceWatchDraft')
        .replace('entity: priceWatch\n', 'entity: priceWatchEdit\n')
        .replace('  fields: [pol, maxPrice, state]\n', ''),
    }
    expect(where(checkEntityExtends(contextOf(files)))).toEqual([
      'schemas/priceWatchDraft.yaml:5:11 extends.entity: priceWatchEdit extends priceWatch itself',
    ])
  })

  it('the meta-schema: a body that extends may declare no fields of its own; any other entity declares one', () => {
    const meta = (files: Record<string, string>) => where(checkMetaSchema(contextOf(files)))
    const keys = (text: string) => text.replaceAll('label: l', 'label: entity.priceWatch')
    const bare = keys(EDIT.replace('  notify: { type: boolean }\n', '').replace('fields:\n', 'fields: {}\n'))
    expect(meta({ 'schemas/priceWatchEdit.yaml': bare })).toEqual([])
    expect(meta({ 'schemas/priceWatch.yaml': keys('entity: priceWatch\nlabel: l\nfields: {}\n') })).toEqual([
      'schemas/priceWatch.yaml:3:1 fields: must NOT have fewer than 1 properties',
    ])
    const from = bare.replace('  entity: priceWatch\n', '  from: priceWatch\n')
    expect(meta({ 'schemas/priceWatchEdit.yaml': from })).toEqual([
      'schemas/priceWatchEdit.yaml:4:1 extends: missing required property "entity"',
      'schemas/priceWatchEdit.yaml:5:9 extends.from: unknown property "from"',
    ])
  })
})
