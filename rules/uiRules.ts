import type { UiCondition, UiRule } from '../model/definitions.ts'

/**
 * UI rules as data (issue #19 point 3), in the manner of JSON Forms' `rule: { effect, condition }`: a field
 * (entity YAML) or a form section (screen YAML) says `rules: [{ effect: show | hide | enable | disable,
 * when: <condition> }]`. One evaluator, no `eval`: the portal draws what it answers (hidden fields not
 * drawn, disabled ones read-only), and the server ignores on write what it answers for the record written.
 */

type Data = Record<string, unknown>

/**
 * What a condition reads besides the record: the tenant's site settings, for `{ setting: name }` (a feature
 * flag such as hasBookingAgent). The portal passes what GET site/settings answers, the server the tenant's
 * stored settings; without them every setting reads as off, so a field shown only with a feature stays away.
 */
export interface RuleContext {
  settings?: Readonly<Record<string, unknown>> | null
}

/** What rules say about one element (a field or a section) for a record. */
export interface UiState {
  hidden: boolean
  disabled: boolean
}

/** The rules that govern each field: its own (entity) and those of the sections that show it (screens). */
export type FieldRules = ReadonlyMap<string, readonly UiRule[]>

/** Deepest nesting of all/any/not a condition may have (the meta-schema and the checks hold it too). */
export const MAX_CONDITION_DEPTH = 4

const filled = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)

/** Primitive equality; a list value equals nothing but matches `in` by any of its items. */
const same = (a: unknown, b: unknown) => a === b

/** How deeply all/any/not nest in a condition (a leaf is 0). */
export function conditionDepth(condition: UiCondition): number {
  if ('all' in condition) return 1 + Math.max(0, ...condition.all.map(conditionDepth))
  if ('any' in condition) return 1 + Math.max(0, ...condition.any.map(conditionDepth))
  if ('not' in condition) return 1 + conditionDepth(condition.not)
  return 0
}

/** Whether a condition holds for a record. One nested too deep, or of an unknown shape, never holds (the checks refuse both). */
export function conditionHolds(condition: UiCondition, data: Data, context: RuleContext = {}): boolean {
  return conditionDepth(condition) <= MAX_CONDITION_DEPTH && holds(condition, data, context)
}

function holds(condition: UiCondition, data: Data, context: RuleContext): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, data, context))
  if ('any' in condition) return condition.any.some((c) => holds(c, data, context))
  if ('not' in condition) return !holds(condition.not, data, context)
  if ('setting' in condition) return context.settings?.[condition.setting] === true
  const value = data[condition.field]
  if ('filled' in condition) return filled(value) === condition.filled
  if ('equals' in condition) return same(value, condition.equals)
  if ('in' in condition) {
    const values = Array.isArray(value) ? value : [value]
    return values.some((v) => condition.in.some((allowed) => same(v, allowed)))
  }
  return false
}

/**
 * An element's state under its rules: hidden while a `hide` rule's condition holds or a `show` rule's does
 * not; disabled likewise with `disable` and `enable`. Several rules add up (any one hides or disables).
 */
export function ruleState(rules: readonly UiRule[] | undefined, data: Data, context: RuleContext = {}): UiState {
  let hidden = false
  let disabled = false
  for (const rule of rules ?? []) {
    const holds = conditionHolds(rule.when, data, context)
    if (rule.effect === 'hide' ? holds : rule.effect === 'show' ? !holds : false) hidden = true
    if (rule.effect === 'disable' ? holds : rule.effect === 'enable' ? !holds : false) disabled = true
  }
  return { hidden, disabled }
}

/** The rules of every field: its own, then those of each section that shows it. */
export function fieldRulesOf(
  fields: Readonly<Record<string, { rules?: UiRule[] }>>,
  sections: readonly { fields: readonly string[]; rules?: UiRule[] }[] = [],
): Map<string, UiRule[]> {
  const out = new Map<string, UiRule[]>()
  const add = (name: string, rules: readonly UiRule[] | undefined) => {
    if (rules?.length) out.set(name, [...(out.get(name) ?? []), ...rules])
  }
  for (const [name, field] of Object.entries(fields)) add(name, field.rules)
  for (const section of sections) for (const name of section.fields) add(name, section.rules)
  return out
}

/** The fields hidden or disabled for a record (each with its state); fields without rules are left out. */
export function inactiveFields(rules: FieldRules, data: Data, context: RuleContext = {}): Map<string, UiState> {
  const out = new Map<string, UiState>()
  for (const [name, list] of rules) {
    const state = ruleState(list, data, context)
    if (state.hidden || state.disabled) out.set(name, state)
  }
  return out
}

/**
 * The record as rules let it be written: without the values of fields the rules hide or disable. A field
 * left out may govern another (the pick-up address shown only while pick-up is ticked, itself disabled
 * until the route is chosen), so this repeats until nothing more goes; it only ever removes, so it ends
 * within one round per field. The same record again gives itself back.
 */
export function withoutInactive(rules: FieldRules, data: Data, context: RuleContext = {}): Data {
  let current = data
  for (let round = 0; round <= rules.size; round++) {
    const gone = [...inactiveFields(rules, current, context).keys()].filter((name) => Object.hasOwn(current, name))
    if (!gone.length) return current
    current = Object.fromEntries(Object.entries(current).filter(([name]) => !gone.includes(name)))
  }
  return current
}

/** The names of the fields a write leaves alone: inactive for the record written, as `withoutInactive` sees it. */
export function ignoredOnWrite(rules: FieldRules, data: Data, context: RuleContext = {}): Set<string> {
  if (!rules.size) return new Set()
  const kept = withoutInactive(rules, data, context)
  return new Set(Object.keys(data).filter((name) => !Object.hasOwn(kept, name) && rules.has(name)))
}
