import { type Check, createContext, sortErrors } from './checks/context.ts'
import { CHECKS } from './checks/index.ts'
import { validFiles } from './checks/metaSchema.ts'
import type { ConfigError } from './errors.ts'
import type { Sources } from './load.ts'

export { localeKeys } from './checks/localeKeys.ts'
export { metaSchema } from './checks/metaSchema.ts'

/**
 * Checks the whole configuration: each file against its meta-schema, then every cross-reference of the
 * files that passed it, one concern per check (generator/checks/). Reports every error in one run,
 * by file, line and column.
 */
export function validateSources(sources: Sources, checks: readonly Check[] = CHECKS): ConfigError[] {
  const context = createContext(sources, validFiles(sources))
  return sortErrors(checks.flatMap((check) => check(context)))
}
