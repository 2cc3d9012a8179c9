import type { FieldDef } from '../../model/definitions.ts'
import { ERROR_CODES } from '../../model/errorCodes.ts'
import { contentSchema, type JsonSchema, modelSchema } from '../../model/jsonschema.ts'
import type { Manifest, ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'

type Doc = Record<string, unknown>

/**
 * The OpenAPI 3.1 document of what the server answers (issue #19): the envelope `{ code, message, content }`
 * of every answer, the engine's rows as the engine writes them (system fields, every field nullable, the
 * state, `labels`; a detail's `history`; a list's `{ list, total, pageNum, pageSize }`), custom endpoints'
 * `response:` entities, the error answers of the catalogue on every operation, and who may call.
 *
 * Request bodies are the entities' input schemas (what the validators check); answers are the `<entity>Answer`
 * schemas built here from the same fields, since an answer carries what no caller sends (read-only fields,
 * system fields, labels) and nulls where a caller sends nothing.
 */

/**
 * The catalogue codes answered with HTTP 200 (model/errorCodes.ts, SPEC §8): a business outcome in the
 * envelope.
 */
export const BUSINESS_CODES = Object.entries(ERROR_CODES)
  .filter(([, { http }]) => http === 200)
  .map(([code]) => code)

/** The catalogue codes sent with an HTTP status of their own, by status (server/http/errors.ts). */
export const TRANSPORT_ERRORS = {
  '400': {
    code: 'validation',
    name: 'validationError',
    description: 'The request failed its schema; `content.fieldErrors` say which fields and why.',
  },
  '401': { code: '401', name: 'unauthorized', description: 'No valid session: sign in again.' },
  '403': {
    code: '220000',
    name: 'forbidden',
    description:
      'The caller lacks the permission, or a cookie-authorised change or a sign-in came without the header `Resource: 1` (220000).',
  },
  '404': { code: '404', name: 'notFound', description: 'No such endpoint, or a record the caller cannot see.' },
  '413': { code: '413', name: 'payloadTooLarge', description: 'The request body is larger than the call takes.' },
  '429': { code: '429', name: 'tooManyRequests', description: 'Too many requests: try again later.' },
  '500': { code: '200000', name: 'serverError', description: 'An unexpected failure, logged on the server (200000).' },
  '503': {
    code: '503',
    name: 'unavailable',
    description: 'The database is out of reach for a moment (a restart, a failover): retry after Retry-After.',
  },
} as const

/** Calls that answer a new session (server/auth/tokens.ts `sendSession`): the token also at the envelope's top level, SPEC §7. */
const SESSION_ANSWERS = new Set(['/b2b/user/login', '/b2b/user/codeLogin', '/b2b/user/exchangeToken'])

const SESSION_SECURITY = [{ cookieToken: [] }, { bearerToken: [] }]
/** What an operation an API key may call accepts (issue #29): a session, or a key as a bearer token or X-Api-Key. */
const KEY_SECURITY = [...SESSION_SECURITY, { apiKeyBearer: [] }, { apiKeyHeader: [] }]

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const answerName = (entity: string) => `${entity}Answer`
const detailName = (entity: string) => `${entity}DetailAnswer`

/** JSON Schema keywords of ours become `x-wb-…` extensions; titles that are locale keys go too. */
function openApiSchema(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((v) => openApiSchema(v))
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    // In `properties` the keys are field names (a field may be called `title`), each a schema.
    if (inProperties) {
      out[key] = openApiSchema(v)
      continue
    }
    if (key === '$id' || key === 'title') continue
    if (key === 'allOf') {
      out['x-wb-rules'] = v
      continue
    }
    out[key.startsWith('wb') ? `x-wb-${key.slice(2)}` : key] = openApiSchema(v, key === 'properties')
  }
  return out
}

/** The same schema, or null. */
function orNull(schema: Doc): Doc {
  if (typeof schema.type === 'string') {
    const out: Doc = { ...schema, type: [schema.type, 'null'] }
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null]
    return out
  }
  return { oneOf: [schema, { type: 'null' }] }
}

