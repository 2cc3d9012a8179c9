import type { AreaDef, EntityDef, FieldDef, UiCondition, UiRule } from '../../model/definitions.ts'
import { MAX_CONDITION_DEPTH } from '../../rules/uiRules.ts'
import { type ConfigError, didYouMean, formatPath, listOf } from '../errors.ts'
import { locate, type SourceFile, type Sources } from '../load.ts'

/**
 * Checks of UI rules (fields' `rules:` in schemas/, form sections' `rules:` in screens/) and of transitions'
 * `input:`, beyond their meta-schemas: every condition names a field of the entity, compares an enum with
 * its own values, nests no deeper than the evaluator reads, and never governs the field it reads (a field
 * disabled until it is filled could never be filled). A transition's input is a request shape it may write.
 */

type Path = (string | number)[]
type Problem = Omit<ConfigError, 'file' | 'line' | 'col'> & { at: Path }

const SYSTEM_FIELDS = ['id', 'version', 'createdAt', 'updatedAt', 'createdBy']

/** The fields a condition reads, each with its path inside the condition. */
function conditionFields(
  condition: UiCondition,
  path: Path,
  depth = 0,
): { field: string; setting?: string; at: Path; depth: number }[] {
  if ('all' in condition) return condition.all.flatMap((c, i) => conditionFields(c, [...path, 'all', i], depth + 1))
  if ('any' in condition) return condition.any.flatMap((c, i) => conditionFields(c, [...path, 'any', i], depth + 1))
  if ('not' in condition) return conditionFields(condition.not, [...path, 'not'], depth + 1)
  if ('setting' in condition) return [{ field: '', setting: condition.setting, at: path, depth }]
  return [{ field: condition.field, at: path, depth }]
}

/** The site settings a `{ setting: … }` condition may read: the boolean fields of GET site/settings' answer. */
export function flagSettings(entities: ReadonlyMap<string, EntityDef>): string[] {
  return Object.entries(entities.get('siteSettingsView')?.fields ?? {})
    .filter(([, field]) => field.type === 'boolean')
    .map(([name]) => name)
}

/** A `{ setting: … }` leaf naming no boolean site setting, as a problem. */
function settingProblem(setting: string, path: Path, settings: readonly string[]): Problem | undefined {
  if (settings.includes(setting)) return undefined
  const guess = didYouMean(setting, [...settings])
  return {
    at: [...path, 'setting'],
    path: formatPath([...path, 'setting']),
    message: `"${setting}" is not a boolean site setting the portal reads`,
    expected: `one of ${listOf(settings)} (boolean fields of schemas/siteSettingsView.yaml)`,
    fix: guess ? `did you mean ${guess}?` : 'add it to schemas/siteSettingsView.yaml as a boolean',
  }
}

/** The values a leaf condition compares with, if any. */
function comparedValues(condition: UiCondition): { key: 'equals' | 'in'; values: unknown[] } | undefined {
  if ('equals' in condition) return { key: 'equals', values: [condition.equals] }
  if ('in' in condition) return { key: 'in', values: condition.in }
  return undefined
}

function leafAt(condition: UiCondition, path: Path): UiCondition {
  let node: unknown = condition
  for (const step of path) node = (node as Record<string | number, unknown>)[step]
  return node as UiCondition
}

