import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { formats } from '../../rules/formats.ts'
import {
  ApiError,
  type Bundle,
  ERROR_CODES,
  isErrorCode,
  LANGUAGES,
  type Language,
  loadBundle,
  messageFor,
  parseLanguage,
  setBundleLoader,
} from '../../server/http/errors.ts'

const root = new URL('../../', import.meta.url)
const readText = (path: string) => readFileSync(new URL(path, root), 'utf8')
const readLocale = (language: string, namespace: string) =>
  JSON.parse(readText(`locales/${language}/${namespace}.json`)) as Record<string, string>

/** Every server code SPEC §8 lists, written out by hand from the spec. */
const SPEC_CODES = [
  '100000',
  '100001',
  '100002',
  '110000',
  '200000',
  '210000',
  '220000',
  '300001',
  '300002',
  '300003',
  '300004',
  '300005',
  '300006',
  '300007',
  '300008',
  '300009',
  '300010',
  '300011',
  '310000',
  '310001',
  '310002',
  '310003',
  '310004',
  '310005',
  '310008',
  '310009',
  '310010',
  '320000',
  '320001',
  '320002',
  '330000',
  '330001',
  '330002',
  '330003',
  '340000',
  '350000',
  '350001',
  '350002',
  '360000',
  '360001',
  '360002',
  '370000',
  '370001',
  '400001',
  '400002',
  '400003',
  '400005',
  '400006',
  '400007',
  '400010',
]
/** Transport-level codes the server adds to the catalogue. */
const TRANSPORT_CODES = ['401', '404', '413', '429', '503', 'validation']
/** Ours, for SPEC §8 client messages that have no server code: freight rate expired, rate queries used up. */
const OUR_CODES = [
  '110001',
  '320003',
  '320004',
  '320005',
  '320006',
  '340001',
  '340002',
  '350003',
  '360003',
  '360004',
  '360005',
  '360006',
  '381001',
  '381002',
  '381003',
  '381004',
  '381005',
]
/** SPEC §8 client messages, kept in error.json next to the codes. */
const CLIENT_KEYS = [
  'pleaseLogin',
  'noRole',
  'codeWait',
  'codeLimit',
  'enterpriseCodeWrong',
  'inviteCodeInvalid',
  'emailFormat',
  'mobileExistsLogin',
  'passwordMismatch',
  'uploadFailed',
  'fileTooLarge',
  'rateExpired',
  'applicationNotApproved',
  'roleCannotDelete',
  'orderNoWrong',
  'billMustPrint',
  'lowFeeWarning',
  'etdWarning',
  'confirmLogoutTitle',
  'confirmLogoutText',
  'reLogin',
  'cancel',
  'switchLanguageSuccess',
  'hasError',
  'networkError',
]

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

describe('ERROR_CODES', () => {
  it('holds every code SPEC §8 lists, and the transport codes', () => {
    for (const code of [...SPEC_CODES, ...TRANSPORT_CODES]) expect(ERROR_CODES, code).toHaveProperty([code])
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...SPEC_CODES, ...TRANSPORT_CODES, ...OUR_CODES].sort())
  })

  it('keys each code to error.<code>', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) expect(entry.key).toBe(`error.${code}`)
  })

  it('sends business outcomes with 200 and transport failures with their status', () => {
    const special: Record<string, number> = {
      '401': 401,
      '404': 404,
      '413': 413,
      '429': 429,
      '503': 503,
      '200000': 500,
      '220000': 403,
      validation: 400,
    }
    for (const [code, entry] of Object.entries(ERROR_CODES)) expect(entry.http, code).toBe(special[code] ?? 200)
  })

  it('isErrorCode tells codes from other strings', () => {
    expect(isErrorCode('300005')).toBe(true)
    expect(isErrorCode('validation')).toBe(true)
    expect(isErrorCode('300012')).toBe(false)
    expect(isErrorCode('toString')).toBe(false)
  })

  it('ApiError carries code, params, field errors and status', () => {
    const fieldErrors = [{ field: 'email', message: 'validation.format_email', params: {} }]
    const error = new ApiError('validation', {}, fieldErrors)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('ApiError')
    expect(error.code).toBe('validation')
    expect(error.http).toBe(400)
    expect(error.key).toBe('error.validation')
    expect(error.fieldErrors).toEqual(fieldErrors)
    const business = new ApiError('300005')
    expect(business.http).toBe(200)
    expect(business.params).toEqual({})
    expect(business.fieldErrors).toBeUndefined()
  })
})

