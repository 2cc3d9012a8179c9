import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'

/**
 * The published DCSA definitions (`../shared/standards/dcsa/` beside the repository, Apache 2.0), compiled to
 * validators of their `components.schemas` entries. They are OpenAPI 3.0 schemas with draft-04 semantics
 * (boolean exclusiveMinimum, `nullable`), so they are compiled by ajv's draft-04 build, with each file's
 * components under its own id so that `$ref: '#/components/schemas/…'` resolves inside that file; OpenAPI's
 * own words (discriminator, example) are not validation keywords and are passed over (`strict: false`),
 * `nullable` is ajv's own OpenAPI keyword, and the `format`s are checked (ajv-formats).
 */

const FOLDER = fileURLToPath(new URL('../../../shared/standards/dcsa/', import.meta.url))

export const DCSA_FILES = {
  booking: 'BKG_v2.0.5.yaml',
  ebl: 'EBL_v3.0.4.yaml',
  ovs: 'OVS_v3.0.2.yaml',
  tnt: 'TNT_v2.2.0.yaml',
} as const

let ajv: Ajv | undefined
const validators = new Map<string, ValidateFunction>()

function compiler(): Ajv {
  if (ajv) return ajv
  ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  for (const file of Object.values(DCSA_FILES)) {
    const document = parse(readFileSync(`${FOLDER}${file}`, 'utf8')) as { components: object }
    ajv.addSchema({ id: file, components: document.components })
  }
  return ajv
}

/** The validator of one schema of one file, e.g. `dcsaValidator('ebl', 'CreateShippingInstructions')`. */
export function dcsaValidator(file: keyof typeof DCSA_FILES, schema: string): ValidateFunction {
  const key = `${file}#${schema}`
  let validate = validators.get(key)
  if (!validate) {
    validate = compiler().compile({ $ref: `${DCSA_FILES[file]}#/components/schemas/${schema}` })
    validators.set(key, validate)
  }
  return validate
}

/** The errors of a document against a schema, as readable lines ([] when it conforms). */
export function dcsaErrors(file: keyof typeof DCSA_FILES, schema: string, document: unknown): string[] {
  const validate = dcsaValidator(file, schema)
  if (validate(document)) return []
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''}`)
}
