import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * `waybill check` finds the locale keys the YAML names; the detail screen's own texts (`detail.*` in
 * runtime/screens/detail/) are checked here: each one in every language (tests/unit/locales.test.ts holds the
 * languages to the same keys).
 */

const LANGUAGES = ['zh', 'en', 'ja', 'es']
const bundle = (language: string) =>
  JSON.parse(readFileSync(`locales/${language}/detail.json`, 'utf8')) as Record<string, string>

const SOURCE_DIR = 'runtime/screens/detail'
const used = new Set(
  readdirSync(SOURCE_DIR)
    .filter((name) => /\.tsx?$/.test(name))
    .flatMap((name) => [...readFileSync(`${SOURCE_DIR}/${name}`, 'utf8').matchAll(/'detail\.([A-Za-z0-9_]+)'/g)])
    .map((match) => match[1] as string),
)

describe('the detail namespace of locales/', () => {
  it('has every detail.* key the detail screen uses', () => {
    expect(used.size).toBeGreaterThan(10)
    for (const language of LANGUAGES)
      for (const key of used) expect(bundle(language)[key], `locales/${language}/detail.json ${key}`).toBeDefined()
  })
})