const MONEY_DECIMALS = 3

/**
 * A field as answers may declare it: besides the input types, `object` and `list` of an entity, `map` of a
 * value type, and `nullable` (model/definitions.ts, being extended for `response:` while this is written).
 */
type AnswerFieldDef = Omit<FieldDef, 'type' | 'items'> & {
  type: string
  items?: Record<string, FieldDef>
  entity?: string
  nullable?: boolean
  of?: string
}

/** One value of a field as answers carry it (server/engine/columns.ts `toApiRow`). */
function answerValue(field: AnswerFieldDef, manifest: Manifest, nullableItems: boolean): Doc {
  switch (field.type) {
    case 'integer':
      return { type: 'integer' }
    case 'number':
      return { type: 'number' }
    case 'money': {
      const places = field.decimals ?? MONEY_DECIMALS
      return { type: 'string', pattern: places ? `^-?\\d{1,10}(\\.\\d{1,${places}})?$` : '^-?\\d{1,10}$' }
    }
    case 'boolean':
      return { type: 'boolean' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'datetime':
      return { type: 'string', format: 'date-time' }
    case 'enum': {
      const values = (field.values ?? []).map((v) => v.value)
      if (values.every((v) => typeof v === 'string')) return { type: 'string', enum: values }
      if (values.every((v) => Number.isInteger(v))) return { type: 'integer', enum: values }
      return { enum: values }
    }
    case 'ref':
      return field.ref && manifest.entities[field.ref]?.reference ? { type: 'string' } : { type: 'integer' }
    case 'permissionTree':
      // The permission names a role holds, each one of the catalogue's (screens/access.yaml).
      return { type: 'array', items: { type: 'string', enum: Object.keys(manifest.permissions).sort() } }
    case 'array':
      if (field.of && !field.items) return { type: 'array', items: field.of === 'json' ? {} : { type: field.of } }
      return { type: 'array', items: answerObject(field.items ?? {}, manifest, nullableItems) }
    case 'object':
      return field.entity ? ref(answerName(field.entity)) : { type: 'object' }
    case 'list':
      return { type: 'array', items: field.entity ? ref(answerName(field.entity)) : { type: 'object' } }
    case 'map':
      return {
        type: 'object',
        additionalProperties: field.entity
          ? ref(answerName(field.entity))
          : !field.of || field.of === 'json'
            ? {}
            : { type: field.of },
      }
    default:
      // string, textBlock, richText, file
      return { type: 'string' }
  }
}

/**
 * A field in an answer. In a stored row every field may be null (a column the caller left empty, or one
 * added after the row was written); in a view shape only where the YAML says `nullable`.
 */
function answerField(def: FieldDef, manifest: Manifest, stored: boolean): Doc {
  const field = def as AnswerFieldDef
  const one = answerValue(field, manifest, stored)
  const value =
    field.multiple && !['array', 'list', 'object', 'map'].includes(field.type) ? { type: 'array', items: one } : one
  return stored || field.nullable ? orNull(value) : value
}

/** An object of fields as answers carry it. Stored rows (and their lists' items) name no field as required. */
function answerObject(fields: Record<string, FieldDef>, manifest: Manifest, stored: boolean): Doc {
  const properties: Record<string, Doc> = {}
  const required: string[] = []
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = answerField(field, manifest, stored)
    if (!stored && field.required) required.push(name)
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false }
}

/**
 * A view: a `stored: false` entity that engine calls (list, detail, export) read — a domain module registers
 * its rows (server/engine/registry.ts `view`), which are the engine's rows like a stored entity's.
 */
function isView(entity: ManifestEntity, manifest: Manifest): boolean {
  return (
    !entity.stored &&
    manifest.endpoints.some((e) => e.entity === entity.entity && ['list', 'detail', 'export'].includes(e.kind))
  )
}