/** The problems of one list of rules over an entity's fields; `governed` are the fields the rules act on. */
export function checkRules(
  rules: readonly UiRule[],
  fields: Readonly<Record<string, FieldDef>>,
  entity: string,
  governed: readonly string[],
  at: Path,
  settings: readonly string[] = [],
): Problem[] {
  const problems: Problem[] = []
  const known = [...Object.keys(fields), ...SYSTEM_FIELDS]
  rules.forEach((rule, i) => {
    for (const leaf of conditionFields(rule.when, [])) {
      const path = [...at, i, 'when', ...leaf.at]
      if (leaf.depth > MAX_CONDITION_DEPTH) {
        problems.push({
          at: path,
          path: formatPath(path),
          message: `the condition nests ${leaf.depth} levels of all/any/not`,
          expected: `at most ${MAX_CONDITION_DEPTH}`,
          fix: 'flatten it: all: and any: take lists',
        })
        continue
      }
      if (leaf.setting !== undefined) {
        const problem = settingProblem(leaf.setting, path, settings)
        if (problem) problems.push(problem)
        continue
      }
      if (!known.includes(leaf.field)) {
        const guess = didYouMean(leaf.field, known)
        problems.push({
          at: [...path, 'field'],
          path: formatPath([...path, 'field']),
          message: `unknown field "${leaf.field}" of entity ${entity}`,
          expected: `one of ${listOf(known)}`,
          ...(guess ? { fix: `did you mean ${guess}?` } : {}),
        })
        continue
      }
      if (governed.includes(leaf.field)) {
        problems.push({
          at: [...path, 'field'],
          path: formatPath([...path, 'field']),
          message: `the rule reads "${leaf.field}", which it ${rule.effect === 'show' || rule.effect === 'hide' ? 'shows or hides' : 'enables or disables'} itself`,
          expected: 'a condition on other fields',
          fix: `move ${leaf.field} out of what the rule governs (e.g. to a section of its own)`,
        })
        continue
      }
      const compared = comparedValues(leafAt(rule.when, leaf.at))
      const values = fields[leaf.field]?.values
      if (compared && values) {
        const allowed = values.map((v) => v.value)
        compared.values.forEach((value, k) => {
          if (allowed.includes(value as string | number)) return
          const valuePath = compared.key === 'in' ? [...path, 'in', k] : [...path, 'equals']
          problems.push({
            at: valuePath,
            path: formatPath(valuePath),
            message: `${JSON.stringify(value)} is not a value of ${leaf.field}`,
            expected: `one of ${listOf(allowed.map((v) => JSON.stringify(v)))}`,
            fix: 'write the value as the field declares it (numbers unquoted)',
          })
        })
      }
    }
  })
  return problems
}

/**
 * A transition's `input:` names a request entity (stored: false) whose fields are `remark` (the history's
 * remark) or fields of the record of the same type that the transition may write: not the state, not system
 * fields, not numbered, files or sub-tables.
 */
export function checkTransitionInput(def: EntityDef, entities: ReadonlyMap<string, EntityDef>): Problem[] {
  const problems: Problem[] = []
  for (const [name, transition] of Object.entries(def.states?.transitions ?? {})) {
    if (!transition.input) continue
    const at = ['states', 'transitions', name, 'input']
    const input = entities.get(transition.input)
    if (input?.stored !== false) {
      const requests = [...entities.values()].filter((e) => e.stored === false).map((e) => e.entity)
      const guess = didYouMean(transition.input, requests)
      problems.push({
        at,
        path: formatPath(at),
        message: input
          ? `${transition.input} is stored: a transition's input is a request shape`
          : `unknown entity "${transition.input}"`,
        expected: 'an entity with stored: false, e.g. { reason: … } or { approvedPrice: …, remark: … }',
        ...(guess
          ? { fix: `did you mean ${guess}?` }
          : { fix: `add schemas/${transition.input}.yaml with stored: false` }),
      })
      continue
    }
    for (const [field, declared] of Object.entries(input.fields)) {
      if (field === 'remark') continue
      const own = def.fields[field]
      const problem = !own
        ? `${transition.input}.${field} is not a field of ${def.entity}`
        : field === def.states?.field
          ? `${transition.input}.${field} is the state: the transition itself sets it`
          : own.numbering || own.type === 'file' || own.type === 'array'
            ? `${def.entity}.${field} is ${own.numbering ? 'numbered by the server' : `a ${own.type} field`}: a transition does not write it`
            : own.type !== declared.type
              ? `${transition.input}.${field} is ${declared.type}, ${def.entity}.${field} is ${own.type}`
              : undefined
      if (problem)
        problems.push({
          at,
          path: formatPath(at),
          message: problem,
          expected: `remark (kept in the history) or fields of ${def.entity} it may write, of the same type`,
          fix: `rename or remove ${field} in ${transition.input}`,
        })
    }
  }
  return problems
}

