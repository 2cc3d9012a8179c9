import { code as iso4217 } from 'currency-codes'
import { describe, expect, it } from 'vitest'
import {
  CARGO_AIRLINES,
  CARGO_AIRPORTS,
  CONTAINER_TYPES,
  CURRENCIES,
  DEMO_EXCHANGE_RATES_TO_CNY,
  DEMO_RATE_DATE,
  listCountries,
  OCEAN_CARRIERS,
  SEA_PORTS,
  SPEC_CURRENCY_CODES,
} from '../../server/db/seed/reference/index.ts'
import { nameChain } from '../../server/engine/labels.ts'

const HAN = /\p{Script=Han}/u
const countryCodes = new Set(listCountries().map((c) => c.code))

function duplicates(values: readonly string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i)
}

describe('the name fallback chain (server/engine/labels.ts)', () => {
  const port = new Set(['nameEn', 'nameZh'])
  const country = new Set(['nameEn', 'nameZh', 'nameJa', 'nameEs'])
  it("reads the caller's language where the list has it, then English", () => {
    expect(nameChain('zh', (f) => port.has(f))).toEqual(['nameZh', 'nameEn'])
    expect(nameChain('ja', (f) => port.has(f))).toEqual(['nameEn'])
    expect(nameChain('es', (f) => port.has(f))).toEqual(['nameEn'])
    expect(nameChain('en', (f) => port.has(f))).toEqual(['nameEn'])
    expect(nameChain('ja', (f) => country.has(f))).toEqual(['nameJa', 'nameEn'])
    expect(nameChain('es', (f) => country.has(f))).toEqual(['nameEs', 'nameEn'])
  })
})

describe('countries (i18n-iso-countries)', () => {
  it('names every country in Japanese and Spanish too (issue #16)', () => {
    for (const c of listCountries()) {
      expect(c.name_ja.length, c.code).toBeGreaterThan(0)
      expect(c.name_es.length, c.code).toBeGreaterThan(0)
    }
    const byCode = new Map(listCountries().map((c) => [c.code, c]))
    expect([byCode.get('DE')?.name_ja, byCode.get('DE')?.name_es]).toEqual(['ドイツ', 'Alemania'])
  })

  it('lists every ISO 3166-1 country once, with English and Chinese names', () => {
    const countries = listCountries()
    expect(countries.length).toBeGreaterThanOrEqual(249)
    expect(duplicates(countries.map((c) => c.code))).toEqual([])
    for (const c of countries) {
      expect(c.code).toMatch(/^[A-Z]{2}$/)
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/)
      expect(c.numeric).toMatch(/^\d{3}$/)
      expect(c.name_en.length).toBeGreaterThan(0)
      expect(c.name_zh).toMatch(HAN)
    }
  })

  it('knows the countries freight is quoted to by their usual names', () => {
    const byCode = new Map(listCountries().map((c) => [c.code, c]))
    expect(byCode.get('CN')?.name_zh).toBe('中国')
    expect(byCode.get('CN')?.aliases_en).toContain('China')
    expect(byCode.get('US')?.name_zh).toBe('美国')
    expect(byCode.get('NL')?.name_zh).toBe('荷兰')
    expect(byCode.get('HK')?.alpha3).toBe('HKG')
  })
})

describe('sea ports (UN/LOCODE)', () => {
  it('has at least 200 ports, no code twice', () => {
    expect(SEA_PORTS.length).toBeGreaterThanOrEqual(200)
    expect(duplicates(SEA_PORTS.map((p) => p.code))).toEqual([])
  })

  it('uses well-formed LOCODEs whose country part is an ISO 3166 country', () => {
    for (const port of SEA_PORTS) {
      expect(port.code, port.name_en).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/)
      expect(port.country, port.code).toBe(port.code.slice(0, 2))
      expect(countryCodes.has(port.country), `${port.code} country`).toBe(true)
      expect(port.name_en.trim(), port.code).not.toBe('')
      expect(port.name_zh, port.code).toMatch(HAN)
    }
  })

  it('includes the main container ports under their real codes', () => {
    const byCode = new Map(SEA_PORTS.map((p) => [p.code, p]))
    const expected: Record<string, string> = {
      CNSHA: '上海',
      CNNGB: '宁波',
      CNSZX: '深圳',
      CNYTN: '盐田',
      CNSHK: '蛇口',
      CNQIN: '青岛',
      CNTXG: '天津新港',
      HKHKG: '香港',
      SGSIN: '新加坡',
      KRPUS: '釜山',
      JPUKB: '神户',
      NLRTM: '鹿特丹',
      BEANR: '安特卫普',
      DEHAM: '汉堡',
      USLAX: '洛杉矶',
      USLGB: '长滩',
      AEJEA: '杰贝阿里',
    }
    for (const [code, nameZh] of Object.entries(expected)) expect(byCode.get(code)?.name_zh, code).toBe(nameZh)
    for (const code of ['MYPKG', 'MYTPP', 'THLCH', 'INNSA', 'EGPSD', 'GBFXT', 'USNYC', 'CAPRR', 'BRSSZ', 'AUSYD']) {
      expect(byCode.has(code), code).toBe(true)
    }
    // Codes that look right but are not: Kobe is JPUKB, Ambarli TRAMB, Aqaba JOAQB.
    for (const wrong of ['JPKOB', 'TRAMR', 'JOAQJ']) expect(byCode.has(wrong), wrong).toBe(false)
  })
})

