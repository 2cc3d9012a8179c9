import isoCountries from 'i18n-iso-countries'

/**
 * ISO 3166-1 countries with their names in the portal's four languages (English, Chinese, Japanese,
 * Spanish), read from the `i18n-iso-countries` package rather than copied here, so the list follows the
 * standard as the package is updated.
 */

export interface Country {
  /** ISO 3166-1 alpha-2, e.g. `CN`. */
  readonly code: string
  /** ISO 3166-1 alpha-3, e.g. `CHN`. */
  readonly alpha3: string
  /** ISO 3166-1 numeric as three digits, e.g. `156`. */
  readonly numeric: string
  /** The package's primary English name, e.g. `People's Republic of China`. */
  readonly name_en: string
  /** Other English names the package knows, e.g. `China`; empty when there are none. */
  readonly aliases_en: readonly string[]
  readonly name_zh: string
  readonly name_ja: string
  readonly name_es: string
}

let cached: readonly Country[] | undefined

/** All ISO 3166-1 countries, sorted by alpha-2 code. Built once, on first call. */
export function listCountries(): readonly Country[] {
  if (cached) return cached
  const countries: Country[] = Object.entries(isoCountries.getAlpha2Codes())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, alpha3]) => {
      const [name_en = code, ...aliases_en] = isoCountries.getName(code, 'en', { select: 'all' }) ?? []
      const name_zh = isoCountries.getName(code, 'zh')
      const name_ja = isoCountries.getName(code, 'ja')
      const name_es = isoCountries.getName(code, 'es')
      const numeric = isoCountries.alpha2ToNumeric(code)
      if (!name_zh || !name_ja || !name_es || !numeric)
        throw new Error(`i18n-iso-countries lacks a name (zh, ja, es) or the numeric code of ${code}`)
      return { code, alpha3, numeric, name_en, aliases_en, name_zh, name_ja, name_es }
    })
  cached = Object.freeze(countries)
  return cached
}