/** The system fields every stored row carries (server/engine/columns.ts SYSTEM_COLUMNS). */
const SYSTEM_PROPERTIES: Record<string, Doc> = {
  id: { type: 'integer' },
  version: { type: 'integer' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  createdBy: { type: ['integer', 'null'] },
}

/**
 * What an entity's answers carry. A stored entity: the engine's row — system fields, every field (an
 * overlay may hide any), and `labels`. A view shape (`stored: false`): its fields as declared.
 */
function entityAnswer(entity: ManifestEntity, manifest: Manifest): Doc {
  if (!entity.stored && !isView(entity, manifest))
    return {
      description: entity.description ?? entity.entity,
      // The same description the typed client is generated from (generator/emit/index.ts), nested shapes named.
      ...contentSchema(entity, manifest.entities, (name) =>
        name.startsWith('schema:') ? ref(modelSchemaName(name.slice('schema:'.length))) : ref(answerName(name)),
      ),
    }
  const fields = answerObject(entity.fields, manifest, true)
  return {
    type: 'object',
    description: `A ${entity.entity} row: the system fields, every field (null when empty) and the display texts of its references.`,
    required: ['id', 'version', 'createdAt', 'updatedAt', 'labels'],
    properties: {
      ...(fields.properties as Record<string, Doc>),
      ...SYSTEM_PROPERTIES,
      labels: ref('Labels'),
    },
    additionalProperties: false,
  }
}

function detailAnswer(entity: ManifestEntity, manifest: Manifest): Doc {
  const row = entityAnswer(entity, manifest)
  return {
    ...row,
    description: `A ${entity.entity} row and its history (the last 50 audit entries, newest first).`,
    required: [...(row.required as string[]), 'history'],
    properties: {
      ...(row.properties as Record<string, Doc>),
      history: { type: 'array', items: ref('HistoryEntry') },
    },
  }
}

const listOf = (item: Doc): Doc => ({
  type: 'object',
  required: ['list', 'total', 'pageNum', 'pageSize'],
  properties: {
    list: { type: 'array', items: item },
    total: { type: 'integer', minimum: 0 },
    pageNum: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer', minimum: 1 },
    // A tabbed list's counts by tab (`all` and each value of the screen's `tabs`).
    tabs: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
  },
  additionalProperties: false,
})

/** A success: code "0000" and the content. */
function success(content: Doc, sessionToken = false): Doc {
  return {
    type: 'object',
    required: ['code', 'message', 'content', ...(sessionToken ? ['token'] : [])],
    properties: {
      code: { type: 'string', const: '0000' },
      message: { type: 'string' },
      content,
      ...(sessionToken
        ? { token: { type: 'string', description: 'The session token, also set as the b2b_token cookie.' } }
        : {}),
    },
    additionalProperties: false,
  }
}

/** The content of a custom endpoint's success; `binary` for a file the call sends itself. */
function customContent(endpoint: ManifestEndpoint, manifest: Manifest): Doc | 'binary' | 'document' {
  const shape = endpoint.content
  if (!shape) return { description: 'Not described yet.' }
  if (shape.kind === 'binary') return 'binary'
  if (shape.kind === 'document') return 'document'
  if (shape.kind === 'none') return { type: 'null' }
  if (shape.kind === 'count') return { type: 'integer', minimum: 0 }
  if (!manifest.entities[shape.entity]) throw new Error(`${endpoint.id}: the response names no entity ${shape.entity}`)
  const item = ref(answerName(shape.entity))
  if (shape.kind === 'list') return { type: 'array', items: item }
  if (shape.kind === 'page') return listOf(item)
  return shape.nullable ? orNull(item) : item
}

const errorResponse = (status: keyof typeof TRANSPORT_ERRORS) => ({
  $ref: `#/components/responses/${TRANSPORT_ERRORS[status].name}`,
})

const XLSX_MEDIA = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** The endpoints a chart screen exports its table by (`chart.export`, exportPvList): their file is an .xlsx. */
const chartExports = (manifest: Manifest) =>
  new Set(manifest.screens.flatMap((screen) => (screen.chart?.export ? [screen.chart.export] : [])))

function responsesOf(endpoint: ManifestEndpoint, manifest: Manifest): Doc {
  const entity = endpoint.entity
  let content: Doc | 'binary' | 'document' | 'xlsx' | 'chartXlsx'
  switch (endpoint.kind) {
    case 'list':
      content = listOf(ref(answerName(entity)))
      break
    case 'detail':
      content = ref(detailName(entity))
      break
    case 'create':
    case 'update':
    case 'transition':
      content = ref(answerName(entity))
      break
    case 'delete':
      content = ref('DeletedContent')
      break
    case 'export':
      content = 'xlsx'
      break
    case 'import':
      content = ref('ImportContent')
      break
    default:
      content = customContent(endpoint, manifest)
      if (content === 'binary' && chartExports(manifest).has(endpoint.servedAs ?? endpoint.id)) content = 'chartXlsx'
  }
  const ok =
    content === 'chartXlsx'
      ? {
          description:
            "The chart's table as an .xlsx workbook (a row per day or per category, a column per series, the totals last); a refusal (a window not offered, a range over 366 days) is the envelope.",
          content: { [XLSX_MEDIA]: { schema: { type: 'string', format: 'binary' } } },
        }
      : content === 'xlsx'
        ? {
            description:
              'The .xlsx workbook, streamed (X-Export-Rows: its row count); a refusal (over 100,000 rows, a bad filter) is the envelope.',
            headers: { 'X-Export-Rows': { schema: { type: 'integer', minimum: 0 } } },
            content: { [XLSX_MEDIA]: { schema: { type: 'string', format: 'binary' } } },
          }
        : content === 'document'
          ? {
              description:
                "The published standard's own JSON document (an array or an object, no envelope) the summary names; a refusal is the envelope.",
              content: { 'application/json': { schema: {} } },
            }
          : content === 'binary'
            ? {
                description: 'The file, in its own media type (or the envelope of a business outcome).',
                content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
              }
            : {
                description:
                  'The envelope: code "0000" and the content, or a business outcome of the catalogue (SPEC §8) with no content (300001\'s wait: its seconds).',
                content: {
                  'application/json': {
                    schema: { oneOf: [success(content, SESSION_ANSWERS.has(endpoint.path)), ref('BusinessError')] },
                  },
                },
              }
  // A standard's document is answered as the standard does: 201 for a POST (created), 204 with nothing for a
  // DELETE, 200 for the rest — or the status the endpoint names (DCSA's 204 to PUT …/secret).
  const status =
    content === 'document'
      ? endpoint.status
        ? String(endpoint.status)
        : ({ POST: '201', DELETE: '204' } as Record<string, string>)[endpoint.method]
      : undefined
  return {
    ...(status === '204' ? { '204': { description: 'Done; no content.' } } : { [status ?? '200']: ok }),
    ...errorResponses(endpoint.method !== 'GET' && endpoint.method !== 'DELETE'),
  }
}

/**
 * The refusals an operation may answer. Public ones too answer 401 (a spent sign-in ticket) and 403 (a sign-in
 * or a cookie-authorised change without the portal's `Resource: 1` header, server/http/csrf.ts).
 */
function errorResponses(hasBody: boolean): Doc {
  return {
    '400': errorResponse('400'),
    '401': errorResponse('401'),
    '403': errorResponse('403'),
    '404': errorResponse('404'),
    ...(hasBody ? { '413': errorResponse('413') } : {}),
    '429': errorResponse('429'),
    '500': errorResponse('500'),
    '503': errorResponse('503'),
  }
}

function operation(endpoint: ManifestEndpoint, manifest: Manifest): Doc {
  const entity = endpoint.entity ? ref(endpoint.entity) : { type: 'object' }
  const body: Record<ManifestEndpoint['kind'], Doc> = {
    list: listRequest(endpoint),
    detail: ref('IdRequest'),
    create: entity,
    update: entity,
    transition: transitionRequest(manifest.entities[endpoint.entity]),
    delete: ref('DeleteRequest'),
    export: listRequest(endpoint),
    import: ref('ImportUpload'),
    custom: entity,
  }
  const op: Doc = {
    operationId: endpoint.id,
    tags: [tagOf(endpoint)],
    summary: endpoint.summary ?? `${endpoint.kind} ${endpoint.entity}`,
    description: endpoint.public
      ? 'Public: anyone may call.'
      : `Needs one of the permissions: ${endpoint.permissions.join(', ') || '(any signed-in user)'}.`,
    'x-wb-permissions': endpoint.permissions,
    security: endpoint.public ? [] : endpoint.sessionOnly ? SESSION_SECURITY : KEY_SECURITY,
    responses: responsesOf(endpoint, manifest),
  }
  if (endpoint.kind === 'custom' && (endpoint.method === 'GET' || endpoint.method === 'DELETE')) {
    if (endpoint.entity) op.parameters = [{ name: 'query', in: 'query', style: 'form', explode: true, schema: entity }]
  } else if (endpoint.method === 'GET' || endpoint.method === 'DELETE') {
    op.parameters =
      endpoint.kind === 'list'
        ? listQuery(endpoint)
        : [{ name: 'id', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } }]
  } else if (endpoint.kind === 'import') {
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema: body.import } } }
  } else {
    op.requestBody = { required: true, content: { 'application/json': { schema: body[endpoint.kind] } } }
  }
  return op
}

