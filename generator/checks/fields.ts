import type { EntityDef, FieldDef } from '../../model/definitions.ts'
import { SYSTEM_FIELDS } from '../../model/jsonschema.ts'
import { DERIVED_NAMES, isDerivedName } from '../../rules/derived.ts'
import { type ConfigError, listOf } from '../errors.ts'
import type { SourceFile } from '../load.ts'
import { type CheckContext, collector, eachField, errorAt, type Path, suggestion } from './context.ts'

/** `name` must be a field of `within` (an entity's fields, or an array field's row). */
export function unknownEntityField(
  file: SourceFile,
  path: Path,
  name: string,
  within: Record<string, FieldDef>,
  what: string,
): ConfigError[] {
  if (within[name]) return []
  return [
    errorAt(
      file,
      path,
      `unknown field "${name}" of ${what}`,
      `one of ${listOf(Object.keys(within), 30)}`,
      suggestion(name, Object.keys(within)),
    ),
  ]
}

/**
 * Field definitions complete for their type (a ref names what it refers to, an enum its values, an array
 * its row), the display field one of the entity's, and storage indexes over fields that exist.
 */
export function checkFields({ entityFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    // With the fields a stored entity takes from another (extends:), for what names them.
    const fields = entities[def.entity]?.fields ?? def.fields
    for (const { name, field, path, topLevel } of eachField(def)) {
      if (field.type === 'ref' && !field.ref)
        report(
          file,
          [...path, 'type'],
          'a ref field needs ref:',
          'the name of an entity or reference list',
          'add ref: port (for example)',
        )
      const isStateField = topLevel && def.states?.field === name
      if (field.type === 'enum' && !field.values && !isStateField)
        report(
          file,
          [...path, 'type'],
          'an enum field needs values:',
          'a list of { value, label } (the state field takes its values from states:)',
        )
      if (field.type === 'array' && !field.items && !field.of)
        report(
          file,
          [...path, 'type'],
          'an array field needs items: or of:',
          'the fields of one row, or of: number for a list of numbers',
        )
      if (field.type === 'permissionTree') {
        // The field is the list of names itself, checked against the catalogue: nothing to add to it.
        const misplaced = (['multiple', 'values', 'ref', 'items', 'pattern', 'format', 'entity', 'of'] as const).filter(
          (key) => field[key] !== undefined,
        )
        if (misplaced.length)
          report(
            file,
            [...path, misplaced[0] as string],
            `a permissionTree field takes no ${misplaced.join(', ')}: it is the list of permission names of screens/access.yaml`,
            'type: permissionTree with label (and sideField), nothing else',
            `remove ${misplaced.join(', ')}`,
          )
        if (!topLevel)
          report(
            file,
            [...path, 'type'],
            'a permissionTree field belongs to the record itself, not to a sub-table row',
            'a top-level field of the entity',
          )
        if (field.sideField && !def.fields[field.sideField])
          report(
            file,
            [...path, 'sideField'],
            `unknown field "${field.sideField}"`,
            `a field of ${def.entity} holding 1 (provider) or 2 (enterprise)`,
            suggestion(field.sideField, Object.keys(def.fields)),
          )
      } else if (field.sideField)
        report(file, [...path, 'sideField'], 'sideField belongs to a permissionTree field', 'type: permissionTree')
      if (field.derive !== undefined) {
        // A derivation of rules/derived.ts, run by the form and the server alike: a value nobody types.
        if (!isDerivedName(field.derive))
          report(
            file,
            [...path, 'derive'],
            `unknown derivation "${field.derive}"`,
            `one of rules/derived.ts DERIVED: ${listOf(DERIVED_NAMES, 30)}`,
            suggestion(field.derive, DERIVED_NAMES),
          )
        if (!field.readOnly)
          report(
            file,
            [...path, 'derive'],
            'a derived field is worked out, never typed: it must be read-only',
            'readOnly: true beside derive:',
            'add readOnly: true',
          )
        if (field.type !== 'number' && field.type !== 'integer')
          report(file, [...path, 'derive'], 'a derived field holds a number', 'type: number')
      }
      if (field.ticked && field.type !== 'boolean')
        report(file, [...path, 'ticked'], 'only a boolean can be ticked', 'type: boolean, or leave ticked: out')
    }
    if (def.display && !fields[def.display])
      report(
        file,
        ['display'],
        `unknown field "${def.display}"`,
        `a field of ${def.entity}`,
        suggestion(def.display, Object.keys(fields)),
      )
    for (const [i, index] of (def.storage?.indexes ?? []).entries()) {
      index.fields.forEach((f, j) => {
        if (!(SYSTEM_FIELDS as readonly string[]).includes(f) && f !== def.states?.field)
          errors.push(...unknownEntityField(file, ['storage', 'indexes', i, 'fields', j], f, fields, def.entity))
      })
      const first = fields[index.fields[0] as string]
      if (index.method === 'gin' && (index.unique || index.fields.length !== 1 || first?.type !== 'array'))
        report(
          file,
          ['storage', 'indexes', i, 'method'],
          'a gin index finds the rows whose list holds a value: one list field (type: array), not unique',
          `{ fields: [<a list field>], method: gin }`,
        )
    }
  }
  return errors
}
