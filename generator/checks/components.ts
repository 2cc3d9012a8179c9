import type { AreaDef, EntityDef, FieldDef } from '../../model/definitions.ts'
import { COMPONENTS, LOOKUPS, WIDGETS } from '../../model/registries.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, eachField, suggestion } from './context.ts'

/** The fields beside the one at `path`: its row's (fields.x.items.y) or the record's (fields.y). */
function siblingsOf(def: EntityDef, path: readonly (string | number)[]): Record<string, FieldDef> {
  let fields: Record<string, FieldDef> = def.fields
  for (let i = 1; i + 2 < path.length; i += 2) fields = fields[String(path[i])]?.items ?? {}
  return fields
}

/** Every widget a field names and every component a screen names is registered in the runtime. */
export function checkComponents({ entityFiles, areaFiles, entities }: CheckContext): ConfigError[] {
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
      // A ref field's own look-up, or the values a text field offers (an FBA product line's SKU).
      const lookupField = field.type === 'ref' || field.type === 'string'
      if (field.lookup && (!lookupField || !(LOOKUPS as readonly string[]).includes(field.lookup)))
        report(
          file,
          [...path, 'lookup'],
          lookupField ? `unknown look-up "${field.lookup}"` : 'lookup: on a field that is neither a ref nor a text',
          `a ref or string field and one of ${listOf(LOOKUPS, 30)}`,
          suggestion(field.lookup, LOOKUPS),
        )
      const def = file.data as EntityDef
      // What a pick fills: fields beside this one, from fields of the looked-up entity.
      if (field.fills) {
        const beside = siblingsOf(def, path)
        const looked = field.lookup ?? field.ref
        const source = looked ? entities[looked]?.fields : undefined
        if (!field.lookup)
          report(file, [...path, 'fills'], 'fills: needs the look-up it fills from', 'lookup: beside fills:')
        for (const [target, from] of Object.entries(field.fills)) {
          if (!beside[target] || target === path[path.length - 1])
            report(
              file,
              [...path, 'fills', target],
              `unknown field "${target}" beside ${String(path[path.length - 1])}`,
              'a field of the same row (or record) that the pick fills',
              suggestion(target, Object.keys(beside)),
            )
          else if (beside[target]?.readOnly)
            report(
              file,
              [...path, 'fills', target],
              `"${target}" is read-only: a pick cannot fill it`,
              'an editable field',
            )
          if (source && !source[from])
            report(
              file,
              [...path, 'fills', target],
              `unknown field "${from}" of entity ${looked}`,
              `a field of ${looked}`,
              suggestion(from, Object.keys(source)),
            )
        }
      }
      // A look-up filter reads fields of the same record (the booking agent's carrier).
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
