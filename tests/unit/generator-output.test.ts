import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPrecompiledValidator } from '@rjsf/validator-ajv8'
import { Validator } from '@seriousme/openapi-schema-validator'
import type { ValidateFunction } from 'ajv'
import { afterAll, describe, expect, it } from 'vitest'
import { generateProject } from '../../generator/pipeline.ts'
import type { Manifest } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { toFieldErrors } from '../../rules/messages.ts'

const ROOT = new URL('../..', import.meta.url).pathname
const FIXTURE = new URL('./fixtures/mini', import.meta.url).pathname
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`
    if (entry.isDirectory()) Object.assign(out, readTree(join(dir, entry.name), `${path}/`))
    else out[path] = readFileSync(join(dir, entry.name), 'utf8')
  }
  return out
}

describe('waybill generate', () => {
  it('writes identical bytes on two runs', async () => {
    const a = mkdtempSync(join(tmpdir(), 'waybill-gen-a-'))
    const b = mkdtempSync(join(tmpdir(), 'waybill-gen-b-'))
    dirs.push(a, b)
    const first = await generateProject(ROOT, a)
    const second = await generateProject(ROOT, b)
    expect(first.errors).toEqual([])
    expect(second.errors).toEqual([])
    const treeA = readTree(a)
    expect(Object.keys(treeA).sort()).toEqual(
      expect.arrayContaining([
        'client.ts',
        'manifest.json',
        'openapi.json',
        'permissions.ts',
        'routes.ts',
        'types.ts',
        'validators.js',
      ]),
    )
    expect(readTree(b)).toEqual(treeA)
    // Two whole generates in process: seconds on a busy machine, and this test is about bytes, not time.
  }, 60_000)

  it('emits an OpenAPI document that validates as OpenAPI 3.1', async () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'generated/openapi.json'), 'utf8'))
    expect(document.openapi).toBe('3.1.0')
    const result = await new Validator().validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })
})

/**
 * Every entity's declared examples through the generated validators, on the server's path (the
 * validator function itself) and on the portal's (rjsf's precompiled validator around the same code).
 * An entity only an answer is shaped like has no generated validator (nobody checks an answer): its
 * examples are held to its JSON Schema compiled here, by the same ajv setup.
 */
async function examplesOf(root: string, generated: string) {
  const manifest = JSON.parse(readFileSync(join(generated, 'manifest.json'), 'utf8')) as Manifest
  const validators = (await import(join(generated, 'validators.js'))) as Record<string, ValidateFunction>
  return { manifest, validators, root }
}

for (const [label, load] of [
  ['the repository', () => examplesOf(ROOT, join(ROOT, 'generated'))],
  [
    'the mini fixture',
    async () => {
      const out = join(ROOT, 'tmp-test-generated-mini')
      dirs.push(out)
      const result = await generateProject(FIXTURE, out)
      expect(result.errors).toEqual([])
      return examplesOf(FIXTURE, out)
    },
  ],
] as const) {
  describe(`declared examples of ${label}`, async () => {
    const { manifest, validators } = await load()
    const withExamples = Object.values(manifest.entities).filter(
      (e) => e.examples?.valid?.length || e.examples?.invalid?.length,
    )
    it('has entities with examples to try', () => {
      expect(withExamples.length).toBeGreaterThan(0)
    })
    const answers = createAjv()
    for (const entity of Object.values(manifest.entities)) answers.addSchema(entity.schema)
    for (const entity of withExamples) {
      const generated = validators[entity.entity]
      const validate = generated ?? (answers.getSchema(entity.entity) as ValidateFunction)
      const portal = generated ? createPrecompiledValidator(validators as never, entity.schema as never) : undefined
      const context = { fields: entity.fields }
      entity.examples?.valid?.forEach((example, i) => {
        it(`${entity.entity}: valid example ${i} passes on the server's and the portal's path`, () => {
          expect(validate(example), JSON.stringify(validate.errors)).toBe(true)
          if (portal) expect(portal.validateFormData(example as never, entity.schema as never).errors).toEqual([])
        })
      })
      entity.examples?.invalid?.forEach((example, i) => {
        it(`${entity.entity}: invalid example ${i} fails with ${example.error.message} on both paths`, () => {
          expect(validate(example.data)).toBe(false)
          expect(toFieldErrors(validate.errors, context)).toContainEqual(
            expect.objectContaining({ field: example.error.field, message: example.error.message }),
          )
          if (!portal) return
          const raw = portal.rawValidation(entity.schema as never, example.data as never)
          expect(toFieldErrors(raw.errors as never, context)).toContainEqual(
            expect.objectContaining({ field: example.error.field, message: example.error.message }),
          )
        })
      })
    }
  })
}
