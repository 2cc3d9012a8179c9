import { existsSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { resolveManifest } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { loadSources } from '../load.ts'
import { entityValidators } from './entityValidators.ts'

const FIXTURE = fileURLToPath(new URL('../../tests/unit/fixtures/mini', import.meta.url))
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/waybill', import.meta.url))

describe('entityValidators', () => {
  const manifest = resolveManifest(loadSources(FIXTURE))
  const schema = manifest.entities.priceWatch?.schema as object
  // A nonce in the title makes a schema set of its own, so the first call compiles and the second loads.
  const schemas = { priceWatch: { ...schema, title: `entity.priceWatch ${process.pid}-${Date.now()}` } }
  const records: unknown[] = [
    { pol: 'CNSHA', minPrice: '100', maxPrice: '200.5' },
    { pol: 'CNSHA', minPrice: '200', maxPrice: '100' },
    { minPrice: '1', maxPrice: '2' },
    { pol: 'CNSHA', minPrice: '1', maxPrice: '2', containers: [{ containerNo: 'CSQU3054384' }] },
    { pol: 'CNSHA', minPrice: 'x', maxPrice: '2', remarks: 'a\nb', extra: true },
  ]

  it('judges records as the validator compiled in memory does, errors and all', () => {
    const reference = createAjv().compile(schema)
    const cached = entityValidators(schemas).priceWatch
    if (!cached) throw new Error('no validator for priceWatch')
    for (const record of records) {
      const ok = reference(record)
      expect(cached(record), JSON.stringify(record)).toBe(ok)
      expect(cached.errors ?? null).toEqual(reference.errors ?? null)
    }
    expect(records.filter((r) => !reference(r))).toHaveLength(4)
  })

  it('keeps the compiled code, and the next call loads it', () => {
    const before = readdirSync(CACHE).filter((n) => n.startsWith('entities-'))
    const again = entityValidators(schemas).priceWatch
    expect(readdirSync(CACHE).filter((n) => n.startsWith('entities-'))).toEqual(before)
    expect(again?.(records[1])).toBe(false)
    expect(existsSync(CACHE)).toBe(true)
  })
})
