import { type OutputUnit, type Schema, Validator } from '@cfworker/json-schema'

/**
 * A tenant overlay's tighter rules checked in the browser without `eval` (a strict Content-Security-Policy
 * holds): @cfworker/json-schema interprets the schema. The base rules stay with the generated,
 * precompiled validators; these run beside them, and the server checks both again.
 */

export interface RuleFailure {
  field: string
  /** A validation.* locale key and its parameters, as rules/messages.ts uses them. */
  message: string
  params: Record<string, unknown>
}

const validators = new Map<string, Validator>()

function validatorFor(schema: Schema): Validator {
  const key = JSON.stringify(schema)
  let validator = validators.get(key)
  if (!validator) {
    validator = new Validator(schema, '2020-12', false)
    validators.set(key, validator)
  }
  return validator
}

/** The bound the failed keyword names, read from the field's rule in the schema. */
function limitOf(schema: Record<string, unknown>, field: string, keyword: string): unknown {
  const parts = [schema, ...((schema.allOf as Record<string, unknown>[] | undefined) ?? [])]
  const bounds = parts
    .map((part) => (part.properties as Record<string, Record<string, unknown>> | undefined)?.[field]?.[keyword])
    .filter((value) => value !== undefined)
  if (!bounds.length) return undefined
  if (keyword === 'maxLength' || keyword === 'maximum') return Math.min(...(bounds as number[]))
  if (keyword === 'minLength' || keyword === 'minimum') return Math.max(...(bounds as number[]))
  return bounds[0]
}

function failure(schema: Record<string, unknown>, error: OutputUnit): RuleFailure | null {
  const field = decodeURIComponent(error.instanceLocation.replace(/^#\/?/, '').split('/')[0] ?? '')
  switch (error.keyword) {
    case 'required': {
      const missing = /"([^"]+)"/.exec(error.error)?.[1] ?? field
      return { field: missing, message: 'validation.required', params: {} }
    }
    case 'maxLength':
    case 'minLength':
    case 'maximum':
    case 'minimum':
      return { field, message: `validation.${error.keyword}`, params: { limit: limitOf(schema, field, error.keyword) } }
    case 'pattern':
      return { field, message: 'validation.pattern', params: {} }
    case 'enum':
      return {
        field,
        message: 'validation.enum',
        params: { values: [limitOf(schema, field, 'enum') ?? []].flat().join(', ') },
      }
    default:
      return null
  }
}

/** What the record fails of the overlay's rules, one message per field. Emptied fields count as missing. */
export function overlayRuleFailures(
  schema: Record<string, unknown> | null | undefined,
  record: Record<string, unknown>,
): RuleFailure[] {
  if (!schema) return []
  const data = Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== null && value !== '' && value !== undefined),
  )
  const result = validatorFor(schema).validate(data)
  if (result.valid) return []
  const seen = new Set<string>()
  const failures: RuleFailure[] = []
  for (const error of result.errors) {
    const found = failure(schema, error)
    if (!found || seen.has(found.field)) continue
    seen.add(found.field)
    failures.push(found)
  }
  return failures
}