/**
 * A list's (or export's) body: the search keys the bound screens declare (any other is refused), the page
 * and the sort. A value may be sent as text; `in` takes a list; empty values count as absent.
 */
function listRequest(endpoint: ManifestEndpoint): Doc {
  const keys: Record<string, Doc> = {}
  for (const s of endpoint.search ?? [])
    for (const key of s.params ?? [s.field])
      keys[key] =
        s.op === 'in'
          ? { type: ['array', 'string', 'null'], maxItems: 100 }
          : { type: ['string', 'number', 'boolean', 'null'] }
  return {
    type: 'object',
    properties: {
      searchParams: { type: 'object', properties: keys, additionalProperties: false },
      pageNum: { type: 'integer', minimum: 1, default: 1 },
      pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 10 },
      sort: {
        type: 'object',
        required: ['field'],
        properties: { field: { type: 'string' }, order: { type: 'string', enum: ['asc', 'desc'] } },
        additionalProperties: false,
      },
      ...(endpoint.kind === 'export'
        ? {
            columns: {
              type: 'array',
              items: { type: 'string' },
              maxItems: 100,
              description: 'The columns to export, in order.',
            },
            progressId: {
              type: 'string',
              pattern: '^[A-Za-z0-9_-]{8,64}$',
              description: 'The caller’s name for this export, to follow it by GET /b2b/user/exportProgress.',
            },
          }
        : {}),
    },
  }
}

