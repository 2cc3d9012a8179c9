import { describe, expect, it } from 'vitest'
import { checkLocaleKeys, localeKeys } from './localeKeys.ts'
import { contextOf, everyLanguage, printed } from './testing.ts'

const PORT = `entity: port
label: entity.port
fields:
  code: { type: string, label: field.code, message: rule.unlocode }
examples:
  invalid:
    - { data: { code: x }, error: { field: code, message: not.a.key } }
`
const TEXTS = { 'entity.port': 'Port', 'field.code': 'Code', 'rule.unlocode': 'A UN/LOCODE' }

describe('localeKeys', () => {
  it('finds label, title, message and confirm values, and nothing under examples', () => {
    expect(localeKeys({ label: 'a', x: [{ title: 'b', confirm: 'c' }], examples: { message: 'd' } })).toEqual([
      { key: 'a', path: ['label'] },
      { key: 'b', path: ['x', 0, 'title'] },
      { key: 'c', path: ['x', 0, 'confirm'] },
    ])
  })
})

describe('checkLocaleKeys', () => {
  it('finds nothing wrong when every key is there in every language', () => {
    expect(checkLocaleKeys(contextOf({ 'schemas/port.yaml': PORT }, { locales: everyLanguage(TEXTS) }))).toEqual([])
  })

  it('a key missing in some languages names them and the files to add it to', () => {
    const locales = everyLanguage(TEXTS)
    delete locales.ja?.['field.code']
    delete locales.es?.['field.code']
    expect(printed(checkLocaleKeys(contextOf({ 'schemas/port.yaml': PORT }, { locales })))).toEqual([
      'schemas/port.yaml:4:32 fields.code.label: locale key "field.code" is missing in ja, es\n' +
        '    expected: a string at "code" in locales/<lang>/field.json\n' +
        '    fix: add it to locales/ja/field.json, locales/es/field.json',
    ])
  })
})
