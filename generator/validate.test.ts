import { describe, expect, it } from 'vitest'
import type { Check } from './checks/context.ts'
import { CHECKS } from './checks/index.ts'
import { sourcesOf, where } from './checks/testing.ts'
import { validateSources } from './validate.ts'

const PORT = 'entity: port\nlabel: entity.port\nfields:\n  code: { type: string }\n'

describe('validateSources composes the checks', () => {
  it('runs every check on the files that passed their meta-schema, and prints by file, line and column', () => {
    const seen: string[][] = []
    const late: Check = ({ files }) => {
      seen.push(files.map((f) => f.path))
      return [{ file: 'schemas/port.yaml', line: 3, col: 1, path: 'fields', message: 'second' }]
    }
    const early: Check = () => [{ file: 'schemas/port.yaml', line: 1, col: 9, path: 'entity', message: 'first' }]
    const sources = sourcesOf({ 'schemas/port.yaml': PORT, 'schemas/bad.yaml': 'entity: bad\n' })
    expect(where(validateSources(sources, [late, early]))).toEqual([
      'schemas/port.yaml:1:9 entity: first',
      'schemas/port.yaml:3:1 fields: second',
    ])
    expect(seen).toEqual([['schemas/port.yaml']])
  })

  it('the default list is every check of generator/checks, meta-schema first', () => {
    expect(CHECKS[0]?.name).toBe('checkMetaSchema')
    expect(CHECKS.length).toBeGreaterThanOrEqual(14)
    const sources = sourcesOf({ 'schemas/port.yaml': PORT, 'schemas/bad.yaml': 'entity: bad\n' })
    expect(where(validateSources(sources)).filter((e) => e.startsWith('schemas/bad.yaml'))).toEqual([
      'schemas/bad.yaml:1:1 missing required property "label"',
    ])
    expect(where(validateSources(sources))).toContain('screens/access.yaml:1:1 the permission catalogue is missing')
  })
})