/**
 * A list's query string (a GET list): each search key a parameter of its own (`in` repeats its key), the page,
 * and the sort as a field and an order; any other key is refused.
 */
function listQuery(endpoint: ManifestEndpoint): Doc[] {
  const keys: Doc[] = []
  for (const s of endpoint.search ?? [])
    for (const key of s.params ?? [s.field])
      keys.push(
        s.op === 'in'
          ? {
              name: key,
              in: 'query',
              style: 'form',
              explode: true,
              schema: { type: 'array', items: { type: 'string', maxLength: 255 }, maxItems: 200 },
            }
          : { name: key, in: 'query', schema: { type: 'string', maxLength: 255 } },
      )
  return [
    ...keys,
    { name: 'pageNum', in: 'query', schema: { type: 'integer', minimum: 1 } },
    { name: 'pageSize', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
    { name: 'sort', in: 'query', schema: { type: 'string', maxLength: 64 } },
    { name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } },
  ]
}

/** A transition's body: the record, its version, the transition by name, a remark, and what the transition asks for. */
function transitionRequest(entity: ManifestEntity | undefined): Doc {
  return {
    type: 'object',
    required: ['id', 'version', 'transition'],
    properties: {
      id: { type: 'integer', minimum: 1 },
      version: { type: 'integer', minimum: 1 },
      // Not those the engine fires itself on an update (`onUpdate: true`).
      transition: {
        type: 'string',
        enum: Object.entries(entity?.states?.transitions ?? {})
          .filter(([, rule]) => !rule.onUpdate)
          .map(([name]) => name),
      },
      remark: { type: 'string', maxLength: 500 },
      input: {
        type: 'object',
        maxProperties: 50,
        description: 'The fields a transition with `input:` asks for (a price, a reason), checked as that entity.',
      },
    },
    additionalProperties: false,
  }
}