describe('cargo airports (IATA / ICAO)', () => {
  it('has at least 50 airports with 3-letter IATA and 4-letter ICAO codes, none twice', () => {
    expect(CARGO_AIRPORTS.length).toBeGreaterThanOrEqual(50)
    expect(duplicates(CARGO_AIRPORTS.map((a) => a.iata))).toEqual([])
    expect(duplicates(CARGO_AIRPORTS.map((a) => a.icao))).toEqual([])
    for (const a of CARGO_AIRPORTS) {
      expect(a.iata).toMatch(/^[A-Z]{3}$/)
      expect(a.icao, a.iata).toMatch(/^[A-Z]{4}$/)
      expect(countryCodes.has(a.country), `${a.iata} country`).toBe(true)
      expect(a.name_zh, a.iata).toMatch(HAN)
      expect(a.city_zh, a.iata).toMatch(HAN)
    }
  })

  it('gives ICAO indicators in the region prefix of the country', () => {
    // Contiguous US is K; Alaska PA and Hawaii PH share the Pacific P region.
    const prefix: Record<string, RegExp> = {
      CN: /^Z/,
      US: /^(?:K|PA|PH)/,
      CA: /^C/,
      AU: /^Y/,
      JP: /^RJ/,
      KR: /^RK/,
      DE: /^ED/,
    }
    for (const a of CARGO_AIRPORTS) {
      const expected = prefix[a.country]
      if (expected) expect(a.icao, a.iata).toMatch(expected)
    }
  })
})

describe('carriers (SCAC, IATA airline codes and AWB prefixes)', () => {
  it('has at least 10 ocean carriers with 2-4 letter SCACs, none twice', () => {
    expect(OCEAN_CARRIERS.length).toBeGreaterThanOrEqual(10)
    expect(duplicates(OCEAN_CARRIERS.map((c) => c.scac))).toEqual([])
    for (const c of OCEAN_CARRIERS) {
      expect(c.scac).toMatch(/^[A-Z]{2,4}$/)
      expect(c.name_zh, c.scac).toMatch(HAN)
    }
    expect(OCEAN_CARRIERS.find((c) => c.scac === 'MAEU')?.name_zh).toBe('马士基')
  })

  it('has at least 15 airlines with a 2-character designator and a 3-digit AWB prefix, none twice', () => {
    expect(CARGO_AIRLINES.length).toBeGreaterThanOrEqual(15)
    expect(duplicates(CARGO_AIRLINES.map((a) => a.iata))).toEqual([])
    expect(duplicates(CARGO_AIRLINES.map((a) => a.awb_prefix))).toEqual([])
    for (const a of CARGO_AIRLINES) {
      expect(a.iata).toMatch(/^(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])$/)
      expect(a.awb_prefix, a.iata).toMatch(/^\d{3}$/)
      expect(a.name_zh, a.iata).toMatch(HAN)
    }
    const prefixOf = (iata: string) => CARGO_AIRLINES.find((a) => a.iata === iata)?.awb_prefix
    expect(prefixOf('CA')).toBe('999')
    expect(prefixOf('CX')).toBe('160')
    expect(prefixOf('LH')).toBe('020')
  })
})

