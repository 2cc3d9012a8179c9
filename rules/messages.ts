import type { ErrorObject } from 'ajv'

/**
 * Turns validator errors into what a user reads: the field, a locale key and its values.
 * The same function runs in the portal's forms and in the server's answers, so a message never
 * differs between the two. Keys live in locales/<lang>/validation.json (and rule.json for rules).
 */
export interface FieldError {
  /** Dotted path with indexes, e.g. containers[2].grossWeight; '' for the whole record. */
  field: string
  /** Locale key, e.g. validation.required or rule.maxAboveMin */
  message: string
  params: Record<string, unknown>
}

interface FieldMeta {
  message?: string
  /** The field's own words when it is left empty (SPEC §5: "cannot submit without a B/L number"). */
  requiredMessage?: string
}

export interface MessageContext {
  /** Field definitions by name (from the manifest), for per-field messages of pattern and format failures. */
  fields?: Record<string, FieldMeta & { items?: Record<string, FieldMeta> }>
}

const pointerToField = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, step) => (/^\d+$/.test(step) ? `${out}[${step}]` : out ? `${out}.${step}` : step), '')

const join = (base: string, name: string) => (base ? `${base}.${name}` : name)

function fieldMeta(context: MessageContext, field: string): FieldMeta | undefined {
  const parts = field.replace(/\[\d+\]/g, '').split('.')
  let meta: (FieldMeta & { items?: Record<string, FieldMeta> }) | undefined = context.fields?.[parts[0] ?? '']
  for (const part of parts.slice(1)) meta = meta?.items?.[part]
  return meta
}

export function toFieldErrors(
  errors: readonly ErrorObject[] | null | undefined,
  context: MessageContext = {},
): FieldError[] {
  const out: FieldError[] = []
  for (const e of errors ?? []) {
    const at = pointerToField(e.instancePath)
    const p = e.params as Record<string, unknown>
    switch (e.keyword) {
      case 'required': {
        const field = join(at, String(p.missingProperty))
        out.push({ field, message: fieldMeta(context, field)?.requiredMessage ?? 'validation.required', params: {} })
        break
      }
      case 'additionalProperties':
        out.push({ field: join(at, String(p.additionalProperty)), message: 'validation.unknownField', params: {} })
        break
      case 'minLength':
        out.push({
          field: at,
          message:
            p.limit === 1 ? (fieldMeta(context, at)?.requiredMessage ?? 'validation.required') : 'validation.minLength',
          params: { limit: p.limit },
        })
        break
      case 'maxLength':
        out.push({ field: at, message: 'validation.maxLength', params: { limit: p.limit } })
        break
      case 'pattern':
      case 'format':
        out.push({
          field: at,
          message:
            fieldMeta(context, at)?.message ??
            (e.keyword === 'format' ? `validation.format_${String(p.format).replace('-', '_')}` : 'validation.pattern'),
          params: {},
        })
        break
      case 'minItems':
        // A list the record cannot do without says so in its own words (SPEC §5: at least one container quantity).
        out.push({
          field: at,
          message: fieldMeta(context, at)?.message ?? 'validation.minItems',
          params: { limit: p.limit },
        })
        break
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
      case 'maxItems':
      case 'maxProperties':
        out.push({ field: at, message: `validation.${e.keyword}`, params: { limit: p.limit } })
        break
      case 'type':
        out.push({ field: at, message: `validation.type_${String(p.type).split(',')[0]}`, params: {} })
        break
      case 'enum':
        // A long catalogue (a role's permission names) is not read out: the value is simply not one of them.
        if ((p.allowedValues as unknown[]).length > 30) {
          out.push({ field: at, message: 'validation.notInCatalogue', params: {} })
          break
        }
        out.push({
          field: at,
          message: 'validation.enum',
          // A field a body may clear (null) lists null among its values: the values to choose from are the rest.
          params: { values: (p.allowedValues as unknown[]).filter((v) => v !== null).join(', ') },
        })
        break
      case 'const':
        // A `ticked` boolean left unticked: the field's own message (the agreement's), else the general one.
        out.push({ field: at, message: fieldMeta(context, at)?.message ?? 'validation.ticked', params: {} })
        break
      case 'uniqueItems':
        out.push({ field: at, message: 'validation.uniqueItems', params: {} })
        break
      case 'wbTextBlock': {
        // A block with words of its own (SPEC §5: a description over 6 lines asks to adjust the format).
        const limits = p.limits as { lineLength: number; maxLines: number }
        out.push({ field: at, message: fieldMeta(context, at)?.message ?? 'validation.textBlock', params: limits })
        break
      }
      // Money bounds (exact decimal strings) read as JSON Schema's own bounds do.
      case 'wbDecimalMinimum':
        out.push({ field: at, message: 'validation.minimum', params: { limit: p.limit } })
        break
      case 'wbDecimalExclusiveMinimum':
        out.push({ field: at, message: 'validation.exclusiveMinimum', params: { limit: p.limit } })
        break
      case 'wbDecimalMaximum':
        out.push({ field: at, message: 'validation.maximum', params: { limit: p.limit } })
        break
      case 'wbText':
        out.push({ field: at, message: 'validation.text', params: {} })
        break
      case 'wbDecimals':
        out.push({ field: at, message: 'validation.decimals', params: { limit: p.limit } })
        break
      default:
        if (e.keyword.startsWith('wb') && p.rule && Array.isArray(p.rows)) {
          // A rule over rows (itemsIn) that names the failing ones: its message at each such row's cell.
          const rule = p.rule as { message: string; field: string; item: string }
          for (const index of p.rows as number[])
            out.push({ field: join(at, `${rule.field}[${index}].${rule.item}`), message: rule.message, params: {} })
        } else if (e.keyword.startsWith('wb') && p.rule) {
          const rule = p.rule as { message: string; field?: string; fields?: string[] }
          out.push({
            field: join(at, rule.field ?? rule.fields?.[0] ?? ''),
            message: rule.message,
            params: { ...rule },
          })
        } else out.push({ field: at, message: 'validation.invalid', params: {} })
    }
  }
  // One message per field and key is enough; kept in one pass, so a body with many errors costs linear time
  // (a search per error made 100,000 of them take seconds: issue #17).
  const seen = new Set<string>()
  return out.filter((e) => {
    const key = `${e.field}\u0000${e.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
