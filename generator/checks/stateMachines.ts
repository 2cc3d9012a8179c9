import type { AreaDef, EntityDef } from '../../model/definitions.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * A state machine names its own states (initial, deletable, editable, every transition's from and to) and
 * its own fields (what a transition requires), its field
 * is a string or enum, and an action's transition is one of its screen entity's machine.
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
