import type { ValidateFunction } from 'ajv'
import * as validators from '../../generated/validators.js'
import type { JsonSchema } from '../../model/jsonschema.ts'
import type { ManifestEntity } from '../../model/resolve.ts'
import { type FieldError, toFieldErrors } from '../../rules/messages.ts'
import { checkBounds } from './bounds.ts'
import { ApiError, type ErrorCode, isErrorCode } from './errors.ts'
import { hasRichText, sanitizeRichTextFields } from './sanitize.ts'

const byEntity = validators as unknown as Record<string, ValidateFunction | undefined>

/**
 * Checks a request body with the entity's precompiled validator — the same code the portal's form runs —
 * and answers 'validation' with per-field locale keys when it fails. Optional fields sent as null or ''
 * count as absent, as a form that was cleared sends them; but in a body that extends an entity, a field it
 * takes keeps null (and '' becomes null): the handler's write clears it, and the read-only ones are dropped
 * unchecked, as the engine ignores them (partialRow). A body beyond the schema's size bounds is refused
 * before anything else looks at it. Rich-text fields are sanitised (./sanitize.ts).
 */
export function validateBody<T>(entity: ManifestEntity, body: unknown): T {
  const validate = byEntity[entity.entity]
  if (!validate) throw new Error(`no generated validator for ${entity.entity}: run npm run generate`)
  // Too many items or keys are refused first, at a cost that does not grow with them (./bounds.ts).
  checkBounds(entity, body)
  // Rich text is cut down to the editor's formatting first, so the limits apply to what is stored.
  const cleaned = hasRichText(entity.fields) ? sanitizeRichTextFields(entity.fields, body) : body
  const data =
    entity.extends && entity.stored === false ? partialRow(entity, cleaned) : withoutEmptyOptionals(entity, cleaned)
  if (!validate(data)) {
    const errors = toFieldErrors(validate.errors, { fields: entity.fields })
    throw new ApiError(refusalCode(entity, errors), {}, errors)
  }
  return data as T
}

/**
 * The code a refusal answers: `validation`, or the SPEC §8 code a failed field names (`code:` in the YAML,
 * a review's empty remark: 310010) when every failure is on such fields.
 */
function refusalCode(entity: ManifestEntity, errors: FieldError[]): ErrorCode {
  const codes = new Set(errors.map((e) => entity.fields[e.field]?.code))
  const [code] = codes
  return codes.size === 1 && code && isErrorCode(code) ? code : 'validation'
}

function withoutEmptyOptionals(entity: ManifestEntity, body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, value] of Object.entries(body)) {
    const field = entity.fields[key]
    if ((value === null || value === '') && field && !field.required) continue
    out[key] = value
  }
  return { ...out }
}

/**
 * A body that extends an entity as its handler gets it: what its schema marks read-only left out, in a
 * sub-table's rows too; null, or '', for a field it takes is null (clear it); its own optional fields sent
 * as null or '' are absent.
 */
function partialRow(entity: ManifestEntity, body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  const properties = (entity.schema.properties ?? {}) as Record<string, JsonSchema>
  const taken = new Set(entity.extends?.fields)
  const out: Record<string, unknown> = Object.create(null)
  for (const [key, value] of Object.entries(body)) {
    const schema = properties[key]
    const empty = value === null || value === ''
    if (schema?.readOnly) continue
    if (empty && taken.has(key)) out[key] = null
    else if (empty && !entity.fields[key]?.required) continue
    else out[key] = Array.isArray(value) ? value.map((row) => withoutReadOnly(schema?.items, row)) : value
  }
  return { ...out }
}

const withoutReadOnly = (schema: unknown, row: unknown): unknown => {
  const columns = (schema as JsonSchema | undefined)?.properties as Record<string, JsonSchema> | undefined
  if (!columns || !row || typeof row !== 'object' || Array.isArray(row)) return row
  return Object.fromEntries(Object.entries(row).filter(([name]) => !columns[name]?.readOnly))
}
