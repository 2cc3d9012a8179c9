import type { TransitionDef } from '../../model/definitions.ts'
import type { Manifest, ManifestEndpoint } from '../../model/resolve.ts'
import { type FieldRules, fieldRulesOf, ignoredOnWrite, type RuleContext } from '../../rules/uiRules.ts'
import { checkBounds } from '../http/bounds.ts'
import { ApiError } from '../http/errors.ts'
import { validateBody } from '../http/validation.ts'

/**
 * The server's side of the YAML's UI rules and transition inputs (docs/CONFIGURATION.md). What a rule hides
 * or disables for the record written is ignored on write, as a tenant overlay's locked fields are
 * (../overlays/enforce.ts): the portal never offers it, and a caller that sends it anyway changes nothing.
 * A transition with `input:` takes what its input entity describes, checked by that entity's validator.
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

/** Every site setting on: what a field would be under rules if the tenant had every feature. */
const EVERY_FEATURE: RuleContext = { settings: new Proxy({}, { get: () => true }) }

const filled = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)

/**
 * A create or update body without the fields the rules hide or disable, judged on the record as it will be
 * (the stored one, for an update, with the body over it) and the tenant's site settings (`{ setting: … }`
 * conditions). A field left out keeps its stored value. With `refuseFeatureOff` a value sent for a field only
 * a feature the tenant lacks keeps away (a booking agent while hasBookingAgent is off) is refused, in the
 * caller's language, rather than ignored: the portal never sends one, so a caller that does is told
 * (docs/DECISIONS.md "Booking agents").
 */
export function withoutRuleIgnored(
  manifest: Pick<Manifest, 'entities' | 'screens'>,
  endpoint: Pick<ManifestEndpoint, 'entity' | 'screens'>,
  body: unknown,
  stored: Data = {},
  options: { settings?: Readonly<Data>; refuseFeatureOff?: boolean } = {},
): unknown {
  const rules = endpointRules(manifest, endpoint)
  if (!rules.size || !body || typeof body !== 'object' || Array.isArray(body)) return body
  // A body beyond the schema's bounds is refused for them first, whatever the rules would leave out of it.
  const entity = manifest.entities[endpoint.entity]
  if (entity) checkBounds(entity, body)
  const record = { ...stored, ...(body as Data) }
  const ignored = ignoredOnWrite(rules, record, { settings: options.settings ?? null })
  if (!ignored.size) return body
  if (options.refuseFeatureOff) {
    const everyFeature = ignoredOnWrite(rules, record, EVERY_FEATURE)
    const off = [...ignored].filter((name) => !everyFeature.has(name) && filled((body as Data)[name]))
    if (off.length)
      throw new ApiError(
        'validation',
        {},
        off.map((field) => ({ field, message: 'agent.featureOff', params: {} })),
      )
  }
  return Object.fromEntries(Object.entries(body).filter(([name]) => !ignored.has(name)))
}

/** The transition body's `input` property: an object the transition's input entity then checks. */
export const TRANSITION_INPUT_SCHEMA = { type: 'object', maxProperties: 50 } as const

/**
 * What a transition with `input: <entity>` was given, checked with that entity's generated validator (the
 * one the portal's dialog runs): the fields the record has too, written with the state, and its `remark`,
 * kept in the history. A transition without `input:` takes none.
 */
export function transitionInput(
  manifest: Pick<Manifest, 'entities'>,
  transition: TransitionDef,
  input: unknown,
): { values: Data; remark?: string } {
  const entity = transition.input ? manifest.entities[transition.input] : undefined
  if (!entity) {
    if (input !== undefined && Object.keys(input as object).length)
      throw new ApiError('validation', {}, [{ field: 'input', message: 'validation.unknownField', params: {} }])
    return { values: {} }
  }
  const { remark, ...values } = validateBody<Data>(entity, input ?? {})
  return { values, ...(typeof remark === 'string' && remark ? { remark } : {}) }
}
