import { _, type KeywordCxt } from 'ajv'
import Ajv2020 from 'ajv/dist/2020.js'
import { formats } from './formats.ts'
import { keywords } from './keywords.ts'

/**
 * The one ajv setup of the project. The generator compiles every entity schema with it into standalone
 * code; the server compiles tenant overlays with it at run time. The custom keywords call the functions
 * of rules/keywords.ts, referenced in standalone code as `wbRules.<name>` and formats as `wbFormats`, which
 * the generated module imports from rules/index.ts.
 */
export const RULE_KEYWORDS = {
  wbCompare: 'compare',
  wbAtLeastOne: 'atLeastOne',
  wbSumEquals: 'sumEquals',
  wbUniqueBy: 'uniqueBy',
  wbRequiredWhen: 'requiredWhen',
  wbExcludedWhen: 'excludedWhen',
  wbStartsWith: 'startsWith',
  wbCurrencyDecimals: 'currencyDecimals',
} as const

export function createAjv({ standalone = false } = {}) {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    code: standalone ? { source: true, esm: true, formats: _`wbFormats` } : undefined,
  })
  for (const [name, check] of Object.entries(formats)) {
    ajv.addFormat(name, check)
  }
  const call = (cxt: KeywordCxt, name: keyof typeof keywords) => {
    const fn = cxt.gen.scopeValue('func', { ref: keywords[name], code: _`wbRules[${name}]` } as never)
    cxt.fail(_`!${fn}(${cxt.data}, ${cxt.schemaValue})`)
  }
  for (const [keyword, name] of Object.entries(RULE_KEYWORDS)) {
    ajv.addKeyword({
      keyword,
      type: 'object',
      schemaType: 'object',
      error: { message: 'rule', params: ({ schemaValue }) => _`{rule: ${schemaValue}}` },
      code: (cxt) => call(cxt, name),
    })
  }
  // itemsIn names the rows that fail (error params `rows`), so each message lands on its row's cell.
  ajv.addKeyword({
    keyword: 'wbItemsIn',
    type: 'object',
    schemaType: 'object',
    error: { message: 'rule', params: ({ schemaValue, params }) => _`{rule: ${schemaValue}, rows: ${params.rows}}` },
    code: (cxt) => {
      const fn = cxt.gen.scopeValue('func', { ref: keywords.itemsNotIn, code: _`wbRules.itemsNotIn` } as never)
      const rows = cxt.gen.const('rows', _`${fn}(${cxt.data}, ${cxt.schemaValue})`)
      cxt.setParams({ rows })
      cxt.fail(_`${rows}.length > 0`)
    },
  })
  ajv.addKeyword({
    keyword: 'wbTextBlock',
    type: 'string',
    schemaType: 'object',
    error: { message: 'textBlock', params: ({ schemaValue }) => _`{limits: ${schemaValue}}` },
    code: (cxt) => call(cxt, 'textBlock'),
  })
  ajv.addKeyword({
    keyword: 'wbText',
    type: 'string',
    schemaType: 'boolean',
    error: { message: 'text' },
    code: (cxt) => call(cxt, 'storableText'),
  })
  ajv.addKeyword({
    keyword: 'wbDecimals',
    type: ['number', 'string'],
    schemaType: 'number',
    error: { message: 'decimals', params: ({ schemaValue }) => _`{limit: ${schemaValue}}` },
    code: (cxt) => call(cxt, 'decimals'),
  })
  // Money bounds (strings): reported as JSON Schema's own minimum / exclusiveMinimum / maximum are.
  const bounds = [
    ['wbDecimalMinimum', 'decimalMinimum'],
    ['wbDecimalExclusiveMinimum', 'decimalExclusiveMinimum'],
    ['wbDecimalMaximum', 'decimalMaximum'],
  ] as const
  for (const [keyword, name] of bounds) {
    ajv.addKeyword({
      keyword,
      type: 'string',
      schemaType: 'number',
      error: { message: name, params: ({ schemaValue }) => _`{limit: ${schemaValue}}` },
      code: (cxt) => call(cxt, name),
    })
  }
  return ajv
}
