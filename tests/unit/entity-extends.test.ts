import { describe, expect, it } from 'vitest'
import { sourcesOf } from '../../generator/checks/testing.ts'
import { emitTypes } from '../../generator/emit/index.ts'
import { openApiDocument } from '../../generator/emit/openapi.ts'
import { resolveManifest } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { toFieldErrors } from '../../rules/messages.ts'

/**
 * A body that extends an entity (`extends:`, docs/CONFIGURATION.md): resolved into the fields it takes and
 * its own, and compiled into one JSON Schema that the validators, the types and the OpenAPI document share.
 */

const WATCH = `entity: priceWatch
label: entity.priceWatch
fields:
  pol: { type: string, label: field.pol, required: true }
  mode: { type: enum, default: sea, values: [{ value: sea, label: l.sea }, { value: air, label: l.air }] }
  maxPrice: { type: money }
  note: { type: string, readOnly: true }
  rows:
    type: array
    items:
      box: { type: string, required: true }
      total: { type: number, readOnly: true }
states:
  field: state
  initial: open
  values: { open: { label: l.open } }
  transitions: {}
`
const EDIT = `entity: priceWatchEdit
label: entity.priceWatchEdit
stored: false
extends:
  entity: priceWatch
fields:
  notify: { type: boolean, required: true }
`
const QUERY = `entity: priceWatchQuery
label: entity.priceWatchQuery
stored: false
fields:
  pol: { type: string }
  mode: { type: string }
`

const manifestOf = (files: Record<string, string>) =>
  resolveManifest(sourcesOf({ 'schemas/priceWatch.yaml': WATCH, 'schemas/priceWatchEdit.yaml': EDIT, ...files }))

function validatorOf(files: Record<string, string> = {}, name = 'priceWatchEdit') {
  const manifest = manifestOf(files)
  const validate = createAjv().compile(manifest.entities[name]?.schema as object)
  return (data: unknown) =>
    validate(data) ? [] : toFieldErrors(validate.errors).map((e) => `${e.field || '(record)'}: ${e.message}`)
}

describe('a body that extends an entity', () => {
  it('takes every field of the entity, optional, nullable and without default, then its own', () => {
    const entity = manifestOf({}).entities.priceWatchEdit
    expect(entity?.extends).toEqual({
      entity: 'priceWatch',
      fields: ['pol', 'mode', 'maxPrice', 'note', 'rows', 'state'],
    })
    expect(Object.keys(entity?.fields ?? {})).toEqual(['pol', 'mode', 'maxPrice', 'note', 'rows', 'state', 'notify'])
    expect(entity?.fields.pol).toEqual({ type: 'string', label: 'field.pol', nullable: true })
    expect(entity?.fields.mode?.default).toBeUndefined()
    expect(entity?.fields.note).toEqual({ type: 'string', readOnly: true })
    expect(entity?.fields.notify).toEqual({ type: 'boolean', required: true })
  })

  it('accepts a partial row, null clearing a field, and any value for what it ignores', () => {
    const check = validatorOf()
    expect(check({ notify: true })).toEqual([])
    expect(check({ notify: false, pol: null, mode: null, maxPrice: null, rows: null })).toEqual([])
    // Read-only, the state, and what the engine keeps on a row: sent back by a form, ignored.
    const readBack = { note: 5, state: 'closed', createdAt: 'x', updatedAt: 1, createdBy: 2, labels: {}, history: [] }
    expect(check({ notify: true, ...readBack, id: 3, version: 1 })).toEqual([])
    expect(check({ notify: true, id: null, version: null })).toEqual([])
    expect(check({ notify: true, rows: [{ box: 'A', total: 'whatever' }] })).toEqual([])
  })

  it('refuses a wrong type per field, an unknown field, and its own required field left out', () => {
    const check = validatorOf()
    expect(check({ notify: 'yes', pol: 5, mode: 'rail', maxPrice: 1.5, rows: [{ total: 1 }], id: 0 })).toEqual([
      'notify: validation.type_boolean',
      'pol: validation.type_string',
      'mode: validation.enum',
      'maxPrice: validation.type_string',
      'rows[0].box: validation.required',
      'id: validation.minimum',
    ])
    expect(check({ notify: true, other: 1 })).toEqual(['other: validation.unknownField'])
    expect(check({ pol: 'CNSHA' })).toEqual(['notify: validation.required'])
  })

  it('takes only the fields it names', () => {
    const check = validatorOf({
      'schemas/priceWatchEdit.yaml': EDIT.replace('  entity: priceWatch\n', '  entity: priceWatch\n  fields: [pol]\n'),
    })
    expect(check({ notify: true, pol: null })).toEqual([])
    expect(check({ notify: true, maxPrice: '1' })).toEqual(['maxPrice: validation.unknownField'])
  })

  it('of an entity without a table: no id, version or row keys', () => {
    const edit = EDIT.replace('entity: priceWatch\n', 'entity: priceWatchQuery\n')
    const check = validatorOf({ 'schemas/priceWatchQuery.yaml': QUERY, 'schemas/priceWatchEdit.yaml': edit })
    expect(check({ notify: true, pol: null, mode: 'any' })).toEqual([])
    expect(check({ notify: true, id: 1 })).toEqual(['id: validation.unknownField'])
  })

  it('is typed from the same schema: nullable fields, unknown for what is ignored', async () => {
    const manifest = manifestOf({})
    const types = (await emitTypes(manifest)).content
    const edit = types.slice(types.indexOf('export interface PriceWatchEdit'))
    const body = edit.slice(0, edit.indexOf('\n}\n'))
    expect(body).toContain('pol?: (string | null)')
    expect(body).toContain('mode?: ("sea" | "air" | null)')
    expect(body).toContain('note?: unknown')
    expect(body).toContain('state?: unknown')
    expect(body).toContain('id?: (number | null)')
    expect(body).toContain('notify: boolean')
  })

  it('is documented from the same schema: read-only properties, null among the types', () => {
    const area = `area: watch
label: l
screens: []
endpoints:
  - { name: watchEdit, method: POST, path: /watch/edit, summary: s, body: priceWatchEdit, response: none }
`
    type Body = { properties: Record<string, object>; required: string[] }
    const document = openApiDocument(manifestOf({ 'screens/watch.yaml': area })) as {
      paths: Record<string, { post: { requestBody: object } }>
      components: { schemas: Record<string, Body> }
    }
    expect(document.paths['/api/watch/edit']?.post.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/priceWatchEdit' } } },
    })
    const schema = document.components.schemas.priceWatchEdit as Body
    expect(schema.properties.pol).toMatchObject({ type: ['string', 'null'] })
    expect(schema.properties.mode).toMatchObject({ enum: ['sea', 'air', null] })
    expect(schema.properties.note).toMatchObject({ readOnly: true })
    expect(schema.required).toEqual(['notify'])
  })
})
