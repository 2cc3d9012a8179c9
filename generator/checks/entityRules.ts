import type { EntityDef, FieldDef } from '../../model/definitions.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, type Path } from './context.ts'
import { unknownEntityField } from './fields.ts'

/** An entity's rules name its fields (an array rule an array field and fields of its row) and their values. */
export function checkEntityRules({ entityFiles }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    const needField = (path: Path, name: string, within = def.fields, what = def.entity) =>
      errors.push(...unknownEntityField(file, path, name, within, what))
    ;(def.rules ?? []).forEach((rule, i) => {
      const at: Path = ['rules', i]
      switch (rule.kind) {
        case 'compare':
        case 'startsWith':
          needField([...at, 'field'], rule.field)
          needField([...at, 'other'], rule.other)
          break
        case 'atLeastOne':
          rule.fields.forEach((f, j) => needField([...at, 'fields', j], f))
          break
        case 'requiredWhen':
          needField([...at, 'field'], rule.field)
          needField([...at, 'when', 'field'], rule.when.field)
          break
        case 'excludedWhen': {
          // Every value named must be one the field can take, or the rule could never fire.
          const needValues = (path: Path, name: string, values: readonly (string | number)[]) => {
            const allowed = def.fields[name]?.values?.map((v) => v.value)
            if (!allowed) return
            values.forEach((value, j) => {
              if (!allowed.includes(value))
                report(
                  file,
                  [...path, j],
                  `"${value}" is not a value of ${def.entity}.${name}`,
                  `one of ${listOf(allowed.map(String), 30)}`,
                )
            })
          }
          needField([...at, 'field'], rule.field)
          needField([...at, 'when', 'field'], rule.when.field)
          needValues([...at, 'values'], rule.field, rule.values)
          needValues([...at, 'when', 'includesAny'], rule.when.field, rule.when.includesAny)
          break
        }
        case 'itemsIn': {
          // Both lists are arrays of the entity, and the rows have the fields the rule compares.
          for (const [key, name, column, columnKey] of [
            ['field', rule.field, rule.item, 'item'],
            ['of', rule.of, rule.key, 'key'],
          ] as const) {
            needField([...at, key], name)
            const array = def.fields[name]
            if (array && array.type !== 'array')
              report(file, [...at, key], `"${name}" is not an array field`, 'a field of type: array')
            const row = array?.items as Record<string, FieldDef> | undefined
            if (row) needField([...at, columnKey], column, row, `${def.entity}.${name}`)
          }
          break
        }
        case 'sumEquals':
        case 'uniqueItems': {
          const arrayName = rule.kind === 'sumEquals' ? rule.of : rule.field
          const arrayPath: Path = [...at, rule.kind === 'sumEquals' ? 'of' : 'field']
          needField(arrayPath, arrayName)
          const array = def.fields[arrayName]
          if (array && array.type !== 'array')
            report(file, arrayPath, `"${arrayName}" is not an array field`, 'a field of type: array')
          const row = array?.items as Record<string, FieldDef> | undefined
          if (rule.kind === 'sumEquals') {
            needField([...at, 'field'], rule.field)
            if (row) needField([...at, 'item'], rule.item, row, `${def.entity}.${arrayName}`)
          } else if (row) rule.by.forEach((b, j) => needField([...at, 'by', j], b, row, `${def.entity}.${arrayName}`))
          break
        }
      }
    })
  }
  return errors
}