describe('container types (ISO 6346 size-type)', () => {
  it('labels each type "size\'type" and keeps codes and labels unique', () => {
    expect(duplicates(CONTAINER_TYPES.map((t) => t.code))).toEqual([])
    expect(duplicates(CONTAINER_TYPES.map((t) => t.label))).toEqual([])
    for (const t of CONTAINER_TYPES) {
      expect(t.code).toMatch(/^[1-9A-Z][0-9A-Z][A-Z][0-9]$/)
      expect(t.label, t.code).toMatch(/^\d\d'[A-Z]{2}$/)
      expect(t.label.startsWith(String(t.length_ft)), t.code).toBe(true)
      expect(t.payload_t, t.code).toBeGreaterThan(20)
      expect(t.payload_t, t.code).toBeLessThan(45)
      if (t.volume_cbm !== null) expect(t.volume_cbm, t.code).toBeGreaterThan(20)
      expect(t.description_zh, t.code).toMatch(HAN)
    }
  })

  it('agrees with the ISO 6346 size characters: length and high cube', () => {
    const lengthOf: Record<string, number> = { '2': 20, '4': 40, L: 45 }
    for (const t of CONTAINER_TYPES) {
      expect(t.length_ft, t.code).toBe(lengthOf[t.code[0] ?? ''])
      expect(t.height_ft, t.code).toBe(t.code[1] === '5' ? 9.5 : 8.5)
    }
    const byLabel = new Map(CONTAINER_TYPES.map((t) => [t.label, t.code]))
    expect(byLabel.get("20'GP")).toBe('22G1')
    expect(byLabel.get("40'GP")).toBe('42G1')
    expect(byLabel.get("40'HQ")).toBe('45G1')
    expect(byLabel.get("45'HQ")).toBe('L5G1')
    const hq = CONTAINER_TYPES.find((t) => t.code === '45G1')
    const gp = CONTAINER_TYPES.find((t) => t.code === '42G1')
    expect(hq?.volume_cbm ?? 0).toBeGreaterThan(gp?.volume_cbm ?? Number.POSITIVE_INFINITY)
  })
})

describe('currencies (ISO 4217) and demo exchange rates', () => {
  it('are exactly the nine currencies of SPEC §9, in order', () => {
    expect(CURRENCIES.map((c) => c.code)).toEqual(['CNY', 'USD', 'JPY', 'EUR', 'GBP', 'HKD', 'KRW', 'AUD', 'CAD'])
    expect([...SPEC_CURRENCY_CODES]).toEqual(CURRENCIES.map((c) => c.code))
  })

  it('carry the ISO 4217 numeric code and minor units', () => {
    const expected: Record<string, [string, number]> = {
      CNY: ['156', 2],
      USD: ['840', 2],
      JPY: ['392', 0],
      EUR: ['978', 2],
      GBP: ['826', 2],
      HKD: ['344', 2],
      KRW: ['410', 0],
      AUD: ['036', 2],
      CAD: ['124', 2],
    }
    for (const c of CURRENCIES) {
      expect([c.numeric, c.minor_units], c.code).toEqual(expected[c.code])
      expect(c.numeric, c.code).toBe(iso4217(c.code)?.number)
      expect(c.name_zh, c.code).toMatch(HAN)
      expect(c.symbol.length, c.code).toBeGreaterThan(0)
    }
    expect(duplicates(CURRENCIES.map((c) => c.symbol))).toEqual([])
  })

  it('give one dated decimal-string rate to CNY per currency', () => {
    expect(DEMO_RATE_DATE).toBe('2026-11-01')
    expect(DEMO_EXCHANGE_RATES_TO_CNY.map((r) => r.currency)).toEqual(CURRENCIES.map((c) => c.code))
    for (const r of DEMO_EXCHANGE_RATES_TO_CNY) {
      expect(typeof r.rate_to_cny).toBe('string')
      expect(r.rate_to_cny, r.currency).toMatch(/^\d+(?:\.\d{1,6})?$/)
      expect(Number(r.rate_to_cny), r.currency).toBeGreaterThan(0)
      expect(r.effective_date, r.currency).toBe(DEMO_RATE_DATE)
    }
    const rate = (code: string) => Number(DEMO_EXCHANGE_RATES_TO_CNY.find((r) => r.currency === code)?.rate_to_cny)
    expect(rate('CNY')).toBe(1)
    // Orders of magnitude a reviewer would expect: a pound above a dollar, a won far below a yen.
    expect(rate('GBP')).toBeGreaterThan(rate('USD'))
    expect(rate('USD')).toBeGreaterThan(rate('HKD'))
    expect(rate('KRW')).toBeLessThan(rate('JPY'))
  })
})
