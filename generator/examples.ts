import type { Manifest } from '../model/resolve.ts'
import { toFieldErrors } from '../rules/messages.ts'
import { entityValidators } from './checks/entityValidators.ts'
import type { ConfigError } from './errors.ts'
import { locate, type Sources } from './load.ts'

/**
 * Every entity's declared examples against its own validator: valid ones must pass, invalid ones must
 * fail naming the declared field and message. A rule that does not do what its examples say is a
 * configuration error, found before anything is generated.
 */
export function exampleErrors(manifest: Manifest, sources: Sources): ConfigError[] {
  const errors: ConfigError[] = []
  const withExamples = Object.entries(manifest.entities).filter(([, entity]) => entity.examples)
  const validators = entityValidators(Object.fromEntries(withExamples.map(([name, entity]) => [name, entity.schema])))
  for (const [name, entity] of withExamples) {
    const file = sources.files.find((f) => f.kind === 'entity' && (f.data as { entity?: string }).entity === name)
    if (!file || !entity.examples) continue
    const validate = validators[name] as NonNullable<(typeof validators)[string]>
    const context = { fields: entity.fields }
    entity.examples.valid?.forEach((example, i) => {
      if (validate(example)) return
      const found = toFieldErrors(validate.errors, context).map((e) => `${e.field || '(record)'}: ${e.message}`)
      errors.push({
        file: file.path,
        ...locate(file, ['examples', 'valid', i]),
        path: `examples.valid[${i}]`,
        message: `this valid example fails validation: ${found.join('; ')}`,
        fix: 'correct the example, or the field definitions and rules it contradicts',
      })
    })
    entity.examples.invalid?.forEach((example, i) => {
      const ok = validate(example.data)
      const found = ok ? [] : toFieldErrors(validate.errors, context)
      if (found.some((e) => e.field === example.error.field && e.message === example.error.message)) return
      errors.push({
        file: file.path,
        ...locate(file, ['examples', 'invalid', i]),
        path: `examples.invalid[${i}]`,
        message: ok
          ? 'this invalid example passes validation'
          : `this invalid example fails with ${found.map((e) => `${e.field || '(record)'}: ${e.message}`).join('; ')}`,
        expected: `an error on "${example.error.field}" with message ${example.error.message}`,
        fix: 'add the rule or field limit the example expects, or correct the example',
      })
    })
  }
  return errors
}
