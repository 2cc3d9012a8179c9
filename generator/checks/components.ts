import type { AreaDef, EntityDef } from '../../model/definitions.ts'
import { COMPONENTS, LOOKUPS, WIDGETS } from '../../model/registries.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, eachField, suggestion } from './context.ts'

/** Every widget a field names and every component a screen names is registered in the runtime. */
export function checkComponents({ entityFiles, areaFiles }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of entityFiles) {
    for (const { field, path } of eachField(file.data as EntityDef)) {
      if (field.widget && !(WIDGETS as readonly string[]).includes(field.widget))
        report(
          file,
          [...path, 'widget'],
          `unknown widget "${field.widget}"`,
          `one of ${listOf(WIDGETS, 30)}`,
          suggestion(field.widget, WIDGETS),
        )
      if (field.lookup && (field.type !== 'ref' || !(LOOKUPS as readonly string[]).includes(field.lookup)))
        report(
          file,
          [...path, 'lookup'],
          field.type === 'ref' ? `unknown look-up "${field.lookup}"` : 'lookup: on a field that is not a ref',
          `a ref field and one of ${listOf(LOOKUPS, 30)}`,
          suggestion(field.lookup, LOOKUPS),
        )
      // A look-up filter reads fields of the same record (the booking agent's carrier).
      const def = file.data as EntityDef
      for (const [param, source] of Object.entries(field.lookupFilter ?? {}))
        if (field.type !== 'ref' || !def.fields[source])
          report(
            file,
            [...path, 'lookupFilter', param],
            field.type === 'ref'
              ? `unknown field "${source}" of entity ${def.entity}`
              : 'lookupFilter: on a field that is not a ref',
            `a ref field, filtered by fields of ${def.entity}`,
            suggestion(source, Object.keys(def.fields)),
          )
    }
  }
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      if (screen.component && !(COMPONENTS as readonly string[]).includes(screen.component))
        report(
          file,
          ['screens', i, 'component'],
          `unknown component "${screen.component}"`,
          `a component registered in the runtime: ${listOf(COMPONENTS, 40)}`,
          suggestion(screen.component, COMPONENTS) ?? 'register it in model/registries.ts and runtime/registry.ts',
        )
    })
  }
  return errors
}
