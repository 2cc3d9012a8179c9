import type { EntityDef } from '../../model/definitions.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, suggestion } from './context.ts'
import { unknownEntityField } from './fields.ts'

/**
 * An entity that extends another (`extends:`, docs/CONFIGURATION.md): a body (stored: false) takes its
 * fields as optional and clearable, a stored entity takes them as declared, with the rules among them. The
 * entity it names exists and extends none itself, the fields it takes are that entity's, and none of its
 * own fields has the name of one it takes (which of the two would the call mean?).
 */
export function checkEntityExtends({ entityFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    if (!def.extends) continue
    const base = entities[def.extends.entity]
    if (!base) {
      report(
        file,
        ['extends', 'entity'],
        `unknown entity "${def.extends.entity}"`,
        `one of ${listOf(Object.keys(entities).sort(), 40)}`,
        suggestion(def.extends.entity, Object.keys(entities)),
      )
      continue
    }
    if (def.extends.partialRows && def.stored !== false)
      report(
        file,
        ['extends', 'partialRows'],
        'only a body takes partial rows: a stored entity takes the fields as declared',
        'stored: false beside it',
      )
    if (base.extends) {
      report(
        file,
        ['extends', 'entity'],
        `${base.entity} extends ${base.extends.entity} itself`,
        'an entity that declares its fields',
        `extend ${base.extends.entity}, naming the fields to take`,
      )
      continue
    }
    // The state machine's field is one of the entity's fields, declared or not.
    const fields = base.states ? { [base.states.field]: { type: 'enum' as const }, ...base.fields } : base.fields
    def.extends.fields?.forEach((name, i) =>
      errors.push(...unknownEntityField(file, ['extends', 'fields', i], name, fields, base.entity)),
    )
    const taken = def.extends.fields ?? Object.keys(fields)
    for (const name of Object.keys(def.fields ?? {}))
      if (taken.includes(name))
        report(
          file,
          ['fields', name],
          `${def.entity} takes "${name}" from ${base.entity} and declares it too`,
          `a name ${base.entity} does not have, or leave it out of extends.fields`,
          `rename it, or drop it and take ${base.entity}'s`,
        )
  }
  return errors
}
