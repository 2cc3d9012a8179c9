import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'

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

// One bundle per language, fetched when first needed: a reader downloads only the language they read.
const bundles = import.meta.glob<Record<string, string>>('../generated/locales/*.json', { import: 'default' })

async function ensureBundle(language: Language) {
  if (i18next.hasResourceBundle(language, 'translation')) return
  const load = bundles[`../generated/locales/${language}.json`]
  if (!load) throw new Error(`No locale bundle for ${language}: run \`waybill generate\``)
  i18next.addResourceBundle(language, 'translation', await load())
}

/** Starts i18next in the reader's language; resolves once its texts are there. */
export async function startI18n(): Promise<void> {
  const language = initialLanguage()
  // Keys are flat "namespace.key" strings, exactly as the YAML names them.
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: false,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    react: { bindI18nStore: 'added' },
  })
  await ensureBundle(language)
  document.documentElement.lang = language
}

/** Switches the interface language: loads its texts, keeps the choice in the cookie. */
export async function switchLanguage(language: Language): Promise<void> {
  await ensureBundle(language)
  setLanguageCookie(language)
  await i18next.changeLanguage(language)
  document.documentElement.lang = language
}

export default i18next