const tagOf = (endpoint: ManifestEndpoint) =>
  endpoint.kind === 'custom' ? (endpoint.path.split('/')[1] ?? 'custom') : endpoint.entity

/** The GET beside an import: the workbook the import expects, headers and one example row. */
function importTemplate(endpoint: ManifestEndpoint): Doc {
  return {
    operationId: `${endpoint.id}Template`,
    tags: [endpoint.entity],
    summary: `The ${endpoint.entity} import template (xlsx): the columns the import reads and an example row`,
    description: `Needs one of the permissions: ${endpoint.permissions.join(', ')}.`,
    'x-wb-permissions': endpoint.permissions,
    security: KEY_SECURITY,
    responses: {
      '200': {
        description: 'The workbook',
        content: {
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
            schema: { type: 'string', format: 'binary' },
          },
        },
      },
      ...errorResponses(false),
    },
  }
}

/** A refusal's content: nothing, or the fields refused and why (or another shape a refusal carries). */
const refusalContent = (...more: Doc[]): Doc => ({
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['fieldErrors'],
      properties: { fieldErrors: { type: 'array', items: ref('FieldError') } },
      additionalProperties: false,
    },
    ...more,
  ],
})

/** 300001's content: how long until a code may be asked for again. */
const waitContent: Doc = {
  type: 'object',
  description: '300001 "cannot be requested again within N seconds": N, for a page to count down.',
  required: ['waitSeconds'],
  properties: { waitSeconds: { type: 'integer', minimum: 1, maximum: 3600 } },
  additionalProperties: false,
}

