import type { AreaDef, CreatesDef, EntityDef } from '../../model/definitions.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * A state machine names its own states (initial, deletable, editable, every transition's from and to) and
 * its own fields (what a transition requires), its field
 * is a string or enum, and an action's transition is one of its screen entity's machine, not one the engine
 * fires on an update. A transition's `creates:` names an entity, its ref field back to this one, and fields
 * both have.
 */
export function checkStateMachines({ entityFiles, areaFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    if (!def.states) continue
    const states = Object.keys(def.states.values)
    const needState = (path: Path, name: string) => {
      if (!def.states?.values[name])
        report(file, path, `unknown state "${name}"`, `one of ${listOf(states)}`, suggestion(name, states))
    }
    needState(['states', 'initial'], def.states.initial)
    for (const [i, name] of (def.states.deletableIn ?? []).entries()) needState(['states', 'deletableIn', i], name)
    for (const [i, name] of (def.states.editableIn ?? []).entries()) needState(['states', 'editableIn', i], name)
    const fields = entities[def.entity]?.fields ?? def.fields
    const stateField = def.fields[def.states.field]
    if (stateField && stateField.type !== 'string' && stateField.type !== 'enum')
      report(
        file,
        ['fields', def.states.field, 'type'],
        'the state field must be a string or enum',
        'type: enum (or leave the field out: the state machine adds it)',
      )
    for (const [name, t] of Object.entries(def.states.transitions)) {
      t.from.forEach((s, i) => needState(['states', 'transitions', name, 'from', i], s))
      needState(['states', 'transitions', name, 'to'], t.to)
      t.requires?.forEach((field, i) => {
        if (!fields[field])
          report(
            file,
            ['states', 'transitions', name, 'requires', i],
            `unknown field "${field}" of ${def.entity}`,
            `one of ${listOf(Object.keys(fields))}`,
            suggestion(field, Object.keys(fields)),
          )
      })
      for (const field of Object.keys(t.sets ?? {}))
        if (!fields[field])
          report(
            file,
            ['states', 'transitions', name, 'sets', field],
            `unknown field "${field}" of ${def.entity}`,
            `one of ${listOf(Object.keys(fields))}`,
            suggestion(field, Object.keys(fields)),
          )
      if (t.creates)
        checkCreates(def, t.creates, entities, (path, message, expected, fix) =>
          report(file, ['states', 'transitions', name, 'creates', ...path], message, expected, fix),
        )
    }
  }
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const entity = screen.entity ? entities[screen.entity] : undefined
      for (const kind of ['toolbar', 'row'] as const)
        screen.actions?.[kind]?.forEach((action, j) => {
          if (!action.transition) return
          const path: Path = ['screens', i, 'actions', kind, j, 'transition']
          const transitions = Object.keys(entity?.states?.transitions ?? {})
          if (!entity?.states)
            report(file, path, `entity ${screen.entity ?? '(none)'} has no state machine`, 'an entity with states:')
          else if (entity.states.transitions[action.transition]?.onUpdate)
            report(
              file,
              path,
              `the transition "${action.transition}" of ${entity.entity} is fired by the engine on an update (onUpdate)`,
              `a transition without onUpdate: ${listOf(transitions.filter((t) => !entity.states?.transitions[t]?.onUpdate))}`,
            )
          else if (!transitions.includes(action.transition))
            report(
              file,
              path,
              `unknown transition "${action.transition}" of ${entity.entity}`,
              `one of ${listOf(transitions)}`,
              suggestion(action.transition, transitions),
            )
        })
    })
  }
  return errors
}

type Report = (path: Path, message: string, expected?: string, fix?: string) => void

/**
 * A transition's `creates:` (an order's job file): the target is an entity, `link` its ref field to the source,
 * every mapped field is the target's and takes a field of the source's (or a value), and `writeBack` names a
 * field of each. All checked against the fields the target and the source have.
 */
function checkCreates(def: EntityDef, creates: CreatesDef, entities: Record<string, EntityDef>, report: Report): void {
  const target = entities[creates.entity]
  const names = Object.keys(entities)
  if (!target) {
    report(['entity'], `unknown entity "${creates.entity}"`, 'an entity of schemas/', suggestion(creates.entity, names))
    return
  }
  const own = [...Object.keys(def.fields), 'id', ...(def.states ? [def.states.field] : [])]
  const theirs = Object.keys(target.fields)
  const needOwn = (path: Path, name: string) => {
    if (!own.includes(name))
      report(path, `unknown field "${name}" of ${def.entity}`, `one of ${listOf(own)}`, suggestion(name, own))
  }
  const needTheirs = (path: Path, name: string) => {
    if (!theirs.includes(name))
      report(path, `unknown field "${name}" of ${creates.entity}`, `one of ${listOf(theirs)}`, suggestion(name, theirs))
  }
  const link = target.fields[creates.link]
  if (!link) needTheirs(['link'], creates.link)
  else if (link.type !== 'ref' || link.ref !== def.entity)
    report(
      ['link'],
      `${creates.entity}.${creates.link} is not a ref to ${def.entity}`,
      `a field { type: ref, ref: ${def.entity} }`,
    )
  for (const [field, from] of Object.entries(creates.fields)) {
    needTheirs(['fields', field], field)
    if (typeof from === 'string') needOwn(['fields', field], from)
    else if ('from' in from) needOwn(['fields', field, 'from'], from.from)
  }
  if (creates.repeat && creates.writeBack)
    report(['writeBack'], 'a repeated record is never written back', 'creates: without writeBack when repeat: true')
  for (const [field, from] of Object.entries(creates.writeBack ?? {})) {
    needOwn(['writeBack', field], field)
    needTheirs(['writeBack', field], from)
  }
}
