import { readFileSync } from 'node:fs'

/**
 * The Harmonized System 2022 subheadings (6-digit codes), the commodity-code list of SPEC §7
 * `getCommodityCodes` and of the B/L instruction's HS code: ./harmonized-system.tsv, kept beside this module
 * so a clone needs nothing outside the repository (the source and its licence are in the file's header).
 */
export interface HsCode {
  readonly code: string
  readonly description_en: string
}

let cached: readonly HsCode[] | undefined

export function listHsCodes(): readonly HsCode[] {
  cached ??= Object.freeze(
    readFileSync(new URL('./harmonized-system.tsv', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const [code = '', description = ''] = line.split('\t')
        return { code, description_en: description }
      }),
  )
  return cached
}
