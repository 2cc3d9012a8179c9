import type { ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { createAjv } from '../../rules/ajv.ts'
import { formats, keywords } from '../../rules/index.ts'
import { cachedModule, compiledSchemasKey } from '../cache.ts'

type Factory = (wbRules: typeof keywords, wbFormats: typeof formats) => Record<string, ValidateFunction>

/**
 * The validators of entity schemas (the examples check runs every entity's examples through its own):
 * compiling ~60 schemas costs a third of a `waybill check`, so the compiled code — the same standalone
 * code as generated/validators.js — is cached under node_modules/.cache/waybill, keyed by the schemas, the
 * code that generates it (rules/ajv.ts) and ajv's version. The keywords and formats it calls are this
 * process's rules/ functions.
 */
export function entityValidators(schemas: Record<string, object>): Record<string, ValidateFunction> {
  return cachedModule<Factory>('entities', compiledSchemasKey(schemas), () => compile(schemas))(keywords, formats)
}

/** A CommonJS module exporting a factory of the validators, given the rules' keywords and formats. */
function compile(schemas: Record<string, object>): string {
  const ajv = createAjv({ standalone: true })
  // createAjv's standalone code is an ES module for the portal; a factory needs CommonJS exports.
  ;(ajv.opts.code as { esm?: boolean }).esm = false
  const names = Object.keys(schemas)
  for (const name of names) ajv.addSchema(schemas[name] as object)
  const code = standaloneCode(ajv, Object.fromEntries(names.map((n) => [n, n])))
    .replace(/^"use strict";/, '')
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', 'wbRules.ucs2length')
  const leftover = /require\("[^"]+"\)/.exec(code)
  if (leftover) throw new Error(`the entity validators need ${leftover[0]}`)
  return `"use strict";\nmodule.exports = function (wbRules, wbFormats) {\nconst exports = {};\n${code}\nreturn exports;\n};\n`
}
