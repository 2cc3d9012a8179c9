import type { ValidateFunction } from 'ajv'
import * as validators from '../../generated/validators.js'
import type { ManifestEntity } from '../../model/resolve.ts'
import { toFieldErrors } from '../../rules/messages.ts'
import { checkBounds } from './bounds.ts'
import { ApiError } from './errors.ts'
import { hasRichText, sanitizeRichTextFields } from './sanitize.ts'

const byEntity = validators as unknown as Record<string, ValidateFunction | undefined>

/**
 * Checks a request body with the entity's precompiled validator — the same code the portal's form runs —
 * and answers 'validation' with per-field locale keys when it fails. Optional fields sent as null or ''
 * count as absent, as a form that was cleared sends them. A body beyond the schema's size bounds is refused
 * before anything else looks at it. Rich-text fields are sanitised (./sanitize.ts).
 */
export function validateBody<T>(entity: ManifestEntity, body: unknown): T {
  const validate = byEntity[entity.entity]
  if (!validate) throw new Error(`no generated validator for ${entity.entity}: run npm run generate`)
  // Too many items or keys are refused first, at a cost that does not grow with them (./bounds.ts).
  checkBounds(entity, body)
  // Rich text is cut down to the editor's formatting first, so the limits apply to what is stored.
  const cleaned = hasRichText(entity.fields) ? sanitizeRichTextFields(entity.fields, body) : body
  const data = withoutEmptyOptionals(entity, cleaned)
  if (!validate(data)) throw new ApiError('validation', {}, toFieldErrors(validate.errors, { fields: entity.fields }))
  return data as T
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
