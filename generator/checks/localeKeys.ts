import type { ConfigError } from '../errors.ts'
import { LANGUAGES } from '../load.ts'
import { type CheckContext, collector, type Path } from './context.ts'

const LOCALE_PROPERTIES = new Set(['label', 'title', 'message', 'requiredMessage', 'confirm'])

/** Every locale key a file names: the values of label, title, message, requiredMessage and confirm properties. */
export function localeKeys(data: unknown, path: Path = []): { key: string; path: Path }[] {
  if (Array.isArray(data)) return data.flatMap((item, i) => localeKeys(item, [...path, i]))
  if (!data || typeof data !== 'object') return []
  const found: { key: string; path: Path }[] = []
  for (const [name, value] of Object.entries(data)) {
    if (path[0] === 'examples') continue
    if (LOCALE_PROPERTIES.has(name) && typeof value === 'string') found.push({ key: value, path: [...path, name] })
    else found.push(...localeKeys(value, [...path, name]))
  }
  return found
}

/** Every locale key the configuration names is there in every language. */
export function checkLocaleKeys({ files, sources }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of files) {
    for (const { key, path } of localeKeys(file.data)) {
      const missing = LANGUAGES.filter((lang) => sources.locales[lang]?.[key] === undefined)
      if (!missing.length) continue
      const [namespace, ...rest] = key.split('.')
      report(
        file,
        path,
        `locale key "${key}" is missing in ${missing.join(', ')}`,
        `a string at "${rest.join('.')}" in locales/<lang>/${namespace}.json`,
        `add it to ${missing.map((l) => `locales/${l}/${namespace}.json`).join(', ')}`,
      )
    }
  }
  return errors
}
