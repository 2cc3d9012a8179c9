import type { Manifest, ManifestEndpoint } from '../../model/resolve.ts'

type Doc = Record<string, unknown>

/** JSON Schema keywords of ours become `x-wb-…` extensions; titles that are locale keys go too. */
function openApiSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openApiSchema)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (key === '$id' || key === 'title') continue
    if (key === 'allOf') {
      out['x-wb-rules'] = v
      continue
    }
    out[key.startsWith('wb') ? `x-wb-${key.slice(2)}` : key] = openApiSchema(v)
  }
  return out
}

const envelope = (content: Doc): Doc => ({
  type: 'object',
  required: ['code', 'message', 'content'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, content },
})

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

function operation(endpoint: ManifestEndpoint): Doc {
  const entity = endpoint.entity ? ref(endpoint.entity) : { type: 'object' }
  const row = { allOf: [entity, ref('RowMeta')] }
  const content: Record<ManifestEndpoint['kind'], Doc> = {
    list: {
      type: 'object',
      required: ['list', 'total'],
      properties: {
        list: { type: 'array', items: row },
        total: { type: 'integer' },
        pageNum: { type: 'integer' },
        pageSize: { type: 'integer' },
      },
    },
    detail: row,
    create: row,
    update: row,
    transition: row,
    delete: { type: 'null' },
    export: { type: 'string' },
    import: ref('ImportContent'),
    custom: endpoint.response ? ref(endpoint.response) : {},
  }
  const body: Record<ManifestEndpoint['kind'], Doc> = {
    list: ref('ListRequest'),
    detail: ref('IdRequest'),
    create: entity,
    update: entity,
    transition: ref('TransitionRequest'),
    delete: ref('IdRequest'),
    export: ref('ListRequest'),
    import: ref('ImportUpload'),
    custom: entity,
  }
  const op: Doc = {
    operationId: endpoint.id,
    tags: [endpoint.kind === 'custom' ? (endpoint.path.split('/')[1] ?? 'custom') : endpoint.entity],
    summary: endpoint.summary ?? `${endpoint.kind} ${endpoint.entity}`,
    description: endpoint.public ? 'Public.' : `Needs one of the permissions: ${endpoint.permissions.join(', ')}.`,
    'x-wb-permissions': endpoint.permissions,
    responses: {
      '200': {
        description: 'The envelope; code "0000" on success, a SPEC §8 code otherwise.',
        content: { 'application/json': { schema: envelope(content[endpoint.kind]) } },
      },
      ...(endpoint.public
        ? {}
        : {
            '401': {
              description: 'No valid login token.',
              content: { 'application/json': { schema: ref('ErrorEnvelope') } },
            },
          }),
    },
  }
  if (!endpoint.public) op.security = [{ cookieToken: [] }, { bearerToken: [] }]
  if (endpoint.kind === 'custom' && (endpoint.method === 'GET' || endpoint.method === 'DELETE')) {
    if (endpoint.entity) op.parameters = [{ name: 'query', in: 'query', style: 'form', explode: true, schema: entity }]
  } else if (endpoint.method === 'GET' || endpoint.method === 'DELETE') {
    op.parameters =
      endpoint.kind === 'list'
        ? [
            { name: 'pageNum', in: 'query', schema: { type: 'integer', minimum: 1 } },
            { name: 'pageSize', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
          ]
        : [{ name: 'id', in: 'query', required: true, schema: { type: 'string' } }]
  } else if (endpoint.kind === 'import') {
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema: body.import } } }
  } else {
    op.requestBody = { required: true, content: { 'application/json': { schema: body[endpoint.kind] } } }
  }
  return op
}

/** The GET beside an import: the workbook the import expects, headers and one example row. */
function importTemplate(endpoint: ManifestEndpoint): Doc {
  return {
    operationId: `${endpoint.id}Template`,
    tags: [endpoint.entity],
    summary: `The ${endpoint.entity} import template (xlsx): the columns the import reads and an example row`,
    description: `Needs one of the permissions: ${endpoint.permissions.join(', ')}.`,
    'x-wb-permissions': endpoint.permissions,
    security: [{ cookieToken: [] }, { bearerToken: [] }],
    responses: {
      '200': {
        description: 'The workbook',
        content: {
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
            schema: { type: 'string', format: 'binary' },
          },
        },
      },
      '401': {
        description: 'No valid login token.',
        content: { 'application/json': { schema: ref('ErrorEnvelope') } },
      },
    },
  }
}

/** The OpenAPI 3.1 document of every endpoint the manifest binds, plus the server's own fixed routes. */
export function openApiDocument(manifest: Manifest): Doc {
  const paths: Record<string, Record<string, Doc>> = {
    '/api/health': {
      get: {
        operationId: 'health',
        tags: ['system'],
        summary: 'Liveness: answers "ok" with no content, to anyone',
        responses: {
          '200': {
            description: 'Healthy',
            content: {
              'application/json': {
                schema: envelope({ type: 'null' }),
              },
            },
          },
        },
      },
    },
    '/api/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['system'],
        summary: 'This document',
        responses: { '200': { description: 'OpenAPI 3.1' } },
      },
    },
  }
  for (const endpoint of manifest.endpoints) {
    const path = `/api${endpoint.path}`
    paths[path] = { ...(paths[path] ?? {}), [endpoint.method.toLowerCase()]: operation(endpoint) }
    if (endpoint.kind === 'import') paths[path] = { ...paths[path], get: importTemplate(endpoint) }
  }
  const schemas: Record<string, unknown> = {
    ErrorEnvelope: envelope({ type: 'null' }),
    RowMeta: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        version: { type: 'integer' },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
        labels: {
          type: 'object',
          description:
            "Display text of each reference field in the caller's language (the company name for customerCompany, the port name for pol); a reference inside a list's rows answers under '<list>.<item>' one text per row (containers.containerType: [\"40'HQ\"]).",
          additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        },
      },
    },
    ListRequest: {
      type: 'object',
      properties: {
        searchParams: { type: 'object', additionalProperties: true },
        pageNum: { type: 'integer', minimum: 1, default: 1 },
        pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 10 },
      },
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
    },
    IdRequest: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
    TransitionRequest: {
      type: 'object',
      required: ['id', 'version', 'transition'],
      properties: {
        id: { type: 'integer' },
        version: { type: 'integer' },
        transition: { type: 'string' },
        remark: { type: 'string', maxLength: 500 },
      },
    },
  }
  for (const [name, entity] of Object.entries(manifest.entities)) schemas[name] = openApiSchema(entity.schema)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waybill API',
      version: '1',
      description:
        'Every answer is the envelope { code, message, content }; "0000" is success. Send the language as the Language header (zh_CN, en_US, ja_JP, es_ES). Paths named by SPEC §7 keep their names; other entity calls follow /<entity>/<operation>.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        cookieToken: { type: 'apiKey', in: 'cookie', name: 'b2b_token' },
        bearerToken: { type: 'http', scheme: 'bearer' },
      },
    },
  }
}