/** The fixed shapes every document has. */
function commonSchemas(): Record<string, Doc> {
  return {
    BusinessError: {
      type: 'object',
      description:
        'A business outcome of the error catalogue (SPEC §8), sent with HTTP 200: the message in the caller’s language; a refusal of fields that name their code (`code:` in the YAML, an empty review remark: 310010) carries their `fieldErrors`.',
      required: ['code', 'message', 'content'],
      properties: {
        code: { type: 'string', enum: [...BUSINESS_CODES] },
        message: { type: 'string' },
        content: refusalContent(waitContent),
      },
      additionalProperties: false,
    },
    ErrorAnswer: {
      type: 'object',
      description: 'A refusal sent with its own HTTP status; `content.fieldErrors` only with code "validation".',
      required: ['code', 'message', 'content'],
      properties: {
        code: { type: 'string', enum: Object.values(TRANSPORT_ERRORS).map((e) => e.code) },
        message: { type: 'string' },
        content: refusalContent(),
      },
      additionalProperties: false,
    },
    FieldError: {
      type: 'object',
      required: ['field', 'key', 'message'],
      properties: {
        field: { type: 'string', description: 'The field’s path in the body (containers.0.quantity), or "body".' },
        key: { type: 'string', description: 'The message’s locale key (validation.required).' },
        message: { type: 'string', description: 'The message in the caller’s language.' },
        line: { type: 'integer', description: 'In a text field (a YAML overlay): the line of the problem.' },
        column: { type: 'integer' },
      },
      additionalProperties: false,
    },
    Labels: {
      type: 'object',
      description:
        "Display text of each reference field in the caller's language (the company name for customerCompany, the port name for pol); a reference inside a list's rows answers under '<list>.<item>' one text per row (containers.containerType: [\"40'HQ\"]).",
      additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    },
    HistoryEntry: {
      type: 'object',
      description: 'One audit entry of a record: who changed what, when.',
      required: ['id', 'action', 'transition', 'remark', 'userId', 'userName', 'before', 'after', 'at'],
      properties: {
        id: { type: 'integer' },
        action: { type: 'string', enum: ['create', 'update', 'delete', 'transition'] },
        transition: { type: ['string', 'null'] },
        remark: { type: ['string', 'null'] },
        userId: { type: ['integer', 'null'] },
        userName: { type: ['string', 'null'] },
        before: { type: ['object', 'null'], description: 'The changed fields before (the whole record on delete).' },
        after: { type: ['object', 'null'], description: 'The changed fields after (the whole record on create).' },
        at: { type: 'string', format: 'date-time' },
      },
      additionalProperties: false,
    },
    DeletedContent: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' } },
      additionalProperties: false,
    },
    ImportUpload: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'One xls or xlsx workbook (at most 10 MB, 5,000 rows)' },
      },
    },
    ImportContent: {
      type: 'object',
      required: ['imported', 'problems'],
      description: 'Every row stored (imported = rows, no problems), or none stored and every problem found.',
      properties: {
        imported: { type: 'integer' },
        problems: {
          type: 'array',
          items: {
            type: 'object',
            required: ['row', 'key', 'message'],
            properties: {
              sheet: {
                type: 'string',
                description: 'The sheet, for an import whose items come on sheets of their own',
              },
              cell: { type: 'string', description: 'With sheet: the cell as Excel writes it (Boxes!D4)' },
              row: { type: 'integer', description: 'The row as Excel numbers it (the header is row 1)' },
              column: { type: ['string', 'null'], description: 'The column letter (A, B, …)' },
              header: { type: ['string', 'null'] },
              field: { type: ['string', 'null'] },
              key: { type: 'string' },
              params: { type: 'object' },
              message: { type: 'string' },
            },
          },
        },
      },
      additionalProperties: false,
    },
    IdRequest: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
    DeleteRequest: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer', minimum: 1 }, version: { type: 'integer', minimum: 1 } },
    },
  }
}

function errorResponsesComponents(): Record<string, Doc> {
  return Object.fromEntries(
    Object.values(TRANSPORT_ERRORS).map((e) => [
      e.name,
      { description: e.description, content: { 'application/json': { schema: ref('ErrorAnswer') } } },
    ]),
  )
}

const PATH_TAGS: Record<string, string> = {
  system: 'The server itself: liveness and this document.',
  b2b: 'Accounts, sessions, the public site, news, letters and settings (SPEC §7, /b2b).',
  booking: 'Inquiries, orders, special rates and tracking (SPEC §7, /booking).',
  price: 'The public rate search (SPEC §7, /price).',
}

function tagDescription(tag: string, manifest: Manifest): string {
  const entity = manifest.entities[tag]
  if (entity) return entity.description ?? `The calls on ${tag} records.`
  return PATH_TAGS[tag] ?? `The hand-written calls under /${tag}.`
}

const modelSchemaName = (name: string) => `${name}Document`

/**
 * A document the model describes with a JSON Schema of its own (an overlay, model/overlay.schema.json), as
 * components: the schema and each of its `$defs`, its references pointed at them.
 */
function modelSchemas(name: string): Record<string, unknown> {
  const { $defs, ...schema } = modelSchema(name as 'overlay') as JsonSchema & { $defs?: Record<string, unknown> }
  const prefix = modelSchemaName(name)
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite)
    if (!value || typeof value !== 'object') return value
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
          ? `#/components/schemas/${prefix}_${v.slice('#/$defs/'.length)}`
          : rewrite(v),
      ]),
    )
  }
  return {
    [prefix]: rewrite(schema),
    ...Object.fromEntries(Object.entries($defs ?? {}).map(([def, s]) => [`${prefix}_${def}`, rewrite(s)])),
  }
}

