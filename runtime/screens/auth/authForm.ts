import type { ErrorObject } from 'ajv'
import type { FieldDef } from '../../../model/definitions.ts'
import { toFieldErrors } from '../../../rules/messages.ts'
import type { ServerFieldError } from '../../api.ts'

/**
 * The pure half of the sign-in pages' forms: a body entity's generated validator judges the data, and its
 * refusals become one message per field — a locale key and its values (rules/messages.ts, the server's
 * own wording), or a text the server already wrote in the reader's language.
 */
export type Problem = { key: string; params: Record<string, unknown> } | { text: string }
export type Problems = Record<string, Problem>

export interface Validate {
  (data: unknown): boolean
  errors?: ErrorObject[] | null
}

/**
 * What the entity's validator refuses in `data`, per field (a cross-field rule's error sits on the field it
 * names: "the two passwords do not match" under the confirmation). `rename` maps an entity's field to the
 * form's (smsCodeRequest's `key` is the registration form's `mobile`); `only` keeps those fields.
 */
export function check(
  validate: Validate,
  data: Record<string, unknown>,
  fields: Record<string, Pick<FieldDef, 'message'>>,
  options: { rename?: Record<string, string>; only?: readonly string[] } = {},
): Problems {
  if (validate(data)) return {}
  const problems: Problems = {}
  for (const error of toFieldErrors(validate.errors ?? [], { fields })) {
    const field = options.rename?.[error.field] ?? error.field
    if (options.only && !options.only.includes(field)) continue
    if (!problems[field]) problems[field] = { key: error.message, params: error.params }
  }
  return problems
}

/**
 * Data as the form sends it: text trimmed (a password as typed), empty optional text left out (the schema
 * would refuse "" for an e-mail address nobody gave).
 */
export function bodyOf(values: Record<string, unknown>, keepAsTyped: readonly string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string') {
      if (value !== undefined) body[name] = value
      continue
    }
    const text = keepAsTyped.includes(name) ? value : value.trim()
    if (text !== '') body[name] = text
  }
  return body
}

/** Catalogue codes that are about one field of the sign-in forms: shown under it, not above the form. */
const FIELD_OF_CODE: Record<string, string> = {
  '300002': 'mobile',
  '300003': 'code',
  '300004': 'code',
  '300009': 'email',
  '300010': 'username',
}

/**
 * A refusal from the server as the form shows it: its per-field errors under their fields (the server's
 * text, already in the reader's language), a field's catalogue code under that field, anything else above
 * the form (`general`). `rename` as in `check`; a field the form does not draw goes above it too.
 */
export function serverProblems(
  refusal: { code: string; message: string; fieldErrors: readonly ServerFieldError[] },
  drawn: readonly string[],
  rename: Record<string, string> = {},
): { fields: Problems; general: string | null } {
  const fields: Problems = {}
  const general: string[] = []
  for (const error of refusal.fieldErrors) {
    const field = rename[error.field] ?? error.field
    if (drawn.includes(field)) fields[field] ??= { text: error.message }
    else general.push(error.message)
  }
  if (!refusal.fieldErrors.length) {
    const field = FIELD_OF_CODE[refusal.code]
    if (field && drawn.includes(field)) fields[field] = { text: refusal.message }
    else general.push(refusal.message)
  }
  return { fields, general: general.length ? general.join(' ') : null }
}

/** A body its entity's validator accepted (`check` found nothing), typed as the generated type of that entity. */
export const proven = <T>(body: Record<string, unknown>): T => body as unknown as T

/** The seconds a 300001 refusal says to wait before another code (its content's `waitSeconds`), else null. */
export function waitOf(refusal: { code: string; content: unknown }): number | null {
  const content = refusal.content
  if (refusal.code !== '300001' || !content || typeof content !== 'object' || !('waitSeconds' in content)) return null
  const seconds = content.waitSeconds
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : null
}
