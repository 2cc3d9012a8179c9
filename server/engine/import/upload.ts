import '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { formatBytes, IMPORT_LIMITS } from '../../../rules/fileLimits.ts'
import { cleanName } from '../../files/sniff.ts'
import { ApiError } from '../../http/errors.ts'
import { checkArchive } from './archive.ts'
import { type NamedSheet, readSheets, spreadsheetKind } from './workbook.ts'

/** A file refused before any row is read, with a message of its own (import.*) rather than its code's. */
export class ImportRefused extends ApiError {
  constructor(
    code: 'validation' | '413',
    private readonly messageKey: string,
    params: Record<string, unknown> = {},
  ) {
    super(code, params, [{ field: 'file', message: messageKey, params }])
  }
  override get key(): string {
    return this.messageKey
  }
}

/**
 * The import's upload: one multipart file of at most 10 MB that is an xls or xlsx by its bytes, read into
 * its first sheet — or its first few, for an import with sheets of items. Anything else is refused before a
 * row is looked at.
 */
export async function readImportUpload(
  request: FastifyRequest,
  { allSheets = false }: { allSheets?: boolean } = {},
): Promise<{ name: string; sheets: NamedSheet[] }> {
  let part: Awaited<ReturnType<typeof request.file>>
  try {
    part = await request.file({ limits: { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 0 } })
  } catch {
    throw new ImportRefused('validation', 'import.fileMissing')
  }
  if (!part) throw new ImportRefused('validation', 'import.fileMissing')
  const name = cleanName(part.filename)
  let bytes: Buffer
  try {
    bytes = await part.toBuffer()
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ImportRefused('413', 'import.tooLarge', { name, size: formatBytes(IMPORT_LIMITS.maxBytes) })
    throw error
  }
  const kind = bytes.length ? spreadsheetKind(bytes) : null
  if (!kind)
    throw new ImportRefused('validation', 'import.notSpreadsheet', { name, types: IMPORT_LIMITS.accept.join(', ') })
  // An xlsx is measured before it is unpacked: a small file must not become a gigabyte in memory.
  const verdict = kind === 'xlsx' ? await checkArchive(bytes, IMPORT_LIMITS) : 'ok'
  if (verdict === 'tooLarge')
    throw new ImportRefused('413', 'import.unpacksTooLarge', {
      name,
      size: formatBytes(IMPORT_LIMITS.maxUnpackedBytes),
    })
  if (verdict === 'damaged') throw new ImportRefused('validation', 'import.unreadable', { name })
  const sheets = await readSheets(bytes, { ...IMPORT_LIMITS, maxSheets: allSheets ? IMPORT_LIMITS.maxSheets : 1 })
  if (!sheets) throw new ImportRefused('validation', 'import.unreadable', { name })
  return { name, sheets }
}