/** The schema names a part of the document refers to, followed through the schemas they refer to. */
function usedSchemas(root: unknown, schemas: Record<string, unknown>): Set<string> {
  const used = new Set<string>()
  const walk = (value: unknown) => {
    if (Array.isArray(value)) for (const v of value) walk(v)
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          const name = v.slice('#/components/schemas/'.length)
          if (!used.has(name)) {
            used.add(name)
            walk(schemas[name])
          }
        } else walk(v)
      }
    }
  }
  walk(root)
  return used
}

/** The OpenAPI 3.1 document of every endpoint the manifest binds, plus the server's own fixed routes. */
export function openApiDocument(manifest: Manifest): Doc {
  const paths: Record<string, Record<string, Doc>> = {
    '/api/health': {
      get: {
        operationId: 'health',
        tags: ['system'],
        summary: 'Liveness: answers "ok" with no content, to anyone',
        security: [],
        responses: {
          '200': {
            description: 'Healthy',
            content: { 'application/json': { schema: success({ type: 'null' }) } },
          },
          ...errorResponses(false),
        },
      },
    },
    '/api/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['system'],
        summary: 'This document',
        security: [],
        responses: {
          '200': {
            description: 'OpenAPI 3.1',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          ...errorResponses(false),
        },
      },
    },
  }
  for (const endpoint of manifest.endpoints) {
    const path = `/api${endpoint.path}`
    paths[path] = { ...(paths[path] ?? {}), [endpoint.method.toLowerCase()]: operation(endpoint, manifest) }
    if (endpoint.kind === 'import') paths[path] = { ...paths[path], get: importTemplate(endpoint) }
  }
  const schemas: Record<string, unknown> = commonSchemas()
  const add = (name: string, schema: unknown) => {
    if (Object.hasOwn(schemas, name)) throw new Error(`OpenAPI: two schemas named ${name}`)
    schemas[name] = schema
  }
  const details = new Set(manifest.endpoints.filter((e) => e.kind === 'detail').map((e) => e.entity))
  for (const [name, entity] of Object.entries(manifest.entities)) {
    add(name, openApiSchema(entity.schema))
    add(answerName(name), entityAnswer(entity, manifest))
    if (details.has(name) && (entity.stored || isView(entity, manifest)))
      add(detailName(name), detailAnswer(entity, manifest))
  }
  for (const [name, schema] of Object.entries(modelSchemas('overlay'))) add(name, schema)
  const responses = errorResponsesComponents()
  const used = usedSchemas({ paths, responses }, schemas)
  const tags = [
    ...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags as string[]))),
  ]
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waybill API',
      version: '1',
      description:
        'Every answer is the envelope { code, message, content }; "0000" is success, any other code is in the error catalogue (SPEC §8): business outcomes come with HTTP 200, refusals with their own status. Send the language as the Language header (zh_CN, en_US, ja_JP, es_ES). Sign in with /api/b2b/user/login: the token comes back in the envelope and as the b2b_token cookie; a call made with the cookie that changes something also sends the header `Resource: 1`. Paths named by SPEC §7 keep their names; other entity calls follow /<entity>/<operation>.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The tenant’s own host: every tenant answers on its domains.' }],
    security: SESSION_SECURITY,
    tags: tags.sort().map((name) => ({ name, description: tagDescription(name, manifest) })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
      responses,
      securitySchemes: {
        cookieToken: {
          type: 'apiKey',
          in: 'cookie',
          name: 'b2b_token',
          description: 'The session cookie set at sign-in.',
        },
        bearerToken: { type: 'http', scheme: 'bearer', description: 'The token the sign-in answered.' },
        apiKeyBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'wb_<43 base64url characters>',
          description:
            'An API key (issue #29), made on /apiKeys or /tenantApiKeys: the call may use the key’s scopes its maker still holds; never a session-only call.',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'The same API key in a header of its own.',
        },
      },
    },
  }
}
