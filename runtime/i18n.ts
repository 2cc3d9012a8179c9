import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import { TEXT_BUNDLES, type TextBundle } from './shell/texts.ts'

export const LANGUAGES = ['zh', 'en', 'ja', 'es'] as const
export type Language = (typeof LANGUAGES)[number]

/** The Language header values of SPEC §7. */
export const LANGUAGE_HEADER: Record<Language, string> = { zh: 'zh_CN', en: 'en_US', ja: 'ja_JP', es: 'es_ES' }

/** How each language names itself in the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { zh: '中文', en: 'English', ja: '日本語', es: 'Español' }

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value)
}

/** SPEC §9: default zh, en when the URL asks; the choice is kept in a cookie. */
export function initialLanguage(): Language {
  const fromUrl = new URLSearchParams(window.location.search).get('lang')
  const fromCookie = /(?:^|; )language=([a-z]{2})/.exec(document.cookie)?.[1]
  const wanted = fromUrl ?? fromCookie
  return isLanguage(wanted) ? wanted : 'zh'
}

export function setLanguageCookie(language: Language) {
  // biome-ignore lint/suspicious/noDocumentCookie: SPEC §9 keeps the language choice in a cookie the server can read too
  document.cookie = `language=${language}; path=/; max-age=31536000; SameSite=Lax`
}

/** The current language as the server's Language header spells it. */
export function languageHeader(): string {
  return LANGUAGE_HEADER[isLanguage(i18next.language) ? i18next.language : 'zh']
}

/**
 * Texts come per language in the generator's bundles (generated/locales/<lang>/<bundle>.json, keys
 * "namespace.key"), each a chunk fetched when first needed: a reader downloads only their language, and the
 * public site only its own texts (runtime/shell/texts.ts).
 */
const files = import.meta.glob<Record<string, string>>('../generated/locales/*/*.json', { import: 'default' })

/** Bundles asked for so far, whatever the language: a language switch loads the same ones. */
const wanted = new Set<TextBundle>()
/** "<lang>/<bundle>" → its load; `loaded` once the texts are in i18next. */
const loading = new Map<string, Promise<void>>()
const loaded = new Set<string>()

function loadBundle(language: Language, bundle: TextBundle): Promise<void> {
  const id = `${language}/${bundle}`
  let promise = loading.get(id)
  if (!promise) {
    const load = files[`../generated/locales/${id}.json`]
    promise = load
      ? load().then((texts) => {
          i18next.addResources(language, 'translation', texts)
          loaded.add(id)
        })
      : Promise.reject(new Error(`No texts ${id}: run \`waybill generate\``))
    // A failed chunk (a flaky network) may be asked for again.
    promise.catch(() => loading.delete(id))
    loading.set(id, promise)
  }
  return promise
}

function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : initialLanguage()
}

/** True when these bundles are there in the current language. */
export function hasTexts(bundles: readonly TextBundle[]): boolean {
  const language = currentLanguage()
  return bundles.every((bundle) => loaded.has(`${language}/${bundle}`))
}

/** Loads bundles in the current language (and remembers them for a later switch); resolves when they are there. */
export async function loadTexts(bundles: readonly TextBundle[]): Promise<void> {
  const language = currentLanguage()
  for (const bundle of bundles) wanted.add(bundle)
  await Promise.all(bundles.map((bundle) => loadBundle(language, bundle)))
}

const ready = new Map<string, Promise<void>>()

/**
 * One promise per language and set of bundles, for React's `use`: it settles when they are loaded. A
 * failed load settles too (once: no retry loop while offline), and the page shows keys rather than nothing.
 */
export function textsReady(bundles: readonly TextBundle[]): Promise<void> {
  const key = `${currentLanguage()}:${bundles.join(',')}`
  let promise = ready.get(key)
  if (!promise) {
    promise = loadTexts(bundles).catch(() => undefined)
    ready.set(key, promise)
  }
  return promise
}

/**
 * A key no loaded bundle has (a page that did not ask for its texts, a server message key) loads the
 * bundles not asked for yet: the key shows for a moment, then the text, as i18next re-renders on `added`.
 */
function loadMissing(key: string, defaultValue?: string): string {
  const rest = TEXT_BUNDLES.filter((bundle) => !wanted.has(bundle))
  if (rest.length) void loadTexts(rest).catch(() => undefined)
  return defaultValue ?? key
}

/** Starts i18next in the reader's language; resolves once the texts the first page needs are there. */
export async function startI18n(bundles: readonly TextBundle[] = ['site']): Promise<void> {
  const language = initialLanguage()
  // Keys are flat "namespace.key" strings, exactly as the YAML names them.
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: false,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    parseMissingKeyHandler: loadMissing,
    react: { bindI18nStore: 'added' },
  })
  await loadTexts(bundles)
  document.documentElement.lang = language
}

/** Switches the interface language: loads the texts in use in it, keeps the choice in the cookie. */
export async function switchLanguage(language: Language): Promise<void> {
  await Promise.all([...wanted].map((bundle) => loadBundle(language, bundle)))
  setLanguageCookie(language)
  await i18next.changeLanguage(language)
  document.documentElement.lang = language
}

export default i18next
