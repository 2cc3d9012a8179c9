import { PassThrough } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import { bodyLimitOf } from '../http/bounds.ts'
import { ok } from '../http/envelope.ts'
import { checkAccess } from '../http/guard.ts'
import { queryInput } from '../http/routeSchema.ts'
import type { Manifest } from '../manifest.ts'
import { endpointOverlay, lockedFields } from '../overlays/enforce.ts'
import { withTenant } from '../tenancy/scope.ts'
import type { EngineApi } from './api.ts'
import { EXPORT_PAGE, type ExportSource } from './core.ts'
import { trackExport } from './export/progress.ts'
import { writeSheet, XLSX_TYPE } from './export/sheet.ts'
import { ImportRefused } from './import/run.ts'
import { importTemplate } from './import/template.ts'
import { readImportUpload } from './import/upload.ts'
import { visitorSession } from './scope.ts'

/*
 * The engine's public module: domain code (server/domain/*) imports the engine from here and from nowhere
 * else — the typed data API (./api.ts), the registry its modules register into (./registry.ts), and the few
 * helpers hand-written queries share with the engine (audit, column mapping, labels, list requests).
 */
export { createEngineApi, type EndpointRef, type EngineApi } from './api.ts'
export { changes, readHistory, writeAudit } from './audit.ts'
export { type Column, columnsOf, selection, snakeCase, toApiRow, toDbValue } from './columns.ts'
export {
  type DetailContent,
  type Engine,
  type EngineOptions,
  type ExportSource,
  type ListContent,
  servedByEngine,
} from './core.ts'
export { type ExportProgress, exportProgress } from './export/progress.ts'
export { transitionHandlers } from './fired.ts'
export {
  attachLabels,
  type LabelField,
  type LabelTarget,
  labelFields,
  labelTarget,
  nameChain,
  sharedTexts,
} from './labels.ts'
export {
  type AnswerShape,
  type ComputedColumn,
  type ComputedState,
  createRegistry,
  type Derivation,
  type DerivationContext,
  type Effect,
  type EffectContext,
  type EngineRegistry,
  type Gate,
  type ListOrder,
  type Numbering,
  type ReadContext,
  type Registry,
  type ViewOptions,
  type ViewOrderKey,
  type ViewSource,
  type VisibilityRule,
} from './registry.ts'
export { scopeConditions } from './scope.ts'
export { escapeLike, type ListPlan, MAX_PAGE_SIZE, parseListRequest, planList, searchConditions } from './search.ts'
export { syncEntityTables } from './storage.ts'
export type { ApiRow, EngineCall } from './types.ts'

/**
 * The generic engine: one route per list, detail, create, update, delete, export and transition endpoint
 * of the manifest whose entity has a table of the engine's own (server/engine/storage.ts), and the list, detail
 * and export endpoints of an entity a domain module registered a view of (./registry.ts `view`: operation
 * accounts over app_user, roles). Custom endpoints have hand-written handlers (server/http/endpoints.ts).
 *
 * Each call: the endpoint's permissions (401 / 220000), then the engine core inside one transaction that
 * sees only the request's tenant. Errors are ApiErrors the app's error handler puts in the envelope.
 */
export function registerEngine(api: FastifyInstance, manifest: Manifest, db: Kysely<DB>, engine: EngineApi): void {
  for (const endpoint of engine.endpoints) {
    if (endpoint.kind === 'import') {
      registerImport(api, manifest, db, engine, endpoint)
      continue
    }
    const entity = manifest.entities[endpoint.entity]
    // A list's, detail's, delete's or transition's input is read and checked by the route's schema, with the
    // validator the engine compiled from it (ids and page numbers as numbers, within their bounds). A create's
    // or update's is checked whole inside the transaction, over the overlay's defaults or the stored record.
    const input = engine.routeInput(endpoint)
    api.route({
      method: endpoint.method,
      url: endpoint.path,
      // A record's body may be as large as its schema allows; searches, ids and transitions are small.
      bodyLimit: bodyLimitOf(endpoint.kind === 'create' || endpoint.kind === 'update' ? entity : undefined),
      // Who may call is known from the headers: a caller who may not is refused before the body is read.
      preParsing: async (request) => checkAccess(endpoint, request.session),
      ...(input ? { schema: { [input.part]: input.schema } } : {}),
      handler: async (request, reply) => {
        // A public list (the sailing schedules) reads for a visitor as nobody: no rights, own rows only (none).
        const session = request.session ?? visitorSession(request.tenant.id)
        const given = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? request.query : request.body
        const tenantId = request.tenant.id
        const content = await withTenant(db, tenantId, async (trx) => {
          const overlay = await endpointOverlay(db, trx, tenantId, endpoint, session.overlayStamp)
          const call = { tenantId, session, language: request.language, overlay, settings: request.tenant.settings }
          return engine.handleChecked(trx, endpoint, call, given)
        })
        if (endpoint.kind === 'export') return streamExport(db, request, reply, content as ExportSource, given)
        return ok(content ?? null)
      },
    })
  }
}

