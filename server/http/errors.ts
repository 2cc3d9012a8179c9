/**
 * The one table of error codes the server answers with (SPEC §8), their HTTP status and locale key.
 *
 * HTTP status rule: the client reads `code` from the envelope `{ code, message, content }` (SPEC §7),
 * so a business outcome — wrong password, order not found in a business sense, duplicate name — is sent
 * with HTTP 200 and its code. Transport-level failures use the matching HTTP status, because the client
 * and proxies act on the status itself:
 *   - '401'        → 401  not logged in / session gone; the client resets the token and goes to /login (SPEC §8).
 *   - '404'        → 404  no such endpoint, or a record the caller cannot see (never says which).
 *   - '413'        → 413  request body too large.
 *   - '429'        → 429  rate limit (@fastify/rate-limit).
 *   - '503'        → 503  the database is out of reach for a moment (restart, failover): retry (Retry-After).
 *   - '200000'     → 500  system abnormal: an unexpected failure, logged on the server, never detailed to the client.
 *   - '220000'     → 403  permission not granted: an access-control refusal, not a business outcome.
 *   - 'validation' → 400  the request body failed the schema; `fieldErrors` say which fields and why.
 * Everything else, including 210000 (session too long), goes out as 200: the client's code handling
 * (toast, or the logout confirm box) applies to it as SPEC §8 describes.
 *
 * Messages live in locales/<lang>/error.json under the same code ("error.300005"); `messageFor` reads the
 * flat bundles `waybill generate` writes to generated/locales/<lang>.json, or locales/ when those are absent.
 */
import { readdirSync, readFileSync } from 'node:fs'
import type { FieldError } from '../../rules/messages.ts'

export type Language = 'zh' | 'en' | 'ja' | 'es'
export const LANGUAGES: readonly Language[] = ['zh', 'en', 'ja', 'es']
/** SPEC §9: the default language is zh. */
export const DEFAULT_LANGUAGE: Language = 'zh'

import { ERROR_CODES } from '../../model/errorCodes.ts'

export { ERROR_CODES }

export type ErrorCode = keyof typeof ERROR_CODES

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code)
}

/**
 * What a handler throws to answer with a catalogue code. `params` fill the message's {{placeholders}};
 * `fieldErrors` (code 'validation') carry the per-field locale keys of rules/messages.ts.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, unknown> = {},
    readonly fieldErrors?: FieldError[],
  ) {
    super(`${code} (${ERROR_CODES[code].key})`)
    this.name = 'ApiError'
  }

  /** The HTTP status the envelope is sent with. */
  get http(): number {
    return ERROR_CODES[this.code].http
  }

  /** What the envelope's content carries besides the message (null: nothing; field errors go apart). */
  get content(): Record<string, unknown> | null {
    return null
  }

  /** The locale key of the message. */
  get key(): string {
    return ERROR_CODES[this.code].key
  }
}

// ---------------------------------------------------------------------------------------------------
// Messages

/** A flat bundle: "namespace.key" → text, as generated/locales/<lang>.json holds it. */
export type Bundle = Record<string, string>
export type BundleLoader = (language: Language) => Bundle

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Reads generated/locales/<lang>.json; when generation has not run yet (tests, early boots), flattens
 * locales/<lang>/*.json the way `waybill generate` does. A language with neither gives an empty bundle.
 */
export function loadBundle(language: Language): Bundle {
  try {
    return JSON.parse(
      readFileSync(new URL(`../../generated/locales/${language}.json`, import.meta.url), 'utf8'),
    ) as Bundle
  } catch (error) {
    if (!isMissing(error)) throw error
  }
  const dir = new URL(`../../locales/${language}/`, import.meta.url)
  let names: string[]
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
  } catch (error) {
    if (isMissing(error)) return {}
    throw error
  }
  const bundle: Bundle = {}
  for (const name of names) {
    const namespace = name.slice(0, -'.json'.length)
    const entries = JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Record<string, unknown>
    for (const [key, text] of Object.entries(entries))
      if (typeof text === 'string') bundle[`${namespace}.${key}`] = text
  }
  return bundle
}

let loader: BundleLoader = loadBundle
const bundles = new Map<Language, Bundle>()

/** Replaces how bundles are loaded (tests); no argument restores `loadBundle`. Clears the cache either way. */
export function setBundleLoader(next: BundleLoader = loadBundle): void {
  loader = next
  bundles.clear()
}

function bundleFor(language: Language): Bundle {
  let bundle = bundles.get(language)
  if (!bundle) {
    bundle = loader(language)
    bundles.set(language, bundle)
  }
  return bundle
}

const show = (value: unknown): string =>
  Array.isArray(value) ? value.map(show).join(', ') : value instanceof Date ? value.toISOString() : String(value)

/** Fills {{name}} placeholders (i18next syntax); a placeholder without a value is left as it is. */
export function interpolate(text: string, params: Record<string, unknown> = {}): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) && params[name] !== undefined && params[name] !== null ? show(params[name]) : whole,
  )
}

/** The text of a locale key ("error.300005", "validation.required") in a language, else in en, else the key. */
export function messageFor(key: string, language: Language, params: Record<string, unknown> = {}): string {
  const text = bundleFor(language)[key] ?? bundleFor('en')[key] ?? key
  return interpolate(text, params)
}

const LANGUAGE_ALIASES: Record<string, Language> = { zh: 'zh', en: 'en', ja: 'ja', jp: 'ja', es: 'es' }

/**
 * The language header (SPEC §7: zh_CN, en_US, ja_JP; also zh-CN, es_ES, plain codes, or an
 * Accept-Language list whose first entry counts) → Language; anything else is zh (SPEC §9).
 */
export function parseLanguage(header: string | undefined): Language {
  const first = header?.split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? ''
  const primary = first.split(/[-_]/)[0] ?? ''
  return LANGUAGE_ALIASES[primary] ?? DEFAULT_LANGUAGE
}