/** The searchParams keys of a screen's search: what a `clearWhen` condition may read. */
function searchKeys(search: NonNullable<AreaDef['screens'][number]['search']>): string[] {
  return search.flatMap((s) =>
    s.op === 'between' || s.op === 'dateRange'
      ? (s.params ?? [`${s.field}Begin`, `${s.field}End`])
      : [s.params?.[0] ?? s.field],
  )
}

/** A search entry's `clearWhen` reads the searchParams: each field it names is a key of the screen's search. */
export function checkClearWhen(search: NonNullable<AreaDef['screens'][number]['search']>, at: Path): Problem[] {
  const keys = searchKeys(search)
  const problems: Problem[] = []
  search.forEach((entry, i) => {
    if (!entry.clearWhen) return
    for (const leaf of conditionFields(entry.clearWhen, [...at, i, 'clearWhen'])) {
      if (leaf.depth > MAX_CONDITION_DEPTH)
        problems.push({
          at: leaf.at,
          path: formatPath(leaf.at),
          message: `the condition nests ${leaf.depth} deep`,
          expected: `at most ${MAX_CONDITION_DEPTH}`,
        })
      if (!keys.includes(leaf.field)) {
        const guess = didYouMean(leaf.field, keys)
        problems.push({
          at: [...leaf.at, 'field'],
          path: formatPath([...leaf.at, 'field']),
          message: `unknown search key "${leaf.field}"`,
          expected: `one of ${listOf(keys)}`,
          ...(guess ? { fix: `did you mean ${guess}?` } : {}),
        })
      }
    }
  })
  return problems
}

const located = (file: SourceFile, problems: Problem[]): ConfigError[] =>
  problems.map(({ at, ...problem }) => ({ file: file.path, ...locate(file, at), ...problem }))

/** Every UI rule and transition input of the configuration, checked. */
export function uiRuleErrors(sources: Sources): ConfigError[] {
  const entities = new Map<string, EntityDef>()
  for (const file of sources.files)
    if (file.kind === 'entity') entities.set((file.data as EntityDef).entity, file.data as EntityDef)
  const settings = flagSettings(entities)
  const errors: ConfigError[] = []
  for (const file of sources.files) {
    if (file.kind === 'entity') {
      const def = file.data as EntityDef
      for (const [name, field] of Object.entries(def.fields ?? {}))
        if (field.rules)
          errors.push(
            ...located(
              file,
              checkRules(field.rules, def.fields, def.entity, [name], ['fields', name, 'rules'], settings),
            ),
          )
      errors.push(...located(file, checkTransitionInput(def, entities)))
    }
    if (file.kind === 'screens') {
      ;(file.data as AreaDef).screens?.forEach((screen, s) => {
        errors.push(...located(file, checkClearWhen(screen.search ?? [], ['screens', s, 'search'])))
        screen.form?.sections.forEach((section, j) => {
          if (!section.rules) return
          const at = ['screens', s, 'form', 'sections', j, 'rules']
          const entity = screen.entity ? entities.get(screen.entity) : undefined
          if (!entity) {
            errors.push(
              ...located(file, [
                {
                  at,
                  path: formatPath(at),
                  message: 'section rules read the record, but the screen names no entity',
                  expected: 'entity: on the screen',
                  fix: 'add entity: or remove rules:',
                },
              ]),
            )
            return
          }
          errors.push(
            ...located(file, checkRules(section.rules, entity.fields, entity.entity, section.fields, at, settings)),
          )
        })
      })
    }
  }
  return errors
}
