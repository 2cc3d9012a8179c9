import type { AreaDef, EntityDef } from '../../model/definitions.ts'
import { COMPONENTS, WIDGETS } from '../../model/registries.ts'
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