/**
 * An export's .xlsx, streamed: the headers (with the row count, `X-Export-Rows`) go out at once, then the
 * rows a page at a time, each page read in a short transaction of its own. Refusals (too many rows, a bad
 * filter) were answered before, as the usual envelope; a failure once the file is under way cuts the
 * download, which the browser reports as failed (never a file that looks complete).
 */
function streamExport(
  db: Kysely<DB>,
  request: FastifyRequest,
  reply: FastifyReply,
  source: ExportSource,
  given: unknown,
): FastifyReply {
  const tenantId = request.tenant.id
  const session = request.session as NonNullable<typeof request.session>
  const progressId = (given as { progressId?: string } | undefined)?.progressId
  const progress = trackExport(tenantId, session.userId, progressId, source.total)
  async function* pages() {
    for (let offset = 0; offset < source.total; offset += EXPORT_PAGE) {
      const page = await withTenant(db, tenantId, (trx) => source.page(trx, offset, EXPORT_PAGE))
      if (!page.length) return
      yield page
    }
  }
  const out = new PassThrough()
  writeSheet(out, source.title, source.columns, pages(), progress.written)
    .catch((error: unknown) => {
      // The user closing the download is no failure of ours; anything else is logged and cuts the file.
      if (out.destroyed) request.log.info('export closed by the client before its end')
      else request.log.error(error)
      out.destroy(error as Error)
    })
    .finally(progress.end)
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${source.fileName}"`)
    .header('x-export-rows', String(source.total))
    .header('cache-control', 'no-store')
    .send(out)
}

/**
 * An import: POST the workbook as multipart/form-data (one file, read into its first sheet before the
 * transaction opens, ./import/upload.ts), GET the same path for the template workbook.
 */
function registerImport(
  api: FastifyInstance,
  manifest: Manifest,
  db: Kysely<DB>,
  engine: EngineApi,
  endpoint: EngineApi['endpoints'][number],
): void {
  const entity = manifest.entities[endpoint.entity] as Manifest['entities'][string]
  // What the import asks besides the file (the binding's `input:`, an operator's customer): the query string,
  // checked by its entity's validator before the file is read.
  const input = endpoint.input ? manifest.entities[endpoint.input] : undefined
  const schema = input ? { schema: { querystring: queryInput(input) } } : {}
  api.post(
    endpoint.path,
    { ...schema, preValidation: async (request) => checkAccess(endpoint, request.session) },
    async (request) => {
      const session = request.session as NonNullable<typeof request.session>
      const params = input ? (request.query as Record<string, unknown>) : {}
      const { sheets } = await readImportUpload(request, { allSheets: endpoint.sheets !== undefined })
      const tenantId = request.tenant.id
      const content = await withTenant(db, tenantId, async (trx) => {
        const overlay = await endpointOverlay(db, trx, tenantId, endpoint, request.session?.overlayStamp)
        return engine.handle(
          trx,
          endpoint,
          { tenantId, session, language: request.language, overlay, settings: request.tenant.settings },
          { sheet: sheets[0], sheets, params },
        )
      }).catch((error: unknown) => {
        if (error instanceof ImportRefused) return error.content
        throw error
      })
      return ok(content)
    },
  )
  api.get(endpoint.path, async (request, reply) => {
    checkAccess(endpoint, request.session)
    const tenantId = request.tenant.id
    const workbook = await withTenant(db, tenantId, async (trx) => {
      const overlay = await endpointOverlay(db, trx, tenantId, endpoint, request.session?.overlayStamp)
      return importTemplate(trx, manifest, entity, request.language, lockedFields(overlay), endpoint.sheets)
    })
    const name = `${entity.entity}-import.xlsx`
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(workbook)
  })
}