describe('locale files', () => {
  it.each(LANGUAGES)('%s/error.json has a message for every code and client message', (language) => {
    const messages = readLocale(language, 'error')
    for (const key of [...Object.keys(ERROR_CODES), ...CLIENT_KEYS]) {
      expect(typeof messages[key], `${language} ${key}`).toBe('string')
      expect(messages[key]?.trim(), `${language} ${key}`).not.toBe('')
    }
  })

  it.each(['error', 'validation'])('%s.json is written sorted with 2-space indent', (namespace) => {
    for (const language of LANGUAGES) {
      const text = readText(`locales/${language}/${namespace}.json`)
      const data = JSON.parse(text) as Record<string, string>
      const sorted = Object.fromEntries(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      expect(text, language).toBe(`${JSON.stringify(sorted, null, 2)}\n`)
    }
  })

  it('codeWait, textBlock and decimals take their parameters', () => {
    for (const language of LANGUAGES) {
      expect(placeholders(readLocale(language, 'error').codeWait ?? '')).toEqual(['seconds'])
      expect(placeholders(readLocale(language, 'validation').textBlock ?? '')).toEqual(['lineLength', 'maxLines'])
      expect(placeholders(readLocale(language, 'validation').decimals ?? '')).toEqual(['limit'])
    }
  })
})

describe('validation keys of rules/messages.ts', () => {
  const source = readText('rules/messages.ts')

  // Keys built from templates; each template must still be in the source, so a change there shows up here.
  const TEMPLATES: Record<string, string[]> = {
    'validation.${e.keyword}': ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'],
    'validation.type_${': ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'].map((t) => `type_${t}`),
    'validation.format_${': Object.keys(formats).map((name) => `format_${name.replace('-', '_')}`),
  }

  const literal = [...source.matchAll(/'validation\.([a-zA-Z_]+)'/g)].map((m) => m[1] as string)
  const keys = [...new Set([...literal, ...Object.values(TEMPLATES).flat()])].sort()

  it('finds the literal keys and the templates in the source', () => {
    expect(literal).toEqual(expect.arrayContaining(['required', 'unknownField', 'pattern', 'invalid', 'textBlock']))
    for (const template of Object.keys(TEMPLATES)) expect(source).toContain(template)
    // Every template in the source is one the list above accounts for.
    const inSource = [...source.matchAll(/`validation\.([^`]*)`/g)].map((m) => `validation.${m[1]}`)
    for (const template of inSource)
      expect(
        Object.keys(TEMPLATES).some((t) => template.startsWith(t)),
        template,
      ).toBe(true)
  })

  it.each(LANGUAGES)('%s/validation.json has every key', (language) => {
    const messages = readLocale(language, 'validation')
    for (const key of keys) expect(typeof messages[key], `${language} validation.${key}`).toBe('string')
  })

  it('covers the format keys named in the brief', () => {
    expect(keys).toEqual(
      expect.arrayContaining([
        'format_email',
        'format_chinaMobile',
        'format_username',
        'format_password',
        'format_isoContainer',
        'format_airWaybill',
        'format_unlocode',
        'format_url',
        'format_date',
        'format_date_time',
      ]),
    )
  })
})

describe('parseLanguage', () => {
  it.each([
    ['zh_CN', 'zh'],
    ['zh-CN', 'zh'],
    ['zh', 'zh'],
    ['en_US', 'en'],
    ['en-US', 'en'],
    ['EN', 'en'],
    ['ja_JP', 'ja'],
    ['jp', 'ja'],
    ['es_ES', 'es'],
    ['es-419', 'es'],
    ['en-GB,en;q=0.9,zh;q=0.8', 'en'],
    [' ja ', 'ja'],
    ['fr_FR', 'zh'],
    ['', 'zh'],
    [undefined, 'zh'],
  ] as const)('%j → %s', (header, language) => {
    expect(parseLanguage(header)).toBe(language)
  })
})

describe('messageFor', () => {
  afterEach(() => setBundleLoader())

  const inject = (bundles: Partial<Record<Language, Bundle>>) => {
    const calls: Language[] = []
    setBundleLoader((language) => {
      calls.push(language)
      return bundles[language] ?? {}
    })
    return calls
  }

  it('interpolates {{name}} placeholders', () => {
    inject({ en: { 'validation.textBlock': 'At most {{maxLines}} lines of {{ lineLength }} characters' } })
    expect(messageFor('validation.textBlock', 'en', { lineLength: 35, maxLines: 7 })).toBe(
      'At most 7 lines of 35 characters',
    )
  })

  it('joins arrays, and leaves a placeholder without a value as it is', () => {
    inject({ en: { 'validation.enum': 'One of: {{values}}', 'x.y': '{{a}} and {{b}}' } })
    expect(messageFor('validation.enum', 'en', { values: ['FCL', 'LCL'] })).toBe('One of: FCL, LCL')
    expect(messageFor('x.y', 'en', { a: 0 })).toBe('0 and {{b}}')
  })

  it('falls back to en, then to the key', () => {
    inject({ ja: { 'error.300005': 'ja text' }, en: { 'error.300005': 'en text', 'error.300006': 'en only' } })
    expect(messageFor('error.300005', 'ja')).toBe('ja text')
    expect(messageFor('error.300006', 'ja')).toBe('en only')
    expect(messageFor('error.999999', 'ja')).toBe('error.999999')
  })

  it('loads each bundle once', () => {
    const calls = inject({ en: { 'error.401': 'x' } })
    messageFor('error.401', 'en')
    messageFor('error.401', 'en')
    messageFor('error.404', 'zh')
    messageFor('error.404', 'zh')
    expect(calls.sort()).toEqual(['en', 'zh'])
  })

  it('reads the real bundles (generated/ or locales/)', () => {
    for (const language of LANGUAGES) {
      const bundle = loadBundle(language)
      expect(bundle['error.300005'], language).toBe(readLocale(language, 'error')['300005'])
      expect(bundle['validation.required'], language).toBe(readLocale(language, 'validation').required)
    }
    expect(messageFor('error.codeWait', 'en', { seconds: 60 })).toBe(
      'The verification code cannot be requested again within 60 seconds',
    )
    expect(messageFor('error.codeWait', 'zh', { seconds: 60 })).toContain('60')
    expect(messageFor('validation.textBlock', 'es', { lineLength: 35, maxLines: 7 })).toBe(
      'Máximo 7 líneas de 35 caracteres',
    )
    expect(messageFor('error.switchLanguageSuccess', 'en')).toBe('Switch Language Success')
  })
})
