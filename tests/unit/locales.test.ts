import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * Every namespace of locales/ has the same keys in every language, each a non-empty text with the same
 * {{placeholders}} as English. With this, the browser's raw-key walk (tests/e2e/translations.test.ts) need walk
 * each user's screens in one language only: a key missing in one language fails here, a key missing in all of
 * them fails there (issue #20: the walk in four languages was a fifth of the e2e leg).
 */

const LANGUAGES = ['zh', 'en', 'ja', 'es']
const NAMESPACES = readdirSync('locales/en').map((file) => file.replace(/\.json$/, ''))

/** A namespace's texts by their dotted key (nested objects flattened). */
function texts(language: string, namespace: string): Map<string, unknown> {
  const flat = (value: unknown, prefix: string): [string, unknown][] =>
    value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) => flat(inner, prefix ? `${prefix}.${key}` : key))
      : [[prefix, value]]
  return new Map(flat(JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8')), ''))
}

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort()

describe('locales/', () => {
  it('has the same namespaces in every language', () => {
    expect(NAMESPACES.length).toBeGreaterThan(40)
    for (const language of LANGUAGES)
      expect(readdirSync(`locales/${language}`).sort(), language).toEqual(readdirSync('locales/en').sort())
  })

  it.each(NAMESPACES)('%s: the same keys and placeholders in every language, each a non-empty text', (namespace) => {
    const en = texts('en', namespace)
    expect(en.size).toBeGreaterThan(0)
    for (const language of LANGUAGES) {
      const bundle = texts(language, namespace)
      expect([...bundle.keys()].sort(), language).toEqual([...en.keys()].sort())
      for (const [key, text] of bundle) {
        expect(typeof text === 'string' && text.trim() !== '', `${language} ${namespace}.${key} is a text`).toBe(true)
        expect(placeholders(text), `${language} ${namespace}.${key}`).toEqual(placeholders(en.get(key)))
      }
    }
  })
})
