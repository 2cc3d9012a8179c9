import isoCountries from 'i18n-iso-countries'

/**
 * ISO 3166-1 countries with English and Chinese names, read from the `i18n-iso-countries` package rather than
 * copied here, so the list follows the standard as the package is updated.
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
      const numeric = isoCountries.alpha2ToNumeric(code)
      if (!name_zh || !numeric) throw new Error(`i18n-iso-countries lacks the Chinese name or numeric code of ${code}`)
      return { code, alpha3, numeric, name_en, aliases_en, name_zh }
    })
  cached = Object.freeze(countries)
  return cached
}
