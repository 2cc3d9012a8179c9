import { downloads, type Envelope, type ImportContent } from '../../generated/client.ts'
import type { StoredFile } from '../../generated/content.ts'
import { endpoints } from '../../generated/endpoints.ts'
import { accepts, type FileLimits, formatBytes } from '../../rules/fileLimits.ts'
import { dimensionsRefusal, formatDimensions } from '../../rules/imageSize.ts'
import { buildUrl, classify, RESOURCE_HEADER, RequestError, SUCCESS } from '../api.ts'
import { languageHeader } from '../i18n.ts'

/**
 * Uploads and downloads of file fields. Every other call goes through the generated client's JSON
 * transport; an upload is a multipart body whose progress the user watches, which fetch cannot report,
 * so it goes by XMLHttpRequest — to the path the generated endpoint table gives, with the same Language
 * and Resource headers and the same envelope reading (runtime/api.ts).
 */

/** Where a stored file is read from: its uuid's download address (an older value that is already an address stays one). */
export function fileUrl(value: string): string {
  if (/^(https?:)?\/\//.test(value) || value.startsWith('/')) return value
  const { path, query } = downloads.fileDownload({ uuid: value })
  return buildUrl(path, query)
}

export const extensionOf = (name: string) => /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? ''

/** Why the portal refuses a file before sending it (the server checks the bytes again): a locale key and its values. */
export function refusal(
  file: { name: string; size: number },
  limits: FileLimits,
): { key: string; params: Record<string, string> } | null {
  if (!accepts(limits, [extensionOf(file.name)]))
    return { key: 'widget.fileTypeRefused', params: { name: file.name, types: limits.accept.join(', ') } }
  if (file.size > limits.maxBytes)
    return { key: 'widget.fileTooLarge', params: { name: file.name, size: formatBytes(limits.maxBytes) } }
  return null
}

/**
 * Why the portal refuses an image of the wrong pixel size before sending it (the field's `dimensions`), read from
 * the file's own bytes as the server reads them again (rules/imageSize.ts); null when it fits or none is asked.
 */
export async function sizeRefusal(
  file: Blob & { name: string },
  limits: FileLimits,
): Promise<{ key: string; params: Record<string, string> } | null> {
  if (!limits.dimensions) return null
  const wrong = dimensionsRefusal(new Uint8Array(await file.arrayBuffer()), limits.dimensions)
  return wrong
    ? {
        key: 'widget.imageDimensions',
        params: { name: file.name, actual: wrong.actual, size: formatDimensions(limits.dimensions) },
      }
    : null
}

export interface UploadTarget {
  entity: string
  field: string
}

/** Sends one file; `onProgress` gets 0..1. Rejects with a RequestError carrying the server's message. */
export function uploadFile(
  file: File,
  target: UploadTarget,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<StoredFile> {
  return postFile<StoredFile>(buildUrl(endpoints.fileUpload.path, target), file, onProgress, signal)
}

/**
 * Sends a workbook to a list's import endpoint (`endpoints.import` of the screen; the path is below /api,
 * as in the generated client). Answers how many rows were stored, or the problems and none stored.
 */
export function uploadImport(
  file: File,
  path: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  /** What the import asks besides the file (the binding's `input:`, an operator's customer), as the query. */
  params: Record<string, unknown> = {},
): Promise<ImportContent> {
  return postFile<ImportContent>(buildUrl(path, params), file, onProgress, signal)
}

/**
 * Sends one file to a hand-written upload endpoint (a detail's documents, `attachments.upload`): its path below
 * /api and the query naming what the file is for (the order and the document type). Answers the stored row.
 */
export function uploadTo<T>(
  path: string,
  query: Record<string, string | number>,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return postFile<T>(buildUrl(path, query), file, onProgress, signal)
}

/** The template workbook of an import: GET on the import's own path. */
export const importTemplateUrl = (path: string) => buildUrl(path)

function postFile<T>(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    xhr.setRequestHeader('Language', languageHeader())
    xhr.setRequestHeader('Accept', 'application/json')
    // Uploads change state under the session cookie: the same header as every other call (server/http/csrf.ts).
    for (const [name, value] of Object.entries(RESOURCE_HEADER)) xhr.setRequestHeader(name, value)
    xhr.withCredentials = true
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onerror = () => reject(new RequestError('network', '', 0))
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'))
    xhr.onload = () => {
      // What the upload answers is what its endpoint declares (T): the typed client's envelope, read by hand for the progress.
      let envelope: Envelope<T> | null = null
      try {
        envelope = JSON.parse(xhr.responseText)
      } catch {}
      if (classify(xhr.status, envelope) === 'ok' && envelope?.code === SUCCESS) {
        onProgress(1)
        resolve(envelope.content)
      } else {
        reject(
          new RequestError(envelope ? String(envelope.code) : String(xhr.status), envelope?.message ?? '', xhr.status),
        )
      }
    }
    signal?.addEventListener('abort', () => xhr.abort())
    const body = new FormData()
    body.append('file', file, file.name)
    xhr.send(body)
  })
}
