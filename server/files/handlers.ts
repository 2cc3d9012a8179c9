import '@fastify/multipart'
import { accepts, type FileLimits, fileFieldAt, fileLimits, formatBytes } from '../../rules/fileLimits.ts'
import { dimensionsRefusal, formatDimensions } from '../../rules/imageSize.ts'
import type { FieldError } from '../../rules/messages.ts'
import type { EngineApi } from '../engine/index.ts'
import type { HandlerContext } from '../http/context.ts'
import type { Handlers } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import type { Manifest } from '../manifest.ts'
import { cleanName, extensionOf, sniff } from './sniff.ts'
import { type FileViewer, fileInfo, readFile, saveFile, sendStoredFile } from './store.ts'

/**
 * The file service of upload fields (screens/basicData.yaml): upload one file for an entity's file field,
 * within that field's limits (rules/fileLimits.ts: the YAML's accept and maxSizeKb, SPEC §5 defaults);
 * download by id; names and sizes by ids. Everything runs in the caller's tenant transaction, so another
 * tenant's id is simply not found.
 */

/** An upload refused, with a message of its own (widget.*) rather than the generic one of its code. */
export class FileRefused extends ApiError {
  constructor(
    code: 'validation' | '413',
    private readonly messageKey: string,
    params: Record<string, unknown> = {},
  ) {
    const fieldErrors: FieldError[] = [{ field: 'file', message: messageKey, params }]
    super(code, params, fieldErrors)
  }
  override get key(): string {
    return this.messageKey
  }
}

/** The most any field may take (rules/fileLimits.ts MAX_BYTES_CEILING); the field's own limit is applied per upload. */
export { MAX_BYTES_CEILING as MAX_UPLOAD_BYTES } from '../../rules/fileLimits.ts'

const NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/
const FIELD_PATH = /^[A-Za-z][A-Za-z0-9]{0,63}(\.[A-Za-z][A-Za-z0-9]{0,63})?$/

function uploadTarget(manifest: Manifest, query: unknown) {
  const { entity: entityName, field: path } = (query ?? {}) as { entity?: unknown; field?: unknown }
  if (typeof entityName !== 'string' || typeof path !== 'string' || !NAME.test(entityName) || !FIELD_PATH.test(path))
    throw new FileRefused('validation', 'widget.uploadFieldUnknown')
  const entity = Object.hasOwn(manifest.entities, entityName) ? manifest.entities[entityName] : undefined
  const field = entity ? fileFieldAt(entity.fields, path) : undefined
  if (!entity || !field) throw new FileRefused('validation', 'widget.uploadFieldUnknown')
  return {
    entity: entityName,
    field: path,
    limits: fileLimits(field),
    visibility: field.visibility ?? 'company',
    writers: writersOf(manifest, entityName),
  }
}

/**
 * Who may upload to an entity's file field: whoever may write the entity through one of its calls (the
 * field's screens' create and update, or a hand-written call taking the entity) — a news cover needs the
 * news editor's permission, an avatar only a session. An entity no call writes takes no uploads.
 */
function writersOf(manifest: Manifest, entity: string): { open: boolean; permissions: Set<string> } | null {
  const calls = manifest.endpoints.filter(
    (e) =>
      e.entity === entity && e.method !== 'GET' && (e.kind === 'create' || e.kind === 'update' || e.kind === 'custom'),
  )
  if (!calls.length) return null
  return {
    open: calls.some((call) => call.public || call.permissions.length === 0),
    permissions: new Set(calls.flatMap((call) => call.permissions)),
  }
}

const session = (ctx: HandlerContext) => {
  if (!ctx.request.session) throw new ApiError('401')
  return ctx.request.session
}

/** The caller as the file store sees them: the uploader reads their own files, the rest by visibility. */
const viewerOf = (ctx: HandlerContext): FileViewer => {
  const { userId, companyId, companyUserType } = session(ctx)
  return { userId, companyId, operator: companyUserType === OPERATOR }
}
/** SPEC §9 company user type 1: the forwarder's own staff. */
const OPERATOR = 1

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_')
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/**
 * Reads the request's one multipart file within a field's limits (size while it streams in, type from the
 * bytes) and answers it named for what it is: a PNG sent as photo.jpg is photo.png. Refusals in the caller's
 * language: no file, an empty one, one too large (413), one of a type the field does not take.
 */
