import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import * as validators from '../../generated/validators.js'
import { formatError } from '../../generator/errors.ts'
import { checkProject } from '../../generator/pipeline.ts'
import type { EntityDef } from '../../model/definitions.ts'
import { entitySchema } from '../../model/jsonschema.ts'
import { createAjv } from '../../rules/ajv.ts'
import { excludedWhen } from '../../rules/keywords.ts'
import { toFieldErrors } from '../../rules/messages.ts'

/** The rule kind `excludedWhen` (schemas/inquiry.yaml: Incoterms 2020 sea-only terms refused for air, rail, truck). */
const seaOnly = {
  field: 'tradeTerm',
  values: ['FAS', 'FOB', 'CFR', 'CIF'],
  when: { field: 'transportModes', includesAny: [2, 3, 4] },
  message: 'rule.tradeTermSeaOnly',
}

describe('excludedWhen', () => {
  it('refuses a listed value while the other field (a list or one value) holds a listed one', () => {
    expect(excludedWhen({ tradeTerm: 'FOB', transportModes: [2] }, seaOnly)).toBe(false)
    expect(excludedWhen({ tradeTerm: 'CIF', transportModes: [1, 4] }, seaOnly)).toBe(false)
    expect(excludedWhen({ tradeTerm: 'FOB', transportModes: 3 }, seaOnly)).toBe(false)
  })
  it('accepts sea with a sea-only term, another term for air, and absent values', () => {
    expect(excludedWhen({ tradeTerm: 'FOB', transportModes: [1] }, seaOnly)).toBe(true)
    expect(excludedWhen({ tradeTerm: 'FCA', transportModes: [2, 3] }, seaOnly)).toBe(true)
    expect(excludedWhen({ transportModes: [2] }, seaOnly)).toBe(true)
    expect(excludedWhen({ tradeTerm: 'FOB' }, seaOnly)).toBe(true)
  })
})

describe('excludedWhen in the validators', () => {
  const entity: EntityDef = {
    entity: 'termCheck',
    label: 'entity.termCheck',
    fields: {
      tradeTerm: { type: 'enum', values: ['FCA', 'FOB'].map((value) => ({ value, label: value })) },
      transportModes: { type: 'enum', multiple: true, values: [1, 2].map((value) => ({ value, label: 'x' })) },
    },
    rules: [{ kind: 'excludedWhen', ...seaOnly }],
  } as EntityDef

  it('compiles to the wbExcludedWhen keyword, reported at the rule field with its message', () => {
    const schema = entitySchema(entity, { termCheck: entity })
    expect(schema.allOf).toEqual([{ wbExcludedWhen: { kind: 'excludedWhen', ...seaOnly } }])
    const validate = createAjv().compile(schema)
    expect(validate({ tradeTerm: 'FOB', transportModes: [1] })).toBe(true)
    expect(validate({ tradeTerm: 'FOB', transportModes: [1, 2] })).toBe(false)
    expect(toFieldErrors(validate.errors)).toEqual([
      expect.objectContaining({ field: 'tradeTerm', message: 'rule.tradeTermSeaOnly' }),
    ])
  })

  it('runs in the generated inquiry validator, the one the form and the server share', () => {
    const validate = (validators as unknown as Record<string, (data: unknown) => boolean>).inquiry as ((
      data: unknown,
    ) => boolean) & { errors?: unknown }
    expect(validate).toBeTypeOf('function')
    validate({ tradeTerm: 'FOB', transportModes: [2] })
    const errors = toFieldErrors(validate.errors as never)
    expect(errors).toContainEqual(expect.objectContaining({ field: 'tradeTerm', message: 'rule.tradeTermSeaOnly' }))
    validate({ tradeTerm: 'FOB', transportModes: [1] })
    expect(toFieldErrors(validate.errors as never).map((e) => e.message)).not.toContain('rule.tradeTermSeaOnly')
  })
})

describe('waybill check of an excludedWhen rule', () => {
  const FIXTURE = new URL('./fixtures/mini', import.meta.url).pathname
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  const checkWithRule = (rule: string) => {
    const root = mkdtempSync(join(tmpdir(), 'waybill-excluded-'))
    made.push(root)
    cpSync(FIXTURE, root, { recursive: true })
    const path = join(root, 'schemas/priceWatch.yaml')
    const text = readFileSync(path, 'utf8')
      .replace(
        '  remarks:',
        '  term: { type: enum, label: field.pol, values: [{ value: FCA, label: field.pol }, { value: FOB, label: field.pol }] }\n' +
          '  modes: { type: enum, multiple: true, label: field.pod, values: [{ value: 1, label: field.pol }, { value: 2, label: field.pod }] }\n' +
          '  remarks:',
      )
      .replace('rules:\n', `rules:\n  - ${rule}\n`)
    writeFileSync(path, text)
    return checkProject(root).errors.map(formatError)
  }

  it('accepts fields and values that exist', () => {
    expect(
      checkWithRule(
        '{ kind: excludedWhen, field: term, values: [FOB], when: { field: modes, includesAny: [2] }, message: rule.polOrPod }',
      ),
    ).toEqual([])
  })

  it('names a value the field cannot take, and an unknown field', () => {
    const errors = checkWithRule(
      '{ kind: excludedWhen, field: term, values: [FOBB], when: { field: mode, includesAny: [2] }, message: rule.polOrPod }',
    )
    expect(errors.some((e) => e.includes('rules[0].values[0]: "FOBB" is not a value of priceWatch.term'))).toBe(true)
    expect(errors.some((e) => e.includes('rules[0].when.field: unknown field "mode" of priceWatch'))).toBe(true)
  })

  it('refuses a rule without its values (meta-schema)', () => {
    const errors = checkWithRule(
      '{ kind: excludedWhen, field: term, when: { field: modes, includesAny: [2] }, message: rule.polOrPod }',
    )
    expect(errors.length).toBeGreaterThan(0)
  })
})
