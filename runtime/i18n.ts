import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from '../generated/locales/en.json'
import es from '../generated/locales/es.json'
import ja from '../generated/locales/ja.json'
import zh from '../generated/locales/zh.json'

export const LANGUAGES = ['zh', 'en', 'ja', 'es'] as const
export type Language = (typeof LANGUAGES)[number]

/** The Language header values of SPEC §7. */
export const LANGUAGE_HEADER: Record<Language, string> = { zh: 'zh_CN', en: 'en_US', ja: 'ja_JP', es: 'es_ES' }

/** SPEC §9: default zh, en when the URL asks; the choice is kept in a cookie. */
export function initialLanguage(): Language {
  const fromUrl = new URLSearchParams(window.location.search).get('lang')
  const fromCookie = /(?:^|; )language=([a-z]{2})/.exec(document.cookie)?.[1]
  const wanted = fromUrl ?? fromCookie
  return (LANGUAGES as readonly string[]).includes(wanted ?? '') ? (wanted as Language) : 'zh'
}

export function setLanguageCookie(language: Language) {
  // biome-ignore lint/suspicious/noDocumentCookie: SPEC §9 keeps the language choice in a cookie the server can read too
  document.cookie = `language=${language}; path=/; max-age=31536000; SameSite=Lax`
}

// Keys are flat "namespace.key" strings, exactly as the YAML names them.
void i18next.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en }, ja: { translation: ja }, es: { translation: es } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
})

export default i18next