export async function receiveFile(
  ctx: HandlerContext,
  limits: FileLimits,
): Promise<{ name: string; contentType: string; bytes: Buffer }> {
  let part: Awaited<ReturnType<typeof ctx.request.file>>
  try {
    part = await ctx.request.file({ limits: { fileSize: limits.maxBytes, files: 1, fields: 0 } })
  } catch {
    throw new FileRefused('validation', 'widget.fileMissing')
  }
  if (!part) throw new FileRefused('validation', 'widget.fileMissing')
  let name = cleanName(part.filename)
  let bytes: Buffer
  try {
    bytes = await part.toBuffer()
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new FileRefused('413', 'widget.fileTooLarge', { name, size: formatBytes(limits.maxBytes) })
    throw error
  }
  if (!bytes.length) throw new FileRefused('validation', 'widget.fileEmpty', { name })
  const sniffed = sniff(bytes, name)
  if (!sniffed || !accepts(limits, sniffed.extensions))
    throw new FileRefused('validation', 'widget.fileTypeRefused', { name, types: limits.accept.join(', ') })
  // An image field's exact size (a site's logo 105×45), from the file's own header.
  const wrongSize = limits.dimensions && dimensionsRefusal(bytes, limits.dimensions)
  if (limits.dimensions && wrongSize)
    throw new FileRefused('validation', 'widget.imageDimensions', {
      name,
      actual: wrongSize.actual,
      size: formatDimensions(limits.dimensions),
    })
  const ext = extensionOf(name)
  if (!sniffed.extensions.includes(ext))
    name = `${ext ? name.slice(0, -(ext.length + 1)) : name}.${sniffed.extensions[0]}`
  return { name, contentType: sniffed.contentType, bytes }
}

export function fileHandlers(manifest: Manifest, engine: Pick<EngineApi, 'gate'>) {
  return {
    async fileUpload(ctx) {
      const caller = session(ctx)
      const { userId, tenantId, companyId, permissions } = caller
      const target = uploadTarget(manifest, ctx.request.query)
      const { limits, writers } = target
      if (!writers || (!writers.open && ![...writers.permissions].some((p) => permissions.has(p))))
        throw new ApiError('220000')
      // The entity's gate too: an enterprise without the FBA service uploads no product picture (360005).
      await ctx.inTenant((trx) =>
        engine.gate(trx, target.entity, { tenantId, session: caller, language: ctx.request.language }),
      )
      const { name, contentType, bytes } = await receiveFile(ctx, limits)
      return ctx.inTenant((trx) =>
        saveFile(trx, {
          tenantId,
          userId,
          companyId,
          visibility: target.visibility,
          entity: target.entity,
          field: target.field,
          name,
          contentType,
          bytes,
        }),
      )
    },

    async fileDownload(ctx) {
      const { tenantId } = session(ctx)
      const viewer = viewerOf(ctx)
      const { uuid } = ctx.input
      if (!uuid) throw new ApiError('validation', {}, [{ field: 'uuid', message: 'validation.required', params: {} }])
      // A file the caller may not read is not found, like another tenant's: nothing tells the two apart.
      const file = await ctx.inTenant((trx) => readFile(trx, tenantId, uuid, viewer))
      if (!file) throw new ApiError('404')
      const image = file.contentType.startsWith('image/')
      // A file never changes under its id; only the caller's browser keeps it.
      await sendStoredFile(
        ctx.reply,
        file,
        'private, max-age=31536000, immutable',
        disposition(image ? 'inline' : 'attachment', file.name),
      )
      return null
    },

    async fileInfo(ctx) {
      const { tenantId } = session(ctx)
      const viewer = viewerOf(ctx)
      const { uuid, uuids } = ctx.input
      const wanted = [...new Set([...(uuid ? [uuid] : []), ...(uuids ? uuids.split(',') : [])])]
      return { list: await ctx.inTenant((trx) => fileInfo(trx, tenantId, wanted, viewer)) }
    },
  } satisfies Handlers
}
