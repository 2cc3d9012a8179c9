import type { ValidateFunction } from 'ajv'
import type { TransitionDef } from '../../model/definitions.ts'
import { fieldSchema } from '../../model/jsonschema.ts'
import type { Manifest, ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { toFieldErrors } from '../../rules/messages.ts'
import { type FieldRules, fieldRulesOf, ignoredOnWrite } from '../../rules/uiRules.ts'
import { ApiError } from '../http/errors.ts'

/**
 * The server's side of the YAML's UI rules and transition inputs (docs/CONFIGURATION.md). What a rule hides
 * or disables for the record written is ignored on write, as a tenant overlay's locked fields are
 * (../overlays/enforce.ts): the portal never offers it, and a caller that sends it anyway changes nothing.
 * A transition with `input:` takes exactly those fields, each required and validated as the field is.
 */

type Data = Record<string, unknown>

const rulesByEndpoint = new WeakMap<object, FieldRules>()

/** The rules over an endpoint's writes: its entity's field rules and the form sections of the screens binding it. */
export function endpointRules(
  manifest: Pick<Manifest, 'entities' | 'screens'>,
  endpoint: Pick<ManifestEndpoint, 'entity' | 'screens'>,
): FieldRules {
  let rules = rulesByEndpoint.get(endpoint)
  if (!rules) {
    const entity = manifest.entities[endpoint.entity]
    const sections = manifest.screens
      .filter((s) => endpoint.screens.includes(s.name) && s.entity === endpoint.entity)
      .flatMap((s) => s.form?.sections ?? [])
    rules = fieldRulesOf(entity?.fields ?? {}, sections)
    rulesByEndpoint.set(endpoint, rules)
  }
  return rules
}

/**
 * A create or update body without the fields the rules hide or disable, judged on the record as it will be
 * (the stored one, for an update, with the body over it). A field left out keeps its stored value.
 */
export function withoutRuleIgnored(
  manifest: Pick<Manifest, 'entities' | 'screens'>,
  endpoint: Pick<ManifestEndpoint, 'entity' | 'screens'>,
  body: unknown,
  stored: Data = {},
): unknown {
  const rules = endpointRules(manifest, endpoint)
  if (!rules.size || !body || typeof body !== 'object' || Array.isArray(body)) return body
  const ignored = ignoredOnWrite(rules, { ...stored, ...(body as Data) })
  if (!ignored.size) return body
  return Object.fromEntries(Object.entries(body).filter(([name]) => !ignored.has(name)))
}

const ajv = createAjv()
const inputValidators = new WeakMap<TransitionDef, ValidateFunction>()

/** The transition body's `input` property: an object the transition's own declaration then checks. */
export const TRANSITION_INPUT_SCHEMA = { type: 'object', maxProperties: 10 } as const

/**
 * The values a transition writes besides the state: its `input:` fields from the body's `input`, each
 * required (an empty text counts as missing) and valid as the field; anything else sent is refused.
 */
export function transitionInput(
  manifest: Pick<Manifest, 'entities'>,
  entity: ManifestEntity,
  transition: TransitionDef,
  input: unknown,
): Data {
  const names = transition.input ?? []
  if (!names.length) {
    if (input !== undefined && !(typeof input === 'object' && input && !Object.keys(input).length))
      throw new ApiError('validation', {}, [{ field: 'input', message: 'validation.unknownField', params: {} }])
    return {}
  }
  let validate = inputValidators.get(transition)
  if (!validate) {
    validate = ajv.compile({
      type: 'object',
      additionalProperties: false,
      required: names,
      properties: Object.fromEntries(
        names.map((name) => [name, fieldSchema(entity.fields[name] ?? { type: 'string' }, manifest.entities)]),
      ),
    })
    inputValidators.set(transition, validate)
  }
  const given = input && typeof input === 'object' && !Array.isArray(input) ? (input as Data) : {}
  const data = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null && value !== ''))
  if (!validate(data)) throw new ApiError('validation', {}, toFieldErrors(validate.errors, { fields: entity.fields }))
  return data
}
