import { describe, expect, it } from 'vitest'
import { checkMetaSchema, validFiles } from './metaSchema.ts'
import { ACCESS, contextOf, printed, sourcesOf, where } from './testing.ts'

const PORT = `entity: port
label: entity.port
fields:
  code: { type: string, label: field.code }
`

describe('checkMetaSchema', () => {
  it('finds nothing wrong with files of the right shape', () => {
    expect(where(checkMetaSchema(contextOf({ 'schemas/port.yaml': PORT, 'screens/access.yaml': ACCESS })))).toEqual([])
  })

  it('an unknown property, with the allowed ones and the nearest spelling', () => {
    const context = contextOf({ 'schemas/port.yaml': PORT.replace('label: field.code', 'lable: field.code') })
    const [error] = checkMetaSchema(context)
    expect(where(checkMetaSchema(context))).toEqual([
      'schemas/port.yaml:4:32 fields.code.lable: unknown property "lable"',
    ])
    expect(error?.fix).toBe('did you mean "label"?')
    expect(error?.expected).toMatch(/^one of type, label, /)
  })

  it('a missing required property, at the object that lacks it', () => {
    expect(
      printed(checkMetaSchema(contextOf({ 'schemas/port.yaml': PORT.replace('label: entity.port\n', '') }))),
    ).toEqual(['schemas/port.yaml:1:1 missing required property "label"\n    fix: add label:'])
  })

  it('a value outside an enumeration, with a suggestion', () => {
    const [error] = checkMetaSchema(contextOf({ 'schemas/port.yaml': PORT.replace('type: string', 'type: strng') }))
    expect(where(error ? [error] : [])).toEqual([
      'schemas/port.yaml:4:17 fields.code.type: "strng" is not allowed here',
    ])
    expect(error?.fix).toBe('did you mean "string"?')
  })

  it('YAML that cannot be read is reported where the parser stopped, and the file is not checked further', () => {
    const sources = sourcesOf({ 'schemas/port.yaml': 'entity: port\nlabel: [unclosed\n' })
    expect(sources.files).toEqual([])
    const errors = checkMetaSchema(contextOf({ 'schemas/port.yaml': 'entity: port\nlabel: [unclosed\n' }))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ file: 'schemas/port.yaml', line: 3, path: '' })
  })

  it('only the files that pass are cross-checked', () => {
    const sources = sourcesOf({ 'schemas/port.yaml': PORT, 'schemas/bad.yaml': 'entity: bad\n' })
    expect(validFiles(sources).map((f) => f.path)).toEqual(['schemas/port.yaml'])
  })
})
